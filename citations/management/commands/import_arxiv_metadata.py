from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from citations.input_files import FILE_ERRORS, open_lines
from citations.jobs.task_records import command_job
from citations.management.progress import byte_progress, fail_if_rejected, report_lines
from citations.sources.arxiv_metadata import import_arxiv_metadata
from citations.validation import OutOfRange, parse_time


class Command(BaseCommand):
    help = ("Read arXiv metadata (the JSON-lines layout of the public arXiv metadata snapshot, gzip or not) "
            "into the paper store. Idempotent; bad lines are counted with their reasons and skipped.")

    def add_arguments(self, parser):
        parser.add_argument("file", metavar="FILE")
        parser.add_argument("--observed-at", metavar="TIMESTAMP",
                            help="When this metadata was observed (default: now), e.g. the snapshot's date.")

    def handle(self, *args, file, observed_at=None, **options):
        when = None
        if observed_at:
            try:
                # Not in the future: newer snapshots win, so one "from 2999" would block every update.
                when = parse_time(observed_at, what="--observed-at", observation=True)
            except OutOfRange as error:
                raise CommandError(f"{error}; give a past time with its zone, e.g. 2026-08-01T00:00:00Z") from None
        try:
            lines, position, size = open_lines(file)
        except OSError as error:
            raise CommandError(f"{file}: cannot read: {error.strerror}") from None
        arguments = {"path": str(Path(file).resolve()), "started_by": "command line"}
        with command_job("import_arxiv_metadata", arguments) as job, \
                byte_progress(position, size, "arXiv metadata") as progress:
            try:
                report = import_arxiv_metadata(lines, observed_at=when, progress=progress)
                job.counts = report.job_counts()
            except FILE_ERRORS as error:
                raise CommandError(f"{file}: the file ends early or is not valid gzip ({error}); the lines "
                                   "before it were imported") from None
        report_lines(self, report, noun="lines")
        fail_if_rejected(report, done="imported")
