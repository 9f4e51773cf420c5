"""Reference text to tokens with character offsets: runs of letters, runs of digits, and each
other non-space character on its own. Punctuation separates fields, so the model must see it;
letters and digits are split because PDF text glues fields together ("B262", "Tisserand P2015"),
while whether a token is glued to the one before is a feature of its own."""
import re
from itertools import accumulate, repeat
from operator import sub
from typing import NamedTuple

_TOKEN = re.compile(r"[^\W\d_]+|\d+|[^\w\s]|_")
# A token with the spaces before it. Every character is a token's or a space (\s), so these pieces
# follow one another through the text, and their lengths summed give each token's end.
_SPACED_TOKEN = re.compile(r"\s*(?:" + _TOKEN.pattern + ")")


class Token(NamedTuple):
    """One token and where it sits in the text."""

    text: str
    start: int
    end: int


def tokenise(text: str) -> list[Token]:
    """The tokens of a text, in order, each with its [start, end) offsets."""
    spaced = _SPACED_TOKEN.findall(text)
    words = list(map(str.lstrip, spaced))         # str.lstrip strips what \s matches, and no token starts so
    ends = list(accumulate(map(len, spaced)))
    # built in C, not a Python step a token: tuple.__new__(Token, (text, start, end)) is Token(text, start, end)
    return list(map(tuple.__new__, repeat(Token), zip(words, map(sub, ends, map(len, words)), ends)))
