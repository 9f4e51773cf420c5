"""Serving record bodies from a cache, without ever serving a stale one.

A cached body is stored with the generation counters that were current before it was built:
one for the whole store and one for its paper. Every write that changes what a record shows bumps
them after its transaction commits (`records_changed()`): a sync or a metadata import bumps the
store's, a resolution or an override bumps the papers it touches. A body is served only while its
counters are still current, so a correction shows on the very next request. Counters are read
before the record is built, so a write racing a build can only cause one needless rebuild.

The body keeps the as_of of its build: true of what it shows, since nothing shown has changed
since. The UTC day is part of the key, so the thesis date never lags a day.

Bodies are also kept in the process (a bounded LRU), so a hot record costs one small round trip
for the two counters instead of moving its 50-100 KB body out of Redis on every request.
"""
import threading
import time
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from citations.record import build_record

STORE_GENERATION = "records:generation"


@dataclass(frozen=True)
class CachedRecord:
    body: bytes
    context_digest: str


def _paper_generation(arxiv_id: str) -> str:
    return f"records:generation:{arxiv_id}"


class _LocalBodies:
    """The newest bodies this process served, by key, with the generation each was built at."""

    def __init__(self):
        self._entries: OrderedDict = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key, generation) -> CachedRecord | None:
        with self._lock:
            entry = self._entries.get(key)
            if entry is None or entry[0] != generation:
                return None
            self._entries.move_to_end(key)
            return entry[1]

    def put(self, key, generation, record: CachedRecord) -> None:
        with self._lock:
            self._entries[key] = (generation, record)
            self._entries.move_to_end(key)
            while len(self._entries) > settings.RECORD_LOCAL_ENTRIES:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


local_bodies = _LocalBodies()


def _generation(arxiv_id: str) -> tuple[int, int]:
    counters = [STORE_GENERATION, _paper_generation(arxiv_id)]
    found = cache.get_many(counters)
    for key in counters:
        if key not in found:
            # A counter never seen, or evicted: start it past any value it had, so nothing built
            # before can match it.
            cache.add(key, time.time_ns(), timeout=None)
            found[key] = cache.get(key)
    return found[STORE_GENERATION], found[_paper_generation(arxiv_id)]


def cached_record(*, arxiv_id: str) -> CachedRecord:
    """The record's canonical bytes, from a cache while nothing it shows has changed."""
    body_key = f"records:body:{arxiv_id}:{timezone.now().date().isoformat()}"
    generation = _generation(arxiv_id)
    record = local_bodies.get(body_key, generation)
    if record is not None:
        return record
    entry = cache.get(body_key)
    if entry is not None and entry[0] == generation:
        record = CachedRecord(body=entry[1], context_digest=entry[2])
    else:
        built = build_record(arxiv_id=arxiv_id)
        record = CachedRecord(body=built.body, context_digest=built.context_digest)
        cache.set(body_key, (generation, record.body, record.context_digest), settings.RECORD_CACHE_SECONDS)
    local_bodies.put(body_key, generation, record)
    return record


def records_changed(*, arxiv_ids: Iterable[str] | None = None) -> None:
    """After the current transaction commits, stop serving cached records of these papers (None: of all)."""
    keys = [STORE_GENERATION] if arxiv_ids is None else [_paper_generation(a) for a in set(arxiv_ids)]
    if keys:
        transaction.on_commit(lambda: _bump(keys))


def records_of_papers_changed(*, paper_ids: Iterable[int]) -> None:
    """records_changed() for papers known by their ids."""
    from citations.models import Paper

    paper_ids = {pid for pid in paper_ids if pid}
    if paper_ids:
        records_changed(arxiv_ids=Paper.objects.filter(id__in=paper_ids).values_list("arxiv_id", flat=True))


def _bump(keys: list[str]) -> None:
    for key in keys:
        # Counters start from the clock, so one that was evicted never comes back to an old value.
        cache.add(key, time.time_ns(), timeout=None)
        try:
            cache.incr(key)
        except ValueError:              # evicted between add and incr
            cache.set(key, time.time_ns(), timeout=None)
