"""The log of the observation store: every reference, link and fact a record shows, in write order, in RFC 6962 tiles."""
import json

import pytest

from citations.models import (
    LeafKind,
    LogCheckpoint,
    LogLeaf,
    LogPending,
    PaperReference,
    PaperReferenceLink,
    PaperSnapshot,
)
from citations.transparency.sequencer import publish_checkpoint, tiles
from pith_verify.merkle import leaf_hash, root_of, unbundle
from pith_verify.note import Checkpoint, PublicKey, open_note
from tests.factories import make_paper, make_references


@pytest.fixture
def papers(db):
    first, second = make_paper("2603.00001"), make_paper("2603.00002")
    make_references(first, 3)
    make_references(second, 2)
    return first, second


def test_every_reference_and_link_is_logged_once_in_write_order(papers, signing_key):
    published = publish_checkpoint()
    links = list(PaperReferenceLink.objects.order_by("id"))
    leaves = list(LogLeaf.objects.order_by("leaf_index"))
    snapshots = [str(pk) for pk in PaperSnapshot.objects.order_by("id").values_list("id", flat=True)]
    assert published.size == len(leaves) == len(snapshots) + PaperReference.objects.count() + len(links)
    # The papers' snapshots as written first; each link after its reference, the first time that reference is seen.
    expected = [(LeafKind.SNAPSHOT, pk) for pk in snapshots]
    for link in links:
        expected += [(LeafKind.REFERENCE, str(link.reference_id)), (LeafKind.LINK, str(link.pk))]
    assert [(leaf.kind, leaf.observation) for leaf in leaves] == expected
    assert not LogPending.objects.exists()
    assert publish_checkpoint().leaves == 0 and LogCheckpoint.objects.count() == 1   # nothing new, nothing signed


def test_the_checkpoint_is_a_signed_note_of_the_tiles_root(papers, signing_key):
    checkpoint = publish_checkpoint().checkpoint
    text = open_note(checkpoint.note, [PublicKey(signing_key.name, signing_key.public)])
    parsed = Checkpoint.parse(text)
    leaves = [bytes(leaf.entry) for leaf in LogLeaf.objects.order_by("leaf_index")]
    assert parsed.size == len(leaves) and parsed.root == root_of([leaf_hash(e) for e in leaves])
    assert parsed.extensions[0].startswith("time ")
    assert unbundle(tiles().read("entries", 0, len(leaves))) == leaves
    entry = json.loads(leaves[2])
    assert entry["kind"] == "reference" and entry["citing_arxiv_id"] == "2603.00001"
    assert json.loads(leaves[0])["kind"] == "snapshot" and json.loads(leaves[0])["arxiv_id"] == "2603.00001"


def test_a_later_write_extends_the_log_and_a_new_checkpoint_follows(papers, signing_key):
    first = publish_checkpoint().checkpoint
    make_references(make_paper("2603.00003"), 4)
    second = publish_checkpoint().checkpoint
    assert second.size == first.size + 9 and second.published_at >= first.published_at


def test_a_backfill_logs_what_was_written_before_the_log_and_nothing_twice(papers, signing_key, settings):
    settings.LOG_OBSERVATIONS = False
    make_references(make_paper("2603.00003"), 2)          # written with the log off
    settings.LOG_OBSERVATIONS = True
    publish_checkpoint()
    assert LogLeaf.objects.count() == 12
    from citations.transparency.sequencer import queue_unlogged

    assert queue_unlogged() == 3 and queue_unlogged() == 0   # two links (with their references), a snapshot
    assert publish_checkpoint().size == 17


def test_lost_tiles_are_written_again_from_the_leaves_with_the_same_root(papers, signing_key, settings):
    import shutil

    first = publish_checkpoint().checkpoint
    shutil.rmtree(settings.LOG_DIR / "tile")
    make_references(make_paper("2603.00003"), 1)
    second = publish_checkpoint().checkpoint
    assert tiles().root_hash(first.size) == bytes(first.root_hash) and second.size == first.size + 3
