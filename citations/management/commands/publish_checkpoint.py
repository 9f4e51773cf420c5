from django.core.management.base import BaseCommand

from citations.transparency.sequencer import publish_checkpoint


class Command(BaseCommand):
    help = ("Append the observations written since the last run to the transparency log and sign a checkpoint "
            "(Celery beat runs it every minute; docs/verification.md).")

    def handle(self, *args, **options):
        published = publish_checkpoint()
        checkpoint = published.checkpoint
        self.stdout.write(f"{published.leaves} writes sequenced; the log holds {published.size} leaves; "
                          + (f"checkpoint of {checkpoint.size} published {checkpoint.published_at:%Y-%m-%dT%H:%M:%SZ}"
                             if checkpoint else "no checkpoint (no signing key configured)"))
