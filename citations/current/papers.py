"""Keeping paper_current (citations/models/current.py) equal to the log: each paper's newest snapshot
(as its record shows it now: a completion only once recorded) and its record's outbound list (the
newest list of the highest version that has one, as citations/records/statements.py reads it).

Every writer of snapshots and reference lists calls `papers_changed()` in its own transaction; one
statement whatever the batch. `rebuild()` recomputes the table from the log: the same rows, as
tests/current/test_papers.py checks.
"""
from collections.abc import Iterable

from django.db import connection, transaction
from django.utils import timezone

from citations.models.current import PaperCurrent
from citations.models.generations import lists_changed
from citations.models.references import source_rank_sql
from citations.time_rules import newest_snapshot_sql

TABLE = PaperCurrent._meta.db_table
_CHUNK = 5000
_SELECT = """SELECT p.id,
        """ + newest_snapshot_sql("p.id", "%s") + """,
        (SELECT e.id FROM reference_extractions e JOIN paper_versions v ON v.id = e.paper_version_id
         WHERE v.paper_id = p.id AND e.observed_at <= %s
         ORDER BY v.version DESC, """ + source_rank_sql("e") + """, e.observed_at DESC, e.id DESC LIMIT 1),
        %s
    FROM papers p"""
_COLUMNS = "paper_id, snapshot_id, reference_list_id, changed_at"


def papers_changed(paper_ids: Iterable[int]) -> None:
    """These papers' snapshots or reference lists changed: their rows again, from the log."""
    ids = sorted(set(paper_ids))
    if not ids:
        return
    lists_changed()         # the papers list and the home page read this table: a change to them too
    now = timezone.now()
    for start in range(0, len(ids), _CHUNK):
        chunk = ids[start:start + _CHUNK]
        marks = ", ".join(["%s"] * len(chunk))
        with connection.cursor() as cursor:
            cursor.execute(f"""INSERT INTO {TABLE} ({_COLUMNS}) {_SELECT} WHERE p.id IN ({marks})
                ON CONFLICT (paper_id) DO UPDATE SET snapshot_id = excluded.snapshot_id,
                    reference_list_id = excluded.reference_list_id, changed_at = excluded.changed_at""",
                           [now, now, now, now, *chunk])


@transaction.atomic
def rebuild() -> int:
    """The whole table again from the log; returns the number of rows."""
    lists_changed()
    now = timezone.now()
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {TABLE}")
        cursor.execute(f"INSERT INTO {TABLE} ({_COLUMNS}) {_SELECT}", [now, now, now, now])
        return cursor.rowcount
