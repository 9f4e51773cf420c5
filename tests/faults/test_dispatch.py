"""Follow-up work survives a broker that refuses it: the write says so, the sweep sends it later."""
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone
from kombu.exceptions import OperationalError

from citations.jobs.dispatch import requeue_job, sweep_jobs
from citations.jobs.planning import enqueue_job, plan_resolution
from citations.models import Job, JobChunk, JobState, PaperReference
from tests.api.conftest import curator_api  # noqa: F401 - a fixture
from tests.factories import make_paper, make_references

pytestmark = pytest.mark.usefixtures("db")


@pytest.fixture
def broker_down(monkeypatch, settings):
    """Tasks are sent to a broker (not run eagerly), and every send is refused, as by a dead Redis."""
    from celery.app.task import Task

    settings.CELERY_TASK_ALWAYS_EAGER = False
    sent = []

    def refuse(self, *args, **kwargs):
        sent.append(self.name)
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(Task, "apply_async", refuse)
    return sent


@pytest.fixture
def broker_back(monkeypatch, settings):
    """The broker answers again; here, by running each sent task in this process (as a worker would)."""
    def restore():
        from celery.app.task import Task

        monkeypatch.undo()
        settings.CELERY_TASK_ALWAYS_EAGER = True
        return Task
    return restore


@pytest.fixture
def reference():
    paper = make_paper("2601.00001")
    make_paper("2601.00002", title="Sparse attention for long documents")
    return make_references(paper, 1)[0]


def override_year(client, reference, revision=0):
    return client.post("/api/v1/overrides/", {"reference": str(reference.pk), "field": "year", "value": "2021",
                                              "reason": "the PDF says 2021", "revision": revision}, format="json")


def test_an_override_with_the_broker_down_is_committed_and_says_its_follow_up_is_pending(
        curator_api, reference, broker_down, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = override_year(curator_api, reference)
    assert response.status_code == 201
    body = response.json()
    assert body["value"] == "2021"
    assert body["follow_up"]["dispatched"] is False and "broker" in body["follow_up"]["message"]
    job = Job.objects.get(pk=body["follow_up"]["job"])
    assert job.state == JobState.QUEUED and job.dispatched_at is None
    assert job.error.startswith("dispatch pending: the broker refused")
    assert broker_down == ["curation.re_resolve_references"]


def test_a_retry_after_a_refused_dispatch_is_told_it_is_stale_not_a_500(curator_api, reference, broker_down,
                                                                         django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        first = override_year(curator_api, reference)
    again = override_year(curator_api, reference)        # the caller retries with its old revision
    assert first.status_code == 201 and again.status_code == 409


def test_the_sweep_sends_what_the_broker_refused_and_it_runs_once(curator_api, reference, broker_down, broker_back,
                                                                  django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        job_id = override_year(curator_api, reference).json()["follow_up"]["job"]
    links_before = reference.links.count()
    broker_back()
    assert sweep_jobs(now=timezone.now() + timedelta(seconds=30)) == {"sent": 1}
    job = Job.objects.get(pk=job_id)
    assert job.state == JobState.SUCCEEDED and job.dispatches == 1 and job.error == ""
    assert reference.links.count() == links_before + 1        # the re-resolution wrote its one link
    # A later sweep finds nothing due, and re-running the job would write nothing twice.
    assert sweep_jobs(now=timezone.now() + timedelta(hours=1)) == {}
    assert reference.links.count() == links_before + 1


def test_a_resolution_job_refused_by_the_broker_is_sent_chunk_by_chunk_by_the_sweep(broker_down, broker_back):
    for n in range(3):
        make_references(make_paper(f"2601.1000{n}"), 2)
    job = plan_resolution(chunk_papers=1)
    enqueue_job(job)
    assert set(JobChunk.objects.filter(job=job).values_list("dispatched_at", flat=True)) == {None}
    assert Job.objects.get(pk=job.pk).state == JobState.QUEUED
    broker_back()
    assert sweep_jobs(now=timezone.now() + timedelta(seconds=30)) == {"sent": 3}
    job.refresh_from_db()
    assert job.state == JobState.SUCCEEDED and job.done_chunks == 3
    assert sorted(set(PaperReference.objects.values_list("links__resolver_version", flat=True))) != []


def test_a_message_lost_after_it_was_accepted_is_sent_again_later(settings):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    now = timezone.now()
    job = Job.objects.create(kind="check_standing", task_name="citations.check_standing",
                             celery_task_id="lost-1", arguments={"args": [], "kwargs": {}}, total_chunks=1,
                             dispatched_at=now - timedelta(seconds=settings.JOB_REQUEUE_SECONDS - 5), dispatches=1)
    assert sweep_jobs(now=now) == {}           # not yet: it may still be waiting in a busy queue
    settings.CELERY_TASK_ALWAYS_EAGER = True
    assert sweep_jobs(now=now + timedelta(seconds=10)) == {"sent": 1}
    assert Job.objects.get(pk=job.pk).state == JobState.SUCCEEDED


def test_a_job_whose_worker_died_is_sent_again_after_the_stale_limit(settings):
    now = timezone.now()
    job = Job.objects.create(kind="check_standing", task_name="citations.check_standing",
                             celery_task_id="died-1", arguments={"args": [], "kwargs": {}}, total_chunks=1,
                             state=JobState.RUNNING, dispatched_at=now - timedelta(hours=1), dispatches=1,
                             started_at=now - timedelta(seconds=settings.JOB_STALE_SECONDS + 1))
    assert sweep_jobs(now=now) == {"sent": 1}
    assert Job.objects.get(pk=job.pk).state == JobState.SUCCEEDED


def test_a_job_never_taken_is_failed_after_the_last_dispatch_and_can_be_requeued(
        settings, broker_down, broker_back, django_capture_on_commit_callbacks):
    now = timezone.now()
    job = Job.objects.create(kind="check_standing", task_name="citations.check_standing",
                             celery_task_id="gone-1", arguments={"args": [], "kwargs": {}}, total_chunks=1,
                             dispatched_at=now - timedelta(days=1), dispatches=settings.JOB_MAX_DISPATCHES)
    assert sweep_jobs(now=now) == {"given_up": 1}
    job.refresh_from_db()
    assert job.state == JobState.FAILED and f"jobs --requeue {job.pk}" in job.error
    broker_back()
    with django_capture_on_commit_callbacks(execute=True):
        requeue_job(job_id=job.pk)
    requeued = Job.objects.get(pk=job.pk)
    assert requeued.state == JobState.SUCCEEDED and "requeued at" in requeued.error


def test_a_succeeded_job_is_not_requeued():
    job = Job.objects.create(kind="x", state=JobState.SUCCEEDED, total_chunks=1, done_chunks=1)
    with pytest.raises(ValueError, match="nothing to requeue"):
        requeue_job(job_id=job.pk)


def test_redelivery_after_a_dead_worker_takes_minutes_not_an_hour(settings):
    assert settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"] <= 600
    assert settings.CELERY_BEAT_SCHEDULE["sweep-jobs"]["schedule"] <= 60


@pytest.mark.django_db(transaction=True)      # the command commits, and sends after its commit
def test_the_jobs_command_requeues_a_failed_job_and_sweeps(capsys):
    job = Job.objects.create(kind="check_standing", task_name="citations.check_standing",
                             celery_task_id="cmd-1", arguments={"args": [], "kwargs": {}}, total_chunks=1,
                             state=JobState.FAILED, error="worker lost")
    call_command("jobs", "--requeue", str(job.pk))
    assert f"job #{job.pk} check_standing: succeeded" in capsys.readouterr().out
    call_command("jobs", "--sweep")
    assert capsys.readouterr().out.strip() == "sweep: nothing due"
    with pytest.raises(Exception, match="no job #999"):
        call_command("jobs", "--requeue", "999")


@pytest.mark.django_db(transaction=True)      # the job's message is sent on commit, as in production
def test_a_sync_with_the_broker_down_keeps_its_checks_as_a_queued_job(broker_down, tmp_path, capsys):
    from tests.standing.test_checks import CITED_DOI, HEADER, rw_row

    path = tmp_path / "retraction-watch.csv"
    path.write_bytes((HEADER + rw_row(1, CITED_DOI)).encode())
    call_command("sync_standing_source", "retraction_watch", str(path))
    out = capsys.readouterr().out
    job = Job.objects.get(task_name="citations.check_standing")
    assert f"one-hop checks: job {job.pk} queued, not yet sent" in out
    assert job.state == JobState.QUEUED and job.dispatched_at is None and broker_down == ["citations.check_standing"]


def test_a_command_killed_mid_job_leaves_a_failed_job_not_one_running_forever(db):
    import signal
    import subprocess

    from citations.jobs.processes import _start_ticks, this_process

    command = subprocess.Popen(["sleep", "60"])
    process = {**this_process(), "pid": command.pid, "start": _start_ticks(command.pid)}
    killed = Job.objects.create(kind="ingest_pdf", state=JobState.RUNNING, total_chunks=1,
                                started_at=timezone.now(), arguments={"process": process})
    alive = Job.objects.create(kind="ingest_source", state=JobState.RUNNING, total_chunks=1,
                               started_at=timezone.now(), arguments={"process": this_process()})
    assert sweep_jobs().get("command_gone", 0) == 0              # both still run
    command.send_signal(signal.SIGKILL)
    command.wait()
    assert sweep_jobs()["command_gone"] == 1
    killed.refresh_from_db()
    alive.refresh_from_db()
    assert killed.state == JobState.FAILED and f"pid {command.pid}" in killed.error and "killed?" in killed.error
    assert alive.state == JobState.RUNNING
