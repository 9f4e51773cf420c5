"""Storing a decided batch of works (store_batch), in the caller's transaction: with the ORM, or on
PostgreSQL with COPY of rows written as text a chunk at a time."""
import uuid
from collections.abc import Iterable
from datetime import datetime
from itertools import islice
from operator import itemgetter

from django.db import connection

from citations.current.resolutions import works_changed
from citations.models import CitedWork, IdentifierKind, WorkIdentifier, WorkTitleKey
from citations.models.generations import records_changed
from citations.models.transparency import LeafKind, note_written
from citations.resolution.waiting import works_arrived
from citations.works import revisions
from citations.works.batch_plan import BatchPlan
from citations.works.records import WorkRecord

WORK_COLUMNS = ("id", "doi", "arxiv_id", "title", "year", "venue", "metadata_source", "snapshot_observed_at",
                "paper_id", "first_author", "container_title", "volume", "issue", "first_page", "work_type")


def store_batch(plan: BatchPlan, observed_at: datetime, *, copy: bool) -> None:
    """Write what the plan decided, in the caller's transaction, and queue the search for the
    references waiting for its works (waiting.works_arrived)."""
    works, identifiers = plan.works, plan.identifiers
    keys = [(key, work_id) for work_id, record in works for key in record.title_keys]
    if copy:
        _copy_works(works, identifiers, keys, observed_at)
    else:
        CitedWork.objects.bulk_create([_new_work(work_id, record, observed_at) for work_id, record in works],
                                      batch_size=1000)
        WorkIdentifier.objects.bulk_create(
            [WorkIdentifier(kind=kind, value=value, work_id=work_id, source=source, observed_at=observed_at)
             for kind, value, work_id, source in identifiers], batch_size=1000, ignore_conflicts=True)
        WorkTitleKey.objects.bulk_create([WorkTitleKey(key=key, work_id=work_id) for key, work_id in keys],
                                         batch_size=1000, ignore_conflicts=True)
    note_written(LeafKind.WORK, [str(work_id) for work_id, _ in works])       # for the log, in this transaction
    # Named by kind and value (neither COPY nor a bulk INSERT that skips conflicts returns ids): the
    # sequencer finds the rows; one another work holds already is that work's, logged with it.
    note_written(LeafKind.WORK_IDENTIFIER, [f"{kind}:{value}" for kind, value, _, _ in identifiers])
    revision_ids = revisions.write_revisions(plan.revised, observed_at)
    # The references waiting for these works, found by a worker (ids ascend within a batch).
    works_arrived(works=(works[0][0], works[-1][0]) if works else None, revisions=revision_ids)
    if plan.revised:
        # The record shows a work's newest titled revision; the changes feed names the references to it.
        records_changed()
        works_changed(work_id for work_id, _ in plan.revised)


def _new_work(work_id: uuid.UUID, record: WorkRecord, observed_at: datetime) -> CitedWork:
    return CitedWork(**dict(zip(WORK_COLUMNS, _work_row(work_id, record, observed_at))))


def _work_row(work_id, record: WorkRecord, observed_at) -> tuple:
    """A new work's values, in WORK_COLUMNS order."""
    doi = arxiv_id = None
    for kind, value in record.identifiers:
        if kind == IdentifierKind.DOI:
            doi = doi or value
        elif kind == IdentifierKind.ARXIV:
            arxiv_id = arxiv_id or value
    return (work_id, doi, arxiv_id, record.title, record.year, record.container_title, record.source, observed_at,
            None, record.first_author, record.container_title, record.volume, record.issue, record.first_page,
            record.work_type)


def _copy_works(works: list[tuple], identifiers: list[tuple], keys: list[tuple], observed_at: datetime) -> None:
    """The batch's rows by COPY, as text, in the order the indexes want (title keys by key), so that
    PostgreSQL does the work and Python only joins strings."""
    when = observed_at.isoformat()

    def work_rows():
        for work_id, record in works:
            row = _work_row(work_id, record, when)
            yield row if row[4] is None else row[:4] + (str(row[4]),) + row[5:]

    _copy("cited_works", WORK_COLUMNS, work_rows())
    _copy("work_identifiers", ("kind", "value", "work_id", "source", "observed_at"),
          ((kind, value, work_id, source, when) for kind, value, work_id, source in identifiers))
    # A key's fingerprint is an integer and an id is a UUID: nothing to escape. In the primary key's order.
    keys.sort(key=itemgetter(0))        # by key alone: an integer comparison, not a tuple's
    _copy_lines("work_title_keys", ("key", "work_id"), (f"{key}\t{work_id}\n" for key, work_id in keys))


# A COPY is written a chunk of rows at a time: the server reads one chunk while the next is joined.
COPY_CHUNK = 2000


def _copy(table: str, columns: tuple[str, ...], rows: Iterable[tuple]) -> None:
    """COPY rows of text values (None is NULL) into the table, in PostgreSQL's text format."""
    _copy_text(table, columns, (_rows_text(chunk, len(columns)) for chunk in _chunks(rows)))


def _copy_lines(table: str, columns: tuple[str, ...], lines: Iterable[str]) -> None:
    """COPY lines already in PostgreSQL's text format (values that need no escaping)."""
    _copy_text(table, columns, (_lines_text(table, chunk, len(columns)) for chunk in _chunks(lines)))


def _chunks(items: Iterable) -> Iterable[list]:
    items = iter(items)
    while chunk := list(islice(items, COPY_CHUNK)):
        yield chunk


def _copy_text(table: str, columns: tuple[str, ...], texts: Iterable[str]) -> None:
    """One COPY of these pieces of text, written as they are made; no statement when there are none."""
    texts = iter(texts)
    first = next(texts, None)
    if first is None:
        return
    # psycopg's own cursor (Django's has no COPY): its errors are made Django's, so that a row another
    # importer wrote meanwhile is the IntegrityError the writes are done again for.
    with connection.cursor() as cursor, connection.wrap_database_errors:
        with cursor.cursor.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
            copy.write(first)
            for text in texts:
                copy.write(text)


def _rows_text(rows: list[tuple], width: int) -> str:
    data = "".join(["\t".join(["\\N" if v is None else v for v in row]) + "\n" for row in rows])
    # No value holds a tab, a line break or a backslash (there is then one backslash per NULL, one
    # tab between values, one line break per row): the common case, written as is. Else escape each.
    nulls = sum(row.count(None) for row in rows)
    if (data.count("\t") != len(rows) * (width - 1) or data.count("\n") != len(rows)
            or data.count("\\") != nulls or "\r" in data):
        data = "".join(["\t".join(["\\N" if v is None else _escape(v) for v in row]) + "\n" for row in rows])
    return data


def _lines_text(table: str, lines: list[str], width: int) -> str:
    data = "".join(lines)
    if data.count("\t") != len(lines) * (width - 1) or data.count("\n") != len(lines) or "\\" in data or "\r" in data:
        raise ValueError(f"a {table} value holds a tab, a line break or a backslash")
    return data


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")
