from django.core.management.base import BaseCommand

from citations.resolution.current import rebuild


class Command(BaseCommand):
    help = ("Recompute reference_current_resolutions (what lists and filters read) from the append-only "
            "paper_reference_links, which stay the truth. One transaction; readers see the old table until it commits.")

    def handle(self, *args, **options):
        rows = rebuild()
        self.stdout.write(f"{rows:,} references: current resolution rebuilt from the log")
