"""The lines of one reference joined into one string, hyphenation undone."""
import re
from collections.abc import Iterable
from dataclasses import dataclass

# First parts of compounds more often written with their hyphen than run into one word in the
# unarXive sample's references and body text ("two-", "self-", "non-", "high-"): a hyphen after
# them at a line end is kept unless the document itself writes the word joined.
_HYPHEN_PREFIXES = frozenset(["self", "non", "multi", "cross", "semi", "well", "one", "two", "three", "four", "single", "spin", "high", "low", "large", "long", "state", "time", "zero", "few", "fine", "closed", "hep", "cond"])
_URL = re.compile(r"(?:https?:/|www\.|doi:|\b10\.\d{4,9}/|arxiv\.org/)", re.IGNORECASE)
# OCR parts "https:" from "//" at the gap the slashes leave: no reference writes "https: //".
_SCHEME_SPACE = re.compile(r"\b(https?:|ftp:) (?=//)", re.IGNORECASE)
_TRAILING_LETTERS = re.compile(r"([^\W\d_]+)$")
_LEADING_LETTERS = re.compile(r"^([^\W\d_]+)")
_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")


@dataclass(frozen=True)
class Vocabulary:
    """Words the document writes inside its lines (not at a line break): how it spells compounds."""
    joined: frozenset[str] = frozenset()
    hyphenated: frozenset[str] = frozenset()

    @classmethod
    def of(cls, lines: Iterable[str]) -> "Vocabulary":
        gathered = VocabularyGathered()
        gathered.add(lines)
        return gathered.vocabulary()


class VocabularyGathered:
    """A Vocabulary gathered a few lines at a time, as a long document's pages are read."""

    def __init__(self):
        self._joined: set[str] = set()
        self._hyphenated: set[str] = set()

    def add(self, lines: Iterable[str]) -> None:
        for line in lines:
            words = _WORD.findall(line)
            for word in words[1:-1]:          # the first and last may be parts of broken words
                (self._hyphenated if "-" in word else self._joined).add(word.lower())

    def vocabulary(self) -> Vocabulary:
        return Vocabulary(frozenset(self._joined), frozenset(self._hyphenated))


def join_lines(lines: list[str], vocabulary: Vocabulary = Vocabulary()) -> str:
    """The lines of one reference as one string: broken words, URLs and DOIs put back together."""
    text = ""
    for line in lines:
        line = " ".join(line.split())
        if not line:
            continue
        text = _join_pair(text, line, vocabulary) if text else line
    return _SCHEME_SPACE.sub(r"\1", text)


def _join_pair(left: str, right: str, vocabulary: Vocabulary) -> str:
    last = left.rsplit(" ", 1)[-1]
    first = right.split(" ", 1)[0]
    if _URL.search(last) and _url_continues(last, first):
        return left + right
    if len(last) > 1 and last[-1] in "-–—":
        if last[-1] == "-" and is_word_break(last[:-1], first, vocabulary):
            return left[:-1] + right
        return left + right               # a compound or a range: "Multi-Head", "1022–1030"
    return f"{left} {right}"


def _url_continues(last: str, first: str) -> bool:
    # TeX breaks a URL after punctuation without adding a hyphen; a full stop may also end the
    # sentence, and "doi:" alone is a label followed by a space.
    if last.lower() in ("doi:", "url:"):
        return False
    if last[-1] in "/-_=&?#~:":
        return True
    return last[-1] == "." and (first[:1].islower() or first[:1].isdigit())


def is_word_break(before: str, after: str, vocabulary: Vocabulary = Vocabulary()) -> bool:
    """Whether "before-" at a line end and "after" on the next line are one word broken by hyphenation.

    TeX hyphenates lower-case letters only, leaving at least 2 letters before the break and 3
    after it, and breaks a word that has a hyphen only at that hyphen. So the hyphen is real
    when the next part starts with a capital or a digit ("Multi-Head", "GPT-3", "Jean-Pierre"),
    when either part has another hyphen ("state-of-the-art"), digits, "/" or ":" inside
    (identifiers such as "hep-ex/0307021"), when a part is too short to be a hyphenated piece
    ("e-print", "hep-ph"), or when the part before is an acronym ("BERT-based"). Otherwise the
    document decides where it writes the word elsewhere ("real-world" or "realworld"), and
    failing that a few first parts of compounds keep their hyphen ("self-attention").
    """
    tail = _TRAILING_LETTERS.search(before)
    head = _LEADING_LETTERS.match(after)
    if not tail or not head or not after[0].islower():
        return False
    inner = after.rstrip(".,;:)]}\"'”’")
    if "-" in before or "-" in inner:
        return False
    if any(ch.isdigit() or ch in "/:" for ch in before + inner):
        return False
    piece_before, piece_after = tail.group(1), head.group(1)
    if len(piece_before) < 2 or len(piece_after) < 3 or piece_before.isupper():
        return False
    joined = (piece_before + piece_after).lower()
    if joined in vocabulary.joined:
        return True
    if f"{piece_before}-{piece_after}".lower() in vocabulary.hyphenated:
        return False
    return piece_before.lower() not in _HYPHEN_PREFIXES
