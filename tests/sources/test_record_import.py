import json

import pytest
from django.apps import apps
from django.core.management import call_command
from django.core.management.base import CommandError

from citations.models import PaperSnapshot
from citations.records.canonical import canonical_bytes, context_digest, observation_digest
from citations.sources.record_import import RecordRefused, import_record
from tests.conftest import SEED_000, SEED_004


def stored_counts() -> dict[str, int]:
    return {model._meta.label: model.objects.count() for model in apps.get_app_config("citations").get_models()}


def reseal(record: dict) -> bytes:
    """Recompute every digest, so a test can change content without tripping the digest checks."""
    for observation in record["outbound"] + record["inbound"]:
        observation["observation_digest"] = observation_digest(observation)
    record["context_digest"] = context_digest(record)
    return canonical_bytes(record)


def seed(path=SEED_004) -> dict:
    return json.loads(path.read_bytes())


def test_importing_twice_changes_nothing(seeds):
    before = stored_counts()
    summary = import_record(data=SEED_004.read_bytes())
    assert not summary.changed
    assert stored_counts() == before


def test_the_seeds_can_be_imported_in_either_order(db):
    import_record(data=SEED_004.read_bytes())
    import_record(data=SEED_000.read_bytes())
    assert stored_counts()["citations.PaperReference"] == 134
    # arXiv:1604.06174 is named by both, as snapshotted on two different days.
    assert PaperSnapshot.objects.filter(paper__arxiv_id="1604.06174").count() == 2


def refused_leaving_nothing(data: bytes, message: str):
    before = stored_counts()
    with pytest.raises(RecordRefused, match=message):
        import_record(data=data)
    assert stored_counts() == before


def test_truncated_json_is_refused(seeds):
    refused_leaving_nothing(SEED_004.read_bytes()[:5000], r"not JSON \(truncated or malformed\)")


def test_a_wrong_schema_is_refused(seeds):
    record = seed()
    record["schema"] = "pith.paper-citation-record.v2"
    refused_leaving_nothing(reseal(record), "wrong schema")


def test_a_missing_key_is_refused_with_its_path(db):
    record = seed()
    del record["outbound"][3]["citation"]["cited_work"]["venue"]
    refused_leaving_nothing(reseal(record), r"outbound\[3\]\.citation\.cited_work: 'venue' is a required property")


def test_an_observation_digest_mismatch_is_refused(db):
    record = seed()
    record["outbound"][7]["citation"]["cited_work"]["year"] = 1999
    refused_leaving_nothing(canonical_bytes(record), r"outbound\[7\] .*observation_digest does not match")


def test_a_context_digest_mismatch_is_refused(db):
    record = seed()
    record["thesis"] = record["thesis"].replace("68 of 68", "68 of 69")
    refused_leaving_nothing(canonical_bytes(record), "context_digest does not match")


def test_duplicate_observation_ids_are_refused(db):
    record = seed()
    record["outbound"][1]["observation_id"] = record["outbound"][0]["observation_id"]
    refused_leaving_nothing(reseal(record), "appears twice")


def test_a_repeated_key_is_refused(db):
    data = SEED_004.read_bytes().replace(b'{"as_of":', b'{"as_of":"2026-08-07T10:28:00Z","as_of":', 1)
    refused_leaving_nothing(data, "key 'as_of' appears twice")


def test_a_record_the_store_cannot_reproduce_is_rolled_back(db):
    # Digests hold, but the thesis claims more references than the record lists.
    record = seed()
    record["thesis"] = record["thesis"].replace("68 of 68", "68 of 70")
    refused_leaving_nothing(reseal(record), r"cannot reproduce this record .* at thesis")


def test_a_record_contradicting_the_store_is_refused(seeds):
    record = seed()
    record["paper"]["title"] = "Another title"
    for observation in record["inbound"]:
        observation["citation"]["cited_paper"]["title"] = "Another title"
    refused_leaving_nothing(reseal(record), "title is 'Another title' here but 'OctoPipe")


@pytest.mark.parametrize("data, message", [
    (b"", "empty"),
    (b"\xff\xfe", "not UTF-8"),
    (b"[1, 2]", "top level is a JSON list"),
    (b'{"schema": "pith.paper-citation-record.v1"}', "not a v1 record"),
    (b'"\\ud800"', "top level is a JSON str"),
    (b"[" * 100000, "not JSON|nested too deeply"),
])
def test_bad_bytes_are_refused(db, data, message):
    refused_leaving_nothing(data, message)


def test_the_command_refuses_with_a_message_and_a_failing_exit(db, tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_bytes(SEED_004.read_bytes()[:100])
    with pytest.raises(CommandError, match="1 of 1 file"):
        call_command("import_record", str(bad))
    assert "refused, nothing written: not JSON" in capsys.readouterr().err


def test_the_command_reports_what_it_imported(db, capsys):
    call_command("import_record", str(SEED_000))
    call_command("import_record", str(SEED_000))
    out = capsys.readouterr().out
    assert "62 paper references" in out
    assert "already held; nothing changed" in out
