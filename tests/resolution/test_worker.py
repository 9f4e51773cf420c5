"""Resolution jobs on real Celery workers: a worker killed mid-job loses nothing and duplicates nothing."""
import pytest
from django.db.models import Count

from citations.jobs.planning import plan_resolution
from citations.models import Job, JobChunk, PaperReference
from tests.celery_worker import client_call, kill_worker, redis_url, running_worker, wait_until, worker_log
from tests.factories import make_paper, make_references

PAPERS, REFERENCES = 8, 20


@pytest.mark.celery_worker
@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_mid_job_loses_and_duplicates_no_resolution():
    broker = redis_url()
    for n in range(PAPERS):
        make_references(make_paper(f"2602.{n + 1:05d}"), REFERENCES)
    job = plan_resolution(chunk_papers=1)
    # Each chunk pauses after writing its resolutions: a kill then lands between the write and
    # the chunk's completion, the worst moment. Unacknowledged messages return after 3 s.
    prompt = {"CELERY_VISIBILITY_TIMEOUT": "3", "CELERY_UNACKED_RESTORE_INTERVAL": "1",
              "CELERY_UNACKED_RESTORE_THROTTLE": "1"}
    slow = {"RESOLUTION_PAUSE_SECONDS": "1.5", **prompt}

    with running_worker(broker, env=slow) as first:
        # Enqueued by another process, configured for the broker as a web server would be.
        client_call(broker, "import django; django.setup()\n"
                            "from citations.jobs.planning import enqueue_job\nfrom citations.models import Job\n"
                            f"enqueue_job(Job.objects.get(pk={job.pk}))")
        assert wait_until(lambda: JobChunk.objects.filter(job=job, done=True).count() >= 2, timeout=60), \
            worker_log(first)
        assert wait_until(lambda: JobChunk.objects.filter(job=job, done=False, attempts=1).exists(), timeout=30)
        kill_worker(first)
    interrupted = set(JobChunk.objects.filter(job=job, done=False, attempts=1).values_list("index", flat=True))
    assert interrupted and Job.objects.get(pk=job.pk).state == "running"

    with running_worker(broker, flush=False, env=prompt) as second:
        assert wait_until(lambda: Job.objects.get(pk=job.pk).state == "succeeded", timeout=120), worker_log(second)

    job.refresh_from_db()
    links = PaperReference.objects.annotate(n=Count("links")).values_list("n", flat=True)
    assert sorted(set(links)) == [2]                     # the ingested link and exactly one resolution each
    assert job.counts["references"] == PAPERS * REFERENCES
    # Each resolution counted once, though the interrupted chunk ran twice.
    assert (job.counts["written"], job.counts["unchanged"]) == (PAPERS * REFERENCES, 0)
    assert job.done_chunks == job.total_chunks == PAPERS
    # The chunk the kill interrupted ran again, and found its resolutions already written.
    assert JobChunk.objects.filter(job=job, index__in=interrupted, attempts__gte=2).exists()
