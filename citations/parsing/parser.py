"""Reference text to fields: title, year, authors, venue and identifiers.

Rule-based and fast (it runs on every ingested reference). It reads the common styles of
reference lists extracted from PDF text:

  numbered / ACM   Authors. Title. Venue, Year.            Authors. Year. Title. In Venue.
  author-year      Authors (Year). Title. Venue.           Authors (Year) Title. Venue
  IEEE             A. Author, B. Author, "Title," in Venue, Year.
  physics          Authors, Journal Vol, Page (Year).      (no title: none is invented)

What it cannot read confidently it leaves empty; citations/parsing/quality.py then says why
the fields cannot be trusted.
"""
import re
from dataclasses import dataclass, field

from citations.parsing.identifiers import Identifier, find_identifiers, mask
from citations.parsing.text import clean_reference_text
from citations.time_rules import latest_plausible_year

PARSER_NAME = "pith-rules/1"


@dataclass(frozen=True)
class PersonName:
    text: str                  # as written
    family: str | None = None
    given: str | None = None


@dataclass(frozen=True)
class ParsedReference:
    raw: str | None
    title: str | None
    year: int | None
    authors: tuple[str, ...] = ()
    venue: str | None = None
    identifiers: tuple[Identifier, ...] = field(default_factory=tuple)
    # Filled by the CRF parser (citations.parsing); the rule parser leaves them empty.
    names: tuple["PersonName", ...] = ()       # the authors, split into given and family names
    editors: tuple["PersonName", ...] = ()
    container: str | None = None                # journal, proceedings or book the work appeared in
    volume: str | None = None
    issue: str | None = None
    pages: str | None = None
    month: int | None = None
    publisher: str | None = None
    place: str | None = None
    note: str | None = None
    isbn: str | None = None
    parser: str | None = None                   # PARSER_NAME of the parser that read it

    @property
    def arxiv_id(self) -> str | None:
        return next((i.value for i in self.identifiers if i.kind == "arxiv" and i.valid), None)

    @property
    def doi(self) -> str | None:
        return next((i.value for i in self.identifiers if i.kind == "doi" and i.valid), None)

    @property
    def malformed(self) -> tuple[Identifier, ...]:
        return tuple(i for i in self.identifiers if not i.valid)


_MARKER = re.compile(r"^\s*(?:\[\s*[0-9]{1,4}\s*\]|\(\s*[0-9]{1,4}\s*\)|[0-9]{1,4}\s*[.)](?=\s)|[0-9]{1,3}\s(?=[A-Z]))\s*")
# Not after a digit or "3." (a decimal), but after "et al ." a year is a year.
_YEAR = re.compile(r"(?<![0-9])(?<![0-9]\.)(1[6-9][0-9][0-9]|20[0-9][0-9])(?:[a-z])?(?![0-9])")
_PAGE_RANGE = re.compile(r"\bpp?\.\s*[0-9]+(?:\s*[-–—]{1,2}\s*[0-9]+)?|[0-9]+\s*[-–—]{1,2}\s*[0-9]+")
_QUOTED = re.compile(r"[“\"]\s*([^”\"]{8,}?)\s*[,.]?\s*[”\"]")
_ABBREVIATIONS = frozenset(
    "al vol vols no nos pp p proc conf int j trans eds ed dept univ inc ltd phys rev lett sci acad natl nat "
    "assoc comput math stat eng res technol appl mech chem biol med soc amer am symp jr sr st mr dr vs cf eq "
    "fig ch sec suppl ser mon not astrophys astron mod opt nucl part fiz zh ann".split()
)
_VENUE_START = re.compile(
    r"^(?:in:|in (?=.*\b(?:proc|proceedings|conference|workshop|symposium|journal|transactions|meeting)\b)|"
    r"proc\b|proceedings\b|advances in\b|journal\b|trans(?:actions)?\b|ieee\b|acm\b|"
    r"arxiv\b|corr\b|preprint\b|technical report\b|tech\. rep\b|phd thesis\b|master'?s thesis\b)",
    re.I,
)
_NAME_WORD = re.compile(r"^(?:[A-Z][\w'’`-]*\.?|[A-Z]\.(?:-?[A-Z]\.)*|and|&|et|al\.?|van|von|de|der|da|di|del|la|le)$")


def parse_reference(raw: str) -> ParsedReference:
    """Parse one reference string."""
    text = _MARKER.sub("", clean_reference_text(raw))
    identifiers = find_identifiers(text)
    masked = mask(text, identifiers)
    year, year_span = _find_year(masked)
    segments = _segments(text, identifiers)
    title, title_index = _find_title(text, segments, year_span)
    authors = _authors(segments[0][0]) if segments and title_index != 0 else ()
    venue = _venue(segments, title_index)
    return ParsedReference(raw=raw, title=title, year=year, authors=authors, venue=venue,
                           identifiers=tuple(identifiers), parser=PARSER_NAME)


def _find_year(masked: str) -> tuple[int | None, tuple[int, int] | None]:
    without_pages = _PAGE_RANGE.sub(lambda m: " " * len(m.group(0)), masked)
    latest = latest_plausible_year()
    found = [(int(m.group(1)), m.span(1)) for m in _YEAR.finditer(without_pages) if int(m.group(1)) <= latest]
    # "MNRAS, 443,1973": a number right after a volume and a comma is a page, not a year.
    plausible = [(y, span) for y, span in found if not re.search(r"[0-9]\s*,\s*$", masked[max(0, span[0] - 4):span[0]])]
    found = plausible or found
    if not found:
        return None, None
    # A year in brackets is the author-year date; otherwise the last year is the publication year.
    for year, span in found:
        before, after = masked[max(0, span[0] - 2):span[0]], masked[span[1]:span[1] + 3]
        if "(" in before and (")" in after or after[:1].isalpha()):
            return year, span
    return found[-1]


def _segments(text: str, identifiers: list[Identifier]) -> list[tuple[str, int]]:
    """Sentence-like pieces with their start offsets; identifiers end a piece."""
    text = re.sub(r"\.\.\.|…", lambda m: "," + " " * (len(m.group(0)) - 1), text)   # an ellipsis in a list
    boundaries = set()
    for identifier in identifiers:
        boundaries.add(identifier.span[0])
    for match in re.finditer(r"[.?!](?=\s+\S)|(?<=[a-z0-9)\]}])\.(?=[A-Z]|arXiv)|(?<=[A-Z])\.(?=In\s)", text):
        position = match.start()
        if text[position] == "." and _is_abbreviation(text, position) and not _title_follows(text, position):
            continue
        boundaries.add(position + 1)
    # "Daugherty CK, Hlubocky FJ: What are ...": a colon closing an author list, in the first piece.
    first = min((b for b in boundaries if b > 0), default=len(text))
    colon = re.search(r":(?=\s+[A-Z0-9])", text[:first])
    if colon and _is_strict_author_list(text[:colon.start()].rstrip(" :")):
        boundaries.add(colon.start() + 1)
    pieces, start = [], 0
    for cut in sorted(boundaries):
        if cut > start:
            pieces.append((text[start:cut], start))
            start = cut
    pieces.append((text[start:], start))
    return [(piece.strip(), offset + len(piece) - len(piece.lstrip())) for piece, offset in pieces
            if piece.strip(" .,;:")]


def _is_abbreviation(text: str, period: int) -> bool:
    word = re.search(r"([A-Za-z]+)$", text[:period])
    if not word:
        return False
    token = word.group(1)
    if len(token) == 1 and token.isupper():
        return True       # an initial
    return token.lower() in _ABBREVIATIONS and not (period + 2 < len(text) and text[period + 1:period + 3] == "  ")


def _title_follows(text: str, period: int) -> bool:
    """After an initial or "et al.", does a title start? ("..., M. Information deficits in ...")"""
    before = text[:period]
    if "," not in before and " and " not in before and not before.endswith("et al"):
        return False
    after = re.match(r"\s+([A-Z][a-z]*(?:-[a-z]+)*|[0-9]{1,4})\s+([a-z][a-z-]*)\b", text[period + 1:])
    return bool(after) and (len(after.group(1)) > 1 or after.group(1) in ("A", "I")) and \
        not text[period + 1:].lstrip().startswith(after.group(1) + ".")


def _is_strict_author_list(segment: str) -> bool:
    """Vancouver style: "Toroser D, Sohal RS" or "Brandrup F, et al"."""
    words = segment.replace(",", " ").split()
    return len(words) >= 2 and ("," in segment or " and " in segment or "et al" in segment) and all(
        _NAME_WORD.match(w) or re.fullmatch(r"[A-Z]{1,3}", w) for w in words)


def _looks_like_authors(segment: str) -> bool:
    words = segment.replace(",", " ").rstrip(" :;").split()
    if not words:
        return False
    names = sum(1 for w in words if _NAME_WORD.match(w))
    has_separator = "," in segment or " and " in segment or "&" in segment or "et al" in segment
    initials = sum(1 for w in words if re.fullmatch(r"[A-Z]\.(?:-?[A-Z]\.)*", w))
    share = names / len(words)
    return (share >= 0.8 and (has_separator or len(words) <= 3)) or (share >= 0.65 and initials >= 2)


def _is_year_only(segment: str) -> bool:
    return bool(re.fullmatch(r"[(\[]?\s*(1[6-9][0-9][0-9]|20[0-9][0-9])[a-z]?\s*[)\]]?[.,:]?", segment.strip()))


def _find_title(text: str, segments, year_span) -> tuple[str | None, int | None]:
    quoted = _QUOTED.search(text)
    if quoted and len(quoted.group(1).split()) >= 2:
        return _tidy_title(quoted.group(1)), None
    for index, (segment, offset) in enumerate(segments):
        if index == 0 and len(segments) > 1 and (_looks_like_authors(_without_year(segment)) or
                                                 _ends_with_bracketed_year(segment)):
            continue
        if _is_year_only(segment):
            continue
        candidate = segment
        if index == 0 and year_span and offset <= year_span[0] < offset + len(segment):
            # "Authors (2004) Title." in one piece: the title follows the bracketed year.
            tail = text[year_span[1]:offset + len(segment)].lstrip(" a-z)].,:")
            if len(tail.split()) >= 2:
                candidate = tail
        if _VENUE_START.match(candidate) or not _has_words(candidate):
            return None, None
        if _looks_like_authors(candidate) and index == 0:
            return None, None
        title = _tidy_title(candidate)
        return (title, index) if title else (None, None)
    return None, None


def _has_words(candidate: str) -> bool:
    """At least two words, mostly letters: "Phys. 54, 235" is a venue and pages, not a title."""
    words = candidate.split()
    wordy = [w for w in words if sum(ch.isalpha() for ch in w) >= max(2, len(w) // 2)]
    return len(wordy) >= 2 and len(wordy) / len(words) >= 0.6


def _without_year(segment: str) -> str:
    return re.sub(r"[(\[]?\b(1[6-9][0-9][0-9]|20[0-9][0-9])[a-z]?\b[)\]]?", "", segment).strip(" .,")


def _ends_with_bracketed_year(segment: str) -> bool:
    return bool(re.search(r"\((1[6-9][0-9][0-9]|20[0-9][0-9])[a-z]?\)\s*[.:]?$", segment))


_AUTHOR_UNIT = r"[A-Z][\w'’-]+(?:\s[A-Z][\w'’-]+)?,\s*(?:[A-Z]\.\s?-?)+(?:[A-Z]\.)?"
_AUTHOR_PREFIX = re.compile(rf"^(?:{_AUTHOR_UNIT}\s*[,;]?\s*(?:and\s+|&\s*)?)+(?:et al\.?\s*)?[,;:]?\s+")


def _strip_author_prefix(title: str) -> str:
    """ "Stahl, H.; Appenzeller, J., Intertube coupling in ..." -> "Intertube coupling in ..." """
    match = _AUTHOR_PREFIX.match(title)
    if match and len(title[match.end():].split()) >= 2:
        return title[match.end():]
    return title


_GLUED_TAIL = re.compile(r"(?<=[a-z0-9)\]}])\.(?=[A-Z][a-z]*\.?|arXiv)|\s*arXiv(?:\s*preprint)?\s*(?:arXiv)?\s*:")


def tidy_title(title: str | None) -> str | None:
    """A title field cleaned as the parser cleans its own: for titles other parsers wrote
    ("...mod- els", "...data parallel.Proc", "...units, 2016")."""
    if not title:
        return title
    text = clean_reference_text(title)
    glued = _GLUED_TAIL.search(text)
    if glued and len(text[:glued.start()].split()) >= 2:
        text = text[:glued.start()]
    return _tidy_title(text)


def _tidy_title(title: str) -> str | None:
    title = _strip_author_prefix(title)
    title = re.sub(r"(?<=\w)[{}](?=\w)", " ", title)             # LaTeX braces glued between words
    title = title.replace("{", "").replace("}", "")
    title = re.sub(r"^\s*(1[6-9][0-9][0-9]|20[0-9][0-9])[a-z]?\s*[.:]\s*", "", title)   # a leading "2021."
    # A trailing year set off by a comma, a stop or brackets ("...units, 2016"); not one a title ends
    # with ("The Banking Act of 1933") nor a span of years ("Speeches and Writings, 1832–1858").
    title = re.sub(r"(?:[,.]\s*|\s*\()(1[6-9][0-9][0-9]|20[0-9][0-9])[a-z]?\)?\s*[.,]?\s*$", "", title)
    title = re.sub(r"\s*\b(?:In|in):?\s*$", "", title)
    title = title.strip(" .,;:-–—")
    return title if len(title) >= 3 else None


def _authors(segment: str) -> tuple[str, ...]:
    segment = _without_year(segment)
    parts = re.split(r",\s*(?:and\s+)?|\s+and\s+|\s*&\s*", segment)
    return tuple(part.strip(" .") for part in parts if part.strip(" .") and part.strip(" .").lower() != "et al")


def _venue(segments, title_index) -> str | None:
    if title_index is None or title_index + 1 >= len(segments):
        return None
    venue = re.sub(r"^(?:In|in)[: ]\s*", "", segments[title_index + 1][0]).strip(" .,")
    return venue or None
