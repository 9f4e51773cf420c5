"""Token features for the tagger, computed once per distinct token text and then shifted into a
window of neighbours, because a token's neighbours tell most about what it is.

A token's own features depend only on its text, so they are cached by text with their
neighbour-prefixed forms already built: a string's features are then list concatenations,
not string formatting per feature. Features that depend on the whole string (position, brackets,
identifiers, page ranges, how many sentences came before) are added per position.
"""
import re

from citations.parsing.cues import CUES
from citations.parsing.tokens import Token
from citations.resolution.identifiers import Identifier

WINDOW = 3              # neighbours on each side whose own features a token sees
_LEXICAL_WINDOW = 2     # of those, how far the richer ones (shape, cue) reach; the word reaches WINDOW
_CACHE: dict[str, tuple[list[str], ...]] = {}
_CACHE_LIMIT = 200_000
_YEAR = re.compile(r"^(1[5-9][0-9][0-9]|20[0-9][0-9])[a-z]?$")
_ROMAN = re.compile(r"^[IVXLC]+$|^[ivxlc]+$")
_PAGE_RANGE = re.compile(r"\b[A-Za-z]?[0-9]+\s?[-–—]{1,2}\s?[A-Za-z]?[0-9]+\b")
_SHAPE = str.maketrans({**{c: "X" for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"},
                        **{c: "x" for c in "abcdefghijklmnopqrstuvwxyz"},
                        **{c: "d" for c in "0123456789"}})


def _shape(text: str) -> str:
    shape = text.translate(_SHAPE)
    if not shape.isascii():
        shape = "".join(("X" if c.isupper() else "x") if c.isalpha() else ("d" if c.isdigit() else c) for c in shape)
    short = [shape[0]]
    for c in shape[1:]:
        if c != short[-1]:
            short.append(c)
    return "".join(short)[:6]


def _own(text: str) -> list[str]:
    """The features of a token's text alone (without prefixes)."""
    lower = text.lower()
    features = ["w=" + lower, "s=" + _shape(text)]
    cue = CUES.get(lower)
    if cue:
        features.append("c=" + cue)
    if text[0].isdigit():
        digits = len(text)
        features.append("d=" + ("y" if _YEAR.match(text) else str(min(digits, 5))))
    elif len(text) == 1:
        features.append("i" if text.isupper() else ("p=" + text if not text.isalnum() else "l"))
    else:
        if _YEAR.match(text):
            features.append("d=y")
        if text.isupper():
            features.append("caps")
        elif text[0].isupper():
            features.append("cap")
        if _ROMAN.match(text):
            features.append("roman")
        if len(text) > 3:
            features.append("x=" + lower[-3:])
        features.append("n=" + str(min(len(text), 8)))
    return features


def _windowed(text: str) -> tuple[list[str], ...]:
    """A token's features as seen from each position of the window, prefixed by the offset."""
    cached = _CACHE.get(text)
    if cached is None:
        own = _own(text)
        word = own[:1]
        shifted = []
        for offset in range(-WINDOW, WINDOW + 1):
            source = own if abs(offset) <= _LEXICAL_WINDOW else word
            shifted.append([f"{offset}{f}" for f in source] if offset else own)
        cached = tuple(shifted)
        if len(_CACHE) < _CACHE_LIMIT:
            _CACHE[text] = cached
    return cached


def _context(text: str, tokens: list[Token], identifiers: list[Identifier]) -> list[list[str]]:
    """Per token, what depends on its place in the string."""
    n = len(tokens)
    in_range = [False] * n
    identifier_kind: list[str | None] = [None] * n
    ranges = [m.span() for m in _PAGE_RANGE.finditer(text)]
    spans = [(i.span, i.kind) for i in identifiers]
    starts = [t.start for t in tokens]
    for (a, b) in ranges:
        for k, s in enumerate(starts):
            if a <= s < b:
                in_range[k] = True
    for (a, b), kind in spans:
        for k, s in enumerate(starts):
            if a <= s < b:
                identifier_kind[k] = kind
    context = []
    depth = quote = sentences = years = 0
    previous_end = -1
    for k, token in enumerate(tokens):
        t = token.text
        row = ["b", "pos=" + str(10 * k // n), "sent=" + str(min(sentences, 4)), "yrs=" + str(min(years, 2))]
        if token.start == previous_end:
            row.append("glued")
        if k + 1 < n and tokens[k + 1].start == token.end:
            row.append("glued+1")
        if depth:
            row.append("inparen")
        if quote:
            row.append("inquote")
        if in_range[k]:
            row.append("range")
        if identifier_kind[k]:
            row.append("id=" + identifier_kind[k])
        if k == 0:
            row.append("first")
        if k == n - 1:
            row.append("last")
        context.append(row)
        previous_end = token.end
        if t in "([":
            depth += 1
        elif t in ")]" and depth:
            depth -= 1
        elif t in "“\"":
            quote = 0 if (t == "\"" and quote) else 1
        elif t == "”":
            quote = 0
        elif t == "." and k and len(tokens[k - 1].text) > 1 and k + 1 < n and tokens[k + 1].start > token.end:
            sentences += 1
        if _YEAR.match(t):
            years += 1
    return context


def string_features(text: str, tokens: list[Token], identifiers: list[Identifier]) -> list[list[str]]:
    """The feature lists of every token of one string, for the CRF."""
    n = len(tokens)
    windows = [_windowed(t.text) for t in tokens]
    rows = _context(text, tokens, identifiers)
    lowers = [t.text.lower() for t in tokens]
    for k in range(n):
        row = rows[k]
        for offset in range(-WINDOW, WINDOW + 1):
            j = k + offset
            if 0 <= j < n:
                row += windows[j][offset + WINDOW]
            elif offset in (-1, 1):
                row.append(f"{offset}edge")
        if k:
            row.append("b=" + lowers[k - 1] + "|" + lowers[k])
        if k + 1 < n:
            row.append("b+=" + lowers[k] + "|" + lowers[k + 1])
    return rows
