"""What a source reader yields: one work as one source states it, checked before it is stored."""
import re
from dataclasses import dataclass
from functools import cached_property

from citations.arxiv_ids import ARXIV_DOI_PREFIX, arxiv_of
from citations.input_files import RejectedLine
from citations.models import IdentifierKind
from citations.parsing.identifiers import normalise_doi
from citations.parsing.text import title_fingerprints
from citations.time_rules import EARLIEST_YEAR
from citations.validation import LATEST, OutOfRange, clean_text, is_storable_text

LATEST_YEAR = LATEST.year                # the stored range of years (a work in press may be dated ahead)
_PAGE_RANGE = re.compile(r"\s*[-–—,]\s*")
_DOI_URL = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:)", re.I)


@dataclass(frozen=True)
class WorkRecord:
    """A work as one source states it. identifiers[0] is the source's own id for it; the others name
    the same work (its DOI, its preprint's arXiv id...), each as (kind, normalised value)."""

    source: str
    identifiers: tuple[tuple[str, str], ...]
    title: str | None = None
    year: int | None = None
    first_author: str | None = None
    container_title: str | None = None
    volume: str | None = None
    issue: str | None = None
    first_page: str | None = None
    work_type: str | None = None
    # Values the source gave that could not be stored, the work kept without them (reasons, for the report).
    dropped: tuple[str, ...] = ()

    def ids_of(self, kind: str) -> list[str]:
        return [value for k, value in self.identifiers if k == kind]

    @cached_property
    def title_keys(self) -> frozenset[int]:
        """The fingerprints of the blocking keys the work is filed under if it is new (computed once:
        the importer asks for them in its reading thread, while the database writes the batch before)."""
        return frozenset(title_fingerprints(self.title)) if self.title else frozenset()



def doi_of(text) -> str | None:
    """A normalised DOI from a DOI, a doi.org URL or 'doi:...'; None when it is none."""
    if not isinstance(text, str) or not text.strip():
        return None
    doi = normalise_doi(_DOI_URL.sub("", text.strip()))
    return doi if doi and len(doi) <= 255 else None


def identifiers_of(pairs) -> tuple[tuple[str, str], ...]:
    """(kind, value) pairs, arXiv DOIs folded into arXiv ids, without repeats, in order."""
    seen, out = set(), []
    for kind, value in pairs:
        if not value:
            continue
        if kind == IdentifierKind.DOI and value.startswith(ARXIV_DOI_PREFIX):
            kind, value = IdentifierKind.ARXIV, arxiv_of(value)
            if not value:
                continue
        if (kind, value) not in seen and len(value) <= 255:
            seen.add((kind, value))
            out.append((str(kind), value))
    return tuple(out)


def text_field(value, *, what: str, max_length: int | None = None) -> str | None:
    """Whitespace-folded text, None when empty; rejects what cannot be stored."""
    if value is None:
        return None
    if isinstance(value, list):               # Crossref gives titles and container titles as lists
        for item in value:
            if isinstance(item, str) and item.strip():
                value = item
                break
        else:
            return None
    if not isinstance(value, (str, int)):
        raise RejectedLine(f"{what} is not text")
    text = " ".join(str(value).split())
    # clean_text's checks, asked only of text that may fail them (a NUL, or beyond ASCII: a surrogate?)
    if "\x00" in text or not text.isascii():
        try:
            text = clean_text(text, what=what)
        except OutOfRange as error:
            raise RejectedLine(str(error)) from None
    if not text:
        return None
    if max_length is not None and len(text) > max_length:
        raise RejectedLine(f"{what} is longer than {max_length:,} characters")
    return text


def short_field(value, *, what: str) -> str | None:
    """A volume, issue or page: text of at most 32 characters (longer is not one, and is dropped)."""
    text = text_field(value, what=what)
    return text if text and len(text) <= 32 else None


YEAR_OUT_OF_RANGE = (f"a year not between {EARLIEST_YEAR} and {LATEST_YEAR} (0, negative, 10000...): "
                     "the work is kept with its year unknown")


def year_field(value, dropped: list | None = None) -> int | None:
    """A plausible publication year, or None. A number that is no plausible year is added to `dropped`
    (YEAR_OUT_OF_RANGE), so the report says the year was refused, not absent."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, str) and re.fullmatch(r"-?[0-9]{1,6}", value.strip()):
        value = int(value)
    if isinstance(value, int) and EARLIEST_YEAR <= value <= LATEST_YEAR:
        return value
    if isinstance(value, int) and dropped is not None:
        dropped.append(YEAR_OUT_OF_RANGE)
    return None


def first_page_of(pages) -> str | None:
    """'148' of '148-51' or '148–151'."""
    if pages is None:
        return None
    first = _PAGE_RANGE.split(str(pages).strip(), maxsplit=1)[0]
    return short_field(first, what="first page")


def checked(record: WorkRecord) -> WorkRecord:
    """The record when it can be stored: an identifier to know it by, and text that fits."""
    if not record.identifiers:
        raise RejectedLine("no identifier (DOI, arXiv id, source id) to know the work by")
    for kind, value in record.identifiers:
        if not is_storable_text(value):     # a NUL (PostgreSQL refuses it), a lone surrogate (no encoding writes it)
            try:
                clean_text(value, what=f"the {kind} identifier")
            except OutOfRange as error:
                raise RejectedLine(str(error)) from None
    if record.first_author is not None and len(record.first_author) > 100:
        raise RejectedLine("first author is longer than 100 characters")
    if record.work_type is not None and len(record.work_type) > 40:
        raise RejectedLine("type is longer than 40 characters")
    return record
