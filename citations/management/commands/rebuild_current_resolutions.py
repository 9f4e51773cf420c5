from django.core.management.base import BaseCommand

from citations.current import papers as papers_current
from citations.current.resolutions import rebuild


class Command(BaseCommand):
    help = ("Recompute the materialised tables the lists read from the append-only log, which stays the truth: "
            "reference_current_resolutions from paper_reference_links, and paper_current (each paper's newest "
            "snapshot and reference list) from paper_snapshots and reference_extractions. One transaction each; "
            "readers see the old table until it commits.")

    def handle(self, *args, **options):
        rows = rebuild()
        self.stdout.write(f"{rows:,} references: current resolution rebuilt from the log")
        papers = papers_current.rebuild()
        self.stdout.write(f"{papers:,} papers: newest snapshot and reference list rebuilt from the log")
