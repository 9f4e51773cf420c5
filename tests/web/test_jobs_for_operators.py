"""Jobs as operators follow them (issue 31, item 13): the admin list shows errors and durations and
requeues; kinds are named one way; no job starts before it was made; imports started from the command
line are jobs too."""
import json
from datetime import timedelta

import pytest
from django.contrib.auth.models import Permission, User
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import IntegrityError, transaction
from django.utils import timezone

from citations.jobs.dispatch import dispatch_task
from citations.jobs.task_records import command_job
from citations.models import Job, JobState
from tests.sources.test_arxiv_metadata import line, metadata

JOBS = "/admin/citations/job/"


def _operator(*codenames) -> User:
    user = User.objects.create_user(f"op-{len(codenames)}", password="pw-operator-123456", is_staff=True)
    user.user_permissions.add(*Permission.objects.filter(content_type__app_label="citations", codename__in=codenames))
    return user


@pytest.fixture
def failed(db):
    created = timezone.now() - timedelta(minutes=5)
    return Job.objects.create(kind="check_standing", task_name="citations.check_standing", celery_task_id="op-1",
                              arguments={"args": [], "kwargs": {}}, total_chunks=1, state=JobState.FAILED,
                              created_at=created, started_at=created + timedelta(seconds=2),
                              finished_at=created + timedelta(seconds=95), error="ConnectionError: broker went away")


def test_the_list_shows_each_jobs_error_and_duration(client, failed):
    client.force_login(_operator("view_job"))
    html = client.get(JOBS).content.decode()
    assert "ConnectionError: broker went away" in html and "1 min 33 s" in html
    assert 'value="requeue"' not in html                  # requeuing is for those who may start jobs


def test_an_operator_requeues_a_failed_job_from_the_list(client, failed, django_capture_on_commit_callbacks):
    client.force_login(_operator("view_job", "add_job"))
    with django_capture_on_commit_callbacks(execute=True):          # sent after the commit, as in production
        response = client.post(JOBS, {"action": "requeue", "_selected_action": [failed.pk]}, follow=True)
    assert f"Job #{failed.pk} (check_standing) queued again" in response.content.decode()
    failed.refresh_from_db()
    assert failed.state == JobState.SUCCEEDED and failed.error.startswith("requeued at")   # eager workers here


def test_a_commands_own_job_is_not_requeued_but_says_what_to_run(client, db):
    with command_job("ingest_pdf", {"started_by": "command line"}) as job:
        pass
    Job.objects.filter(pk=job.pk).update(state=JobState.FAILED)
    client.force_login(_operator("view_job", "add_job"))
    response = client.post(JOBS, {"action": "requeue", "_selected_action": [job.pk]}, follow=True)
    assert "Not requeued: job #" in response.content.decode() and "run that command again" in response.content.decode()


def test_kinds_are_named_one_way(db, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):
        assert dispatch_task("citations.resolve_waiting_for_works").kind == "resolve_waiting_for_works"
    with command_job("citations.check_standing", {}) as job:
        pass
    assert job.kind == "check_standing"
    with pytest.raises(IntegrityError), transaction.atomic():
        Job.objects.create(kind="citations.resolve", total_chunks=1)


@pytest.mark.django_db(transaction=True)
def test_a_chunked_job_is_one_job_in_the_list_not_one_per_chunk():
    # Reading every list again (reparse_references) ran as 1 job and 2 "reread_chunk" jobs beside it.
    from citations.jobs.planning import enqueue_job, plan_rereading
    from tests.factories import make_paper, make_references

    for n in range(4):
        make_references(make_paper(f"2602.{n + 1:05d}"), 2)
    job = plan_rereading(chunk_papers=2)
    enqueue_job(job)
    assert [(j.kind, j.state, j.total_chunks) for j in Job.objects.all()] == [("reread", JobState.SUCCEEDED, 2)]


def test_no_job_starts_before_it_was_made(db):
    with command_job("import_works", {}) as job:
        pass
    job.refresh_from_db()
    assert job.started_at >= job.created_at
    with pytest.raises(IntegrityError), transaction.atomic():
        Job.objects.filter(pk=job.pk).update(started_at=job.created_at - timedelta(microseconds=1))


def test_imports_from_the_command_line_are_jobs(db, tmp_path, capsys):
    metadata_file = tmp_path / "metadata.jsonl"
    metadata_file.write_bytes(line(metadata("2501.00001")) + line(metadata("2501.00002")))
    call_command("import_arxiv_metadata", str(metadata_file))
    lists = tmp_path / "lists.jsonl"
    lists.write_text(json.dumps({"arxiv_id": "2501.00001", "version": 1, "source": "pdf_text",
                                 "references": [{"index": 1, "raw": "A. Author. A title of a work. 2020."}]}) + "\n")
    call_command("ingest_references", str(lists))
    works = tmp_path / "works.jsonl"
    works.write_text(json.dumps({"DOI": "10.5555/one", "title": ["One work"], "type": "journal-article"}) + "\n")
    call_command("import_works", "crossref", str(works))
    counts = tmp_path / "counts.jsonl"
    counts.write_text(json.dumps({"arxiv_id": "2501.00001", "source": "openalex", "count": 3,
                                  "observed_at": "2026-09-01T00:00:00Z"}) + "\n")
    call_command("import_citation_counts", str(counts))
    jobs = {job.kind: job for job in Job.objects.all()}
    assert {"import_arxiv_metadata", "ingest_references", "import_works", "import_citation_counts"} <= set(jobs)
    for kind in ("import_arxiv_metadata", "ingest_references", "import_works", "import_citation_counts"):
        job = jobs[kind]
        assert (job.state, job.arguments["started_by"]) == (JobState.SUCCEEDED, "command line"), kind
        assert job.counts["rejected"] == 0 and job.counts["lines"] >= 1, kind
    assert jobs["import_arxiv_metadata"].counts["lines"] == 2


def test_a_failed_import_is_a_failed_job_with_its_reason(db, tmp_path):
    missing_line = tmp_path / "works.jsonl.gz"
    missing_line.write_bytes(b"\x1f\x8b not gzip")
    with pytest.raises(CommandError, match="not valid gzip"):
        call_command("import_works", "crossref", str(missing_line))
    job = Job.objects.get(kind="import_works")
    assert job.state == JobState.FAILED and "not valid gzip" in job.error
