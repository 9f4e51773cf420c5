"""Reference lists into observations: one citing version a line, each list parsed and stored whole.

JSON lines, streamed, idempotent (a list already held unchanged is not written again); a bad line is
counted with its reason and skipped, never half-written."""
import hashlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from citations.arxiv_ids import MAX_VERSION, arxiv_id_field
from citations.current.papers import papers_changed
from citations.input_files import (
    IngestReport,
    RejectedLine,
    handled_lines,
)
from citations.models import (
    Paper,
    PaperReference,
    PaperReferenceLink,
    PaperVersion,
    ReferenceExtraction,
    ResolutionState,
)
from citations.models.references import REFERENCE_SOURCES, ExtractionOrigin
from citations.parsing.reader import read_references, stored_fields
from citations.records.canonical import canonical_bytes
from citations.resolution.links import write_links
from citations.validation import OutOfRange, visible_text

MAX_REFERENCES = 5000
MAX_RAW_TEXT = 10_000          # characters of one reference's text, wherever a reference is stored from


# --- reference lists ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class ReferenceList:
    arxiv_id: str
    version: int
    source: str
    references: tuple[tuple[int, str], ...]
    pages: tuple[int | None, ...] = ()        # the PDF page each reference starts on, when read from one

    @property
    def digest(self) -> str:
        body = {"source": self.source, "references": [{"index": i, "raw": r} for i, r in self.references]}
        if any(self.pages):         # (lists without pages keep the digests they always had)
            body["pages"] = list(self.pages)
        return "sha256:" + hashlib.sha256(canonical_bytes(body)).hexdigest()


def reference_list(value: dict) -> ReferenceList:
    """Validate one line of `ingest_references` input; raise RejectedLine naming the problem."""
    arxiv_id = arxiv_id_field(value.get("arxiv_id"))
    if arxiv_id is None:
        raise RejectedLine("no valid arxiv_id")
    version = value.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or not 1 <= version <= MAX_VERSION:
        raise RejectedLine("version is not a positive integer")
    source = value.get("source", "pdf_text")
    if source not in REFERENCE_SOURCES:
        raise RejectedLine(f"source is not one of {', '.join(REFERENCE_SOURCES)}")
    references = value.get("references")
    if not isinstance(references, list) or not references:
        raise RejectedLine("references is not a non-empty list")
    if len(references) > MAX_REFERENCES:
        raise RejectedLine(f"more than {MAX_REFERENCES} references")
    parsed, indexes = [], set()
    for item in references:
        index, raw = _reference(item)
        if index in indexes:
            raise RejectedLine(f"reference index {index} appears twice")
        indexes.add(index)
        parsed.append((index, raw))
    return ReferenceList(arxiv_id, version, source, tuple(parsed))


def _reference(item) -> tuple[int, str]:
    """(index, raw text) of one reference of a list, when both can be stored."""
    if not isinstance(item, dict):
        raise RejectedLine("a reference is not an object")
    index, raw = item.get("index"), item.get("raw")
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index <= 2_147_483_647:
        raise RejectedLine("a reference index is not a non-negative integer")
    if not isinstance(raw, str) or not raw.strip() or len(raw) > MAX_RAW_TEXT:
        raise RejectedLine("a reference's raw text is empty or longer than 10,000 characters")
    try:
        return index, visible_text(raw, what="a reference's raw text")
    except OutOfRange as error:
        raise RejectedLine(str(error)) from None


def ingest_reference_list(item: ReferenceList, *, observed_at: datetime | None = None) -> tuple[str, list]:
    """Store one version's reference list: ("created", reference ids) or ("unchanged", []).

    Each reference is parsed, and written with its first resolution (unresolved, no resolver
    named) in the same transaction, so a record shows it at once and truthfully.
    """
    observed_at = observed_at or timezone.now()
    with transaction.atomic():
        try:
            paper = Paper.objects.get(arxiv_id=item.arxiv_id)
        except Paper.DoesNotExist:
            raise RejectedLine("paper not held: import its arXiv metadata first") from None
        version, _ = PaperVersion.objects.get_or_create(paper=paper, version=item.version)
        # Lock the version so two ingests of the same list cannot both find it missing.
        PaperVersion.objects.select_for_update().filter(pk=version.pk).first()
        newest = (ReferenceExtraction.objects.filter(paper_version=version, source=item.source)
                  .order_by("-observed_at", "-id").first())
        digest = item.digest
        if newest is not None and newest.content_digest == digest:
            return "unchanged", []
        extraction = ReferenceExtraction.objects.create(
            paper_version=version, source=item.source, origin=ExtractionOrigin.INGEST, observed_at=observed_at,
            content_digest=digest)
        pages = item.pages or (None,) * len(item.references)
        readings = read_references([raw for _, raw in item.references])
        references = [PaperReference(extraction=extraction, reference_index=index, raw_text=raw, page=page,
                                     observed_at=observed_at, **stored_fields(parsed))
                      for (index, raw), page, parsed in zip(item.references, pages, readings, strict=True)]
        PaperReference.objects.bulk_create(references)
        write_links(PaperReferenceLink(reference=r, state=ResolutionState.UNRESOLVED, observed_at=observed_at,
                                       evidence={"stage": "ingested, not yet resolved"}, resolver_version="")
                    for r in references)
        papers_changed([paper.pk])
        return "created", [r.pk for r in references]


def ingest_references(lines: Iterable[bytes], *, progress: Callable[[], None] | None = None,
                      on_created: Callable[[str], None] | None = None) -> IngestReport:
    """Read reference-list lines (one citing version a line) into observations."""
    report = IngestReport()
    for item, (outcome, ids) in handled_lines(lines, report, _ingest_line):
        if outcome == "created":
            report.created["reference_lists"] += 1
            report.created["references"] += len(ids)
            if on_created:
                on_created(item.arxiv_id)
        else:
            report.unchanged += 1
        if progress:
            progress()
    return report


def _ingest_line(value: dict) -> tuple["ReferenceList", tuple[str, list]]:
    item = reference_list(value)
    return item, ingest_reference_list(item)
