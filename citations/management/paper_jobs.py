"""Commands that run a chunked job over papers (every one with references, or those named)."""
from django.core.management.base import BaseCommand, CommandError

from citations.jobs.planning import DEFAULT_CHUNK_PAPERS
from citations.management.progress import run_chunked_job
from citations.models import Job, JobState, Paper


class PaperJobCommand(BaseCommand):
    """--all or --paper ID..., --chunk-papers, --no-wait; subclasses say how to plan the job
    (`plan(arxiv_ids=, chunk_papers=)`), which task runs a chunk, and what the summary says."""

    plan = None
    chunk_task = None
    description = ""            # the progress bar's words
    planned = ""                # said after the job's chunks, e.g. "read with pith-crf/2"

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
            job = self.plan(arxiv_ids=None if all else paper, chunk_papers=chunk_papers)
        except Paper.DoesNotExist as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"job #{job.pk}: {job.total_chunks} chunk(s) of up to {chunk_papers} papers"
                          + (f", {self.planned}" if self.planned else ""))
        if not run_chunked_job(self, job, self.chunk_task, description=self.description, no_wait=no_wait):
            return
        job = Job.objects.get(pk=job.pk)
        self.stdout.write(f"job #{job.pk} {job.state}: {self.summary(job.counts)}")
        states = job.counts.get("states", {})
        for state in sorted(states, key=lambda s: -states[s]):
            self.stdout.write(f"  {state:22} {states[state]:>8,}")
        if job.state == JobState.FAILED:
            raise CommandError(f"job #{job.pk} failed: {job.error}")

    def summary(self, counts: dict) -> str:
        raise NotImplementedError
