"""Building the shipped model: train on the de-duplicated sets, score it on GROBID's held-out
evaluation files, and write the model with metadata naming what it was made from."""
import hashlib
import json
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


def evaluate(tagger: Tagger, strings: list[LabelledString]) -> dict:
    """Field and instance figures of a model on labelled strings."""
    scores = Scores()
    for string, parsed in zip(strings, parse_references([s.text for s in strings], tagger)):
        scores.add(string, parsed)
    return scores.summary()


def build_model(data_dir: Path, model_path: Path = MODEL_PATH, metadata_path: Path = METADATA_PATH,
                options: dict | None = None) -> dict:
    """Train, score and write the model and its metadata; returns the metadata."""
    data_dir = Path(data_dir)
    sets = load(data_dir)
    options = dict(OPTIONS, **(options or {}))
    train(training_strings(sets), model_path, options)
    return write_metadata(sets, data_dir, model_path, metadata_path, options)


def write_metadata(sets: Datasets, data_dir: Path, model_path: Path, metadata_path: Path, options: dict) -> dict:
    """Score a model on GROBID's evaluation files and write its metadata beside it."""
    metadata = {
        "parser": PARSER_NAME,
        "model": Path(model_path).name,
        "model_sha256": sha256(Path(model_path)),
        "model_bytes": Path(model_path).stat().st_size,
        "algorithm": "lbfgs",
        "training_options": options,
        "lexicon": LEXICON_PATH.name,
        "lexicon_sha256": sha256(LEXICON_PATH),
        "training_strings": {"grobid_corpus": len(sets.grobid_corpus), "anystyle": len(sets.anystyle)},
        "data_files": {str(path.relative_to(data_dir)): sha256(path) for path in sets.files},
        "data_files_sha256": hashlib.sha256("".join(sha256(p) for p in sets.files).encode()).hexdigest(),
        "evaluation": {"grobid_evaluation": evaluate(Tagger(model_path), sets.grobid_evaluation)},
    }
    Path(metadata_path).write_text(json.dumps(metadata, indent=2, sort_keys=True) + "\n")
    return metadata
