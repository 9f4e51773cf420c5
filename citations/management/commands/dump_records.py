from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from citations.jobs.planning import enqueue_job, runs_eagerly
from citations.management.progress import follow_job
from citations.models import Job, JobState
from citations.records.dumps import DEFAULT_PART_PAPERS, dump_name, dumps_dir, plan_dump
from citations.records.timestamps import parse_z
from citations.tasks import dump_chunk


class Command(BaseCommand):
    help = ("Dump every current record as gzipped JSON Lines parts with a manifest of context digests, under "
            "PITH_DUMPS_DIR (served at /dumps/). With a broker the parts are written by the Celery workers; on "
            "the embedded default here. Celery beat runs it daily (PITH_DUMP_HOUR).")

    def add_arguments(self, parser):
        parser.add_argument("--part-papers", type=int, default=DEFAULT_PART_PAPERS, help="Papers per part file.")
        parser.add_argument("--no-wait", action="store_true", help="With workers: enqueue and return at once.")

    def handle(self, *args, part_papers=DEFAULT_PART_PAPERS, no_wait=False, **options):
        if part_papers < 1:
            raise CommandError("--part-papers must be at least 1")
        job = plan_dump(part_papers=part_papers)
        parts = job.arguments["parts"]
        self.stdout.write(f"job #{job.pk}: {job.arguments['papers']:,} papers in {parts} part(s), "
                          f"as of {job.arguments['as_of']}")
        if runs_eagerly():
            chunks = list(job.chunks.order_by("index").values_list("id", flat=True))
            for chunk_id in tqdm(chunks, desc="dumping", unit="part", disable=not self.stderr.isatty()):
                dump_chunk.apply(args=[chunk_id], throw=True)
            # The last part added the manifest chunk (and sent it, once committed): run it here,
            # whether or not that has happened yet; a chunk runs once.
            dump_chunk.apply(args=[job.chunks.get(index=job.total_chunks - 1).pk], throw=True)
        else:
            enqueue_job(job)
            if no_wait:
                self.stdout.write(f"enqueued; follow it with: python manage.py jobs {job.pk}")
                return
            follow_job(job, description="dumping")
        job = Job.objects.get(pk=job.pk)
        if job.state != JobState.SUCCEEDED:
            raise CommandError(f"job #{job.pk} {job.state}: {job.error or 'not finished'}")
        path = dumps_dir() / dump_name(parse_z(job.arguments["as_of"]), job.pk)
        counts = job.counts
        self.stdout.write(f"published {path}: {counts.get('records', 0):,} records, "
                          f"{counts.get('unavailable', 0):,} papers without a record")
