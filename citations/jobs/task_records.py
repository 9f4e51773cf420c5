"""A job record for every Celery task run, kept by Celery's signals (see CitationsConfig.ready).

Chunked jobs (a resolution over many papers) have their own record, made when they are planned;
the chunk tasks report into it. Every other task becomes a one-chunk job of its own: what ran,
with what arguments, when, how it ended and what it returned.
"""
from contextlib import contextmanager

from celery.signals import task_failure, task_postrun, task_prerun, task_retry
from django.utils import timezone

from citations.jobs.processes import this_process
from citations.models import Job, JobState
from citations.models.jobs import job_kind


def _unrecorded(task) -> bool:
    """A task that is no job of its own says so itself, `unrecorded = True`: a chunk task (its job was
    made when it was planned: citations.tasks.ChunkTask), the sweep that runs every minute (what it
    sends is recorded), curation's count of its queues."""
    return getattr(task, "unrecorded", False)


def _arguments(args, kwargs) -> dict:
    return {"args": list(args or ())[:20], "kwargs": dict(kwargs or {})}


@task_prerun.connect
def job_started(task_id=None, task=None, args=None, kwargs=None, **_):
    if task is None or _unrecorded(task) or not task.name.startswith(("citations.", "curation.")):
        return
    now = timezone.now()            # one time for both: a job never starts before it was made
    job, created = Job.objects.get_or_create(
        celery_task_id=task_id,
        defaults={"kind": job_kind(task.name), "arguments": _arguments(args, kwargs), "state": JobState.RUNNING,
                  "total_chunks": 1, "created_at": now, "started_at": now})
    if not created:      # a retry, or a redelivery after a lost worker
        Job.objects.filter(pk=job.pk).update(state=JobState.RUNNING, started_at=max(now, job.created_at))


@task_postrun.connect
def job_finished(task_id=None, task=None, retval=None, state=None, **_):
    if task is None or _unrecorded(task):
        return
    if state == "SUCCESS":
        counts = retval if isinstance(retval, dict) else {"result": str(retval)[:200]}
        Job.objects.filter(celery_task_id=task_id).update(state=JobState.SUCCEEDED, done_chunks=1, counts=counts,
                                                          finished_at=timezone.now())


@task_retry.connect
def job_retrying(request=None, reason=None, **_):
    Job.objects.filter(celery_task_id=getattr(request, "id", None)).update(error=f"retrying: {reason}"[:2000])


@task_failure.connect
def job_failed(task_id=None, exception=None, sender=None, **_):
    if sender is not None and _unrecorded(sender):
        return
    Job.objects.filter(celery_task_id=task_id).update(state=JobState.FAILED, finished_at=timezone.now(),
                                                      error=f"{type(exception).__name__}: {exception}"[:2000])


@contextmanager
def command_job(kind: str, arguments: dict):
    """Work a command does in its own process, recorded as a job like the workers' (manage.py jobs, the
    admin, /api/v1/jobs/): running while the block runs, then succeeded with the counts the block put in
    job.counts, or failed with the error that left it (which is raised on). It names its process, so
    the sweep fails it if the process is killed before it ends (citations/jobs/processes.py)."""
    now = timezone.now()
    job = Job.objects.create(kind=job_kind(kind), arguments={**arguments, "process": this_process()},
                             state=JobState.RUNNING, total_chunks=1, created_at=now, started_at=now)
    try:
        yield job
    except BaseException as error:
        Job.objects.filter(pk=job.pk).update(state=JobState.FAILED, finished_at=timezone.now(), counts=job.counts,
                                             error=f"{type(error).__name__}: {error}"[:2000])
        raise
    Job.objects.filter(pk=job.pk).update(state=JobState.SUCCEEDED, done_chunks=1, finished_at=timezone.now(),
                                         counts=job.counts)


def summarised(arguments: dict, *, shown: int = 5) -> dict:
    """Job arguments for people: a long list is its first few items and how many there are."""
    def short(value):
        if isinstance(value, list) and len(value) > shown:
            return [*value[:shown], f"... {len(value) - shown:,} more ({len(value):,} in all)"]
        if isinstance(value, dict):
            return {k: short(v) for k, v in value.items()}
        return value
    return short(arguments or {})
