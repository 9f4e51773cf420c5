"""OpenAlex as a standing source: a work it marks is_retracted is a retraction, read from a stream of
JSON lines (gzip or not) that is never held whole, with bad lines counted and the good ones kept."""
import gzip
import io
import json
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st

from citations.models import Job, ScholarlyWorkEvent, StandingSourceSync
from citations.records.build import build_record
from citations.records.presentation import standing_summary
from citations.sources.record_import import import_record
from citations.standing import openalex
from citations.standing.checks import check_works
from citations.standing.events import BadFile, RejectedRow, SourceEvent, WorkRead
from citations.standing.sync import source_input, sync_standing_source
from citations.tasks import sync_standing_source_task
from tests.standing.test_checks import CITED_DOI, cites_retracted_work, notice_of  # noqa: F401
from tests.test_importers_fuzz import FUZZ, json_values, text

FIXTURE = Path(__file__).resolve().parents[1] / "works" / "fixtures" / "openalex_retracted.jsonl"
VERIFY = Path(__file__).resolve().parents[3] / "shared" / "tools" / "verify_record.py"
RETRACTED_ID, PREPRINT_ID = "W3201867536", "W3185411207"
PREPRINT_DOI = "10.48550/arxiv.2107.00002"


def work(number: int, *, retracted=False, doi=None, **fields) -> dict:
    """A work in OpenAlex's layout, cut to what a sync reads."""
    url = doi and f"https://doi.org/{doi}"
    return {"id": f"https://openalex.org/W{number}", "doi": url,
            "ids": {"openalex": f"https://openalex.org/W{number}", **({"doi": url} if doi else {})},
            "title": f"Work {number}", "primary_location": None, "locations": [], "is_retracted": retracted, **fields}


def jsonl(*documents) -> bytes:
    return b"".join(json.dumps(d).encode() + b"\n" for d in documents)


def write(tmp_path, data: bytes, name="works.jsonl") -> str:
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


def _gzip_cut() -> bytes:
    whole = gzip.compress(jsonl(*(work(n, doi=f"10.1000/{n}") for n in range(2000))))
    return whole[:len(whole) // 2]


def _gzip_corrupt() -> bytes:
    whole = bytearray(gzip.compress(jsonl(*(work(n, doi=f"10.1000/{n}") for n in range(2000)))))
    whole[len(whole) // 2:len(whole) // 2 + 64] = b"\x00" * 64
    return bytes(whole)


def sync_file(path) -> object:
    with open(path, "rb") as lines:
        return sync_standing_source(source="openalex", lines=lines, input_name=str(path))


def events_held() -> list[tuple]:
    return list(ScholarlyWorkEvent.objects.filter(source="openalex").order_by("source_record_id", "observed_at")
                .values_list("source_record_id", "event_type", "subject_doi", "notice_doi", "occurred_on", "reason"))


# --- the reader -------------------------------------------------------------------------------------------


def test_every_work_is_read_and_each_retracted_one_is_a_retraction_without_notice_date_or_reason():
    items = list(openalex.read_works(FIXTURE.open("rb")))
    assert [(n, i.record_id) for n, i in items if isinstance(i, WorkRead)] == [
        (1, RETRACTED_ID), (2, "W2741809807"), (3, PREPRINT_ID), (4, "W2964116040"), (4, "W2100837269")]
    assert [(n, i) for n, i in items if isinstance(i, SourceEvent)] == [
        (1, SourceEvent(RETRACTED_ID, "retraction", CITED_DOI, None, None, "")),
        # No DOI: the arXiv DOI of its arxiv.org location, as the checks look works up.
        (3, SourceEvent(PREPRINT_ID, "retraction", PREPRINT_DOI, None, None, "")),
        # One API page a line, its DOI normalised to lower case.
        (4, SourceEvent("W2964116040", "retraction", "10.1016/j.example.2019.04.017", None, None, ""))]


def test_the_reader_pulls_one_line_at_a_time():
    pulled = []

    def lines():
        for number in range(1, 1_000_000):
            pulled.append(number)
            yield json.dumps(work(number, retracted=number == 1, doi="10.1000/one")).encode() + b"\n"

    items = openalex.read_works(lines())
    assert isinstance(next(items)[1], WorkRead) and isinstance(next(items)[1], SourceEvent)
    assert pulled == [1]           # a reader that read ahead (or the whole file) would have pulled more


@pytest.mark.parametrize("line, reason", [
    (b"not json", "not JSON"),
    (b"42", "not a JSON object (a work, or an API page of them)"),
    (b'["W1"]', "not a JSON object (a work, or an API page of them)"),
    (b'{"results": [42]}', "a work is not a JSON object"),
    (b"\xff\xfe{}", "not UTF-8 text"),
    ('{"id": "W1", "is_retracted": true}'.encode("utf-16"), "not UTF-8 text"),     # JSON, in UTF-16
    (json.dumps({"doi": "10.1000/x", "is_retracted": True}).encode(), "no OpenAlex work id (W...)"),
    (json.dumps({"id": "https://example.org/W12", "is_retracted": False}).encode(), "no OpenAlex work id (W...)"),
    (json.dumps({"id": "W12", "title": "x"}).encode(), "no is_retracted"),
    (json.dumps({"id": "W12", "is_retracted": "true"}).encode(), "is_retracted is not true or false"),
    (json.dumps(work(12, retracted=True, doi="nonsense")).encode().replace(b"https://doi.org/nonsense", b"nonsense"),
     "'nonsense' is not a DOI"),
    (json.dumps(work(12, retracted=True, doi="10.1000/" + "x" * 300)).encode(),
     "the work's DOI is longer than 255 characters"),
    (json.dumps(work(12, retracted=True, doi="10.1000/a\x00b")).encode(), "the work's DOI holds a NUL character"),
    (json.dumps(work(12, retracted=True)).encode(),
     "a retracted work without a DOI or an arXiv location: nothing to attach the notice to"),
    (b'{"id": "W12", "is_retracted": true, "x": "' + b"y" * (4 * 1024 * 1024) + b'"}', "line longer than 4 MiB"),
])
def test_a_bad_line_is_rejected_with_its_reason(line, reason):
    (number, rejected), = list(openalex.read_works([b"\n", line + b"\n"]))
    assert number == 2 and isinstance(rejected, RejectedRow) and str(rejected) == reason


def test_a_cut_gzip_stream_is_a_bad_file_not_an_exception_of_gzip():
    with pytest.raises(BadFile, match="the file ends early after line"):
        list(openalex.read_works(gzip.GzipFile(fileobj=io.BytesIO(_gzip_cut()))))


def test_a_bad_doi_on_a_work_that_is_not_retracted_rejects_nothing():
    line = json.dumps(work(12, doi="x")).encode().replace(b"https://doi.org/x", b"not a doi")
    assert list(openalex.read_works([line])) == [(1, WorkRead(None, "W12"))]


fuzzed_work = st.fixed_dictionaries({
    "id": st.sampled_from(["https://openalex.org/W1", "W2", "https://openalex.org/works/W3", "nope"]) | json_values,
    "doi": st.sampled_from([None, "https://doi.org/10.1000/a", "10.1000/B", "doi", "10.1000/" + "x" * 300])
    | json_values,
    "is_retracted": st.booleans() | json_values,
    "locations": st.lists(st.fixed_dictionaries({"landing_page_url": st.sampled_from(
        ["https://arxiv.org/abs/2107.00002", "https://arxiv.org/abs/nonsense", "https://example.org/"]) | json_values}),
        max_size=2) | json_values})
fuzzed_line = (fuzzed_work | st.fixed_dictionaries({"results": st.lists(fuzzed_work, max_size=3)}) | json_values).map(
    lambda value: json.dumps(value).encode() + b"\n") | text.map(lambda t: t.encode() + b"\n") | st.binary(max_size=30)


@FUZZ
@given(lines=st.lists(fuzzed_line, max_size=6))
def test_any_lines_sync_or_fail_cleanly_and_a_failure_stores_nothing(db, lines):
    before = ScholarlyWorkEvent.objects.count()
    report = sync_standing_source(source="openalex", data=b"".join(lines))
    added = ScholarlyWorkEvent.objects.count() - before
    if report.status == "failed":
        assert report.error and "\n" not in report.error and added == 0
    else:
        assert report.status == "succeeded" and report.counts["works"] >= 1
        # Every event stored is one the file stated: a retraction, or a flag it no longer sets.
        assert added == report.counts["new"] + report.counts["revised"] <= (
            report.counts["accepted"] + report.counts["flags_cleared"])


# --- syncs ------------------------------------------------------------------------------------------------


def test_a_sync_stores_one_event_per_retracted_work_and_counts_every_work_read(db):
    report = sync_file(FIXTURE)
    assert report.status == "succeeded", report.error
    assert (report.counts["works"], report.counts["events"], report.counts["new"], report.counts["not_restated"],
            sum(report.rejected.values())) == (5, 3, 3, 0, 0)
    assert events_held() == [("W2964116040", "retraction", "10.1016/j.example.2019.04.017", None, None, ""),
                             (PREPRINT_ID, "retraction", PREPRINT_DOI, None, None, ""),
                             (RETRACTED_ID, "retraction", CITED_DOI, None, None, "")]


def test_a_file_of_works_none_retracted_is_a_sync_that_found_no_event(db, tmp_path):
    report = sync_file(write(tmp_path, jsonl(work(1, doi="10.1000/a"), work(2))))
    assert report.status == "succeeded" and (report.counts["works"], report.counts["events"]) == (2, 0)
    assert StandingSourceSync.objects.get(status="succeeded").source == "openalex"


def test_the_same_file_again_writes_no_event_revision(db):
    sync_file(FIXTURE)
    held = events_held()
    again = sync_file(FIXTURE)
    assert (again.counts["new"], again.counts["revised"], again.counts["unchanged"]) == (0, 0, 3)
    assert events_held() == held and ScholarlyWorkEvent.objects.count() == 3


def test_a_gzipped_file_reads_as_the_same_lines(db, tmp_path, capsys):
    path = write(tmp_path, gzip.compress(FIXTURE.read_bytes()), "part_000.gz")
    call_command("sync_standing_source", "openalex", path, "--no-check")
    out = capsys.readouterr().out
    assert "5 works read, 3 events (3 new, 0 revised, 0 unchanged), 0 rows rejected" in out
    assert [row[0] for row in events_held()] == ["W2964116040", PREPRINT_ID, RETRACTED_ID]


def test_bad_lines_are_counted_with_their_line_and_the_good_ones_kept(db, tmp_path, capsys):
    data = (jsonl(work(1, retracted=True, doi="10.1000/kept")) + b"not json\n" + b"\xff oops\n"
            + jsonl({"id": "nope", "is_retracted": True}, work(5, retracted=True), work(6, doi="10.1000/plain")))
    call_command("sync_standing_source", "openalex", write(tmp_path, data), "--no-check")
    out = capsys.readouterr().out
    assert "2 works read, 1 events (1 new, 0 revised, 0 unchanged), 4 rows rejected" in out
    for reason, line in [("not JSON", 2), ("not UTF-8 text", 3), ("no OpenAlex work id (W...)", 4),
                         ("a retracted work without a DOI or an arXiv location: nothing to attach the notice to", 5)]:
        assert f"rejected 1: {reason} (first at {line})" in out
    assert [row[:3] for row in events_held()] == [("W1", "retraction", "10.1000/kept")]


@pytest.mark.parametrize("data, why", [
    (b"", "the file is empty"),
    (b"\n \n\r\n", "the file is empty (only blank space)"),
    (b"not json\n[1]\n", "no OpenAlex work in the file: all 2 rejected (most often, 1 times: "),
    ("é".encode("latin-1") * 3 + b"\n", "no OpenAlex work in the file: all 1 rejected (most often, 1 times: not UTF-8 "
                                        "text)"),
    (jsonl({"id": "W1", "title": "an API select= without is_retracted"}),
     "no OpenAlex work in the file: all 1 rejected (most often, 1 times: no is_retracted)"),
    (_gzip_cut(), "the file ends early after line "),
    (_gzip_corrupt(), "the file is corrupt after line "),
])
def test_a_file_with_nothing_readable_fails_in_one_sentence_and_stores_nothing(db, tmp_path, data, why):
    sync_file(FIXTURE)
    before = (events_held(), StandingSourceSync.objects.filter(status="succeeded").count())
    with pytest.raises(CommandError) as refused:
        call_command("sync_standing_source", "openalex", write(tmp_path, data, "works.gz"), "--no-check")
    message = str(refused.value)
    assert message.startswith("sync #") and "failed, nothing changed: " in message and why in message, message
    assert "\n" not in message and "Error" not in message and "Traceback" not in message
    assert (events_held(), StandingSourceSync.objects.filter(status="succeeded").count()) == before
    assert StandingSourceSync.objects.latest("started_at").status == "failed"


def test_lines_of_a_cut_gzip_before_the_cut_are_not_stored_either(db, tmp_path):
    whole = gzip.compress(jsonl(work(1, retracted=True, doi="10.1000/early"),
                                *(work(n, doi=f"10.1000/{n}") for n in range(2, 3000))))
    with open(write(tmp_path, whole[:len(whole) - 200]), "rb") as raw, gzip.GzipFile(fileobj=raw) as lines:
        report = sync_standing_source(source="openalex", lines=lines)
    assert report.status == "failed" and "the file ends early" in report.error
    assert not ScholarlyWorkEvent.objects.exists()


def test_a_work_no_longer_marked_retracted_leaves_the_records_and_history_keeps_the_retraction(
        cites_retracted_work, tmp_path, capsys):
    sync_file(FIXTURE)
    check_works()
    retracted = build_record(arxiv_id="2601.00001")
    assert [(e["source"], e["event_type"]) for e in notice_of(retracted.record, 1)["events"]] == [
        ("openalex", "retraction")]
    between = timezone.now()
    # The next file marks the Hindawi paper not retracted (say OpenAlex corrected a wrong flag).
    unflagged = FIXTURE.read_bytes().replace(b'"is_retracted": true, "is_paratext"', b'"is_retracted": false, '
                                                                                    b'"is_paratext"', 1)
    call_command("sync_standing_source", "openalex", write(tmp_path, unflagged))
    out = capsys.readouterr().out
    assert "1 works an earlier sync found retracted are no longer marked so" in out
    # A new revision of the W record, observed at this sync; the retraction stays stored beside it.
    assert events_held()[0][1] == "retraction"
    assert [row[1:] for row in events_held() if row[0] == RETRACTED_ID] == [
        ("retraction", CITED_DOI, None, None, ""), ("reinstatement", CITED_DOI, None, None, openalex.CLEARED)]
    record = build_record(arxiv_id="2601.00001").record
    assert [(e["source"], e["event_type"], e["reason"]) for e in notice_of(record, 1)["events"]] == [
        ("openalex", "reinstatement", openalex.CLEARED)]
    assert 1 not in {item.reference_index for item in standing_summary(record).retracted}
    # A record as of before the sync still shows what was known then.
    before = build_record(arxiv_id="2601.00001", as_of=between).record
    assert [(e["source"], e["event_type"]) for e in notice_of(before, 1)["events"]] == [("openalex", "retraction")]
    # Read again, nothing new: the reinstatement is the record's newest revision already.
    call_command("sync_standing_source", "openalex", write(tmp_path, unflagged))
    assert len([row for row in events_held() if row[0] == RETRACTED_ID]) == 2


def test_the_file_is_read_in_full_before_a_transaction_opens(transactional_db):
    seen = []

    def lines():
        for line in FIXTURE.open("rb"):
            seen.append(connection.in_atomic_block)
            yield line

    assert sync_standing_source(source="openalex", lines=lines()).status == "succeeded"
    assert seen and not any(seen)


@pytest.mark.postgresql
def test_on_postgresql_no_transaction_is_held_open_while_the_file_is_read(transactional_db):
    held_open = []

    def lines():
        for line in FIXTURE.open("rb"):
            with connection.cursor() as cursor:
                # In autocommit each statement is its own transaction, started with it.
                cursor.execute("SELECT xact_start < query_start FROM pg_stat_activity WHERE pid = pg_backend_pid()")
                held_open.append(cursor.fetchone()[0])
            yield line

    assert sync_standing_source(source="openalex", lines=lines()).status == "succeeded"
    assert held_open and not any(held_open)


# --- streaming --------------------------------------------------------------------------------------------


def test_the_command_and_the_task_stream_the_file_never_reading_it_whole(db, tmp_path, monkeypatch):
    path = write(tmp_path, FIXTURE.read_bytes())
    assert not isinstance(source_input("openalex", path)["lines"], (bytes, list))
    for name in ("read_bytes", "read_text"):
        def whole(self, *args, _read=getattr(Path, name), **kwargs):
            assert str(self) != path, "the whole file was read"
            return _read(self, *args, **kwargs)

        monkeypatch.setattr(Path, name, whole)
    call_command("sync_standing_source", "openalex", path, "--no-check")
    result = sync_standing_source_task.apply(args=("openalex", path))
    assert result.successful() and result.result["status"] == "succeeded"
    assert Job.objects.filter(task_name="citations.check_standing").exists()


def test_memory_stays_flat_however_long_the_file(db, tmp_path):
    # 20,000 works of ~1.6 kB (the snapshot's are larger), one in 100 retracted: ~32 MB of JSON lines.
    filler = "x" * 1500
    path = tmp_path / "part_000.gz"
    with gzip.open(path, "wb", compresslevel=1) as out:
        for number in range(20_000):
            out.write(json.dumps(work(number + 1, retracted=number % 100 == 0, doi=f"10.1000/{number}",
                                      abstract=filler)).encode() + b"\n")
    tracemalloc.start()
    try:
        with gzip.open(path, "rb") as lines:
            report = sync_standing_source(source="openalex", lines=lines)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert report.status == "succeeded" and (report.counts["works"], report.counts["events"]) == (20_000, 200)
    assert peak < 4 * 1024 * 1024, f"peak {peak:,} bytes while reading ~32 MB"


# --- what readers see ---------------------------------------------------------------------------------------


def test_a_reference_to_a_work_openalex_marks_retracted_cites_a_retracted_work(cites_retracted_work, tmp_path,
                                                                               client):
    call_command("sync_standing_source", "openalex", write(tmp_path, FIXTURE.read_bytes()))    # checks too
    record = build_record(arxiv_id="2601.00001").record
    assert [s["source"] for s in record["standing_sources"]] == ["openalex"]
    notice = notice_of(record, 1)
    assert notice["state"] == "measured" and [r["source"] for r in notice["source_receipts"]] == ["openalex"]
    assert notice["events"] == [{"event_type": "retraction", "notice_doi": None, "occurred_on": None, "reason": None,
                                 "source": "openalex", "source_record_id": RETRACTED_ID, "subject_doi": CITED_DOI}]
    assert notice["observation"].startswith("1 event found in the named queried sources as of ")
    assert notice["observation"].endswith(": retraction (openalex).")
    # The preprint, held by its arXiv id only: found under its arXiv DOI.
    assert [e["subject_doi"] for e in notice_of(record, 2)["events"]] == [PREPRINT_DOI]
    assert [i.reference_index for i in standing_summary(record).retracted] == [1, 2]

    integrity = client.get("/paper/2601.00001/integrity").content.decode()
    assert "This paper cites 2 retracted works." in integrity and "openalex" in integrity
    assert integrity.count("date not given by the source") == 2
    paper = client.get("/paper/2601.00001").content.decode()
    assert "Cites a retracted work" in paper and "(retraction, OpenAlex, date not given by the source)" in paper
    page = client.get("/paper/2601.00001/citation-record").content.decode()
    assert "OpenAlex" in page and "date not given by the source" in page
    assert "<code>openalex</code>" in client.get("/evidence").content.decode()


def test_a_record_with_an_openalex_event_passes_verify_record(cites_retracted_work, tmp_path):
    if not VERIFY.exists():
        pytest.skip(f"{VERIFY} is not on this machine")
    call_command("sync_standing_source", "openalex", write(tmp_path, FIXTURE.read_bytes()))
    body = build_record(arxiv_id="2601.00001").body
    assert b'"source":"openalex"' in body
    checked = subprocess.run([sys.executable, str(VERIFY), "-"], input=body, capture_output=True, timeout=60)
    assert checked.returncode == 0, checked.stdout.decode() + checked.stderr.decode()


def test_a_record_with_an_openalex_event_reimports_as_a_no_op(cites_retracted_work, tmp_path):
    call_command("sync_standing_source", "openalex", write(tmp_path, FIXTURE.read_bytes()))
    assert not import_record(data=build_record(arxiv_id="2601.00001").body).changed
