from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from citations.purge import PurgeRefused, purge_references


class Command(BaseCommand):
    help = ("Remove a paper's reference lists (a takedown): the only way observations leave the store. "
            "Audited: the operator, reason, time and rows removed are kept in observation_purges.")

    def add_arguments(self, parser):
        parser.add_argument("arxiv_id", metavar="ARXIV_ID")
        parser.add_argument("--paper-version", type=int, action="append", dest="versions", metavar="N",
                            help="Only this version (repeatable); default: every version.")
        parser.add_argument("--reason", required=True)
        parser.add_argument("--operator", required=True, metavar="USERNAME", help="A staff user.")
        parser.add_argument("--yes", action="store_true", help="Do it (without it, nothing is removed).")

    def handle(self, *args, arxiv_id, versions=None, reason, operator, yes=False, **options):
        user = get_user_model().objects.filter(username=operator).first()
        if user is None:
            raise CommandError(f"no user {operator!r}")
        if any(v < 1 for v in versions or []):
            raise CommandError("--paper-version must be a positive integer")
        if not yes:
            raise CommandError("a purge removes observations for good: run again with --yes")
        try:
            entry = purge_references(arxiv_id=arxiv_id, reason=reason, operator=user, versions=versions)
        except PurgeRefused as error:
            raise CommandError(str(error)) from None
        removed = ", ".join(f"{n:,} {table}" for table, n in sorted(entry.counts.items()))
        self.stdout.write(f"purge #{entry.pk} of arXiv:{arxiv_id}: removed {removed}")
