from django.core.management.base import BaseCommand

from citations.standing.checks import check_works


class Command(BaseCommand):
    help = "Check every canonical work against the newest sync of each standing source (idempotent)."

    def add_arguments(self, parser):
        parser.add_argument("--source", action="append", help="Only this source (repeatable).")

    def handle(self, *args, source=None, **options):
        written = check_works(sources=source)
        if not written:
            self.stdout.write("no standing source has been synchronised yet: nothing to check against")
        for name, count in sorted(written.items()):
            self.stdout.write(f"{name}: {count:,} receipts written")
