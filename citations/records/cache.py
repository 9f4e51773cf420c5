"""Serving record bodies from a cache, without ever serving a stale one.

Every write that changes what a record shows bumps a generation counter in the database, in the
writer's own transaction (`records_changed()`): a sync or a metadata import bumps the store's
("*"), a resolution or an override bumps the papers it touches. A cached body is filed under the
generations current before it was built, so a change is visible in the very next response of
every process: the web workers, the Celery workers and a command run from a shell all read the
same counters, whichever cache each one has (one per process by default, Redis when shared).
Counters are read before the record is built, so a write racing a build costs one needless
rebuild, never a stale body. Being in the writer's transaction, a bump can neither be lost
(the process dying between commit and bump) nor run ahead of its data.

The cache is an accelerator, never a dependency: when it is down, records are built from the
database and served all the same (/api/v1/health then says "cache: down").

The body keeps the as_of of its build: true of what it shows, since nothing shown has changed
since. The UTC day is part of the key, so the thesis date never lags a day. Bodies are also kept
in the process (a bounded LRU), so a hot record costs one small counter read instead of moving
its 50-100 KB body out of Redis on every request.
"""
import logging
import threading
from collections import OrderedDict
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

from citations.models.generations import generation_of
from citations.records.build import build_record
from citations.signing import Signature, sign

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class CachedRecord:
    body: bytes
    context_digest: str
    # Made once per body and kept with it, so a served record costs no signing (bench/record.py).
    signature: Signature | None = None


class LocalBodies:
    """The newest bodies this process served, by key, with the generation each was built at."""

    def __init__(self, capacity: int | None = None):
        self._entries: OrderedDict = OrderedDict()
        self._lock = threading.Lock()
        self._capacity = capacity

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
            while len(self._entries) > (self._capacity or settings.RECORD_LOCAL_ENTRIES):
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


local_bodies = LocalBodies()


def cached_record(*, arxiv_id: str) -> CachedRecord:
    """The record's canonical bytes, from a cache while nothing it shows has changed."""
    local_key = (arxiv_id, timezone.now().date().isoformat())
    generation = generation_of(arxiv_id)
    record = local_bodies.get(local_key, generation)
    if record is not None:
        return record
    shared_key = f"records:body:{arxiv_id}:{local_key[1]}:{generation[0]}:{generation[1]}"
    entry = cache_get(shared_key)
    if entry is not None and len(entry) == 3:
        record = CachedRecord(body=entry[0], context_digest=entry[1],
                              signature=Signature(*entry[2]) if entry[2] else None)
    else:
        built = build_record(arxiv_id=arxiv_id)
        signature = sign(built.body)
        record = CachedRecord(body=built.body, context_digest=built.context_digest, signature=signature)
        cache_set(shared_key, (record.body, record.context_digest,
                               (signature.key_id, signature.signature) if signature else None))
    local_bodies.put(local_key, generation, record)
    return record


def cache_get(key: str):
    try:
        return cache.get(key)
    except Exception as error:  # noqa: BLE001 - any cache failure: build from the database instead
        log.warning("record cache unavailable (%s: %s): building from the database", type(error).__name__, error)
        return None


def cache_set(key: str, value, seconds: int | None = None) -> None:
    try:
        cache.set(key, value, seconds or settings.RECORD_CACHE_SECONDS)
    except Exception as error:  # noqa: BLE001
        log.warning("record cache unavailable (%s: %s): body not cached", type(error).__name__, error)


def cache_status() -> str:
    """"ok", or "down: <why>": a real round trip through the cache."""
    probe = f"health:{timezone.now().timestamp()}"
    try:
        cache.set(probe, "1", 10)
        answered = cache.get(probe) == "1"
        cache.delete(probe)
    except Exception as error:  # noqa: BLE001
        return f"down: {type(error).__name__}"
    return "ok" if answered else "down: no answer"
