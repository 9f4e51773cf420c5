import os
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from citations.evaluation.datasets import DATASET_NAMES, available
from citations.evaluation.rendering import render
from citations.evaluation.runner import evaluate


def default_data_dir() -> Path:
    """$PITH_DATA_DIR, else the shared data next to the project (../shared/data)."""
    configured = os.environ.get("PITH_DATA_DIR")
    return Path(configured) if configured else Path(settings.BASE_DIR).parent / "shared" / "data"


class Command(BaseCommand):
    help = ("Measure the reference parser and resolver on the public evaluation data sets (no database): "
            "per data set, year, title and identifier extraction, link precision and recall, and the states.")

    def add_arguments(self, parser):
        parser.add_argument("--data-dir", type=Path, default=None,
                            help="Folder holding the data sets (default: $PITH_DATA_DIR, else ../shared/data).")
        parser.add_argument("--dataset", nargs="+", choices=DATASET_NAMES, metavar="NAME",
                            help=f"Only these data sets (default: every one present): {', '.join(DATASET_NAMES)}.")
        parser.add_argument("--limit", type=int, default=None, help="At most N cases per data set.")
        parser.add_argument("--examples", type=int, default=0, metavar="N",
                            help="Also print up to N example strings per error category.")

    def handle(self, *args, data_dir=None, dataset=None, limit=None, examples=0, **options):
        data_dir = data_dir or default_data_dir()
        if not data_dir.is_dir():
            raise CommandError(f"data directory {data_dir} does not exist; pass --data-dir or set PITH_DATA_DIR")
        if limit is not None and limit < 1:
            raise CommandError("--limit must be at least 1")
        present = available(data_dir)
        if dataset:
            missing = [name for name in dataset if name not in present]
            if missing:
                raise CommandError(f"not found under {data_dir}: {', '.join(missing)}")
        elif not present:
            raise CommandError(f"no evaluation data set found under {data_dir}")
        else:
            absent = [name for name in DATASET_NAMES if name not in present]
            if absent:
                self.stderr.write(f"skipped (not found under {data_dir}): {', '.join(absent)}")
        reports = evaluate(data_dir, datasets=dataset or present, limit=limit)
        self.stdout.write(render(reports, examples=examples), ending="")
