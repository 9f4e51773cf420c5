"""Building the shipped model: train on the de-duplicated sets, score it on GROBID's held-out
evaluation files, and write the model with metadata naming what it was made from."""
import ast
import hashlib
import json
import os
from pathlib import Path

from citations.parsing.crf import PARSER_NAME, parse_references
from citations.parsing.datasets import Datasets, load
from citations.parsing.lexicon import LEXICON_PATH
from citations.parsing.scoring import Scores
from citations.parsing.tagger import METADATA_PATH, MODEL_PATH, Tagger
from citations.parsing.training import OPTIONS, train
from citations.parsing.training_data import LabelledString, sha256

# The evaluation data sets (citations/evaluation) whose strings the shipped model learnt from.
TRAINED_ON = ("grobid-citation-corpus", "anystyle-parser-gold")


def training_strings(sets: Datasets) -> list[LabelledString]:
    """What the shipped model learns from: GROBID's corpus and AnyStyle's sets (never GROBID's evaluation)."""
    return sets.grobid_corpus + sets.anystyle


class ReadingsChanged(Exception):
    """The parser's code or model changed under the name it had: stored references read under that
    name would never be read again (reparse_references skips lists its current name read)."""


PARSING_DIR = Path(__file__).resolve().parent


def reader_digest() -> str:
    """The sha256 of the code that turns text into fields: every module of citations/parsing, read as
    syntax (comments, docstrings and layout aside, so a reworded comment needs no new name)."""
    digest = hashlib.sha256()
    for path in sorted(PARSING_DIR.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            body = getattr(node, "body", None)
            if (isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and body
                    and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                    and isinstance(body[0].value.value, str)):
                node.body = body[1:] or [ast.Pass()]
        digest.update(path.name.encode() + b"\0" + ast.dump(tree).encode() + b"\0")
    return digest.hexdigest()


def check_name(recorded: dict, written: dict) -> None:
    """Refuse metadata that keeps the parser's name for another model or other reading code."""
    if recorded.get("parser") != written["parser"]:
        return
    changed = [what for what, key in (("model", "model_sha256"), ("reading code", "reader_sha256"))
               if recorded.get(key) and recorded[key] != written[key]]
    if changed:
        raise ReadingsChanged(
            f"the {' and '.join(changed)} changed since {written['parser']} was recorded: give the parser a new "
            "name (PARSER_NAME in citations/parsing/crf.py) so that reparse_references reads stored references "
            "again")


def evaluate(tagger: Tagger, strings: list[LabelledString]) -> dict:
    """Field and instance figures of a model on labelled strings."""
    scores = Scores()
    for string, parsed in zip(strings, parse_references([s.text for s in strings], tagger)):
        scores.add(string, parsed)
    return scores.summary()


def build_model(data_dir: Path, model_path: Path = MODEL_PATH, metadata_path: Path = METADATA_PATH,
                options: dict | None = None) -> dict:
    """Train, score and write the model and its metadata; returns the metadata. The model is trained
    beside its place and moved there only once its metadata may be written (see write_metadata)."""
    data_dir = Path(data_dir)
    sets = load(data_dir)
    options = dict(OPTIONS, **(options or {}))
    model_path = Path(model_path)
    trained = model_path.with_name(model_path.name + ".new")
    try:
        train(training_strings(sets), trained, options)
        metadata = describe(sets, data_dir, trained, options, name=model_path.name)
        _check_against(metadata_path, metadata)
        os.replace(trained, model_path)
    finally:
        trained.unlink(missing_ok=True)
    _write(metadata_path, metadata)
    return metadata


def write_metadata(sets: Datasets, data_dir: Path, model_path: Path, metadata_path: Path, options: dict) -> dict:
    """Score a model on GROBID's evaluation files and write its metadata beside it; ReadingsChanged if
    the metadata there names the same parser with another model or other reading code."""
    metadata = describe(sets, data_dir, Path(model_path), options)
    _check_against(metadata_path, metadata)
    _write(metadata_path, metadata)
    return metadata


def describe(sets: Datasets, data_dir: Path, model_path: Path, options: dict, name: str | None = None) -> dict:
    """A model's metadata: what it was made from, its figures and the digest of its readings."""
    return {
        "parser": PARSER_NAME,
        "model": name or model_path.name,
        "model_sha256": sha256(model_path),
        "model_bytes": model_path.stat().st_size,
        "algorithm": "lbfgs",
        "training_options": options,
        "lexicon": LEXICON_PATH.name,
        "lexicon_sha256": sha256(LEXICON_PATH),
        "training_strings": {"grobid_corpus": len(sets.grobid_corpus), "anystyle": len(sets.anystyle)},
        "data_files": {str(path.relative_to(data_dir)): sha256(path) for path in sets.files},
        "data_files_sha256": hashlib.sha256("".join(sha256(p) for p in sets.files).encode()).hexdigest(),
        "evaluation": {"grobid_evaluation": evaluate(Tagger(model_path), sets.grobid_evaluation)},
        "reader_sha256": reader_digest(),
    }


def _check_against(metadata_path: Path, metadata: dict) -> None:
    if Path(metadata_path).is_file():
        check_name(json.loads(Path(metadata_path).read_text()), metadata)


def _write(metadata_path: Path, metadata: dict) -> None:
    Path(metadata_path).write_text(json.dumps(metadata, indent=2, sort_keys=True) + "\n")
