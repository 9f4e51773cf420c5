"""A record that knows more of a held snapshot adds a revision; records as of earlier times keep their bytes."""
import json

from citations.models import PaperSnapshot
from citations.records.build import build_record
from citations.records.canonical import canonical_bytes
from citations.records.timestamps import parse_z
from citations.sources.record_import import BUILD_MINUTE, import_record
from tests.conftest import SEED_004
from tests.test_importers_fuzz import reseal

CITED = "2504.03624"


def seed_knowing_less() -> dict:
    """Seed 004 as a record that did not know the cited paper's version."""
    record = json.loads(SEED_004.read_bytes())
    for observation in record["outbound"]:
        cited = observation["citation"]["cited_paper"]
        if cited and cited["arxiv_id"] == CITED:
            cited["version"] = None
    return reseal(record)


def seed_a_day_later() -> dict:
    record = json.loads(SEED_004.read_bytes())
    record["as_of"] = "2026-08-08T10:28:00Z"
    record["thesis"] = record["thesis"].replace("7 August 2026", "8 August 2026")
    return reseal(record)


def export(as_of: str) -> bytes:
    return build_record(arxiv_id="2509.23722", as_of=parse_z(as_of) + BUILD_MINUTE).body


def test_a_completion_is_a_new_revision_and_the_earlier_record_keeps_its_bytes(db):
    less = seed_knowing_less()
    import_record(data=canonical_bytes(less))
    before = export(less["as_of"])
    assert before == canonical_bytes(less)

    later = seed_a_day_later()
    summary = import_record(data=canonical_bytes(later))
    assert summary.created.get("paper_snapshots_completed") == 1

    snapshots = PaperSnapshot.objects.filter(paper__arxiv_id=CITED).order_by("revision")
    assert [(s.revision, s.latest_version) for s in snapshots] == [(0, None), (1, 4)]
    assert snapshots[1].recorded_at == parse_z(later["as_of"])
    assert export(less["as_of"]) == before                     # history as it was, byte for byte
    assert export(later["as_of"]) == canonical_bytes(later)    # and the later record round-trips


def test_the_same_record_imported_again_adds_no_revision(db):
    import_record(data=canonical_bytes(seed_knowing_less()))
    import_record(data=canonical_bytes(seed_a_day_later()))
    import_record(data=canonical_bytes(seed_a_day_later()))
    assert PaperSnapshot.objects.filter(paper__arxiv_id=CITED).count() == 2
