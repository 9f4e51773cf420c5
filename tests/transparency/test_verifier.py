"""The offline verifier (python -m pith_verify) on records, signatures, proofs and the log, as a client sees them."""
import contextlib
import io
import json
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from citations.models import LogLeaf, PaperReference, PaperReferenceLink
from citations.resolution.links import write_links
from citations.signing import signing_key as configured_key
from citations.transparency.sequencer import publish_checkpoint
from citations.transparency.tiles import TileStore
from pith_verify.__main__ import main as verify
from pith_verify.merkle import leaf_hash
from pith_verify.note import Checkpoint
from tests.factories import make_paper, make_references, with_works_and_standing

ROOT = Path(__file__).resolve().parents[2]


def save_record(client, arxiv_id: str, where: Path, as_of: str | None = None) -> Path:
    """The record, its .sig and its proofs as a client downloads them, in files."""
    query = f"?as_of={as_of}" if as_of else ""
    response = client.get(f"/paper/{arxiv_id}/citation-record.json{query}")
    record = where / f"{arxiv_id}.json"
    record.write_bytes(response.content)
    as_of = json.loads(response.content)["as_of"]
    (where / f"{arxiv_id}.json.sig").write_bytes(client.get(f"/paper/{arxiv_id}/citation-record.json.sig?as_of={as_of}")
                                                 .content)
    proofs = client.get(f"/paper/{arxiv_id}/citation-record.proofs.json?as_of={as_of}")
    assert proofs.status_code == 200, proofs.content
    (where / f"{arxiv_id}.json.proofs.json").write_bytes(proofs.content)
    (where / "keys.json").write_bytes(client.get("/.well-known/pith-keys.json").content)
    return record


def run(*args) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = verify([str(a) for a in args])
    return code, out.getvalue()


@pytest.fixture
def logged(db, signing_key):
    paper = make_paper("2603.00001")
    make_references(paper, 5)
    make_references(make_paper("2603.00002"), 3)
    publish_checkpoint()
    return paper


def past_minute() -> str:
    return timezone.now().strftime("%Y-%m-%dT%H:%MZ")


def test_a_record_with_its_signature_and_proofs_verifies_offline(client, logged, tmp_path):
    record = save_record(client, "2603.00001", tmp_path, past_minute())
    code, out = run(record, "--keys", tmp_path / "keys.json", "--log", settings.LOG_DIR)
    assert code == 0, out
    assert "ok    signature" in out and "ok    inclusion: 5 observations" in out and "ok    consistency" in out


def test_changed_bytes_fail_the_digests_and_the_signature(client, logged, tmp_path):
    record = save_record(client, "2603.00001", tmp_path, past_minute())
    record.write_bytes(record.read_bytes().replace(b'"reference_index":1', b'"reference_index":9'))
    code, out = run(record, "--keys", tmp_path / "keys.json")
    assert code == 1 and "observation_digest does not match" in out and "signature: does not verify" in out


def test_an_observation_not_yet_logged_is_named(client, logged, tmp_path):
    make_references(make_paper("2603.00003"), 2)    # not yet sequenced
    record = save_record(client, "2603.00003", tmp_path, None)
    code, out = run(record, "--keys", tmp_path / "keys.json")
    assert code == 1 and out.count("not in the log at all") == 5      # two references, two links, the snapshot


def test_a_back_dated_observation_is_caught_whatever_its_date_says(client, logged, tmp_path):
    as_of = past_minute()                            # the fixture's checkpoint is the first after it
    # A resolution written now, dated long before: a record as of that minute shows it...
    reference = PaperReference.objects.filter(extraction__paper_version__paper=logged).order_by("reference_index")[0]
    with transaction.atomic():
        write_links([PaperReferenceLink(reference=reference, state="unresolved", resolver_source="back-dated",
                                        observed_at=reference.observed_at + timedelta(seconds=1))])
    publish_checkpoint()
    record = save_record(client, "2603.00001", tmp_path, as_of)
    assert json.loads(record.read_bytes())["outbound"][0]["resolution"]["resolver_source"] == "back-dated"
    # ...but the log says it came after the checkpoint that follows the record's as_of.
    code, out = run(record, "--keys", tmp_path / "keys.json")
    assert code == 1 and out.count("written later than dated") == 1, out
    assert f"outbound[0] observation {reference.pk} (resolution): logged only at" in out


def test_a_truncated_or_forked_log_is_caught_by_a_client_holding_an_older_checkpoint(client, logged, tmp_path):
    held = tmp_path / "held-checkpoint"
    held.write_bytes(client.get("/log/checkpoint").content)
    keys = tmp_path / "keys.json"
    keys.write_bytes(client.get("/.well-known/pith-keys.json").content)
    make_references(make_paper("2603.00004"), 300)
    publish_checkpoint()
    assert run("--since", held, "--keys", keys, "--log", settings.LOG_DIR)[0] == 0
    # The operator rewrites an early leaf and rebuilds and signs the whole tree over it: a fork.
    entries = [bytes(leaf.entry) for leaf in LogLeaf.objects.order_by("leaf_index")]
    entries[2] = entries[2].replace(b'"state":"unresolved"', b'"state":"verified_exact"')
    assert run("--since", held, "--keys", keys, "--log", rebuilt_log(tmp_path / "forked", entries))[0] == 1
    code, out = run("--since", held, "--keys", keys, "--log", rebuilt_log(tmp_path / "forked", entries))
    assert "does not extend the checkpoint of 18" in out
    # Or truncates it to fewer leaves than the client has seen.
    code, out = run("--since", held, "--keys", keys, "--log", rebuilt_log(tmp_path / "truncated", entries[:10]))
    assert code == 1 and "the log shrank: 18 leaves before, 10 now" in out


def rebuilt_log(where: Path, entries: list[bytes]) -> Path:
    """A log of these entries, its tiles and a checkpoint signed with Pith's key, as an operator could make."""
    store = TileStore(where)
    store.append(0, [leaf_hash(e) for e in entries], entries)
    text = Checkpoint(settings.LOG_ORIGIN, len(entries), store.root_hash(len(entries)), ("time x",)).text()
    store.write_checkpoint(configured_key().sign_note(text).encode())
    return where


def test_a_record_of_250_references_verifies_with_a_work_and_a_receipt_for_each_itemized_one(client, db, signing_key,
                                                                                           tmp_path):
    """The shape bench/verifier.py times: every itemized observation carries a work statement and a receipt
    that found an event, and each of their proofs checks."""
    paper = make_paper("2603.00005")
    with_works_and_standing(make_references(paper, 250))
    publish_checkpoint()
    record = save_record(client, "2603.00005", tmp_path, past_minute())
    itemized = len(json.loads(record.read_bytes())["outbound"])
    code, out = run(record, "--keys", tmp_path / "keys.json")
    assert code == 0, out
    assert f"ok    inclusion: {itemized} observations" in out, out
    proofs = json.loads((tmp_path / "2603.00005.json.proofs.json").read_bytes())
    assert len(proofs["observations"]) == itemized > 0
    assert all(o["work"] and o["standing"][0]["events"] for o in proofs["observations"])


def test_the_verifier_needs_no_django():
    code = ("import sys, pith_verify.__main__, pith_verify.proofs; "
            "assert not any(m.split('.')[0] in ('django', 'citations', 'pith') for m in sys.modules), "
            "[m for m in sys.modules if m.startswith(('django', 'citations'))]")
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)


@pytest.mark.parametrize("seed_number", ["000", "004"])
def test_the_seed_records_verify_with_the_log_and_keep_their_bytes(client, seeds, signing_key, tmp_path, seed_number):
    from tests.conftest import SEED_000, SEED_004

    publish_checkpoint()
    seed = (SEED_000 if seed_number == "000" else SEED_004).read_bytes()
    as_of, arxiv_id = json.loads(seed)["as_of"], json.loads(seed)["paper"]["arxiv_id"]
    record = save_record(client, arxiv_id, tmp_path, as_of)
    assert record.read_bytes() == seed                   # signing and logging leave the v1 bytes alone
    code, out = run(record, "--keys", tmp_path / "keys.json", "--log", settings.LOG_DIR)
    assert code == 0, out
    from citations.transparency.audit import check_log

    assert check_log() == []


def test_the_verifier_reads_a_record_its_signature_proofs_keys_and_log_from_the_site(live_server, transactional_db,
                                                                                      signing_key):
    make_references(make_paper("2603.00001"), 3)
    publish_checkpoint()
    as_of = past_minute()
    code, out = run(f"{live_server.url}/paper/2603.00001/citation-record.json?as_of={as_of}")
    assert code == 0, out
    assert "ok    signature" in out and "ok    inclusion: 3 observations" in out
    assert "ok    consistency: the log of 7 extends the checkpoint of 7" in out


def clear_of_a_minute_boundary() -> None:
    """Wait out a minute's last seconds: a current record's as_of is its build time cut to the minute,
    and a test whose writes, checkpoint and build straddle two minutes measures the clock, not Pith."""
    second = timezone.now().second
    if second >= 55:
        time.sleep(60.5 - second)


def save_current_record(client, arxiv_id: str, where: Path) -> Path:
    """The current record (no ?as_of), its signature and its proofs, as a client downloads them."""
    response = client.get(f"/paper/{arxiv_id}/citation-record.json")
    record = where / f"{arxiv_id}.json"
    record.write_bytes(response.content)
    (where / f"{arxiv_id}.json.sig").write_bytes(client.get(f"/paper/{arxiv_id}/citation-record.json.sig").content)
    proofs = client.get(f"/paper/{arxiv_id}/citation-record.proofs.json")
    assert proofs.status_code == 200, proofs.content
    (where / f"{arxiv_id}.json.proofs.json").write_bytes(proofs.content)
    (where / "keys.json").write_bytes(client.get("/.well-known/pith-keys.json").content)
    return record


def test_the_current_record_verifies_though_it_shows_what_was_written_inside_its_as_of_minute(
        client, db, signing_key, tmp_path):
    # Its as_of is its build time cut to the minute; the links it shows were written after that.
    clear_of_a_minute_boundary()
    make_references(make_paper("2603.00001"), 4)
    publish_checkpoint()
    record = save_current_record(client, "2603.00001", tmp_path)
    code, out = run(record, "--keys", tmp_path / "keys.json")
    assert code == 0, out
    assert "ok    inclusion: 4 observations" in out


def test_an_idle_log_still_proves_a_current_record_built_after_its_newest_checkpoint(
        client, db, signing_key, tmp_path, monkeypatch):
    clear_of_a_minute_boundary()
    make_references(make_paper("2603.00001"), 2)
    publish_checkpoint()
    later = timezone.now() + timedelta(minutes=5)            # nothing written since the checkpoint
    monkeypatch.setattr(timezone, "now", lambda: later)
    record = save_current_record(client, "2603.00001", tmp_path)
    proofs = json.loads((tmp_path / "2603.00001.json.proofs.json").read_bytes())
    signed, as_of = proofs["checkpoint_published_at"], json.loads(record.read_bytes())["as_of"]
    assert parse_datetime(signed) >= parse_datetime(as_of)                # signed anew (as instants, not text)
    code, out = run(record, "--keys", tmp_path / "keys.json")
    assert code == 0, out
    # A write the log has not yet taken: no proof until the next checkpoint.
    make_references(make_paper("2603.00002"), 1)
    assert client.get("/paper/2603.00001/citation-record.proofs.json").status_code == 503


def test_a_checkpoint_signed_within_the_records_as_of_second_is_after_it(client, db, signing_key, tmp_path,
                                                                          monkeypatch):
    # As instants: "...:00.5Z" is after "...:00Z", though it sorts before it as text.
    now = timezone.now().replace(second=0, microsecond=500_000)
    monkeypatch.setattr(timezone, "now", lambda: now)
    make_references(make_paper("2603.00001"), 2)
    publish_checkpoint()
    record = save_current_record(client, "2603.00001", tmp_path)
    assert json.loads(record.read_bytes())["as_of"] == now.strftime("%Y-%m-%dT%H:%M:00Z")
    code, out = run(record, "--keys", tmp_path / "keys.json")
    assert code == 0, out
