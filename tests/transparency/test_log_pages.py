"""The log served read-only: the newest checkpoint, immutable tiles, and a record's proofs when they exist."""
import pytest
from django.utils import timezone

from citations.transparency.sequencer import publish_checkpoint
from pith_verify.merkle import TILE_WIDTH
from tests.factories import make_paper, make_references


@pytest.fixture
def logged(db, signing_key):
    make_references(make_paper("2603.00001"), 130)          # 261 leaves (a snapshot, 130 references and links): a full tile and a partial one
    return publish_checkpoint().checkpoint


def test_tiles_are_served_as_immutable_and_nothing_else_is(client, logged, settings):
    full = client.get("/log/tile/0/000")
    assert full.status_code == 200 and len(b"".join(full.streaming_content)) == TILE_WIDTH * 32
    assert "immutable" in full["Cache-Control"] and "max-age=31536000" in full["Cache-Control"]
    assert client.get("/log/tile/0/001.p/5").status_code == 200
    assert client.get("/log/tile/entries/001.p/5").status_code == 200
    (settings.LOG_DIR / "secret").write_text("no")
    for address in ("/log/tile/../secret", "/log/tile/0/001.p/0", "/log/tile/0/1", "/log/tile/0/000/../../../secret"):
        assert client.get(address).status_code == 404, address


def test_the_checkpoint_is_the_newest_signed_note(client, logged):
    response = client.get("/log/checkpoint")
    assert response["Content-Type"].startswith("text/plain") and response.content.decode() == logged.note
    assert response.content.decode().split("\n")[:2] == ["localhost/pith-log", "261"]


def test_proofs_wait_for_the_first_checkpoint_after_the_records_time(client, db, signing_key):
    make_references(make_paper("2603.00001"), 2)
    response = client.get("/paper/2603.00001/citation-record.proofs.json")
    assert response.status_code == 503 and response["Retry-After"] == "60"
    publish_checkpoint()
    as_of = timezone.now().strftime("%Y-%m-%dT%H:%MZ")
    assert client.get(f"/paper/2603.00001/citation-record.proofs.json?as_of={as_of}").status_code == 200


def test_no_log_no_checkpoint(client, db):
    assert client.get("/log/checkpoint").status_code == 404
