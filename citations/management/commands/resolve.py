from django.core.management.base import BaseCommand, CommandError

from citations.jobs.planning import DEFAULT_CHUNK_PAPERS, plan_resolution
from citations.management.progress import run_chunked_job
from citations.models import Job, JobState, Paper
from citations.tasks import resolve_chunk


class Command(BaseCommand):
    help = ("Resolve references: of every paper (--all) or of named papers (--paper). With a broker configured "
            "the work is enqueued for Celery workers; on the embedded default it runs here. Prints the states found.")

    def add_arguments(self, parser):
        which = parser.add_mutually_exclusive_group(required=True)
        which.add_argument("--all", action="store_true", help="Every paper with references.")
        which.add_argument("--paper", nargs="+", metavar="ARXIV_ID")
        parser.add_argument("--chunk-papers", type=int, default=DEFAULT_CHUNK_PAPERS, help="Papers per chunk.")
        parser.add_argument("--no-wait", action="store_true", help="With workers: enqueue and return at once.")

    def handle(self, *args, all=False, paper=None, chunk_papers=DEFAULT_CHUNK_PAPERS, no_wait=False, **options):
        if chunk_papers < 1:
            raise CommandError("--chunk-papers must be at least 1")
        try:
            job = plan_resolution(arxiv_ids=None if all else paper, chunk_papers=chunk_papers)
        except Paper.DoesNotExist as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"job #{job.pk}: {job.total_chunks} chunk(s) of up to {chunk_papers} papers")
        if not run_chunked_job(self, job, resolve_chunk, description="resolving", no_wait=no_wait):
            return
        self._summary(Job.objects.get(pk=job.pk))

    def _summary(self, job):
        counts = job.counts
        states = counts.get("states", {})
        self.stdout.write(f"job #{job.pk} {job.state}: {counts.get('papers', 0):,} papers, "
                          f"{counts.get('references', 0):,} references, {counts.get('written', 0):,} new resolutions, "
                          f"{counts.get('unchanged', 0):,} unchanged")
        for state in sorted(states, key=lambda s: -states[s]):
            self.stdout.write(f"  {state:22} {states[state]:>8,}")
        if job.state == JobState.FAILED:
            raise CommandError(f"job #{job.pk} failed: {job.error}")
