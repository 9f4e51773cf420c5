"""The Retraction Watch database, as Crossref publishes it (CSV).

The published layout has 20 columns (Record ID, Title, Subject, Institution, Journal, Publisher,
Country, Author, URLS, ArticleType, RetractionDate, RetractionDOI, RetractionPubMedID,
OriginalPaperDate, OriginalPaperDOI, OriginalPaperPubMedID, RetractionNature, Reason, Paywalled,
Notes). The reshaped layout of the Crossref Metadata Sprint (lower-case names, list cells) is read
too. Each row is one notice about the work at OriginalPaperDOI; RetractionNature says which kind,
and the kinds stay apart: a correction is never a retraction, a reinstatement is its own event.
"""
import csv
import hashlib
import re
from collections.abc import Iterable, Iterator
from datetime import date, datetime

from citations.models import EventType
from citations.resolution.identifiers import normalise_doi
from citations.standing.events import RejectedRow, SourceEvent

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
    """(row number, event or rejection) for every data row; a bad row never stops the file."""
    reader = csv.reader(lines)
    try:
        header = next(reader)
    except StopIteration:
        return
    columns = _layout(header)
    width = len(header)
    for number, row in enumerate(reader, 2):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != width:
            yield number, RejectedRow(f"{len(row)} columns, the header has {width}")
            continue
        try:
            yield number, _event(dict(zip(header, row)), columns)
        except RejectedRow as rejected:
            yield number, rejected


def _layout(header: list[str]) -> dict:
    names = {name.strip() for name in header}
    if {"Record ID", "OriginalPaperDOI", "RetractionNature"} <= names:
        return ORIGINAL
    if {"originalpaperdoi", "retractionnature"} <= names:
        return RESHAPED
    raise RejectedRow("the header is not Retraction Watch's (Record ID, ..., OriginalPaperDOI, RetractionNature, ...)")


def _event(row: dict, columns: dict) -> SourceEvent:
    subject = _doi(row.get(columns["subject"], ""))
    if subject is None:
        raise RejectedRow("no OriginalPaperDOI: nothing to attach the notice to")
    nature = row.get(columns["nature"], "").strip().lower()
    if nature not in NATURES:
        raise RejectedRow(f"unknown RetractionNature {row.get(columns['nature'], '')!r}")
    notice = _doi(row.get(columns["notice"], ""))
    occurred = _date(row.get(columns["date"], ""))
    reason = _reason(row.get(columns["reason"], ""))
    record_id = (row.get(columns["record"]) or "").strip() if columns["record"] else ""
    if not record_id:
        # Rows of the reshaped layout lost their Record ID: a stable key from what they say.
        key = "|".join([subject, notice or "", nature, occurred.isoformat() if occurred else ""])
        record_id = "row:" + hashlib.sha1(key.encode()).hexdigest()[:20]
    elif not re.fullmatch(r"\d{1,12}", record_id):
        raise RejectedRow(f"Record ID {record_id!r} is not a number")
    return SourceEvent(record_id, NATURES[nature], subject, notice if notice != subject else None, occurred, reason)


def _doi(cell: str) -> str | None:
    cell = cell.strip()
    if cell.lower() in NO_DOI:
        return None
    doi = normalise_doi(cell)
    if doi is None:
        raise RejectedRow(f"{cell[:60]!r} is not a DOI")
    return doi


def _date(cell: str) -> date | None:
    cell = cell.strip()
    if not cell:
        return None
    for pattern in ("%m/%d/%Y %H:%M", "%m/%d/%Y", "%Y-%m-%d", "%Y-%m-%d %H:%M:%S"):
        try:
            return datetime.strptime(cell, pattern).date()
        except ValueError:
            continue
    raise RejectedRow(f"unreadable RetractionDate {cell[:30]!r}")


def _reason(cell: str) -> str:
    # "+A;+B;" in the published layout, "['+A' '+B']" in the reshaped one.
    parts = re.findall(r"\+[^;'\"\]\[]+", cell)
    if parts:
        return ";".join(part.strip() for part in parts)
    return cell.strip()
