from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from citations.input_files import FILE_ERRORS, open_lines
from citations.jobs.task_records import command_job
from citations.management.progress import byte_progress, fail_if_rejected, report_lines
from citations.sources.reference_lists import ingest_references


class Command(BaseCommand):
    help = ('Read reference lists, one citing paper version a line: {"arxiv_id": "2509.11076", "version": 2, '
            '"source": "pdf_text", "references": [{"index": 1, "raw": "..."}]}. A list already held is left alone; '
            "a changed list is a new observation set (the old one stays).")

    def add_arguments(self, parser):
        parser.add_argument("file", metavar="FILE")
        parser.add_argument("--resolve", action="store_true", help="Resolve each new list's paper afterwards.")

    def handle(self, *args, file, resolve=False, **options):
        try:
            lines, position, size = open_lines(file)
        except OSError as error:
            raise CommandError(f"{file}: cannot read: {error.strerror}") from None
        papers: list[str] = []
        arguments = {"path": str(Path(file).resolve()), "started_by": "command line"}
        with command_job("ingest_references", arguments) as job, \
                byte_progress(position, size, "reference lists") as progress:
            try:
                report = ingest_references(lines, progress=progress, on_created=papers.append)
                job.counts = report.job_counts()
            except FILE_ERRORS as error:
                raise CommandError(f"{file}: the file ends early or is not valid gzip ({error}); the lines "
                                   "before it were ingested") from None
        report_lines(self, report, noun="lines")
        if resolve and papers:
            from django.core.management import call_command

            call_command("resolve", "--paper", *sorted(set(papers)), stdout=self.stdout)
        fail_if_rejected(report, done="ingested")
