"""Starting and following background jobs; the Celery tasks (citations/tasks.py) do the work."""
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from citations.jobs.dispatch import dispatch_chunks
from citations.models import Job, JobChunk, JobState, Paper, ReferenceExtraction

RESOLVE = "resolve"
REREAD = "reread"
DEFAULT_CHUNK_PAPERS = 50


def papers_with_references() -> list[int]:
    """Ids of the papers that have at least one reference list, in a stable order."""
    return sorted(set(ReferenceExtraction.objects.values_list("paper_version__paper_id", flat=True)))


def plan_resolution(*, arxiv_ids: list[str] | None = None, chunk_papers: int = DEFAULT_CHUNK_PAPERS) -> Job:
    """A resolution job over some papers (all that have references when none are named), in chunks."""
    return plan_over_papers(RESOLVE, arxiv_ids=arxiv_ids, chunk_papers=chunk_papers)


def plan_rereading(*, arxiv_ids: list[str] | None = None, chunk_papers: int = DEFAULT_CHUNK_PAPERS) -> Job:
    """A job reading again the reference lists of some papers (all that have any when none are named)."""
    return plan_over_papers(REREAD, arxiv_ids=arxiv_ids, chunk_papers=chunk_papers)


def plan_over_papers(kind: str, *, arxiv_ids: list[str] | None, chunk_papers: int) -> Job:
    """A job of `kind` over some papers (all that have references when none are named), in chunks of
    `chunk_papers`; Paper.DoesNotExist names the ids not held."""
    if arxiv_ids:
        found = dict(Paper.objects.filter(arxiv_id__in=arxiv_ids).values_list("arxiv_id", "id"))
        missing = sorted(set(arxiv_ids) - set(found))
        if missing:
            raise Paper.DoesNotExist(f"not held: {', '.join('arXiv:' + m for m in missing)}")
        paper_ids = sorted(found.values())
    else:
        paper_ids = papers_with_references()
    chunks = [paper_ids[i:i + chunk_papers] for i in range(0, len(paper_ids), chunk_papers)]
    return plan_chunks(kind, {"arxiv_ids": arxiv_ids or "all", "chunk_papers": chunk_papers},
                       [{"paper_ids": ids} for ids in chunks])


def plan_chunks(kind: str, arguments: dict, payloads: list[dict]) -> Job:
    """A job of one chunk per payload, in one transaction; a job with nothing to do is done at once."""
    with transaction.atomic():
        job = Job.objects.create(kind=kind, arguments=arguments, total_chunks=len(payloads))
        JobChunk.objects.bulk_create([JobChunk(job=job, index=n, payload=payload) for n, payload in enumerate(payloads)])
        if not payloads:
            Job.objects.filter(pk=job.pk).update(state=JobState.SUCCEEDED, started_at=timezone.now(),
                                                 finished_at=timezone.now())
    return job


def enqueue_job(job: Job) -> None:
    """Send every unfinished chunk to the workers, once the job's rows are committed (durably:
    a chunk the broker refuses is sent again by the sweep, citations/jobs/dispatch.py)."""
    dispatch_chunks(job)


def runs_eagerly() -> bool:
    return bool(settings.CELERY_TASK_ALWAYS_EAGER)
