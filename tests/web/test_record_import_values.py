"""import_record with schema-valid but impossible values: refused with a sentence, nothing written."""
import json

import pytest
from django.apps import apps
from django.core.management import call_command
from django.core.management.base import CommandError

from citations.records.canonical import canonical_bytes, context_digest, observation_digest
from tests.conftest import SEED_000, SEED_004

# The command's own job, and the counters its job rows bump, are a record of the run, not of the import.
RUN_RECORDS = {"citations.Job", "citations.JobChunk", "citations.RecordGeneration"}


def stored_counts() -> dict[str, int]:
    return {model._meta.label: model.objects.count() for model in apps.get_app_config("citations").get_models()
            if model._meta.label not in RUN_RECORDS}


def reseal(record: dict) -> bytes:
    for observation in record["outbound"] + record["inbound"]:
        observation["observation_digest"] = observation_digest(observation)
    record["context_digest"] = context_digest(record)
    return canonical_bytes(record)


def set_submitted(value):
    return lambda r: r["paper"].__setitem__("submitted_at", value)


def set_in_first_observation(*path, value):
    def change(record):
        block = record["outbound"][0]
        for key in path[:-1]:
            block = block[key]
        block[path[-1]] = value
    return change


def add_event(occurred_on):
    def change(record):
        notice = record["inbound"][0]["standing_notice"]
        notice["events"] = [{"event_type": "retraction", "notice_doi": None, "occurred_on": occurred_on,
                             "reason": None, "source": "crossref", "source_record_id": "x-1",
                             "subject_doi": "10.1/x"}]
    return change


IMPOSSIBLE = {
    "month 13, hour 25": (SEED_000, set_submitted("2026-13-45T25:61:61Z"), "is not a real time"),
    "30 February": (SEED_000, set_submitted("2026-02-30T00:00:00Z"), "is not a real time"),
    "year 0000": (SEED_000, set_submitted("0000-01-01T00:00:00Z"), "is not a real time"),
    "before 1900": (SEED_000, set_submitted("1899-12-31T23:59:59Z"), "is not between 1900-01-01 and 2199-12-31"),
    "after 2199": (SEED_000, set_in_first_observation("resolution", "observed_at", value="2200-01-01T00:00:00Z"),
                   "is not between 1900-01-01 and 2199-12-31"),
    "offset time on 30 February": (SEED_000, lambda r: r["standing_sources"][0].__setitem__(
        "observed_at", "2026-02-30T06:32:00.761636+00:00"), "is not a real time"),
    "latest_version 10^20": (SEED_000, lambda r: r["paper"].__setitem__("latest_version", 10 ** 20),
                             "larger than any value"),
    "citing version 40,000": (SEED_000, set_in_first_observation("citation", "citing_paper", "version", value=40_000),
                              "at most 32,767"),
    "measurement count 10^20": (SEED_004, lambda r: r["external_citation_measurements"][0].__setitem__(
        "count", 10 ** 20), "larger than any value"),
    "event on 30 February": (SEED_004, add_event("2026-02-30"), "is not a real date"),
    "event in year 0000": (SEED_004, add_event("0000-01-01"), "is not a real date"),
}


@pytest.mark.parametrize("case", IMPOSSIBLE)
def test_impossible_values_are_refused_and_nothing_is_written(db, tmp_path, capsys, case):
    seed, change, sentence = IMPOSSIBLE[case]
    record = json.loads(seed.read_bytes())
    change(record)
    try:
        data = reseal(record)
    except TypeError:
        # Past 64 bits no digest can be computed; the value is refused before digests are checked.
        data = json.dumps(record).encode()
    path = tmp_path / "record.json"
    path.write_bytes(data)
    before = stored_counts()
    with pytest.raises(CommandError, match="1 of 1 file"):
        call_command("import_record", str(path))
    err = capsys.readouterr().err
    assert "refused, nothing written" in err and sentence in err
    assert stored_counts() == before


def test_the_refusal_names_the_value(db, tmp_path, capsys):
    record = json.loads(SEED_000.read_bytes())
    record["paper"]["submitted_at"] = "2026-13-45T25:61:61Z"
    path = tmp_path / "record.json"
    path.write_bytes(reseal(record))
    with pytest.raises(CommandError):
        call_command("import_record", str(path))
    assert "at paper.submitted_at: '2026-13-45T25:61:61Z' is not a real time" in capsys.readouterr().err


def test_an_integer_of_5000_digits_anywhere_is_refused(db, tmp_path, capsys):
    text = SEED_000.read_text().replace('"latest_version":2', '"latest_version":' + "9" * 5000, 1)
    assert "9" * 5000 in text
    path = tmp_path / "record.json"
    path.write_text(text)
    with pytest.raises(CommandError):
        call_command("import_record", str(path))
    assert "a number has too many digits" in capsys.readouterr().err
    assert stored_counts()["citations.Paper"] == 0
