from django.core.management.base import BaseCommand, CommandError

from citations.jobs.planning import DEFAULT_CHUNK_PAPERS, plan_rereading
from citations.management.progress import run_chunked_job
from citations.models import Job, JobState, Paper
from citations.parsing.reader import READER_NAME
from citations.tasks import reread_chunk


class Command(BaseCommand):
    help = (f"Read every stored reference again with the current parser ({READER_NAME}): each list it reads "
            "differently is written again as a new dated list and resolved, so records as of earlier times stay "
            "as they were. Of every paper (--all) or of named papers (--paper); chunked, resumable, and safe to run "
            "again. With a broker configured the work is enqueued for Celery workers; on the embedded default it "
            "runs here.")

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
            job = plan_rereading(arxiv_ids=None if all else paper, chunk_papers=chunk_papers)
        except Paper.DoesNotExist as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"job #{job.pk}: {job.total_chunks} chunk(s) of up to {chunk_papers} papers, "
                          f"read with {READER_NAME}")
        if not run_chunked_job(self, job, reread_chunk, description="reading again", no_wait=no_wait):
            return
        job = Job.objects.get(pk=job.pk)
        counts = job.counts
        self.stdout.write(
            f"job #{job.pk} {job.state}: {counts.get('lists', 0):,} lists: {counts.get('reread', 0):,} written again, "
            f"{counts.get('unchanged', 0):,} read the same, {counts.get('current', 0):,} already read by {READER_NAME}, "
            f"{counts.get('no_text', 0):,} without text (read from records); "
            f"{counts.get('changed', 0):,} of {counts.get('references', 0):,} references read differently")
        states = counts.get("states", {})
        for state in sorted(states, key=lambda s: -states[s]):
            self.stdout.write(f"  {state:22} {states[state]:>8,}")
        if job.state == JobState.FAILED:
            raise CommandError(f"job #{job.pk} failed: {job.error}")
