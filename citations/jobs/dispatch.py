"""Background work that survives the broker: the job row is the durable record, the message is a hint.

A write that needs follow-up work (an override needs its reference re-resolved, a sync its works
checked) creates the job row in its own transaction, so the follow-up is committed with the write
or not at all. The message is sent after the commit. Sending may fail (the broker is down, or
its queue was flushed later): the job then stays queued, the write still answers what happened
("committed; follow-up pending"), and `sweep_jobs()` sends it again. The sweep runs every minute
under Celery beat, and on demand as `manage.py jobs --sweep`; `manage.py jobs --requeue ID`
re-sends one job by hand. Every task is idempotent (resolution writes a link only when the state
changes, chunks count once, receipts are unique per check), so a message delivered twice does
nothing twice; exactly-once is a property of the work, and at-least-once is all the sweep needs.

When is a job due again?
- never accepted by the broker, and older than DISPATCH_GRACE (its first send may be under way);
- accepted but not started after JOB_REQUEUE_SECONDS, doubling with each re-send (a lost or
  flushed message; a long backlog only costs a few duplicates, which are skipped);
- started but not finished after JOB_STALE_SECONDS (its worker died and the broker did not
  redeliver).
A job a command runs in its own process is failed once that process is gone (killed), when the
sweep runs on the command's host (citations/jobs/processes.py).
After JOB_MAX_DISPATCHES sends the job is failed, with the reason, for an operator to requeue.
"""
import logging
import uuid
from collections import Counter
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from citations.jobs.processes import process_gone
from citations.models import Job, JobChunk, JobState
from citations.models.jobs import job_kind

log = logging.getLogger(__name__)
# The task that runs a chunk, by the kind of its job.
CHUNK_TASKS = {"resolve": "citations.resolve_chunk", "dump_records": "citations.dump_chunk",
               "ingest_files": "citations.ingest_file_chunk", "reread": "citations.reread_chunk"}
DISPATCH_GRACE = timedelta(seconds=10)
UNFINISHED = (JobState.QUEUED, JobState.RUNNING)


def dispatch_task(task_name: str, *, args=(), kwargs=None) -> Job:
    """A one-task job, committed with the caller's transaction and sent to the workers after it."""
    job = Job.objects.create(kind=job_kind(task_name), task_name=task_name, celery_task_id=str(uuid.uuid4()),
                             arguments={"args": list(args), "kwargs": dict(kwargs or {})}, total_chunks=1)
    transaction.on_commit(lambda: send_job(job_id=job.pk))
    return job


def dispatch_chunks(job: Job) -> None:
    """Send every unfinished chunk of a planned job, once its rows are committed."""
    transaction.on_commit(lambda: send_chunks(job_id=job.pk))


def send_job(*, job_id: int) -> bool:
    """Send a single-task job's message; False (and the job says why) when the broker refused it."""
    job = Job.objects.filter(pk=job_id).first()
    if job is None or job.state not in UNFINISHED:
        return False
    if not job.task_name:
        return send_chunks(job_id=job_id)
    arguments = job.arguments or {}
    return _send(job, job.task_name, arguments.get("args", []), arguments.get("kwargs", {}),
                 task_id=job.celery_task_id, row=Job.objects.filter(pk=job.pk))


def send_chunks(*, job_id: int, chunk_ids=None) -> bool:
    """Send the job's unfinished chunks (or the named ones); stops at the first refusal."""
    job = Job.objects.filter(pk=job_id).first()
    if job is None or job.state not in UNFINISHED:
        return False
    chunks = job.chunks.filter(done=False).order_by("index")
    if chunk_ids is not None:
        chunks = chunks.filter(pk__in=list(chunk_ids))
    for chunk_id in list(chunks.values_list("id", flat=True)):
        if not _send(job, CHUNK_TASKS[job.kind], [chunk_id], {}, task_id=None, row=JobChunk.objects.filter(pk=chunk_id)):
            return False
    return True


def _send(job: Job, task_name: str, args, kwargs, *, task_id, row) -> bool:
    refusal = _apply(task_name, args, kwargs, task_id=task_id, who=f"job #{job.pk}: {task_name}")
    if refusal is _RAN_AND_FAILED:
        return True     # eager: the task ran here and failed; its job record says so (job_records / ChunkTask)
    if refusal:
        Job.objects.filter(pk=job.pk, state__in=UNFINISHED).update(
            error=f"dispatch pending: the broker refused the message ({refusal})"[:2000])
        return False
    row.update(dispatched_at=timezone.now(), dispatches=F("dispatches") + 1)
    Job.objects.filter(pk=job.pk, error__startswith="dispatch pending").update(error="")
    return True


_RAN_AND_FAILED = object()      # eager: the task ran here and failed; nothing to send again


def _apply(task_name: str, args, kwargs, *, task_id, who: str) -> str | object | None:
    """Hand the task to the broker (eager: run it here): None once taken, the broker's refusal
    ("ConnectionError: ...") when it was not sent, _RAN_AND_FAILED when it ran here and failed."""
    try:
        _task(task_name).apply_async(args=args, kwargs=kwargs, task_id=task_id,
                                     retry_policy=settings.DISPATCH_RETRY_POLICY)
    except Exception as error:  # noqa: BLE001 - the broker's errors vary by transport; all mean "not sent"
        if settings.CELERY_TASK_ALWAYS_EAGER:
            log.warning("%s failed in process: %s", who, error)
            return _RAN_AND_FAILED
        log.warning("%s: broker refused it (%s: %s)", who, type(error).__name__, error)
        return f"{type(error).__name__}: {error}"
    return None


def send_untracked(task_name: str, *, args=(), kwargs=None) -> bool:
    """Send a task with no job row, for work its caller asks for again whenever it is still wanted (a
    recount of the queues): True once the broker took it (eager: once it ran here), False when the
    broker refused it."""
    refusal = _apply(task_name, args, kwargs or {}, task_id=None, who=task_name)
    return refusal is None or refusal is _RAN_AND_FAILED


def _task(name: str):
    from pith.celery import app

    if name not in app.tasks:
        app.loader.import_default_modules()     # the tasks modules of every app (autodiscovery)
    return app.tasks[name]


def follow_up(job: Job | None) -> dict | None:
    """What a write tells its caller about the work it started."""
    if job is None:
        return None
    job.refresh_from_db()
    sent = job.dispatched_at is not None or job.state not in UNFINISHED
    return {"job": job.pk, "kind": job.kind, "state": job.state, "dispatched": sent,
            "message": "follow-up work sent to the workers" if sent else
            "committed; the follow-up work is recorded and will be sent when the broker answers"}


# --- the sweep ----------------------------------------------------------------------------------------


def _due(*, created_at, dispatched_at, started_at, dispatches: int, now) -> bool:
    if dispatched_at is None:
        return created_at <= now - DISPATCH_GRACE
    backoff = 2 ** max(dispatches - 1, 0)
    if started_at is None or started_at < dispatched_at:        # sent, and not started since
        return dispatched_at <= now - timedelta(seconds=settings.JOB_REQUEUE_SECONDS * backoff)
    return started_at <= now - timedelta(seconds=settings.JOB_STALE_SECONDS * backoff)


def sweep_jobs(*, now=None) -> dict:
    """Send again every unfinished job or chunk that is due (see the module docstring)."""
    now = now or timezone.now()
    counts = Counter()
    for job in Job.objects.filter(state__in=UNFINISHED).exclude(task_name="").order_by("id"):
        if _due(created_at=job.created_at, dispatched_at=job.dispatched_at,
                started_at=job.started_at if job.state == JobState.RUNNING else None,
                dispatches=job.dispatches, now=now):
            counts[_resend(job, lambda j=job: send_job(job_id=j.pk), job.dispatches)] += 1
    chunks = (JobChunk.objects.filter(done=False, job__state__in=UNFINISHED).select_related("job")
              .order_by("job_id", "index"))
    for chunk in chunks:
        if _due(created_at=chunk.job.created_at, dispatched_at=chunk.dispatched_at, started_at=chunk.started_at,
                dispatches=chunk.dispatches, now=now):
            counts[_resend(chunk.job, lambda c=chunk: send_chunks(job_id=c.job_id, chunk_ids=[c.pk]),
                           chunk.dispatches)] += 1
    for job in Job.objects.filter(state=JobState.RUNNING, task_name="", chunks=None).order_by("id"):
        process = (job.arguments or {}).get("process")
        if process_gone(process):
            Job.objects.filter(pk=job.pk).fail(
                f"the command's process (pid {process['pid']} on {process['host']}) ended before the job did "
                "(killed?): what it committed stays; run the command again")
            counts["command_gone"] += 1
    return dict(counts)


def _resend(job: Job, send, dispatches: int) -> str:
    if dispatches >= settings.JOB_MAX_DISPATCHES:
        Job.objects.filter(pk=job.pk).fail(f"not finished after {dispatches} dispatches; requeue it with "
                                           f"'manage.py jobs --requeue {job.pk}' once the workers are back")
        return "given_up"
    return "sent" if send() else "broker_down"


def requeue_job(*, job_id: int) -> Job:
    """An operator's re-send of a failed or stuck job: its unfinished work is queued and sent again."""
    with transaction.atomic():
        job = Job.objects.select_for_update().filter(pk=job_id).first()
        if job is None:
            raise Job.DoesNotExist(f"no job #{job_id}")
        if job.state == JobState.SUCCEEDED:
            raise ValueError(f"job #{job_id} succeeded: there is nothing to requeue")
        if not job.task_name and not job.chunks.exists():
            # A command's own work (job_records.command_job): no message a worker could take again.
            raise ValueError(f"job #{job_id} ran in a command's own process ({job.kind}, started by "
                             f"{(job.arguments or {}).get('started_by', 'a command')}): run that command again")
        note = f"requeued at {timezone.now():%Y-%m-%d %H:%M:%S} UTC" + (f" after: {job.error}" if job.error else "")
        Job.objects.filter(pk=job.pk).update(state=JobState.QUEUED, finished_at=None, error=note[:2000],
                                             dispatches=0)
        job.chunks.filter(done=False).update(dispatches=0)
        transaction.on_commit(lambda: send_job(job_id=job.pk))
    job.refresh_from_db()
    return job
