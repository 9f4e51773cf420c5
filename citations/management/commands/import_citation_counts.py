from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from citations.input_files import FILE_ERRORS, open_lines
from citations.jobs.task_records import command_job
from citations.management.progress import fail_if_rejected, report_lines
from citations.sources.citation_counts import import_citation_counts


class Command(BaseCommand):
    help = ('Read external citation counts, JSON lines of {"arxiv_id" or "doi", "source", "count", "observed_at"}. '
            "Each is a dated, source-named measurement; counts from different sources are never summed.")

    def add_arguments(self, parser):
        parser.add_argument("file", metavar="FILE")

    def handle(self, *args, file, **options):
        try:
            lines, _, _ = open_lines(file)
        except OSError as error:
            raise CommandError(f"{file}: cannot read: {error.strerror}") from None
        with command_job("import_citation_counts", {"path": str(Path(file).resolve()),
                                                    "started_by": "command line"}) as job:
            try:
                report = import_citation_counts(lines)
                job.counts = report.job_counts()
            except FILE_ERRORS as error:
                raise CommandError(f"{file}: the file ends early or is not valid gzip ({error}); the lines "
                                   "before it were imported") from None
        report_lines(self, report, noun="lines")
        fail_if_rejected(report, done="imported")
