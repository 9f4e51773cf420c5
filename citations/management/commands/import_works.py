from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from citations.input_files import open_lines
from citations.jobs.task_records import command_job
from citations.management.progress import byte_progress, report_lines
from citations.validation import OutOfRange, parse_time
from citations.works.importer import READERS, import_works
from citations.works.read_ahead import ReaderDied


class Command(BaseCommand):
    help = ("Read works into the works store: crossref (the public data file, REST responses, or JSON lines), "
            "openalex (the works snapshot, JSON lines), dblp (dblp.xml, or its records as JSON lines) or retraction_watch "
            "(the papers its CSV rows are about); gzip or not. "
            "Idempotent; a bad record is counted with its reason and skipped; references printing a DOI the store "
            "has just learnt are resolved again.")

    def add_arguments(self, parser):
        parser.add_argument("source", choices=sorted(READERS))
        parser.add_argument("file", metavar="FILE")
        parser.add_argument("--observed-at", metavar="TIMESTAMP", help="When the file was taken (default: now).")

    def handle(self, *args, source, file, observed_at=None, **options):
        when = None
        if observed_at:
            try:
                when = parse_time(observed_at, what="--observed-at", observation=True)
            except OutOfRange as error:
                raise CommandError(str(error)) from None
        try:
            lines, position, size = open_lines(file)
        except OSError as error:
            raise CommandError(f"{file}: cannot read: {error.strerror}") from None
        arguments = {"source": source, "path": str(Path(file).resolve()), "started_by": "command line"}
        with command_job("import_works", arguments) as job, byte_progress(position, size, f"{source} works") as progress:
            try:
                report = import_works(lines, source=source, observed_at=when, progress=progress)
                job.counts = report.job_counts()
            except ReaderDied as error:
                raise CommandError(f"{file}: {error}; the works before it were imported, run the command "
                                   "again for the rest (it skips what is stored)") from None
            except (OSError, EOFError) as error:
                raise CommandError(f"{file}: the file ends early or is not valid gzip ({error}); the works "
                                   "before it were imported") from None
        report_lines(self, report, noun="records")
        if report.referencing:
            self.stdout.write(f"{report.referencing:,} references print a DOI now known: sent for resolution")
        if report.stopped:
            raise CommandError(f"{file}: {report.stopped}")
        rejected = sum(report.rejected.values())
        if rejected:
            raise CommandError(f"{rejected:,} of {report.lines:,} records rejected; the others were imported")
