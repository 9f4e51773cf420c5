from django.core.management.base import BaseCommand

from citations.transparency.sequencer import publish_checkpoint, queue_unlogged


class Command(BaseCommand):
    help = ("Append the observations written since the last run to the transparency log and sign a checkpoint "
            "(Celery beat runs it every minute; docs/verification.md).")

    def add_arguments(self, parser):
        parser.add_argument("--backfill", action="store_true",
                            help="First queue every row the log holds (links with their references, works, revisions, "
                                 "snapshots, standing events and receipts, measurements) not in it yet: "
                                 "rows written before the log existed.")

    def handle(self, *args, backfill=False, **options):
        if backfill:
            self.stdout.write(f"{queue_unlogged()} rows queued for the log")
        published = publish_checkpoint()
        checkpoint = published.checkpoint
        self.stdout.write(f"{published.leaves} writes sequenced; the log holds {published.size} leaves; "
                          + (f"checkpoint of {checkpoint.size} published {checkpoint.published_at:%Y-%m-%dT%H:%M:%SZ}"
                             if checkpoint else "no checkpoint (no signing key configured)"))
