"""OpenAlex works snapshot (JSON lines, one work a line, gzip or not).

Read per work: ids (openalex, doi, pmid), title, publication_year, the first authorship, the
primary location's source (the venue), biblio (volume, issue, first page), type; and every
location's landing page and PDF URL, where preprint and published versions show (an arxiv.org
URL is the work's arXiv id, a doi.org URL another DOI of it).
"""
import re
from collections.abc import Iterable, Iterator

from citations.input_files import RejectedLine
from citations.models import IdentifierKind
from citations.works.records import (
    WorkRecord,
    arxiv_of,
    checked,
    doi_of,
    identifiers_of,
    short_field,
    text_field,
    year_field,
)
from citations.works.sources import json_documents

SOURCE = "openalex"
_OPENALEX_ID = re.compile(r"(?:https?://openalex\.org/)?(W\d{2,12})$", re.I)
_PMID = re.compile(r"(?:pubmed\.ncbi\.nlm\.nih\.gov/)?(\d{1,9})/?$")


def read_works(lines: Iterable[bytes]) -> Iterator[tuple[int, WorkRecord | RejectedLine]]:
    for number, document in json_documents(lines):
        if isinstance(document, RejectedLine):
            yield number, document
            continue
        works = document if isinstance(document, list) else \
            document.get("results") if isinstance(document, dict) and isinstance(document.get("results"), list) \
            else [document]
        for work in works:
            try:
                yield number, _record(work)
            except RejectedLine as error:
                yield number, error


def _record(work) -> WorkRecord:
    if not isinstance(work, dict):
        raise RejectedLine("a work is not a JSON object")
    ids = work.get("ids") if isinstance(work.get("ids"), dict) else {}
    match = _OPENALEX_ID.search(str(ids.get("openalex") or work.get("id") or ""))
    if match is None:
        raise RejectedLine("no OpenAlex work id (W...)")
    pairs = [(IdentifierKind.OPENALEX, match.group(1).upper()), (IdentifierKind.DOI, doi_of(ids.get("doi") or work.get("doi")))]
    pmid = _PMID.search(str(ids.get("pmid") or ""))
    if pmid:
        pairs.append((IdentifierKind.PMID, pmid.group(1)))
    locations = [work.get("primary_location")] + (work.get("locations") if isinstance(work.get("locations"), list) else [])
    for location in locations:
        if not isinstance(location, dict):
            continue
        for url in (location.get("landing_page_url"), location.get("pdf_url")):
            if isinstance(url, str):
                if "arxiv.org/" in url.lower():
                    pairs.append((IdentifierKind.ARXIV, arxiv_of(url)))
                elif "doi.org/" in url.lower():
                    pairs.append((IdentifierKind.DOI, doi_of(url)))
    first = next((a for a in work.get("authorships") or [] if isinstance(a, dict) and a.get("author_position") == "first"),
                 None)
    name = None
    if first:
        author = first.get("author") if isinstance(first.get("author"), dict) else {}
        name = _family(author.get("display_name") or first.get("raw_author_name"))
    primary = work.get("primary_location") if isinstance(work.get("primary_location"), dict) else {}
    venue = primary.get("source") if isinstance(primary.get("source"), dict) else {}
    biblio = work.get("biblio") if isinstance(work.get("biblio"), dict) else {}
    dropped: list[str] = []
    year = year_field(work.get("publication_year"), dropped)
    return checked(WorkRecord(
        source=SOURCE, identifiers=identifiers_of(pairs),
        title=text_field(work.get("title") or work.get("display_name"), what="title", max_length=2000),
        year=year, dropped=tuple(dropped), first_author=text_field(name, what="author", max_length=100),
        container_title=text_field(venue.get("display_name"), what="source", max_length=1000),
        volume=short_field(biblio.get("volume"), what="volume"), issue=short_field(biblio.get("issue"), what="issue"),
        first_page=short_field(biblio.get("first_page"), what="first page"),
        work_type=short_field(work.get("type"), what="type"),
    ))


def _family(display_name) -> str | None:
    """'Heather A. Piwowar' -> 'Piwowar': OpenAlex gives whole names only."""
    if not isinstance(display_name, str) or not display_name.strip():
        return None
    return display_name.split()[-1]
