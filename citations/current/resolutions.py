"""Keeping reference_current_resolutions (citations/models/current.py) equal to the log's newest links.

Every writer of links calls `links_written()` in its own transaction, after the links are saved;
curation calls `curation_changed()` for the references whose overrides changed, and the standing
checks call `works_changed()` so the changes feed names the references whose notices moved. One
statement each, whatever the batch. `rebuild()` recomputes the whole table from the log: the same
rows, as the test of this module checks (tests/current/test_resolutions.py).
"""
from collections.abc import Iterable

from django.db import connection, transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from citations.models import Override
from citations.models.current import CurrentResolution
from citations.models.generations import lists_changed
from citations.time_rules import override_in_force_sql

TABLE = CurrentResolution._meta.db_table
COLUMNS = ("reference_id", "link_id", "state", "resolver_source", "cited_paper_id", "cited_work_id", "resolved_at",
           "citing_paper_id", "source", "observed_at", "reference_index", "doi", "curated", "changed_at")
_SELECT = """SELECT l.reference_id, l.id, l.state, l.resolver_source, l.cited_paper_id, l.cited_work_id, l.observed_at,
        v.paper_id, e.source, r.observed_at, r.reference_index, r.doi, {curated}, %s
    FROM paper_reference_links l
    JOIN paper_references r ON r.id = l.reference_id
    JOIN reference_extractions e ON e.id = r.extraction_id
    JOIN paper_versions v ON v.id = e.paper_version_id"""
# The curated flag: an override in force (citations/time_rules.py).
_CURATED = f"""EXISTS (SELECT 1 FROM curation_overrides o WHERE o.reference_id = {{reference}}
    AND {override_in_force_sql("o")})"""
_CHUNK = 5000


def links_written(link_ids: Iterable[int]) -> None:
    """Make these links current where they are the newest of their reference (observed_at, then id)."""
    link_ids = sorted(set(link_ids))
    if not link_ids:
        return
    _lists_changed()
    now = timezone.now()
    for start in range(0, len(link_ids), _CHUNK):
        chunk = link_ids[start:start + _CHUNK]
        marks = ", ".join(["%s"] * len(chunk))
        # One link per reference per statement (an upsert may touch a row once): the newest in the chunk.
        newest = f"""l.id IN ({marks}) AND NOT EXISTS (SELECT 1 FROM paper_reference_links m
            WHERE m.id IN ({marks}) AND m.reference_id = l.reference_id
              AND (m.observed_at > l.observed_at OR (m.observed_at = l.observed_at AND m.id > l.id)))"""
        sql = f"""INSERT INTO {TABLE} ({", ".join(COLUMNS)})
            {_SELECT.format(curated=_CURATED.format(reference="l.reference_id"))}
            WHERE {newest}
            ON CONFLICT (reference_id) DO UPDATE SET
                link_id = excluded.link_id, state = excluded.state, resolver_source = excluded.resolver_source,
                cited_paper_id = excluded.cited_paper_id, cited_work_id = excluded.cited_work_id,
                resolved_at = excluded.resolved_at, changed_at = excluded.changed_at
            WHERE excluded.resolved_at > {TABLE}.resolved_at
               OR (excluded.resolved_at = {TABLE}.resolved_at AND excluded.link_id > {TABLE}.link_id)"""
        with connection.cursor() as cursor:
            cursor.execute(sql, [now, *chunk, *chunk])


def curation_changed(reference_ids: Iterable) -> None:
    """An override was set or withdrawn: the curated flag again, and a change for the feed."""
    _lists_changed()
    in_force = Override.objects.in_force().filter(reference_id=OuterRef("reference_id"))
    CurrentResolution.objects.filter(reference_id__in=list(reference_ids)).update(
        curated=Exists(in_force), changed_at=timezone.now())


def works_changed(work_ids: Iterable) -> None:
    """The standing of these works changed: the references now linking them changed for the feed."""
    ids = list(work_ids)
    if ids:
        _lists_changed()
        CurrentResolution.objects.filter(cited_work_id__in=ids).update(changed_at=timezone.now())


@transaction.atomic
def rebuild() -> int:
    """The whole table again from the log; returns the number of rows."""
    _lists_changed()
    now = timezone.now()
    newest = """NOT EXISTS (SELECT 1 FROM paper_reference_links m WHERE m.reference_id = l.reference_id
        AND (m.observed_at > l.observed_at OR (m.observed_at = l.observed_at AND m.id > l.id)))"""
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {TABLE}")
        cursor.execute(f"""INSERT INTO {TABLE} ({", ".join(COLUMNS)})
            {_SELECT.format(curated=_CURATED.format(reference="l.reference_id"))} WHERE {newest}""", [now])
        return cursor.rowcount


def _lists_changed() -> None:
    # The API lists read this table: a change to it is a change to them, in the same transaction.
    lists_changed()
