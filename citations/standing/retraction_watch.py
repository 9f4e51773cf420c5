"""The Retraction Watch database, as Crossref publishes it (CSV).

The published layout has 20 columns (Record ID, Title, Subject, Institution, Journal, Publisher,
Country, Author, URLS, ArticleType, RetractionDate, RetractionDOI, RetractionPubMedID,
OriginalPaperDate, OriginalPaperDOI, OriginalPaperPubMedID, RetractionNature, Reason, Paywalled,
Notes). The reshaped layout of the Crossref Metadata Sprint (lower-case names, list cells) is read
too. Each row is one notice about the work at OriginalPaperDOI; RetractionNature says which kind,
and the kinds stay apart: a correction is never a retraction, a reinstatement is its own event.

A row that cannot be stored is rejected with its reason and the file goes on: no usable
OriginalPaperDOI, an unknown nature, an unreadable RetractionDate or one outside the range of
stored dates (citations/validation.py), a DOI longer than its column (255), a NUL in a stored
cell. What stops the whole file (BadFile) is what makes every later row doubtful: a header that
is not Retraction Watch's, or CSV the csv module cannot read (a cell longer than 131,072
characters is nearly always an unclosed quote that swallowed the rest of the file).
"""
import csv
import hashlib
import re
from collections.abc import Iterable, Iterator
from datetime import date, datetime

from citations.models import EventType
from citations.parsing.identifiers import normalise_doi
from citations.standing.events import DOI_LENGTH, BadFile, RejectedRow, SourceEvent, dated, storable

SOURCE = "retraction_watch"
NATURES = {
    "retraction": EventType.RETRACTION,
    "expression of concern": EventType.EXPRESSION_OF_CONCERN,
    "correction": EventType.CORRECTION,
    "reinstatement": EventType.REINSTATEMENT,
    "partial retraction": EventType.PARTIAL_RETRACTION,
}
ORIGINAL = {"record": "Record ID", "date": "RetractionDate", "notice": "RetractionDOI",
            "subject": "OriginalPaperDOI", "nature": "RetractionNature", "reason": "Reason"}
RESHAPED = {"record": None, "date": "retractiondate", "notice": "retractiondoi", "subject": "originalpaperdoi",
            "nature": "retractionnature", "reason": "reason"}
NO_DOI = {"", "unavailable", "none", "nan", "0"}


def read_rows(lines: Iterable[str]) -> Iterator[tuple[int, SourceEvent | RejectedRow]]:
    """(row number, event or rejection) for every non-blank data row; a bad row never stops the file,
    a file that is not Retraction Watch CSV raises BadFile."""
    reader = csv.reader(lines)
    rows = csv_rows(reader)
    first = next(rows, None)
    if first is None:
        return
    header = [name.strip() for name in first]
    columns = layout_of(header)
    width = len(header)
    for number, row in enumerate(rows, 2):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != width:
            yield number, RejectedRow(f"{len(row)} columns, the header has {width}")
            continue
        try:
            yield number, _event(dict(zip(header, row)), columns)
        except RejectedRow as rejected:
            yield number, rejected


def csv_rows(reader) -> Iterator[list[str]]:
    # The csv module stops at what it cannot read; after that no row can be trusted to be whole.
    try:
        yield from reader
    except csv.Error as error:
        if "field larger than field limit" in str(error):
            raise BadFile(f"line {reader.line_num:,}: a cell longer than {csv.field_size_limit():,} characters "
                          "(an unclosed quote?), so the file cannot be read as CSV") from None
        raise BadFile(f"line {reader.line_num:,}: not CSV ({error})") from None


def layout_of(header: list[str]) -> dict:
    names = {name.strip() for name in header}
    if {"Record ID", "OriginalPaperDOI", "RetractionNature"} <= names:
        return ORIGINAL
    if {"originalpaperdoi", "retractionnature"} <= names:
        return RESHAPED
    raise BadFile("the header is not Retraction Watch's (Record ID, ..., OriginalPaperDOI, RetractionNature, ...)")


def _event(row: dict, columns: dict) -> SourceEvent:
    subject = _doi(row.get(columns["subject"], ""), what="OriginalPaperDOI")
    if subject is None:
        raise RejectedRow("no OriginalPaperDOI: nothing to attach the notice to")
    nature = row.get(columns["nature"], "").strip().lower()
    if nature not in NATURES:
        raise RejectedRow(f"unknown RetractionNature {row.get(columns['nature'], '')[:40]!r}")
    notice = _doi(row.get(columns["notice"], ""), what="RetractionDOI")
    occurred = _date(row.get(columns["date"], ""))
    reason = storable(_reason(row.get(columns["reason"], "")), what="Reason")
    record_id = (row.get(columns["record"]) or "").strip() if columns["record"] else ""
    if not record_id:
        # Rows of the reshaped layout lost their Record ID: a stable key from what they say.
        key = "|".join([subject, notice or "", nature, occurred.isoformat() if occurred else ""])
        record_id = "row:" + hashlib.sha1(key.encode()).hexdigest()[:20]
    elif not re.fullmatch(r"\d{1,12}", record_id):
        raise RejectedRow(f"Record ID {record_id[:20]!r} is not a number")
    return SourceEvent(record_id, NATURES[nature], subject, notice if notice != subject else None, occurred, reason)


def _doi(cell: str, *, what: str) -> str | None:
    cell = cell.strip()
    if cell.lower() in NO_DOI:
        return None
    doi = normalise_doi(cell)
    if doi is None:
        raise RejectedRow(f"{cell[:60]!r} is not a DOI")
    return storable(doi, what=what, max_length=DOI_LENGTH)


def _date(cell: str) -> date | None:
    cell = cell.strip()
    if not cell:
        return None
    for pattern in ("%m/%d/%Y %H:%M", "%m/%d/%Y", "%Y-%m-%d", "%Y-%m-%d %H:%M:%S"):
        try:
            day = datetime.strptime(cell, pattern).date()
        except ValueError:
            continue
        return dated(day, what="RetractionDate")
    raise RejectedRow(f"unreadable RetractionDate {cell[:30]!r}")


def _reason(cell: str) -> str:
    # "+A;+B;" in the published layout, "['+A' '+B']" in the reshaped one.
    parts = re.findall(r"\+[^;'\"\]\[]+", cell)
    if parts:
        return ";".join(part.strip() for part in parts)
    return cell.strip()
