"""arXiv identifiers: recognising, validating and normalising them.

New-style ids are YYMM.NNNN (April 2007 to December 2014) or YYMM.NNNNN (from
January 2015); old-style ids are archive[.SUBJ]/YYMMNNN (August 1991 to March 2007).
A version suffix vN may follow either.
"""
import re
from dataclasses import dataclass

OLD_ARCHIVES = frozenset(
    "acc-phys adap-org alg-geom ao-sci astro-ph atom-ph bayes-an chao-dyn chem-ph cmp-lg comp-gas "
    "cond-mat cs dg-ga funct-an gr-qc hep-ex hep-lat hep-ph hep-th math math-ph mtrl-th nlin nucl-ex "
    "nucl-th patt-sol physics plasm-ph q-alg q-bio quant-ph solv-int supr-con".split()
)

NEW_STYLE = re.compile(r"^(?P<yy>\d\d)(?P<mm>\d\d)\.(?P<num>\d{4,5})(?:v(?P<version>[1-9]\d*))?$")
OLD_STYLE = re.compile(
    r"^(?P<archive>[a-z][a-z-]*)(?:\.(?P<subject>[A-Z]{2}))?/(?P<yy>\d\d)(?P<mm>\d\d)(?P<num>\d{3})"
    r"(?:v(?P<version>[1-9]\d*))?$"
)


# arXiv's DOIs (10.48550/arXiv.2509.11076), lower-cased as every DOI here is.
ARXIV_DOI_PREFIX = "10.48550/arxiv."
_ARXIV_URL = re.compile(r"arxiv\.org/(?:abs|pdf)/([^\s?#]+?)(?:v\d+)?(?:\.pdf)?$", re.I)


class InvalidArxivId(ValueError):
    """The text looks like an arXiv identifier but cannot be one."""


@dataclass(frozen=True)
class ArxivId:
    id: str                 # canonical, without version: "2509.11076", "hep-th/9901001"
    version: int | None     # the vN suffix when one was written


def parse_arxiv_id(text: str) -> ArxivId:
    """Validate one identifier (no surrounding text); raise InvalidArxivId naming the problem."""
    value = text.strip()
    if value.lower().startswith("arxiv:"):
        value = value[6:]
    match = NEW_STYLE.match(value)
    if match:
        yy, mm, num = int(match["yy"]), int(match["mm"]), match["num"]
        if not 1 <= mm <= 12:
            raise InvalidArxivId(f"{text!r}: month {mm:02d} does not exist")
        if yy < 7 or (yy == 7 and mm < 4):
            raise InvalidArxivId(f"{text!r}: new-style ids start in April 2007")
        if yy >= 15 and len(num) != 5:
            raise InvalidArxivId(f"{text!r}: ids from 2015 on have five digits after the dot")
        if yy < 15 and len(num) != 4:
            raise InvalidArxivId(f"{text!r}: ids before 2015 have four digits after the dot")
        version = int(match["version"]) if match["version"] else None
        return ArxivId(id=f"{match['yy']}{match['mm']}.{num}", version=version)
    match = OLD_STYLE.match(value)
    if match:
        if match["archive"] not in OLD_ARCHIVES:
            raise InvalidArxivId(f"{text!r}: {match['archive']!r} is not an arXiv archive")
        yy, mm = int(match["yy"]), int(match["mm"])
        if not 1 <= mm <= 12:
            raise InvalidArxivId(f"{text!r}: month {mm:02d} does not exist")
        if 7 < yy < 91 or (yy == 7 and mm > 3) or (yy == 91 and mm < 8):
            raise InvalidArxivId(f"{text!r}: old-style ids run from August 1991 to March 2007")
        subject = f".{match['subject']}" if match["subject"] else ""
        version = int(match["version"]) if match["version"] else None
        return ArxivId(id=f"{match['archive']}{subject}/{match['yy']}{match['mm']}{match['num']}", version=version)
    raise InvalidArxivId(f"{text!r} is not an arXiv identifier")


def is_canonical_arxiv_id(text: str) -> bool:
    """True when the text is exactly a valid arXiv id in canonical form (no prefix, no version)."""
    try:
        return parse_arxiv_id(text).id == text
    except InvalidArxivId:
        return False


def arxiv_id_field(value) -> str | None:
    """The canonical id an input field holds, or None. Text only: a number (2501.00010) would lose
    its trailing zeros and name another paper."""
    try:
        return parse_arxiv_id(value if isinstance(value, str) else "").id
    except InvalidArxivId:
        return None


def arxiv_doi(arxiv_id: str) -> str:
    """The DOI arXiv registered for a paper, normalised to lower case (10.48550/arxiv.2509.11076)."""
    return f"{ARXIV_DOI_PREFIX}{arxiv_id}".lower()


# The versions a paper may have: v1 to v1000, as the version columns and every importer take them.
MAX_VERSION = 1000


def arxiv_of(text) -> str | None:
    """A canonical arXiv id from an id, an arxiv.org URL or an arXiv DOI; None when it is none."""
    if not isinstance(text, str) or not text.strip():
        return None
    text = text.strip()
    match = _ARXIV_URL.search(text)
    if match:
        text = match.group(1)
    elif text.lower().startswith(ARXIV_DOI_PREFIX) or "doi.org/10.48550/arxiv." in text.lower():
        text = text.lower().split("arxiv.", 1)[1]
    try:
        return parse_arxiv_id(text).id
    except InvalidArxivId:
        return None
