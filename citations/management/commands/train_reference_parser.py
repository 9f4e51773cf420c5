import json
import os
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from citations.parsing.building import ReadingsChanged, build_model, write_metadata
from citations.parsing.datasets import load
from citations.parsing.tagger import METADATA_PATH, MODEL_PATH
from citations.parsing.training_data import MissingTrainingData


def default_data_dir() -> Path:
    """$PITH_DATA_DIR, else the shared data next to the project (../shared/data)."""
    configured = os.environ.get("PITH_DATA_DIR")
    return Path(configured) if configured else Path(settings.BASE_DIR).parent / "shared" / "data"


class Command(BaseCommand):
    """manage.py train_reference_parser."""

    help = ("Train the CRF reference-string parser (citations.parsing) from GROBID's citation corpus and "
            "AnyStyle's gold, deterministically, and write the model with its metadata (data digests, "
            "options, figures on GROBID's held-out evaluation files).")

    def add_arguments(self, parser):
        parser.add_argument("--data-dir", type=Path, default=None,
                            help="Folder holding grobid-citation-corpus/ and anystyle-parser-gold/ "
                                 "(default: $PITH_DATA_DIR, else ../shared/data).")
        parser.add_argument("--output", type=Path, default=MODEL_PATH, help="Model file to write.")
        parser.add_argument("--rescore", action="store_true",
                            help="Keep the model file; score it again and rewrite its metadata (after a change "
                                 "to how labels become fields, which needs no new model).")
        parser.add_argument("--metadata", type=Path, default=None,
                            help="Metadata file to write (default: beside the model, .json).")

    def handle(self, *args, data_dir=None, output=MODEL_PATH, metadata=None, rescore=False, **options):
        data_dir = data_dir or default_data_dir()
        metadata = metadata or (METADATA_PATH if output == MODEL_PATH else output.with_suffix(".json"))
        try:
            if rescore:
                recorded = json.loads(Path(metadata).read_text())
                written = write_metadata(load(data_dir), data_dir, output, metadata, recorded["training_options"])
            else:
                written = build_model(data_dir, output, metadata)
        except (MissingTrainingData, ReadingsChanged) as error:
            raise CommandError(str(error)) from error
        figures = written["evaluation"]["grobid_evaluation"]
        self.stdout.write(f"wrote {output} ({written['model_bytes']:,} bytes, sha256 {written['model_sha256'][:12]}) "
                          f"and {metadata}")
        self.stdout.write(f"GROBID evaluation: instance accuracy {figures['instance_accuracy']}, "
                          + ", ".join(f"{name} F1 {f['f1']}" for name, f in figures["fields"].items()))
