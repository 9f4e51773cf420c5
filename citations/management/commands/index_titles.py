from django.core.management.base import BaseCommand
from django.db import transaction

from citations.models import Paper, PaperTitleKey
from citations.resolution.index import index_paper_titles

BATCH = 5000


class Command(BaseCommand):
    help = ("File every known title under its blocking keys again. Idempotent; with --rebuild, keys are "
            "first dropped, which is needed after the key function changes.")

    def add_arguments(self, parser):
        parser.add_argument("--rebuild", action="store_true")

    def handle(self, *args, rebuild=False, **options):
        ids = list(Paper.objects.order_by("id").values_list("id", flat=True))
        added = 0
        for start in range(0, len(ids), BATCH):
            batch = ids[start:start + BATCH]
            with transaction.atomic():
                if rebuild:
                    PaperTitleKey.objects.filter(paper_id__in=batch).delete()
                added += index_paper_titles(paper_ids=batch, send_waiting=not rebuild)
        self.stdout.write(f"{len(ids):,} papers: {added:,} title keys added")
