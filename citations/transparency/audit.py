"""The log's own consistency check: every leaf against the row it logged, and the tiles against the checkpoint.

Every kind of leaf alike: references, links, work statements, snapshots, standing events and
receipts (with the events each found), citation measurements.

An operator with database access can change an observation behind Pith's back (the append-only
triggers are theirs to disable). The leaf written when it was logged cannot be changed with it
unnoticed: its hash is in the tiles and under every signed checkpoint since. So this check
re-reads each logged row, rebuilds its entry, and names every row that no longer matches, with
the time it was logged (it was as logged then: the change came after) and the first checkpoint
holding it; and it names a leaf whose stored entry no longer hashes to the tiles, or tiles that
no longer hash to the newest checkpoint.
"""
import json
from dataclasses import dataclass

from citations.models import LeafKind, LogCheckpoint, LogLeaf, ObservationPurge
from citations.records.timestamps import render_z
from citations.transparency.entries import (
    FACTS,
    fact_entry,
    fact_rows,
    link_entry,
    link_rows,
    reference_entry,
    reference_rows,
)
from citations.transparency.sequencer import tiles
from pith_verify.merkle import HASH_SIZE, TILE_WIDTH, leaf_hash

BATCH = 2000


@dataclass(frozen=True)
class Finding:
    leaf_index: int
    kind: str
    observation: str
    problem: str

    def __str__(self) -> str:
        return f"leaf {self.leaf_index}: {self.kind} {self.observation}: {self.problem}"


def check_log() -> list[Finding]:
    """Every way the store, the leaves and the tiles disagree, leaf by leaf; [] when they all agree."""
    newest = LogCheckpoint.objects.order_by("-size").first()
    if newest is None:
        return []
    store = tiles()
    findings = []
    if store.root_hash(newest.size) != bytes(newest.root_hash):
        findings.append(Finding(-1, "log", "tiles", f"the tiles no longer hash to the checkpoint of {newest.size}"))
    checkpoints = list(LogCheckpoint.objects.order_by("size").values_list("size", "published_at"))
    read_tile = store.hashes_reader(newest.size)
    purges = list(ObservationPurge.objects.order_by("created_at"))
    start = 0
    while start < newest.size:
        leaves = list(LogLeaf.objects.filter(leaf_index__gte=start, leaf_index__lt=min(start + BATCH, newest.size))
                      .order_by("leaf_index"))
        rows = {LeafKind.REFERENCE: reference_rows(leaf.observation for leaf in leaves
                                                   if leaf.kind == LeafKind.REFERENCE),
                LeafKind.LINK: {str(i): row for i, row in link_rows(
                    int(leaf.observation) for leaf in leaves if leaf.kind == LeafKind.LINK).items()}}
        for kind in FACTS:
            rows[kind] = fact_rows(kind, [leaf.observation for leaf in leaves if leaf.kind == kind])
        for leaf in leaves:
            findings += _check_leaf(leaf, rows, read_tile, checkpoints, purges)
        start += BATCH
    return findings


def _check_leaf(leaf: LogLeaf, rows: dict, read_tile, checkpoints, purges) -> list[Finding]:
    logged = bytes(leaf.entry)
    first = next(((size, at) for size, at in checkpoints if size > leaf.leaf_index), None)
    since = (f"logged at {render_z(leaf.logged_at)}"
             + (f", in every checkpoint since the one of {first[0]} published {render_z(first[1])}" if first else ""))
    tile = read_tile(0, leaf.leaf_index // TILE_WIDTH)
    at = (leaf.leaf_index % TILE_WIDTH) * HASH_SIZE
    findings = []
    if tile[at:at + HASH_SIZE] != leaf_hash(logged):
        findings.append(Finding(leaf.leaf_index, leaf.kind, leaf.observation,
                                f"the stored entry no longer hashes to the log's leaf ({since})"))
    row = rows[leaf.kind].get(leaf.observation)
    entry = {LeafKind.REFERENCE: reference_entry, LeafKind.LINK: link_entry}.get(
        leaf.kind, lambda row: fact_entry(leaf.kind, row))
    now = entry(row) if row else None
    if now is None and not _purged(leaf, json.loads(logged), purges):
        findings.append(Finding(leaf.leaf_index, leaf.kind, leaf.observation, f"the row is gone ({since})"))
    elif now is not None and now != logged:
        was, is_ = json.loads(logged), json.loads(now)
        changed = ", ".join(f"{k} {was.get(k)!r} -> {is_.get(k)!r}" for k in sorted(was) if was.get(k) != is_.get(k)
                            and k != "content") or "a column records do not show"
        findings.append(Finding(leaf.leaf_index, leaf.kind, leaf.observation,
                                f"the row changed after it was {since}: {changed}"))
    return findings


def _purged(leaf: LogLeaf, entry: dict, purges: list[ObservationPurge]) -> bool:
    """Whether an audited purge after the leaf was logged removed its row (a takedown, not a tampering).
    Purges remove references, their links and the curators' entries on them; no other kind's row is
    ever removed."""
    if leaf.kind not in (LeafKind.REFERENCE, LeafKind.LINK, LeafKind.OVERRIDE):
        return False
    if leaf.kind in (LeafKind.LINK, LeafKind.OVERRIDE):
        reference = LogLeaf.objects.filter(kind=LeafKind.REFERENCE, observation=entry["reference"]).first()
        if reference is None:
            return False
        entry = json.loads(bytes(reference.entry))
    return any(p.arxiv_id == entry["citing_arxiv_id"] and (not p.versions or entry["citing_version"] in p.versions)
               and p.created_at >= leaf.logged_at for p in purges)
