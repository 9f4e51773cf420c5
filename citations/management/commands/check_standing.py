from django.core.management.base import BaseCommand

from citations.jobs.task_records import command_job
from citations.standing.checks import check_works, latest_syncs


class Command(BaseCommand):
    help = ("Check every canonical work against the newest sync of each standing source (idempotent). "
            "Recorded as a job: listed by `manage.py jobs`, the admin and /api/v1/jobs/, a failure too.")

    def add_arguments(self, parser):
        parser.add_argument("--source", action="append", help="Only this source (repeatable).")

    def handle(self, *args, source=None, **options):
        with command_job("citations.check_standing", {"sources": source, "started_by": "command line"}) as job:
            written = check_works(sources=source)
            job.counts = dict(written)
        synced = sorted(name for name in latest_syncs() if not source or name in source)
        if not synced:
            self.stdout.write(f"job {job.pk}: no standing source has been synchronised yet: nothing to check against")
        for name in synced:
            self.stdout.write(f"job {job.pk}: {name}: {written.get(name, 0):,} receipts written")
