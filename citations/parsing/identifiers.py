"""Identifiers in reference text: arXiv ids (new and old style, URLs, arXiv DOIs), DOIs, URLs.

Each is reported with whether it is valid, so a reference naming an impossible id (month 13,
four digits after a post-2014 YYMM., a DOI with no suffix) can be typed malformed_identifier.
"""
import re
from dataclasses import dataclass

from citations.arxiv_ids import OLD_ARCHIVES, InvalidArxivId, parse_arxiv_id


@dataclass(frozen=True)
class Identifier:
    kind: str                 # "arxiv" | "doi" | "url"
    value: str                # normalised: canonical arXiv id, lower-case DOI, URL as written
    valid: bool
    text: str                 # as written in the reference
    span: tuple[int, int]
    problem: str | None = None

    def as_json(self) -> dict:
        data = {"kind": self.kind, "value": self.value, "valid": self.valid, "text": self.text}
        if self.problem:
            data["problem"] = self.problem
        return data


# Archive names may carry PDF spacing around their hyphen: "hep -ph/0508110".
_OLD = "|".join(sorted((re.escape(a).replace("\\-", r"\s?-\s?") for a in OLD_ARCHIVES), key=len, reverse=True))
# An arXiv DOI, an arxiv.org URL, or "arXiv:" / "arXiv preprint" followed by an id of either style.
_ARXIV_DOI = re.compile(r"10\.48550/arxiv\.(?P<id>[^\s,;)\]]+)", re.I)
_ARXIV_URL = re.compile(r"arxiv\.org/(?:abs|pdf|html)/(?P<id>[^\s,;()\]]+?)(?:\.pdf)?(?=[\s,;()\]]|$)", re.I)
_ARXIV_LABEL = re.compile(
    rf"(?:arxiv|corr)(?:\s*preprint)?\s*(?:arxiv)?\s*[:.,]?\s*(?:abs/)?(?:[a-z-]+\.[A-Z]{{2}}/(?=[0-9]{{4}}\.))?"
    rf"(?P<id>(?:{_OLD})(?:\.[A-Z]{{2}})?\s?/\s?[0-9]{{5,8}}(?:v[0-9]+)?"
    r"|[0-9]{4}\s?\.\s?[0-9]{3,6}(?:v[0-9]+)?)",
    re.I,
)
# Bare ids without a label: only forms that cannot be much else (four digits after the dot only
# when the reference speaks of arXiv somewhere).
_ARXIV_BARE_NEW = re.compile(r"(?<![\w./-])(?P<id>[0-9]{4}\s?\.[0-9]{5}(?:v[0-9]+)?)(?![0-9/])")
_ARXIV_BARE_NEW_4 = re.compile(r"(?<![\w./-])(?P<id>[0-9]{4}\.[0-9]{4}(?:v[0-9]+)?)(?![0-9/.])")
_ARXIV_BARE_OLD = re.compile(rf"(?<![\w/])(?P<id>(?:{_OLD})(?:\.[A-Z]{{2}})?/[0-9]{{7}}(?:v[0-9]+)?)(?![0-9])")
_DOI = re.compile(r"(?:doi\s*[:.]?\s*|https?://(?:dx\.)?doi\.org/)?(?P<doi>10\.[0-9]{4,9}/[^\s,;\"<>\[\]]*)", re.I)
# A labelled DOI that a line break cut after its prefix ("doi:10.1371/ journal.pone.0002680",
# "doi:10. 1111/j.1365-294X.2009.04419.x"): a DOI never ends with "/" or "10.", so the next word
# is the rest of it when it holds a digit and more than digits, as DOI suffixes do ("and more" and
# a year do not).
_DOI_BROKEN = re.compile(
    r"(?:doi\s*[:.]?\s*|doi\.org/)(?P<doi>10\.(?:\s+[0-9]{4,9}/\s*|[0-9]{4,9}/\s+)[^\s,;\"<>\[\]]*[0-9][^\s,;\"<>\[\]]*)", re.I)
_DOI_NO_SUFFIX = re.compile(r"(?:doi\s*[:.]?\s*|doi\.org/)(?P<doi>10\.[0-9]{4,9}/?)(?=\s|$|[,;)])", re.I)
_ARXIV_LABELLED = re.compile(r"\barxiv\s*:\s*(?P<id>[\w./-]*[0-9X][\w./-]*)", re.I)
_DOI_LABELLED = re.compile(r"\bdoi\s*[:.]\s*(?P<doi>[^\s,;]+)", re.I)
_URL = re.compile(r"https?://[^\s<>\"]+|www\.[^\s<>\"]+", re.I)
_TRAILING = ".,;:)]}>'\""
# A DOI inside a link names the cited work where the link is a resolver's or a publisher's page
# of it (doi.org/10..., .../doi/abs/10..., link.springer.com/article/10...); under a path that
# names a page about the work ("/supplemental/10.1103/...", "/synopsis-for/10.1103/...",
# ".../comment/10...") the cited thing is that page, and the DOI is not its own.
_LINK_BEFORE_DOI = re.compile(r"(?:https?://|www\.)\S*?(?P<segment>[\w-]*)/\s*$", re.I)
_PAGE_ABOUT_A_WORK = re.compile(
    r"suppl|synopsis|^(?:focus|comments?|viewpoints?|errat(?:um|a)|corrections?|retractions?|figures?|media|"
    r"data(?:sets?)?|videos?|news|highlights?|cited-?by|references|metrics|reviews?|reply|replies)$", re.I)


def _doi_names_another_page(text: str, start: int) -> bool:
    """Whether the DOI starting at start sits in a link under a path naming a page about a work."""
    link = _LINK_BEFORE_DOI.search(text, max(0, start - 300), start)
    return bool(link and _PAGE_ABOUT_A_WORK.search(link.group("segment")))

# The columns a valid identifier is stored in (PaperReference.doi, .arxiv_id): one longer is
# kept as malformed, never stored, so one odd reference cannot refuse its whole list.
MAX_DOI_LENGTH = 255
MAX_ARXIV_ID_LENGTH = 40


def _arxiv(text: str, match: re.Match, group: str = "id") -> Identifier:
    written = re.sub(r"\s+", "", match.group(group)).rstrip(_TRAILING)
    if not written.isascii():
        # "2509.١١٠٧٦": digits of another script read as an id would never match a paper.
        return Identifier("arxiv", written, False, match.group(0), match.span(), "not in ASCII digits and letters")
    if len(written) > MAX_ARXIV_ID_LENGTH:
        return Identifier("arxiv", written, False, match.group(0), match.span(),
                          f"longer than {MAX_ARXIV_ID_LENGTH} characters, more than an arXiv id can be")
    try:
        parsed = parse_arxiv_id(written)
        return Identifier("arxiv", parsed.id, True, match.group(0), match.span())
    except InvalidArxivId as error:
        problem = str(error).split(": ", 1)[-1]
        return Identifier("arxiv", written, False, match.group(0), match.span(), problem)


def _doi_value(raw: str) -> str:
    # A closing bracket is part of some DOIs (10.1016/S0016-5107(74)73914-1): keep balanced ones,
    # drop the one that closes the text around the DOI.
    value = raw
    while value and value[-1] in _TRAILING:
        if value[-1] == ")" and value.count("(") >= value.count(")"):
            break
        value = value[:-1]
    return value.lower()


class _Scanner:
    """A pattern's matches in one text, found only where the text holds one of the pattern's words
    (each of its matches holds one). In ASCII text, where ignoring case is lowering it, the words are
    looked for in the text in lower case, faster than a case-blind regex fails; other text is scanned."""

    def __init__(self, text: str):
        self.text = text
        self._lower = text.lower() if text.isascii() else None

    def __call__(self, pattern: re.Pattern, *words: str):
        if self._lower is not None and not any(word in self._lower for word in words):
            return ()
        return pattern.finditer(self.text)


def find_identifiers(text: str) -> list[Identifier]:
    """Every identifier in the text, in order of appearance, overlapping finds merged."""
    found: list[Identifier] = []
    taken: list[tuple[int, int]] = []

    def free(span):
        return all(span[1] <= a or span[0] >= b for a, b in taken)

    def add(identifier):
        if free(identifier.span):
            found.append(identifier)
            taken.append(identifier.span)

    scan = _Scanner(text)
    for match in scan(_ARXIV_DOI, "10.48550/arxiv."):
        add(_arxiv(text, match))
    for match in scan(_ARXIV_URL, "arxiv.org/"):
        add(_arxiv(text, match))
    for match in scan(_ARXIV_LABEL, "arxiv", "corr"):
        add(_arxiv(text, match))
    for match in scan(_ARXIV_LABELLED, "arxiv"):
        # "arXiv:123.472", "arXiv :0005024", "arXiv:XXX": labelled, but of no form an id can take.
        if free(match.span()):
            add(_arxiv(text, match))
    for match in scan(_DOI_BROKEN, "doi"):
        value = _doi_value(re.sub(r"\s+", "", match.group("doi")))
        suffix = value.split("/", 1)[1] if "/" in value else ""
        if suffix.isdigit():
            continue              # "doi:10.1145/ 2020": a number after a cut DOI may be the year
        if len(value) <= MAX_DOI_LENGTH and _DOI_SHAPE.match(value):
            add(Identifier("doi", value, True, match.group(0), match.span()))
    for match in scan(_DOI_NO_SUFFIX, "doi"):
        add(Identifier("doi", match.group("doi").lower(), False, match.group(0), match.span(),
                       "a DOI needs a suffix after the slash"))
    for match in scan(_DOI, "10."):
        value = _doi_value(match.group("doi"))
        if not free(match.span()) or _doi_names_another_page(text, match.start("doi")):
            continue
        if value.endswith("/") or "/" not in value or not value.split("/", 1)[1]:
            add(Identifier("doi", value, False, match.group(0), match.span(), "a DOI needs a suffix after the slash"))
        elif len(value) > MAX_DOI_LENGTH:
            add(Identifier("doi", value, False, match.group(0), match.span(),
                           f"longer than {MAX_DOI_LENGTH} characters, more than Pith stores for a DOI"))
        else:
            add(Identifier("doi", value, True, match.group(0), match.span()))
    for match in scan(_DOI_LABELLED, "doi"):
        # Labelled as a DOI but not of a DOI's form (10.978.819252/12214).
        value = match.group("doi").rstrip(_TRAILING).lower()
        if not any(ch.isalnum() for ch in value):
            continue              # "doi: ." - the label with no DOI printed after it names nothing
        if free(match.span()) and not _DOI_SHAPE.match(value):
            add(Identifier("doi", value, False, match.group(0), match.span(), "not of the form 10.NNNN/suffix"))
    # Bare arXiv ids last, so the digits of a DOI or a labelled id are never read as one.
    for match in scan(_ARXIV_BARE_OLD, "/"):
        add(_arxiv(text, match))
    # A valid YYMM.NNNN (April 2007 to 2014) is hardly anything else in a reference either; the
    # month and range checks of parse_arxiv_id keep page numbers and decimals out.
    bare = [_ARXIV_BARE_NEW, _ARXIV_BARE_NEW_4]
    for pattern in bare:
        for match in pattern.finditer(text):
            if free(match.span()):
                candidate = _arxiv(text, match)
                if candidate.valid:          # a bare number that is no valid id is just a number
                    add(candidate)
    for match in scan(_URL, "http", "www."):
        add(Identifier("url", match.group(0).rstrip(_TRAILING), True, match.group(0), match.span()))
    return sorted(found, key=lambda identifier: identifier.span)


_DOI_SPELLING = re.compile(r"^(?:doi\s*[:.]?\s*|https?://(?:dx\.)?doi\.org/)", re.I)
_DOI_SHAPE = re.compile(r"^10\.[0-9]{4,9}/\S+$")


def normalise_doi(text: str) -> str | None:
    """A DOI from any of its spellings (doi:, https://doi.org/, case), or None if it is not one."""
    value = _doi_value(_DOI_SPELLING.sub("", text.strip()))
    if not _DOI_SHAPE.match(value):
        return None
    return value


def mask(text: str, identifiers: list[Identifier]) -> str:
    """The text with identifiers replaced by spaces, so their digits are not read as years."""
    chars = list(text)
    for identifier in identifiers:
        for i in range(*identifier.span):
            chars[i] = " "
    return "".join(chars)
