"""`manage.py sync_standing_source` and its Celery task: a bad file is one sentence and a failed run,
never a traceback or a run that reads as succeeded."""
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from citations.jobs.processes import this_process
from citations.models import Job, StandingSourceSync
from citations.standing.sync import SyncFailed
from citations.tasks import sync_standing_source_task
from tests.standing.test_checks import CITED_DOI, HEADER, rw_row

DEEP = b"[" * 100_000 + b"]" * 100_000
HUGE_YEAR = "9" * 5000
BAD_FILES = {
    "an empty file": ("retraction_watch", b"", "the file is empty"),
    "a header only": ("retraction_watch", HEADER.encode(), "no data rows"),
    "another CSV": ("retraction_watch", b"a,b\n1,2\n", "the header is not Retraction Watch's"),
    "a cell past the csv limit": ("retraction_watch", (HEADER + rw_row(1, CITED_DOI, reason="x" * 200_000)).encode(),
                                  "a cell runs on over more than 131,072 characters (an unclosed quote?)"),
    "Latin-1 bytes": ("retraction_watch", HEADER.encode() + "1,Café\n".encode("latin-1"), "is not UTF-8 text"),
    "JSON cut in half": ("crossref", b'{"message": {"DOI": "10.1000/x", "updated-by": [', "it ends in the middle"),
    "the text 42": ("crossref", b"42", "no Crossref work in the file"),
    "JSON nested 100,000 levels": ("crossref", DEEP, "the JSON is nested too deeply to read"),
}


def write(tmp_path, data: bytes):
    path = tmp_path / "source-file"
    path.write_bytes(data)
    return str(path)


@pytest.mark.parametrize("name", BAD_FILES)
def test_a_bad_file_is_one_sentence_from_the_command(db, tmp_path, name):
    source, data, why = BAD_FILES[name]
    with pytest.raises(CommandError) as refused:
        call_command("sync_standing_source", source, write(tmp_path, data))
    message = str(refused.value)
    assert message.startswith("sync #") and "failed, nothing changed: " in message and why in message
    assert "\n" not in message and "Error" not in message and len(message) < 300


def test_rows_that_cannot_be_stored_are_counted_not_raised(db, tmp_path, capsys):
    data = (HEADER + rw_row(1, CITED_DOI) + rw_row(2, "10.1000/" + "x" * 300) + rw_row(3, "10.1000/a\x00")
            + rw_row(4, CITED_DOI, when="1/1/1850")).encode()
    call_command("sync_standing_source", "retraction_watch", write(tmp_path, data), "--no-check")
    out = capsys.readouterr().out
    assert "1 events (1 new, 0 revised, 0 unchanged), 3 rows rejected" in out
    assert "rejected 1: OriginalPaperDOI is longer than 255 characters (first at 3)" in out
    assert "rejected 1: OriginalPaperDOI holds a NUL character (first at 4)" in out
    assert "rejected 1: RetractionDate 1850-01-01 is not between 1900-01-01 and 2199-12-31 (UTC) (first at 5)" in out


def test_crossref_years_of_5000_digits_are_rejected_relations(db, tmp_path, capsys):
    work = {"DOI": "10.1000/w", "updated-by": [
        {"DOI": "10.1000/n", "type": "retraction", "updated": {"date-parts": [["__year__", 1, 1]]}},
        {"DOI": "10.1000/m", "type": "correction", "updated": {"date-parts": [[2020, 1, 1]]}}]}
    data = json.dumps(work).replace('"__year__"', HUGE_YEAR).encode()
    call_command("sync_standing_source", "crossref", write(tmp_path, data), "--no-check")
    out = capsys.readouterr().out
    assert "1 works read, 1 events" in out and "1 rows rejected" in out and "is not a date" in out


def test_the_command_shows_at_most_twenty_reasons(db, tmp_path, capsys):
    data = (HEADER + rw_row(1, CITED_DOI) + "".join(rw_row(n, f"junk{n}") for n in range(2, 40))).encode()
    call_command("sync_standing_source", "retraction_watch", write(tmp_path, data), "--no-check")
    out = capsys.readouterr().out
    assert out.count("  rejected 1: ") == 20 and "and 18 other reasons" in out


def test_a_failed_sync_ends_its_task_failed(db, tmp_path):
    result = sync_standing_source_task.apply(args=("retraction_watch", write(tmp_path, b"")), throw=False)
    assert result.failed() and isinstance(result.result, SyncFailed)
    job = Job.objects.get(celery_task_id=result.id)
    assert (job.state, job.error) == ("failed", f"SyncFailed: sync #{StandingSourceSync.objects.get().pk} of "
                                                "retraction_watch failed, nothing changed: the file is empty")
    assert StandingSourceSync.objects.get().status == "failed"


def test_a_succeeded_sync_ends_its_task_succeeded_and_asks_for_checks(db, tmp_path):
    result = sync_standing_source_task.apply(
        args=("retraction_watch", write(tmp_path, (HEADER + rw_row(1, CITED_DOI)).encode())))
    assert result.successful() and result.result["status"] == "succeeded"
    assert Job.objects.get(celery_task_id=result.id).state == "succeeded"
    assert Job.objects.filter(task_name="citations.check_standing").exists()


@pytest.mark.django_db
def test_a_sync_from_the_command_line_is_a_job_with_its_counts_and_its_checks_another(tmp_path, client):
    path = write(tmp_path, (HEADER + rw_row(1, CITED_DOI)).encode())
    call_command("sync_standing_source", "retraction_watch", str(path))
    sync_job = Job.objects.get(kind="sync_standing_source")
    assert sync_job.state == "succeeded" and sync_job.arguments["source"] == "retraction_watch"
    assert sync_job.counts["status"] == "succeeded" and sync_job.counts["counts"]["events"] == 1
    check_job = Job.objects.get(kind="check_standing")
    assert check_job.state == "succeeded" and check_job.arguments["started_by"] == "command line"


@pytest.mark.django_db
def test_a_failed_sync_from_the_command_line_is_a_failed_job_saying_why(tmp_path, capsys):
    path = write(tmp_path, b"")
    with pytest.raises(CommandError):
        call_command("sync_standing_source", "retraction_watch", str(path))
    job = Job.objects.get(kind="sync_standing_source")
    assert job.state == "failed" and "the file is empty" in job.error and job.finished_at
    call_command("jobs", str(job.pk))
    assert "the file is empty" in capsys.readouterr().out


@pytest.mark.django_db
def test_a_failed_command_job_is_not_requeued_into_a_job_no_worker_can_take(tmp_path):
    with pytest.raises(CommandError):
        call_command("sync_standing_source", "retraction_watch", write(tmp_path, b""))
    job = Job.objects.get(kind="sync_standing_source")
    with pytest.raises(CommandError, match="ran in a command's own process .*run that command again"):
        call_command("jobs", "--requeue", str(job.pk))
    job.refresh_from_db()
    assert job.state == "failed"


@pytest.mark.django_db
def test_one_hop_checks_from_the_command_line_are_a_job_with_their_receipts(tmp_path, capsys):
    call_command("sync_standing_source", "retraction_watch", write(tmp_path, (HEADER + rw_row(1, CITED_DOI)).encode()),
                 "--no-check")
    call_command("check_standing", "--source", "retraction_watch")
    job = Job.objects.get(kind="check_standing")
    assert job.state == "succeeded" and job.arguments == {"sources": ["retraction_watch"], "started_by": "command line",
                                                          "process": this_process()}     # the command's own
    assert f"job {job.pk}: retraction_watch: {job.counts.get('retraction_watch', 0):,} receipts written" in \
        capsys.readouterr().out


@pytest.mark.django_db
def test_jobs_summarises_long_arguments(capsys):
    job = Job.objects.create(kind="resolve_references", arguments={"kwargs": {
        "reference_ids": [f"00000000-0000-0000-0000-{n:012d}" for n in range(50)]}})
    call_command("jobs", str(job.pk))
    out = capsys.readouterr().out
    assert "45 more (50 in all)" in out and out.count("00000000-0000") == 5
