"""Crossref works: the public data file (JSON with "items"), REST responses, lists or JSON lines.

Read per work: DOI, title, first author, container-title, volume, issue, page, issued, type; the
preprint relations (`relation.has-preprint` / `is-preprint-of`), which make a preprint and its
published version one work; and `update-to`, so a notice brings the works it updates into the
store (by DOI: a reference printing that DOI can then be linked and its standing checked).
"""
from collections.abc import Iterable, Iterator

from citations.input_files import RejectedLine
from citations.models import IdentifierKind
from citations.works.records import (
    WorkRecord,
    checked,
    doi_of,
    first_page_of,
    identifiers_of,
    short_field,
    text_field,
    year_field,
)
from citations.works.sources import json_documents

SOURCE = "crossref"
PREPRINT_RELATIONS = ("has-preprint", "is-preprint-of")
DATE_FIELDS = ("issued", "published-print", "published-online", "published", "created")


def read_works(lines: Iterable[bytes]) -> Iterator[tuple[int, WorkRecord | RejectedLine]]:
    for number, document in json_documents(lines):
        if isinstance(document, RejectedLine):
            yield number, document
            continue
        works = _works(document)
        if works is None:
            yield number, RejectedLine("not a Crossref work, response, list or data file")
            continue
        for work in works:
            if not isinstance(work, dict):
                yield number, RejectedLine("a work is not a JSON object")
                continue
            try:
                yield from ((number, record) for record in _records(work))
            except RejectedLine as error:
                yield number, error


def _works(document):
    if isinstance(document, list):
        return document
    if not isinstance(document, dict):
        return None
    if "message" in document:
        message = document["message"]
        if isinstance(message, dict) and isinstance(message.get("items"), list):
            return message["items"]
        return [message]
    if isinstance(document.get("items"), list):
        return document["items"]
    return [document] if "DOI" in document else None


def _records(work: dict) -> Iterator[WorkRecord]:
    own = doi_of(work.get("DOI"))
    if own is None:
        raise RejectedLine("a work without a valid DOI")
    related = []
    relation = work.get("relation") if isinstance(work.get("relation"), dict) else {}
    for name in PREPRINT_RELATIONS:
        for entry in relation.get(name) or []:
            if isinstance(entry, dict) and str(entry.get("id-type", "doi")).lower() == "doi":
                related.append((IdentifierKind.DOI, doi_of(entry.get("id"))))
    year, dropped = _year(work)
    authors = work.get("author") if isinstance(work.get("author"), list) else []
    first = next((a for a in authors if isinstance(a, dict) and a.get("sequence") == "first"),
                 authors[0] if authors and isinstance(authors[0], dict) else {})
    yield checked(WorkRecord(
        source=SOURCE, identifiers=identifiers_of([(IdentifierKind.DOI, own), *related]),
        title=text_field(work.get("title"), what="title", max_length=2000),
        year=year, dropped=dropped, first_author=text_field(first.get("family") or first.get("name"), what="author",
                                                  max_length=100),
        container_title=text_field(work.get("container-title"), what="container-title", max_length=1000),
        volume=short_field(work.get("volume"), what="volume"), issue=short_field(work.get("issue"), what="issue"),
        first_page=first_page_of(work.get("page")), work_type=short_field(work.get("type"), what="type"),
    ))
    # A notice names the works it updates: bring them in, known by their DOI.
    for entry in work.get("update-to") or []:
        updated = doi_of(entry.get("DOI")) if isinstance(entry, dict) else None
        if updated and updated != own:
            yield checked(WorkRecord(source=SOURCE, identifiers=identifiers_of([(IdentifierKind.DOI, updated)])))


def _year(work: dict) -> tuple[int | None, tuple[str, ...]]:
    """The year of the first date field giving a plausible one; without one, why a year given was refused."""
    dropped: list[str] = []
    for name in DATE_FIELDS:
        value = work.get(name)
        if value is None:                   # (None["date-parts"] is a TypeError: the next field)
            continue
        try:
            year = year_field(value["date-parts"][0][0], dropped)
        except (TypeError, KeyError, IndexError):
            continue
        if year:
            return year, ()
    return None, tuple(dropped[:1])
