"""The demo store: the two seed records, and real papers with their raw reference strings, resolved.

Everything comes from the public data sets under ../shared/data (each folder's SOURCE.md says where
it was taken): the unarXive open-subset sample gives 49 December-2022 arXiv papers with their
metadata and 1,786 reference strings (rendered from the LaTeX source, so their source is "latex");
the Retraction Watch sample and Crossref's test work give works and
standing notices. Every step is one of the importers an operator runs, so the demo shows what they
do, and running it again changes nothing.
"""
import json
import re
import tempfile
from collections.abc import Callable
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.utils import timezone

from citations.signing import create_signing_key, signing_key

SEEDS = Path(__file__).resolve().parent / "fixtures" / "seeds"     # the two reference records
UNARXIVE = Path("unarxive-sample")
RW_DERIVED = Path("retraction-watch-sample") / "DERIVED_rw_layout_from_etl_sample.csv"
RW_EXEMPLAR = Path("retraction-watch-sample") / "rw_original_layout_exemplar.csv"
CROSSREF_WORK = Path("crossref-work-json") / "works_10.5555_12345678.json"
# When the sample was taken (unarXive's snapshot of December 2022 papers): their observations' time.
UNARXIVE_OBSERVED_AT = "2023-01-15T00:00:00Z"


def demo_data_dir() -> Path:
    return Path(settings.DEMO_DATA_DIR)


# unarXive stands each formula of the LaTeX in for "{{formula:<uuid>}}", which no reader of the paper
# ever saw; the demo shows "⟨formula⟩" where the paper printed one.
_FORMULA = re.compile(r"\{\{formula:[0-9a-f-]{36}\}\}")


def reference_lists(data: Path):
    """unarXive papers as ingest_references lines: each bib entry's raw string, in the paper's order."""
    with open(data / UNARXIVE / "arXiv_src_2212_086.jsonl", encoding="utf-8") as file:
        for line in file:
            paper = json.loads(line)
            metadata = paper["metadata"]
            raws = [_FORMULA.sub("⟨formula⟩", e["bib_entry_raw"].strip()) for e in paper["bib_entries"].values()
                    if e.get("bib_entry_raw", "").strip()]
            if raws:
                yield {"arxiv_id": metadata["id"], "version": len(metadata.get("versions") or [None]),
                       "source": "latex",
                       "references": [{"index": n, "raw": raw} for n, raw in enumerate(raws, start=1)]}


def load_real_papers(data: Path, say: Callable[[str], None]) -> None:
    """The real-data part of the demo, by the operators' own commands."""
    run = lambda *args: call_command(*args, stdout=_Say(say))            # noqa: E731 - a one-line adapter
    run("import_arxiv_metadata", str(data / UNARXIVE / "derived_arxiv_metadata_kaggle_format.jsonl"),
        "--observed-at", UNARXIVE_OBSERVED_AT)
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", encoding="utf-8", delete=False) as lists:
        for item in reference_lists(data):
            lists.write(json.dumps(item, ensure_ascii=False) + "\n")
    try:
        run("ingest_references", lists.name)
    finally:
        Path(lists.name).unlink(missing_ok=True)
    run("import_works", "retraction_watch", str(data / RW_DERIVED), "--observed-at", "2026-08-01T00:00:00Z")
    run("import_works", "crossref", str(data / CROSSREF_WORK), "--observed-at", "2026-08-01T00:00:00Z")
    run("sync_standing_source", "retraction_watch", str(data / RW_DERIVED), "--no-check")
    run("sync_standing_source", "crossref", str(data / CROSSREF_WORK))
    run("resolve", "--all")


class _Say:
    """A file-like stdout for call_command that hands each line to the demo's printer."""

    def __init__(self, say):
        self._say = say

    def write(self, text: str) -> None:
        for line in text.splitlines():
            if line.strip():
                self._say("  " + line)

    def flush(self) -> None:
        pass


def ensure_development_key(say: Callable[[str], None]) -> None:
    """A signing key for the demo, made under var/ when none is configured, and said to be one."""
    key = signing_key()
    if key is not None:
        say(f"signing key {key.id} from {settings.SIGNING_KEY_FILE}")
        return
    entry = create_signing_key(now=timezone.now())
    say(f"made a DEVELOPMENT signing key {entry['key_id']} at {settings.SIGNING_KEY_FILE}: records and checkpoints "
        "are signed with it; for production make one with `manage.py create_signing_key` and keep it secret")
