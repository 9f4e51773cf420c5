"""A chunk run again after its worker was lost counts every part of its work once: the job's counts are
those of one uninterrupted run, not of the last run only (issue #30)."""
import pytest
from django.db.models import Count

from citations import tasks
from citations.jobs.planning import plan_resolution
from citations.models import Job, JobChunk, PaperReference
from citations.resolution import service
from citations.sources import paper_files
from tests.factories import make_paper, make_references

pytestmark = pytest.mark.usefixtures("db")


class WorkerLost(BaseException):
    """What a SIGKILL does to a run: it stops between two statements, and nothing after runs."""


def test_a_resolution_chunk_run_again_after_a_lost_worker_counts_each_reference_once(monkeypatch):
    make_references(make_paper("2602.00001"), 12)
    make_paper("2602.00002", title="Work number 3")
    job = plan_resolution(chunk_papers=1)
    chunk = JobChunk.objects.get(job=job)
    monkeypatch.setattr(service, "BATCH_SIZE", 5)
    pauses = []

    def lost_after_the_second_batch():
        pauses.append(1)
        if len(pauses) == 2:
            raise WorkerLost()

    monkeypatch.setattr(tasks, "_pause", lost_after_the_second_batch)
    with pytest.raises(WorkerLost):
        tasks.resolve_chunk(chunk.pk)
    assert links_per_reference() == [1, 1] + [2] * 10       # two batches resolved, committed; one left

    counts = tasks.resolve_chunk(chunk.pk)              # redelivered: the last batch is what is left
    assert len(pauses) == 3
    assert (counts["references"], counts["written"], counts["unchanged"]) == (12, 12, 0)
    assert sum(counts["states"].values()) == 12
    job.refresh_from_db()
    assert (job.state, job.counts["written"], job.counts["unchanged"]) == ("succeeded", 12, 0)
    assert tasks.resolve_chunk(chunk.pk) == {"skipped": "already done"}
    assert links_per_reference() == [2] * 12


def links_per_reference() -> list[int]:
    return sorted(PaperReference.objects.annotate(n=Count("links")).values_list("n", flat=True))


def test_a_file_chunk_run_again_after_its_list_was_stored_counts_it_created(monkeypatch, tmp_path):
    from tests.extraction.test_paper_files import PAPER, package

    make_paper(PAPER, latest_version=2)
    job, _ = paper_files.plan_files(kind="source", paths=[package(tmp_path)])
    chunk = JobChunk.objects.get(job=job)
    resolved = []

    def lost_while_resolving(**kwargs):
        raise WorkerLost()

    monkeypatch.setattr(paper_files, "resolve_references", lost_while_resolving)
    monkeypatch.setattr(paper_files, "resolve_paper", lambda **kwargs: resolved.append(kwargs))
    with pytest.raises(WorkerLost):
        tasks.ingest_file_chunk(chunk.pk)

    counts = tasks.ingest_file_chunk(chunk.pk)          # redelivered: the list is stored already
    assert (counts["files"], counts["created"], counts["references"]) == (1, 1, 12) and "unchanged" not in counts
    assert resolved == [{"arxiv_id": PAPER}]            # resolution, which the lost run never finished
    assert Job.objects.get(pk=job.pk).counts["created"] == 1
