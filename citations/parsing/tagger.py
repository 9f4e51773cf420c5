"""The shipped model, loaded once per thread, labelling the tokens of reference strings."""
import threading
from pathlib import Path

import pycrfsuite

from citations.parsing.decoding import Decoder
from citations.parsing.features import Featuriser
from citations.parsing.identifiers import Identifier
from citations.parsing.tokens import Token

MODEL_DIR = Path(__file__).resolve().parent / "model"
MODEL_PATH = MODEL_DIR / "pith-crf-23.crfsuite"
METADATA_PATH = MODEL_DIR / "pith-crf-23.json"

_local = threading.local()


class Tagger:
    """A CRFsuite model file, opened for labelling."""

    def __init__(self, path: Path = MODEL_PATH):
        self.path = Path(path)
        if not self.path.is_file():
            raise FileNotFoundError(f"reference parser model {self.path} is missing; "
                                    "build it with: python manage.py train_reference_parser")
        tagger = pycrfsuite.Tagger()
        tagger.open(str(self.path))
        info = tagger.info()
        self._decoder = Decoder(info, Featuriser(keep=False))

    def labels(self, strings: list[tuple[str, list[Token], list[Identifier]]]) -> list[list[str]]:
        """The labels of each string's tokens, for (text, tokens, identifiers) of each string."""
        return self._decoder.labels(strings)


def shipped() -> Tagger:
    """The shipped model's tagger for this thread (CRFsuite taggers are not shared across threads)."""
    tagger = getattr(_local, "tagger", None)
    if tagger is None:
        tagger = _local.tagger = Tagger()
    return tagger
