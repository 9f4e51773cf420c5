"""Generation counters: how every process knows a cached record body or list page is stale.

Every write that changes what a record shows bumps a counter in the database, in the writer's own
transaction (`records_changed()`): a sync or a metadata import bumps the store's ("*"), a resolution
or an override bumps the papers it touches; a write the API lists show bumps theirs. Being in the
writer's transaction, a bump can neither be lost (the process dying between commit and bump) nor run
ahead of its data. The caches that read them are citations/records/cache.py and citations/api/page_cache.py.
"""
import random
from collections.abc import Iterable

from django.db import connection, models

from citations.models.papers import Paper


class RecordGeneration(models.Model):
    """A counter bumped by every write that changes what records show: "*" for all records, or
    one paper's arXiv id. Kept in the database, in the writer's own transaction, so the bump
    commits (or rolls back) with the data it describes and every process (web, worker, command)
    sees it on its next read, whatever cache each one uses or whether the cache is up at all."""

    key = models.CharField(max_length=48, primary_key=True)
    value = models.BigIntegerField(default=0)

    class Meta:
        db_table = "record_generations"

    def __str__(self) -> str:
        return f"{self.key}: {self.value}"


STORE = "*"
LISTS = "lists:"
LIST_SHARDS = 16
LIST_KEYS = tuple(f"{LISTS}{n}" for n in range(LIST_SHARDS))
JOBS = "jobs:"
JOB_KEYS = tuple(f"{JOBS}{n}" for n in range(LIST_SHARDS))
GENERATIONS = RecordGeneration._meta.db_table


def generation_of(arxiv_id: str) -> tuple[int, int]:
    """(store generation, paper generation): one indexed read of at most two rows."""
    # Plain SQL: it is read on every request, and the ORM's query building cost more than the read.
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT key, value FROM {GENERATIONS} WHERE key IN (%s, %s)", [STORE, arxiv_id])
        found = dict(cursor.fetchall())
    return found.get(STORE, 0), found.get(arxiv_id, 0)


def records_changed(*, arxiv_ids: Iterable[str] | None = None) -> None:
    """Records of these papers (None: all records) change with the current transaction; so do the API lists."""
    keys = [STORE] if arxiv_ids is None else sorted({a for a in arxiv_ids if a})
    if not keys:
        return
    _bump(keys)


def lists_changed() -> None:
    """What the API lists show changes with the current transaction, and no record does (a new work)."""
    _bump([])


def jobs_changed() -> None:
    """What the jobs list shows changes with the current transaction (citations/models/jobs.py calls
    it on every write of a job): a counter of its own, so a running job's progress does not empty
    the cache of every other list."""
    _bump([], shards=JOBS)


def _bump(keys: list[str], *, shards: str = LISTS) -> None:
    # A list's generation is the sum of LIST_SHARDS counters, and a writer bumps one of them at
    # random: writers on many workers then seldom wait on each other's row lock, and a reader's
    # one-statement sum still changes with every committed write.
    keys = sorted({*keys, f"{shards}{random.randrange(LIST_SHARDS)}"})
    # One upsert, keys in a fixed order so two writers lock shared rows in the same order.
    # The row locks are held to the end of the writer's transaction: that is what makes a
    # reader that sees the new data also see the new generation.
    values = ", ".join(["(%s, 1)"] * len(keys))
    with connection.cursor() as cursor:
        cursor.execute(f"INSERT INTO record_generations (key, value) VALUES {values} "
                       "ON CONFLICT (key) DO UPDATE SET value = record_generations.value + 1", keys)


def lists_generation() -> int:
    """The API lists' generation: one indexed read of LIST_SHARDS rows."""
    return _sum_of(LIST_KEYS)


def jobs_generation() -> int:
    """The jobs list's generation, read as lists_generation()."""
    return _sum_of(JOB_KEYS)


def _sum_of(keys: tuple[str, ...]) -> int:
    with connection.cursor() as cursor:         # plain SQL, as generation_of
        cursor.execute(f"SELECT SUM(value) FROM {GENERATIONS} WHERE key IN ({', '.join(['%s'] * len(keys))})",
                       list(keys))
        return cursor.fetchone()[0] or 0


def records_of_papers_changed(*, paper_ids: Iterable[int]) -> None:
    """records_changed() for papers known by their ids."""
    paper_ids = {pid for pid in paper_ids if pid}
    if paper_ids:
        records_changed(arxiv_ids=Paper.objects.filter(id__in=paper_ids).values_list("arxiv_id", flat=True))
