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
cell, a cell running on over more than MAX_ROW_LINES lines or 131,072 characters or to the end of
the file with its quote open (an unclosed quote: the rows it swallowed are read again). What stops the whole file (BadFile) is what
makes every later row doubtful: a header that is not Retraction Watch's, or CSV the csv module
cannot read.
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
    rows = csv_rows(lines)
    first = next(rows, None)
    if first is None:
        return
    if isinstance(first, RejectedRow):
        raise BadFile(f"the header: {first}")
    header = [name.strip() for name in first]
    columns = layout_of(header)
    width = len(header)
    for number, row in enumerate(rows, 2):
        if isinstance(row, RejectedRow):
            yield number, row
            continue
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != width:
            yield number, RejectedRow(f"{len(row)} columns, the header has {width}")
            continue
        try:
            yield number, _event(dict(zip(header, row)), columns)
        except RejectedRow as rejected:
            yield number, rejected


# A quoted cell running over more line ends is an unclosed quote, not a cell (the longest real row: 51 lines).
MAX_ROW_LINES = 1000


class _RunAway(Exception):
    """The row being read has taken more than MAX_ROW_LINES lines."""


class _Feed:
    """The lines given to the csv module, the current row's kept, so that a row running away (an
    unclosed quote swallowing the rows after it) can be rejected and the lines after its first read again."""

    def __init__(self, lines: Iterable[str], max_lines: int):
        self.lines, self.max_lines = iter(lines), max_lines
        self.again: list[str] = []      # lines to give again, first
        self.row: list[str] = []        # the lines of the row being read

    def __iter__(self):
        return self

    def __next__(self) -> str:
        if len(self.row) >= self.max_lines:
            raise _RunAway
        line = self.again.pop() if self.again else next(self.lines)
        self.row.append(line)
        return line

    def read_again_after_first(self) -> None:
        self.again.extend(reversed(self.row[1:]))
        self.row = []


def csv_rows(lines: Iterable[str], *, max_lines: int = MAX_ROW_LINES) -> Iterator[list[str] | RejectedRow]:
    """The CSV rows of these lines (csv.reader's; the first is the header), or a RejectedRow for a row whose
    quoted cell runs on past max_lines line ends or past the csv module's cell limit, or to the end of
    the file with its quote unclosed, or into the next row (a row over several lines whose cells are not
    the header's number): the lines after that row's first are then read again as rows, so an unclosed
    quote costs its own row only. A file that is not CSV at all raises BadFile."""
    feed, width = _Feed(lines, max_lines), None
    while True:
        # strict: a quote closed by anything but a comma or a line end, or open at the end of the file,
        # is an error here, so two unclosed quotes cannot close each other across the rows between them.
        reader = csv.reader(feed, strict=True)
        try:
            for row in reader:
                # A row over several lines with another number of cells than the header swallowed others.
                if len(feed.row) > 1 and width not in (None, len(row)):
                    raise _RunAway
                feed.row = []
                width = len(row) if width is None else width
                yield row
            return
        except _RunAway:
            what = f"more than {max_lines:,} lines" if len(feed.row) >= max_lines else "the next row"
        except csv.Error as error:
            if "field larger than field limit" in str(error):
                what = f"more than {csv.field_size_limit():,} characters"
            elif len(feed.row) > 1:
                what = "the end of the file" if "unexpected end of data" in str(error) else "the next row"
            elif feed.row:
                # Quotes awry within one line: read as the csv module reads them when not strict.
                row, feed.row = next(csv.reader(feed.row), []), []
                width = len(row) if width is None else width
                yield row
                continue
            else:
                raise BadFile(f"line {reader.line_num:,}: not CSV ({error})") from None
        feed.read_again_after_first()
        yield RejectedRow(f"a cell runs on over {what} (an unclosed quote?): the row is rejected, "
                          "the lines after its first are read as rows")


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
