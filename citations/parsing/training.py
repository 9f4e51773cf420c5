"""Training a CRF on labelled strings (CRFsuite, L-BFGS with L1 and L2 regularisation)."""
from pathlib import Path

import pycrfsuite

from citations.parsing.features import string_features
from citations.parsing.identifier_repair import read_identifiers
from citations.parsing.training_data import LabelledString

# L1 (c1) prunes features that do not help, which keeps the model file small; features seen once
# are dropped before training for the same reason.
OPTIONS = {"c1": 0.1, "c2": 0.01, "max_iterations": 300, "feature.minfreq": 2,
           "feature.possible_transitions": True}


def train(strings: list[LabelledString], path: Path, options: dict | None = None) -> Path:
    """Train a model on the strings, in their order, and write it to path."""
    trainer = pycrfsuite.Trainer(algorithm="lbfgs", verbose=False)
    for string in strings:
        features = string_features(string.text, string.tokens, read_identifiers(string.text))
        trainer.append(pycrfsuite.ItemSequence(features), string.labels)
    trainer.set_params(dict(OPTIONS, **(options or {})))
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    trainer.train(str(path))
    return path
