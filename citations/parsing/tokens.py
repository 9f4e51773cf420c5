"""Reference text to tokens with character offsets: runs of letters, runs of digits, and each
other non-space character on its own. Punctuation separates fields, so the model must see it;
letters and digits are split because PDF text glues fields together ("B262", "Tisserand P2015"),
while whether a token is glued to the one before is a feature of its own."""
import re
from typing import NamedTuple

_TOKEN = re.compile(r"[^\W\d_]+|\d+|[^\w\s]|_")


class Token(NamedTuple):
    """One token and where it sits in the text."""

    text: str
    start: int
    end: int


def tokenise(text: str) -> list[Token]:
    """The tokens of a text, in order, each with its [start, end) offsets."""
    tokens: list[Token] = []
    append, find, new, position = tokens.append, text.index, tuple.__new__, 0
    for word in _TOKEN.findall(text):
        start = find(word, position)
        position = start + len(word)
        append(new(Token, (word, start, position)))
    return tokens
