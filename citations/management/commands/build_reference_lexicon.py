from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from citations.parsing.lexicon import LEXICON_PATH, LEXICON_SOURCE, read_source, write
from citations.parsing.training_data import sha256


class Command(BaseCommand):
    """manage.py build_reference_lexicon."""

    help = ("Write the reference parser's lexicon (known journals, proceedings, publishers, collaborations, "
            "first and family names, English word forms) from GROBID's grobid-home/lexicon folder. "
            "A model is trained with the lexicon it reads: train_reference_parser after this.")

    def add_arguments(self, parser):
        parser.add_argument("source", type=Path,
                            help="GROBID's grobid-home/lexicon folder (from a checkout of kermitt2/grobid)")
        parser.add_argument("--output", type=Path, default=LEXICON_PATH)

    def handle(self, *args, source, output, **options):
        try:
            lists = read_source(source)
        except FileNotFoundError as error:
            raise CommandError(f"{error} (it needs: {', '.join(p for ps in LEXICON_SOURCE.values() for p in ps)})")
        write(lists, output)
        counts = ", ".join(f"{name} {len(entries):,}" for name, entries in lists.items())
        self.stdout.write(f"wrote {output} (sha256 {sha256(output)[:12]}): {counts}")
