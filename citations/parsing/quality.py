"""Can a reference's parsed title and year be trusted? The reasons for parse_uncertain.

Each check names a misparse seen in real PDF-text reference lists (the seed records show all of
them): an access date read as the title, an author list or a venue in the title field, a year
that cannot be a publication year, such as 1909 read from arXiv id 1909.08053.
"""
import re

from citations.arxiv_ids import InvalidArxivId, parse_arxiv_id
from citations.parsing.lexicon import shipped as shipped_lexicon
from citations.time_rules import is_plausible_year

_ACCESS_DATE = re.compile(
    r"^\s*(?:\[?online\]?[;,]?\s*)?(?:last\s+)?(?:accessed|retrieved|visited|viewed)\b[\s:,-]*(?:on\s+)?"
    r"(?:\d{4}|\d{1,2}[-/ ]|\w+\s+\d{1,2})",
    re.I,
)
_VENUE_WORDS = re.compile(
    r"\b(?:proceedings|conference|symposium|workshop|journal|transactions|letters|annual meeting|"
    r"international conference|advances in neural|arxiv preprint|technical report)\b",
    re.I,
)
# "arXiv preprint arXiv:2304.11277(2023)", "CoRR abs/1234.5678", "https://github.com/...".
_IDENTIFIER_TITLE = re.compile(r"^\s*(?:arxiv\b|corr\b|preprint\b|https?://|www\.|doi\s*:|10\.\d{4,9}/)", re.I)
_NAME = re.compile(r"^(?:[A-Z][\w'’`.-]*|[A-Z]\.(?:-?[A-Z]\.)*|and|&|et|al\.?|van|von|de|der|da|di|del|la|le)$")


def title_problems(title: str | None) -> list[str]:
    """Why the title cannot be trusted; empty when it can."""
    if title is None or not title.strip():
        return ["no_title"]
    text = title.strip()
    if _ACCESS_DATE.match(text):
        return ["title_is_access_date"]
    if looks_like_author_list(text):
        return ["title_is_author_list"]
    if looks_like_venue(text):
        return ["title_is_venue"]
    if _IDENTIFIER_TITLE.match(text):
        return ["title_is_identifier"]
    if sum(ch.isalpha() for ch in text) < 4:
        return ["title_has_no_words"]
    return []


def looks_like_author_list(text: str) -> bool:
    """"Murray, Benoit Steiner, Paul Tucker, Vijay Vasudevan" or "B, Anshuj Garg, and Purushottam Kulkarni"."""
    words = text.replace(",", " ").replace(";", " ").split()
    if len(words) < 2:
        return False
    names = sum(1 for w in words if _NAME.match(w))
    if names / len(words) < 0.85 or _mostly_common_words(text):
        return False
    # Names carry initials, or are listed as two or three words between commas; "Knowledge
    # Compilation and Theory Approximation" or "Scale, Shift, and Rotation Invariant Features"
    # are Title Case titles.
    if any(re.fullmatch(r"[A-Z]\.(?:-?[A-Z]\.)*", w) for w in words):
        return True
    pieces = [re.sub(r"^(?:and|&)\s+", "", p.strip()) for p in re.split(r"[,;]", text)]
    return sum(1 for p in pieces if 2 <= len(p.split()) <= 3) >= 2


_WORD = re.compile(r"[^\W\d_]{2,}")
_LIST_WORDS = {"and", "others"}


def _mostly_common_words(text: str) -> bool:
    """Whether more than half the words are English words that are no known name: "Monetary Policy,
    Parameter Uncertainty, and Optimal Learning" and "The Wide, Wide World" are titles in Title Case,
    "Murray, Benoit Steiner, Paul Tucker" is not."""
    lexicon = shipped_lexicon().words
    words = [w for w in (m.lower() for m in _WORD.findall(text)) if w not in _LIST_WORDS]
    common = sum(1 for w in words if w in lexicon["english"] and w not in lexicon["first"] and w not in lexicon["family"])
    return common > len(words) / 2


def looks_like_venue(text: str) -> bool:
    """"InInternational Conference on Machine Learning", "In Proceedings of the ... Conference"."""
    stripped = re.sub(r"^[Ii]n(?=[A-Z])|^[Ii]n[: ]\s*", "", text.strip())
    if stripped != text.strip() and _VENUE_WORDS.search(stripped):
        return True
    return bool(re.match(r"^(?:proceedings of|proc\.)\b", stripped, re.I))


def year_problems(year: int | None, *, arxiv_id: str | None = None) -> list[str]:
    """Why the year cannot be a publication year; empty when it can (or when there is none)."""
    if year is None:
        return []
    if not is_plausible_year(year):
        return ["year_impossible"]
    if arxiv_id:
        try:
            parsed = parse_arxiv_id(arxiv_id)
        except InvalidArxivId:
            return []
        # 1909 from "1909.08053", 2001 from "2001.08361": the id's YYMM digits read as a year
        # (the ids were submitted in 2019 and 2020).
        if "/" not in parsed.id and year == int(parsed.id[:4]) and year != 2000 + int(parsed.id[:2]):
            return ["year_from_arxiv_id"]
    return []
