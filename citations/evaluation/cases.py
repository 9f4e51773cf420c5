"""Evaluation cases: a reference string with whatever gold its data set gives (Case, PrintedIds),
and the reading of gold fields (gold_doi, gold_arxiv, gold_year, comparable_gold_title) that the
loaders and the metrics share."""
import re
from collections.abc import Iterable
from dataclasses import dataclass

from citations.arxiv_ids import ARXIV_DOI_PREFIX, InvalidArxivId, parse_arxiv_id
from citations.parsing.text import clean_reference_text, comparable_title


@dataclass(frozen=True)
class PrintedIds:
    """Identifiers of one kind that gold says are printed in a reference string."""

    values: frozenset[str]
    complete: bool        # every id of this kind in the string is listed, so an extra find is a false positive


@dataclass(frozen=True)
class Case:
    """One reference string and the gold a data set gives for it (None: the set says nothing)."""

    key: str                                  # where it comes from, to find it again
    raw: str
    title: str | None = None
    year: int | None = None
    arxiv: PrintedIds | None = None           # canonical ids, no version
    doi: PrintedIds | None = None             # lower case
    malformed: frozenset[str] = frozenset()   # kinds ("arxiv", "doi") printed in a form that cannot be valid
    link: frozenset[str] | None = None        # gold target work ids; empty: cites no work the store may link
    first_author: str | None = None           # the gold work's first author's family name, when the set gives it
    journal: str | None = None                # the gold work's journal, volume and first page, when the set gives them
    volume: str | None = None
    first_page: str | None = None


# --- gold normalisation ---------------------------------------------------------------------------
# Written apart from identifiers.py on purpose: gold read with the parser's own rules would hide
# the parser's mistakes.

_GOLD_DOI = re.compile(r"10\.\d{4,9}/\S+")
_GOLD_ARXIV = re.compile(r"(\d{4}\.\d{4,5}|[a-z][a-z-]*(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?(?!\d)")
_GOLD_YEAR = re.compile(r"(?<!\d)(1[5-9]\d\d|20\d\d)(?!\d)")


def gold_doi(text: str) -> str | None:
    """The DOI in a gold field ("doi: 10.1163/157006598X00135.", "https://doi.org/..."), lower case."""
    match = _GOLD_DOI.search(re.sub(r"\s+", "", text))
    if not match:
        return None
    value = match.group(0)
    while True:
        stripped = value.rstrip(".,;:]>'\"")
        if stripped.endswith(")") and stripped.count("(") < stripped.count(")"):
            stripped = stripped[:-1]
        if stripped == value:
            return value.lower()
        value = stripped


def gold_arxiv(text: str) -> str | None:
    """The canonical arXiv id in a gold field ("arXiv :hep-th/0603057", "1112 .5166v2"), or None
    when the field holds none that can be valid (a typo, "arXiv:XXX", month 13)."""
    compact = re.sub(r"\s+", "", text)
    if ARXIV_DOI_PREFIX in compact.lower():          # 10.48550/arXiv.2101.00001 names the arXiv paper
        compact = compact[compact.lower().index(ARXIV_DOI_PREFIX) + len(ARXIV_DOI_PREFIX):]
    match = _GOLD_ARXIV.search(compact)
    if not match:
        return None
    try:
        return parse_arxiv_id(match.group(1)).id
    except InvalidArxivId:
        return None


def gold_year(text: str | None) -> int | None:
    """The first four-digit year in a gold date ("(2000)", "May / Jun 2000", "2005,")."""
    match = _GOLD_YEAR.search(text or "")
    return int(match.group(1)) if match else None


def gold_work_id(title: str, year: int) -> str:
    """The work a parse-gold title and year stand for: the same comparable title and year is one work."""
    return f"{comparable_gold_title(title)}|{year}"


def comparable_gold_title(title: str | None) -> str:
    """A gold title's comparable form, after the cleaning the parser gives its input ("" for none)."""
    return comparable_title(clean_reference_text(title)) if title else ""


def file_id(value: str | None, kind: str, found: set[str], malformed: set[str]) -> None:
    """Gold that reads as an id joins the ids; gold that cannot be one marks its kind malformed."""
    if value:
        found.add(value)
    else:
        malformed.add(kind)


def printed_ids(values: Iterable[str], *, complete: bool) -> PrintedIds:
    return PrintedIds(frozenset(values), complete)


def literal_doi(doi: str, raw: str) -> PrintedIds:
    """Link gold read as printed-id gold: the gold DOI when it appears literally in the string.
    Incomplete: other DOIs in the string are not listed."""
    return printed_ids([doi.lower()] if doi.lower() in raw.lower() else [], complete=False)
