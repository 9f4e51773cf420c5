"""Reference text to tokens with character offsets: runs of word characters, and each other
non-space character on its own (punctuation separates fields, so the model must see it)."""
import re
from typing import NamedTuple

_TOKEN = re.compile(r"\w+|[^\w\s]")


class Token(NamedTuple):
    text: str
    start: int
    end: int


def tokenise(text: str) -> list[Token]:
    """The tokens of a text, in order, each with its [start, end) offsets."""
    return [Token(m.group(), m.start(), m.end()) for m in _TOKEN.finditer(text)]
