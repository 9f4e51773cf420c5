import sys
from datetime import datetime

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from citations.arxiv_ids import is_canonical_arxiv_id
from citations.records.build import RecordUnavailable, build_record


def parse_as_of(text: str) -> datetime:
    """An ISO 8601 time with its zone (2026-08-08T11:07:00Z); refuse naive or future times."""
    try:
        value = datetime.fromisoformat(text)
    except ValueError:
        raise CommandError(f"--as-of {text!r} is not an ISO 8601 time such as 2026-08-08T11:07:00Z") from None
    if timezone.is_naive(value):
        raise CommandError(f"--as-of {text!r} has no time zone; add Z for UTC")
    if value > timezone.now():
        raise CommandError(f"--as-of {text!r} is in the future; a record can only state what was observed")
    return value


class Command(BaseCommand):
    help = "Print the canonical v1 citation record of a held paper (exact bytes, no trailing newline)."

    def add_arguments(self, parser):
        parser.add_argument("arxiv_id", metavar="ARXIV_ID")
        parser.add_argument("--as-of", metavar="TIMESTAMP",
                            help="Build the record from what was observed by this time (default: now).")

    def handle(self, *args, arxiv_id, as_of=None, **options):
        if not is_canonical_arxiv_id(arxiv_id):
            raise CommandError(f"{arxiv_id!r} is not an arXiv id in canonical form (e.g. 2509.11076)")
        cutoff = parse_as_of(as_of) if as_of else None
        try:
            built = build_record(arxiv_id=arxiv_id, as_of=cutoff)
        except RecordUnavailable as error:
            raise CommandError(str(error)) from None
        sys.stdout.buffer.write(built.body)
        sys.stdout.buffer.flush()
