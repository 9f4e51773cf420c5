from datetime import datetime

from django.core.management.base import BaseCommand, CommandError

from citations.ingest import import_arxiv_metadata, open_lines
from citations.management.progress import byte_progress, report_lines


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
                when = datetime.fromisoformat(observed_at)
            except ValueError:
                raise CommandError(f"--observed-at {observed_at!r} is not an ISO 8601 time") from None
            if when.tzinfo is None:
                raise CommandError("--observed-at needs a time zone, e.g. 2026-08-01T00:00:00Z")
        try:
            lines, position, size = open_lines(file)
        except OSError as error:
            raise CommandError(f"{file}: cannot read: {error.strerror}") from None
        with byte_progress(position, size, "arXiv metadata") as progress:
            try:
                report = import_arxiv_metadata(lines, observed_at=when, progress=progress)
            except (OSError, EOFError) as error:
                raise CommandError(f"{file}: the file ends early or is not valid gzip ({error}); the lines "
                                   "before it were imported") from None
        report_lines(self, report, noun="lines")
