"""Token features for the tagger, computed once per distinct token text and then shifted into a
window of neighbours, because a token's neighbours tell most about what it is.

A token's own features depend only on its text, so they are cached by text with their
neighbour-prefixed forms already built: a string's features are then list concatenations,
not string formatting per feature. Features that depend on the whole string (position, brackets,
identifiers, page ranges, how many sentences came before, the comma-delimited piece around the
token) are added per position.
"""
import re
from bisect import bisect_left
from functools import lru_cache
from itertools import pairwise

from citations.parsing.cues import CUES
from citations.parsing.identifiers import Identifier
from citations.parsing.lexicon import Lexicon
from citations.parsing.lexicon import shipped as shipped_lexicon
from citations.parsing.tokens import Token

WINDOW = 3              # neighbours on each side whose own features a token sees
_LEXICAL_WINDOW = 2     # of those, how far the richer ones (shape, cue) reach; the word reaches WINDOW
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


@lru_cache(maxsize=100_000)
def _cached_shape(text: str) -> str:
    return _shape(text)


def _own(text: str, lexicon: Lexicon) -> list[str]:
    """The features of a token's text alone (without prefixes)."""
    lower = text.lower()
    features = ["w=" + lower, "s=" + _shape(text)]
    if text.isalpha():
        features += lexicon.word_features(lower)
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


class Featuriser:
    """Builds the feature lists of strings (every feature: which ones a model weighs is the
    decoder's business, decoding.py)."""

    def __init__(self, lexicon: Lexicon | None = None, keep: bool = True):
        """keep: whether each text's window features are kept for its next appearance (the
        decoder keeps their weights instead)."""
        self._lexicon = lexicon
        self._cache: dict[str, tuple[list[str], ...]] = {}
        self._limit = _CACHE_LIMIT if keep else 0

    @property
    def lexicon(self) -> Lexicon:
        if self._lexicon is None:
            self._lexicon = shipped_lexicon()
        return self._lexicon

    def windowed(self, text: str) -> tuple[list[str], ...]:
        """A token's features as seen from each position of the window, prefixed by the offset."""
        cached = self._cache.get(text)
        if cached is None:
            own = _own(text, self.lexicon)
            shape = own[:2]
            shifted = []
            for offset in range(-WINDOW, WINDOW + 1):
                source = own if abs(offset) <= _LEXICAL_WINDOW else shape
                shifted.append([f"{offset}{f}" for f in source] if offset else own)
            cached = tuple(shifted)
            if len(self._cache) < self._limit:
                self._cache[text] = cached
        return cached

    def string(self, text: str, tokens: list[Token], identifiers: list[Identifier]) -> list[list[str]]:
        """The feature lists of every token of one string, for the CRF."""
        n = len(tokens)
        windowed = self.windowed
        windows = [windowed(t.text) for t in tokens]
        lowers = [t.text.lower() for t in tokens]
        rows = self._places(text, tokens, identifiers, lowers)
        pairs = self._pairs(tokens, lowers)
        last = n - 1
        for k in range(n):
            row = rows[k]
            if k >= WINDOW and k + WINDOW <= last:           # the usual case: the whole window inside
                for offset in _OFFSETS:
                    row += windows[k + offset][offset + WINDOW]
            else:
                for offset in _OFFSETS:
                    j = k + offset
                    if 0 <= j <= last:
                        row += windows[j][offset + WINDOW]
                    elif offset == -1 or offset == 1:
                        row.append(_EDGES[offset])
            row += pairs[k]
        return rows

    def places(self, text: str, tokens: list[Token], identifiers: list[Identifier]) -> list[list[str]]:
        """Each token's features that come neither from the texts of its window (see `windowed`),
        nor from the pairs of words it sits in (see `pairs`), nor from its piece (see `pieces`): its
        place in the string; the window's edges are not among them."""
        return self._places(text, tokens, identifiers, [t.text.lower() for t in tokens], pieces=False)

    @staticmethod
    def pieces(tokens: list[Token]) -> list[tuple[int, int, tuple[str, ...]]]:
        """The comma-delimited pieces of a string, [start, end) of each and the features every token
        of it shares: the decoder weighs them once a piece, not once a token."""
        return _pieces(tokens)

    def _places(self, text, tokens, identifiers, lowers, pieces: bool = True) -> list[list[str]]:
        rows = _context(text, tokens, identifiers)
        if pieces:
            for a, b, features in _pieces(tokens):
                for k in range(a, b):
                    rows[k] += features
        _add_known_names(tokens, lowers, rows, self.lexicon)
        return rows

    def _pairs(self, tokens: list[Token], lowers: list[str]) -> list[list[str]]:
        """Each token's features from the pairs of neighbouring words it is in (see `pairs`)."""
        found = [[] for _ in lowers]
        for k, (before, shapes, after) in enumerate(pairs([t.text for t in tokens], lowers), start=1):
            found[k] += (before, shapes)
            found[k - 1].append(after)
        return found


# A pair's feature names: prefix, the earlier token's text, "|", the later one's.
WORD_BEFORE, SHAPES, WORD_AFTER = "b=", "sp=", "b+="


def pairs(texts: list[str], lowers: list[str] | None = None) -> list[tuple[str, str, str]]:
    """For each pair of neighbouring tokens, what it gives the later one (the word before it, and
    its shape with the shape before it) and the earlier one (the word after it)."""
    lowers = lowers or [t.lower() for t in texts]
    shapes = shapes_of(texts)
    joined = [a + "|" + b for a, b in pairwise(lowers)]
    return [(WORD_BEFORE + ab, SHAPES + a + "|" + b, WORD_AFTER + ab) for ab, (a, b) in zip(joined, pairwise(shapes))]


def shapes_of(texts: list[str]) -> list[str]:
    """Each token's shape, as the pair features name it."""
    return [_cached_shape(t) for t in texts]


def pair_named(name: str) -> tuple[str, str, str] | None:
    """The prefix and the two texts (words or shapes) a pair feature's name was made of, the inverse
    of `pairs`; None for a feature of another kind. A token holds "|" only as the whole token (see
    tokens.py), and so does its shape, so the "|" that parts the two is the first one, unless the
    earlier text is "|" itself."""
    prefix = next((p for p in (WORD_BEFORE, SHAPES, WORD_AFTER) if name.startswith(p)), None)
    if prefix is None:
        return None
    joined = name[len(prefix):]
    before, after = ("|", joined[2:]) if joined.startswith("||") else joined.split("|", 1)
    return prefix, before, after


_TRAINING = Featuriser()
_OFFSETS = range(-WINDOW, WINDOW + 1)
_EDGES = {-1: "-1edge", 1: "1edge"}
_POSITION = [f"pos={i}" for i in range(10)]
_SENTENCES = [f"sent={i}" for i in range(5)]
_YEARS = [f"yrs={i}" for i in range(3)]


def _marks(spans, starts, n, value) -> list:
    """Each token's mark: value (or value[span]) for a token starting inside one of the spans.
    starts ascend, so each span finds its tokens by bisection, not by a pass over all of them: a
    string of many spans ("1-2 1-2 ...") costs no more than its length."""
    marked = [None] * n
    for a, b in spans:
        for k in range(bisect_left(starts, a), bisect_left(starts, b)):
            marked[k] = value if isinstance(value, str) else value[(a, b)]
    return marked


def _context(text: str, tokens: list[Token], identifiers: list[Identifier]) -> list[list[str]]:
    """Per token, what depends on its place in the string."""
    n = len(tokens)
    starts = [t.start for t in tokens]
    # a range is printed with a dash, and many strings have none to look for ranges around
    ranges = [m.span() for m in _PAGE_RANGE.finditer(text)] if "-" in text or "–" in text or "—" in text else []
    in_range = _marks(ranges, starts, n, "range")
    kinds = {i.span: "id=" + i.kind for i in identifiers}
    identifier_kind = _marks(list(kinds), starts, n, kinds) if kinds else [None] * n
    context = []
    depth = quote = sentences = years = 0
    previous_end = -1
    following = starts[1:] + [-1]
    for k, token in enumerate(tokens):
        t, start, end = token
        row = ["b", _POSITION[10 * k // n], _SENTENCES[sentences if sentences < 4 else 4], _YEARS[years if years < 2 else 2]]
        if start == previous_end:
            row.append("glued")
        if following[k] == end:
            row.append("glued+1")
        if depth:
            row.append("inparen")
        if quote:
            row.append("inquote")
        if in_range[k]:
            row.append("range")
        if identifier_kind[k]:
            row.append(identifier_kind[k])
        context.append(row)
        previous_end = end
        if len(t) == 1 and not t.isalnum():
            if t == "(" or t == "[":
                depth += 1
            elif (t == ")" or t == "]") and depth:
                depth -= 1
            elif t == "“" or t == "\"":
                quote = 0 if (t == "\"" and quote) else 1
            elif t == "”":
                quote = 0
            elif t == "." and k and len(tokens[k - 1].text) > 1 and following[k] > end:
                sentences += 1
        elif t[0].isdigit() and _YEAR.match(t):
            years += 1
    context[0].append("first")
    context[-1].append("last")
    return context


def _add_known_names(tokens: list[Token], lowers: list[str], context: list[list[str]], lexicon: Lexicon) -> None:
    """Mark the tokens inside a known name (a journal, proceedings, publisher, collaboration), and
    the token it starts at; the punctuation between its words is inside it."""
    where = [k for k, t in enumerate(tokens) if t.text.isalnum()]
    if not where:
        return
    for start, end, names in lexicon.phrase_matches([lowers[k] for k in where]):
        first, last = where[start], where[end - 1]
        size = "1" if end - start == 1 else "n"
        for name in names:
            context[first].append(f"lxb={name}{size}")
            for k in range(first, last + 1):
                context[k].append(f"lx={name}{size}")


_BREAKS = {",", ";", "(", ")", "[", "]", "“", "”", "\""}
_SEG_LENGTH = ["sl=0", "sl=1", "sl=2", "sl=3", "sl=4", "sl=4", "sl=4", "sl=7"]
_SEG_INDEX = [f"si={i}" for i in range(6)]
_SEG_FROM_END = ["se=0", "se=1", "se=2"]


def _pieces(tokens: list[Token]) -> list[tuple[int, int, tuple[str, ...]]]:
    """What the comma-delimited piece a token sits in looks like: its length, how many of its words
    are lower case (titles) or abbreviations (journals), whether it holds digits. A title and a
    journal look alike token by token, and unlike piece by piece."""
    n = len(tokens)
    pieces, start = [], 0
    for k, (t, _, end) in enumerate(tokens):
        is_break = t in _BREAKS or (t == "." and k and len(tokens[k - 1].text) >= 5 and k + 1 < n
                                    and tokens[k + 1].start > end)
        if is_break:
            if k > start:
                pieces.append((start, k))
            start = k + 1
    if start < n:
        pieces.append((start, n))
    described = [_describe(tokens, a, b, index) for index, (a, b) in enumerate(pieces)]
    count = len(pieces)
    found = []
    for index, (a, b) in enumerate(pieces):
        features = described[index] + [_SEG_FROM_END[min(count - 1 - index, 2)]]
        if index + 1 < count:
            features = features + ["n" + f for f in described[index + 1][2:4]]
        else:
            features = features + ["nlast"]
        if index:
            features = features + ["p" + f for f in described[index - 1][2:4]]
        found.append((a, b, tuple(features)))
    return found


def _describe(tokens: list[Token], a: int, b: int, index: int) -> list[str]:
    n = len(tokens)
    words = lower = abbreviations = digits = 0
    for k in range(a, b):
        t = tokens[k].text
        if t[0].isalpha():
            words += 1
            if t[0].islower() and len(t) > 1:
                lower += 1
            elif k + 1 < n and tokens[k + 1].text == "." and tokens[k + 1].start == tokens[k].end:
                abbreviations += 1
        elif t[0].isdigit():
            digits += 1
    features = [_SEG_LENGTH[min(words, 7)], _SEG_INDEX[min(index, 5)],
                "slo=" + ("0" if not lower else "1" if 3 * lower < words else "2"),
                "sab=" + ("0" if not abbreviations else "1" if 2 * abbreviations < words else "2")]
    if digits:
        features.append("sd")
    return features


def string_features(text: str, tokens: list[Token], identifiers: list[Identifier]) -> list[list[str]]:
    """Every feature of every token of one string (for training)."""
    return _TRAINING.string(text, tokens, identifiers)
