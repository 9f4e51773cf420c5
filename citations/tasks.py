"""Celery tasks: thin, idempotent, retried on database errors. The work is in citations/resolution/."""
import time

from celery import Task, shared_task
from django.conf import settings
from django.db import InterfaceError, OperationalError

from citations.jobs.dispatch import dispatch_chunks, dispatch_task, sweep_jobs
from citations.models import Job, JobChunk
from citations.records.dumps import plan_dump, run_dump_chunk
from citations.resolution.service import current_reference_ids, resolve_paper, resolve_references
from citations.resolution.waiting import resolve_waiting_for_works
from citations.sources.paper_files import run_file_chunk
from citations.sources.rereading import RereadSummary, reread_papers
from citations.standing.checks import check_works
from citations.standing.sync import SyncFailed, source_input, sync_standing_source
from citations.transparency.sequencer import publish_checkpoint

# Lost connections, deadlocks and serialization failures pass; everything else is a bug to see.
RETRYABLE = (OperationalError, InterfaceError)
RETRY = {"autoretry_for": RETRYABLE, "retry_backoff": 2, "retry_backoff_max": 300, "retry_jitter": True,
         "max_retries": 8, "acks_late": True}


class ChunkTask(Task):
    # A chunk reports into the job planned for it (citations/jobs/task_records.py records no job of its own).
    unrecorded = True

    def on_failure(self, exc, task_id, args, kwargs, einfo):
        chunk = JobChunk.objects.filter(pk=args[0] if args else kwargs.get("chunk_id")).first()
        if chunk is not None:
            Job.objects.filter(pk=chunk.job_id).fail(f"chunk {chunk.index}: {type(exc).__name__}: {exc}")


def _pause():
    # Operators can slow resolution down to spare the database (RESOLUTION_PAUSE_SECONDS).
    if settings.RESOLUTION_PAUSE_SECONDS:
        time.sleep(settings.RESOLUTION_PAUSE_SECONDS)


@shared_task(name="citations.resolve_paper", **RETRY)
def resolve_paper_task(arxiv_id: str) -> dict:
    """Resolve the current references of one paper."""
    return resolve_paper(arxiv_id=arxiv_id).as_json()


@shared_task(name="citations.resolve_chunk", base=ChunkTask, **RETRY)
def resolve_chunk(chunk_id: int) -> dict:
    """Resolve the papers of one chunk of a job; a chunk already done is skipped."""
    chunk = JobChunk.objects.get(pk=chunk_id)
    if not chunk.claim():
        return {"skipped": "already done"}
    ids = current_reference_ids(paper_ids=chunk.payload["paper_ids"])
    # A run after a lost worker goes on after the references an earlier run resolved and counted
    # (ids in order: UUIDs, whose text sorts as they do).
    through, _ = chunk.progress()
    resolve_references(reference_ids=[i for i in ids if through is None or str(i) > through], pause=_pause,
                       on_batch=lambda batch, part: chunk.add_progress(part.as_json(), through=str(batch[-1])))
    _, summary = chunk.progress()
    counts = {"papers": len(chunk.payload["paper_ids"]), "references": len(ids),
              "states": {}, "written": 0, "unchanged": 0, **summary}
    chunk.complete(counts)
    return counts


@shared_task(name="citations.reread_chunk", base=ChunkTask, **RETRY)
def reread_chunk(chunk_id: int) -> dict:
    """Read again the reference lists of the papers of one chunk (citations/sources/rereading.py); a
    chunk already done is skipped, and one run twice writes nothing the second time."""
    chunk = JobChunk.objects.get(pk=chunk_id)
    if not chunk.claim():
        return {"skipped": "already done"}
    # A run after a lost worker goes on after the lists an earlier run read and counted.
    through, _ = chunk.progress()
    reread_papers(paper_ids=chunk.payload["paper_ids"], after=through,
                  on_list=lambda part, key: chunk.add_progress(part.as_json(), through=list(key)))
    _, summary = chunk.progress()
    counts = {"papers": len(chunk.payload["paper_ids"]), **RereadSummary().as_json(), **summary}
    chunk.complete(counts)
    return counts


@shared_task(name="citations.dump_chunk", base=ChunkTask, **RETRY)
def dump_chunk(chunk_id: int) -> dict:
    """Write one part of a records dump, or publish it (citations/records/dumps.py)."""
    return run_dump_chunk(chunk_id)


@shared_task(name="citations.ingest_file_chunk", base=ChunkTask, soft_time_limit=settings.FILE_TASK_SECONDS,
             time_limit=settings.FILE_TASK_SECONDS + 30, **RETRY)
def ingest_file_chunk(chunk_id: int) -> dict:
    """Read one file of a bulk run (a PDF or a source package) into its paper's reference list, and
    resolve it (citations/sources/paper_files.py); a chunk already done is skipped."""
    chunk = JobChunk.objects.get(pk=chunk_id)
    if not chunk.claim():
        return {"skipped": "already done"}
    counts = run_file_chunk(chunk)
    chunk.complete(counts)
    return counts


@shared_task(name="citations.dump_records", **RETRY)
def dump_records_task() -> dict:
    """Plan a dump of every current record and send its parts to the workers (Celery beat, daily)."""
    job = plan_dump()
    dispatch_chunks(job)
    return {"dump_job": job.pk, "parts": job.total_chunks - 1}


@shared_task(name="citations.sync_standing_source", **RETRY)
def sync_standing_source_task(source: str, path: str) -> dict:
    """Re-read a standing source's file (fetched there by the operator's downloader), then check works."""
    # An OpenAlex file is streamed (gigabytes); the others are read whole.
    report = sync_standing_source(source=source, input_name=path, **source_input(source, path))
    if report.status != "succeeded":
        # Raised, not returned: the job must end failed (job_records), not "succeeded" with a failed sync.
        raise SyncFailed(f"sync #{report.sync_id} of {source} failed, nothing changed: {report.error}")
    dispatch_task("citations.check_standing", kwargs={"sources": [source]})
    return {"sync": report.sync_id, "status": report.status, "error": report.error, "counts": dict(report.counts)}


@shared_task(name="citations.check_standing", **RETRY)
def check_standing(sources: list[str] | None = None) -> dict:
    """One-hop checks of every canonical work against the newest sync of each source."""
    return check_works(sources=sources)


@shared_task(name="citations.sweep_jobs", acks_late=True, unrecorded=True)
def sweep_jobs_task() -> dict:
    """Send again the jobs the broker never took, lost, or whose worker died (citations/jobs/dispatch.py)."""
    return sweep_jobs()


@shared_task(name="citations.publish_checkpoint", acks_late=True)
def publish_checkpoint_task() -> dict:
    """Append what was written to the transparency log and sign a checkpoint (citations/transparency/)."""
    published = publish_checkpoint()
    return {"leaves": published.leaves, "size": published.size}


@shared_task(name="citations.resolve_references", **RETRY)
def resolve_references_task(reference_ids: list[str]) -> dict:
    """Resolve these references again (a works import has just given them something to link to)."""
    return resolve_references(reference_ids=reference_ids).as_json()


@shared_task(name="citations.resolve_waiting_for_works", **RETRY)
def resolve_waiting_for_works_task(works: list | None = None, revisions: list | None = None) -> dict:
    """Send to resolution the references waiting for the works a works import has just written."""
    return resolve_waiting_for_works(works=works, revisions=revisions)
