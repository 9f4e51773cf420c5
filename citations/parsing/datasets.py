"""The training and evaluation sets, de-duplicated, and their cross-validation folds.

GROBID's corpus/ holds copies of its evaluation strings: every corpus string equal (whitespace
aside) to an evaluation string is dropped, as is every later copy of a string, so no string is
both learnt from and scored. Folds are drawn by the string itself, so copies can never sit on
both sides of a split.
"""
import hashlib
from dataclasses import dataclass
from pathlib import Path

from citations.parsing.training_data import LabelledString, MissingTrainingData, read_anystyle, read_grobid

GROBID = "grobid-citation-corpus"
ANYSTYLE = "anystyle-parser-gold"


@dataclass(frozen=True)
class Datasets:
    """The three sets, read and de-duplicated, and the files they came from."""

    grobid_corpus: list[LabelledString]        # de-duplicated, no evaluation string
    grobid_evaluation: list[LabelledString]
    anystyle: list[LabelledString]             # gold.xml then core.xml, de-duplicated
    files: list[Path]                          # every file read, in reading order


def data_files(data_dir: Path) -> dict[str, list[Path]]:
    """The files each set is read from, in a fixed order; MissingTrainingData names what is absent."""
    data_dir = Path(data_dir)
    if not data_dir.is_dir():
        raise MissingTrainingData(f"training data directory {data_dir} does not exist "
                                  f"(it should hold {GROBID}/ and {ANYSTYLE}/; pass --data-dir or set PITH_DATA_DIR)")
    files = {
        "grobid_corpus": sorted((data_dir / GROBID / "corpus").glob("*.xml")),
        "grobid_evaluation": sorted((data_dir / GROBID / "evaluation").glob("*.xml")),
        "anystyle": [data_dir / ANYSTYLE / "gold.xml", data_dir / ANYSTYLE / "core.xml"],
    }
    for name, paths in files.items():
        missing = [p for p in paths if not p.is_file()]
        if not paths or missing:
            where = missing[0] if missing else data_dir / (ANYSTYLE if name == "anystyle" else GROBID)
            raise MissingTrainingData(f"training data for {name} not found: {where} is missing under {data_dir}")
    return files


def _unique(strings: list[LabelledString], exclude: set[str]) -> list[LabelledString]:
    seen = set(exclude)
    kept = []
    for string in strings:
        if string.key not in seen:
            seen.add(string.key)
            kept.append(string)
    return kept


def load(data_dir: Path) -> Datasets:
    """Read and de-duplicate every set under data_dir."""
    files = data_files(data_dir)
    evaluation = [s for p in files["grobid_evaluation"] for s in read_grobid(p, "grobid-evaluation")]
    held_out = {s.key for s in evaluation}
    corpus = _unique([s for p in files["grobid_corpus"] for s in read_grobid(p, "grobid-corpus")], held_out)
    anystyle = _unique([s for p in files["anystyle"] for s in read_anystyle(p)], held_out)
    ordered = files["grobid_corpus"] + files["grobid_evaluation"] + files["anystyle"]
    return Datasets(corpus, evaluation, anystyle, ordered)


def fold_of(string: LabelledString, folds: int) -> int:
    """The fold a string falls in: a hash of the string, so every copy falls in the same one."""
    return int.from_bytes(hashlib.sha256(string.key.encode()).digest()[:8], "big") % folds
