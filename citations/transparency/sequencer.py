"""From writers' pending notes to leaves, tiles and a signed checkpoint.

Writers call `note_written(kind, ids)` (citations/models/transparency.py) in their own transaction
(resolution/links.py for every link it stores, through `note_links_written`; the works store, the
standing sync and checks, the arXiv metadata and citation-count readers for their rows): one small
row per write, ids only. `publish_checkpoint()` (Celery beat every minute, and
`manage.py publish_checkpoint`) takes pending rows in id order, a batch at a time, reads the
observations back (one read per kind per batch), appends a leaf for each link, preceded by a leaf
for its reference the first time that reference is seen, and one for each other row, in the order
written, extends the tiles, and signs a checkpoint of the new size. One
sequencer at a time (a transaction-scoped advisory lock on PostgreSQL); the leaves, the deleted
pending rows and the checkpoint commit together, and the tiles it wrote before a rollback are
rewritten with the same bytes by the next run.
"""
import logging
from dataclasses import dataclass

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Max
from django.utils import timezone

from citations.models import LeafKind, LogCheckpoint, LogLeaf, LogPending, PaperReferenceLink, note_written
from citations.records.timestamps import render_z
from citations.signing import signing_key
from citations.transparency.entries import (
    FACTS,
    among,
    fact_entry,
    fact_rows,
    identifier_ids,
    link_entry,
    link_rows,
    reference_entry,
    reference_rows,
)
from citations.transparency.tiles import TileStore
from pith_verify.merkle import leaf_hash
from pith_verify.note import Checkpoint

log = logging.getLogger(__name__)
PENDING_BATCH = 200             # pending rows (writes) a transaction takes at most...
LINKS_BATCH = 10_000            # ...and rows, so each statement stays well under PostgreSQL's 65,535 parameters
LOCK_KEY = 0x70697468_6c6f67    # "pithlog": the sequencer's advisory lock
TIME_EXTENSION = "time "        # the checkpoint's publication time, as a signed extension line


def note_links_written(link_ids) -> None:
    """Queue these just-stored links (and their references) for the log, in the writer's transaction."""
    note_written(LeafKind.LINK, [int(i) for i in link_ids])


def queue_unlogged(*, batch: int = 10_000) -> int:
    """Queue, kind by kind in id order, every row not in the log yet (written before the log existed,
    or by a writer that did not note it)."""
    queued = 0
    for kind, model in [(LeafKind.LINK, PaperReferenceLink)] + [(k, f.model) for k, f in FACTS.items()]:
        waiting = {str(i) for row in LogPending.objects.filter(kind=kind).values_list("ids", flat=True) for i in row}
        after = None
        while True:
            rows = model.objects.order_by("pk")
            ids = list((rows.filter(pk__gt=after) if after is not None else rows).values_list("pk", flat=True)[:batch])
            if not ids:
                break
            logged = set(LogLeaf.objects.filter(kind=kind, observation__in=[str(i) for i in ids])
                         .values_list("observation", flat=True))
            fresh = [i if isinstance(i, int) else str(i) for i in ids if str(i) not in logged and str(i) not in waiting]
            if fresh:
                LogPending.objects.create(kind=kind, ids=fresh)
                queued += len(fresh)
            after = ids[-1]
    return queued


def tiles() -> TileStore:
    return TileStore(settings.LOG_DIR)


def log_size() -> int:
    top = LogLeaf.objects.aggregate(top=Max("leaf_index"))["top"]
    return 0 if top is None else top + 1


@dataclass
class Published:
    leaves: int
    size: int
    checkpoint: LogCheckpoint | None


def publish_checkpoint() -> Published:
    """Sequence everything pending, then sign a checkpoint of the new size (none when nothing changed)."""
    _restore_tiles()
    appended = 0
    while True:
        added = _sequence_batch()
        appended += added
        if not added:
            break
    size = log_size()
    newest = LogCheckpoint.objects.order_by("-size").first()
    if size == 0 or (newest is not None and newest.size == size):
        return Published(appended, size, newest)
    key = signing_key()
    if key is None:
        log.warning("the log holds %d leaves but no checkpoint is signed: no signing key configured", size)
        return Published(appended, size, newest)
    now = timezone.now()
    root = tiles().root_hash(size)
    saved, _ = LogCheckpoint.objects.get_or_create(size=size, defaults={
        "root_hash": root, "published_at": now, "note": signed_note(key, size, root, now)})
    # Beside the tiles too, so LOG_DIR alone is a whole C2SP log a client can read (--log DIR).
    tiles().write_checkpoint(saved.note.encode())
    return Published(appended, size, saved)


def signed_note(key, size: int, root: bytes, at) -> str:
    """A checkpoint of the tree of `size` leaves and `root`, signed, with its time."""
    return key.sign_note(Checkpoint(settings.LOG_ORIGIN, size, root, (TIME_EXTENSION + render_z(at),)).text())


def idle_since(checkpoint: LogCheckpoint) -> bool:
    """Whether the log holds nothing, sequenced or waiting, that this checkpoint does not."""
    return checkpoint.size == log_size() and not LogPending.objects.exists()


def _restore_tiles(batch: int = 50_000) -> None:
    """Tiles lost with their directory (a new volume, a restore) are written again from the leaves:
    the same leaves give the same bytes, so every checkpoint signed before still holds."""
    size, store = log_size(), tiles()
    if store.holds(size):
        return
    log.warning("the log's tiles are missing under %s: writing them again from its %d leaves", store.root, size)
    for start in range(0, size, batch):
        entries = [bytes(e) for e in LogLeaf.objects.filter(leaf_index__gte=start, leaf_index__lt=start + batch)
                   .order_by("leaf_index").values_list("entry", flat=True)]
        store.append(start, [leaf_hash(e) for e in entries], entries)


def _sequence_batch() -> int:
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_xact_lock(%s)", [LOCK_KEY])
        pending, taken = [], 0
        for row in LogPending.objects.order_by("id")[:PENDING_BATCH]:
            if pending and taken + len(row.ids) > LINKS_BATCH:
                break
            pending.append(row)
            taken += len(row.ids)
        if not pending:
            return 0
        by_row = {**_link_leaves(pending), **_fact_leaves(pending)}
        leaves = [leaf for row in pending for leaf in by_row.get(row.pk, [])]     # in the order written
        size, now = log_size(), timezone.now()
        _insert_leaves([(size + n, kind, observation, entry, now) for n, (kind, observation, entry) in enumerate(leaves)])
        tiles().append(size, [leaf_hash(entry) for _, _, entry in leaves], [entry for _, _, entry in leaves])
        LogPending.objects.filter(pk__in=[row.pk for row in pending]).delete()
        return len(pending)


def _link_leaves(pending: list) -> dict[int, list[tuple]]:
    """The leaves of each pending row of links, by its id: each link preceded by its reference's leaf
    the first time that reference is seen."""
    link_ids = [i for row in pending if row.kind == LeafKind.LINK for i in row.ids]
    if not link_ids:
        return {}
    links = link_rows(link_ids)
    reference_ids = {str(link["reference_id"]) for link in links.values()}
    logged = set(LogLeaf.objects.filter(kind=LeafKind.LINK, observation__in=[str(i) for i in links])
                 .values_list("observation", flat=True))
    logged |= set(LogLeaf.objects.filter(kind=LeafKind.REFERENCE, observation__in=reference_ids)
                  .values_list("observation", flat=True))
    references = reference_rows(reference_ids)
    leaves = {}
    for row in pending:
        if row.kind != LeafKind.LINK:
            continue
        mine = leaves[row.pk] = []
        for link_id in row.ids:
            link = links.get(link_id)
            if link is None or str(link_id) in logged:     # purged since, or logged by an earlier run
                continue
            reference = str(link["reference_id"])
            if reference not in logged:
                mine.append((LeafKind.REFERENCE, reference, reference_entry(references[reference])))
                logged.add(reference)
            mine.append((LeafKind.LINK, str(link_id), link_entry(link)))
            logged.add(str(link_id))
    return leaves


def _fact_leaves(pending: list) -> dict[int, list[tuple]]:
    """The leaves of each pending row of facts, by its id: one read per kind for the whole batch."""
    named = identifier_ids(i for row in pending if row.kind == LeafKind.WORK_IDENTIFIER for i in row.ids
                           if ":" in str(i))
    wanted: dict[str, list] = {}
    for row in pending:
        if row.kind == LeafKind.WORK_IDENTIFIER:
            # The importer names its identifiers by kind and value; queue_unlogged by id.
            row.ids = [named.get(str(i), str(i)) for i in row.ids]
        if row.kind != LeafKind.LINK:
            wanted.setdefault(row.kind, []).extend(str(i) for i in row.ids)
    rows, logged = {}, set()
    for kind, ids in wanted.items():
        rows[kind] = fact_rows(kind, ids)
        column = LogLeaf._meta.get_field("observation")
        logged |= {(kind, o) for part in among(LogLeaf.objects.filter(kind=kind), column, ids)
                   for o in part.values_list("observation", flat=True)}
    leaves = {}
    for row in pending:
        if row.kind == LeafKind.LINK:
            continue
        mine = leaves[row.pk] = []
        for observation in map(str, row.ids):
            fact = rows[row.kind].get(observation)
            if fact is None or (row.kind, observation) in logged:     # purged since, or logged already
                continue
            mine.append((row.kind, observation, fact_entry(row.kind, fact)))
            logged.add((row.kind, observation))
    return leaves


def _insert_leaves(rows: list[tuple]) -> None:
    """COPY on PostgreSQL: a tenth of what building and sending multi-row INSERTs costs (bench/log.py)."""
    if connection.vendor != "postgresql":
        LogLeaf.objects.bulk_create([LogLeaf(leaf_index=i, kind=k, observation=o, entry=e, logged_at=t)
                                     for i, k, o, e, t in rows], batch_size=5000)
        return
    with connection.cursor() as cursor, cursor.copy(
            "COPY log_leaves (leaf_index, kind, observation, entry, logged_at) FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)
