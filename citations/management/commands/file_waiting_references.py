from django.core.management.base import BaseCommand

from citations.resolution.waiting import file_current_references


class Command(BaseCommand):
    help = ("File every unresolved reference under the keys it waits under for a work (its title's blocking "
            "keys, its volume and first page, the arXiv id it names), so that a work or paper arriving later "
            "sends it back to resolution. Resolution keeps this index from then on; run once on a store "
            "resolved before it existed. Idempotent.")

    def handle(self, *args, **options):
        seen = 0

        def progress(count):
            nonlocal seen
            seen += count
            self.stderr.write(f"\r{seen:,} references read", ending="")

        waiting = file_current_references(progress=progress)
        self.stderr.write("")
        self.stdout.write(f"{seen:,} unresolved references read: {waiting:,} wait for a work")
