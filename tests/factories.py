"""Builders of stored observations for tests: papers with snapshots, reference lists, links."""
import uuid
from datetime import UTC, datetime, timedelta

from django.db import transaction

from citations.current.papers import papers_changed
from citations.models import (
    CitedWork,
    Paper,
    PaperReference,
    PaperReferenceLink,
    PaperSnapshot,
    PaperVersion,
    ReceiptEvent,
    ReferenceExtraction,
    ResolutionState,
    RetractionStatusReceipt,
    ScholarlyWorkEvent,
)
from citations.models.references import ExtractionOrigin
from citations.models.transparency import LeafKind, note_written
from citations.resolution.links import write_links

T0 = datetime(2026, 8, 1, 12, 0, 0, 123456, tzinfo=UTC)


def make_paper(arxiv_id: str, *, title: str | None = None, observed_at: datetime = T0, latest_version: int = 1,
               primary_category: str = "cs.DC", doi: str | None = None,
               submitted_at: datetime = datetime(2025, 1, 2, 3, 4, 5, tzinfo=UTC),
               version_dates: dict[int, datetime] | None = None, **snapshot_fields) -> Paper:
    """A held paper with one metadata snapshot (any further snapshot field as a keyword) and its versions
    (with the dates arXiv received them, where given)."""
    paper, _ = Paper.objects.get_or_create(arxiv_id=arxiv_id)
    snapshot = PaperSnapshot.objects.create(
        paper=paper, observed_at=observed_at, title=title or f"Paper {arxiv_id}",
        submitted_at=submitted_at, last_updated=max(submitted_at, datetime(2025, 2, 3, 4, 5, 6, tzinfo=UTC)),
        latest_version=latest_version, primary_category=primary_category, doi=doi, source="arxiv_metadata",
        **snapshot_fields,
    )
    for version in range(1, latest_version + 1):
        PaperVersion.objects.get_or_create(paper=paper, version=version,
                                           defaults={"created_at": (version_dates or {}).get(version)})
    papers_changed([paper.pk])                      # as every writer of snapshots does
    note_written(LeafKind.SNAPSHOT, [snapshot.pk])  # for the log, likewise
    return paper


def make_references(paper: Paper, count: int, *, version: int = 1, observed_at: datetime = T0,
                    cites: Paper | None = None, state: str = ResolutionState.UNRESOLVED,
                    resolver_source: str | None = None, start_index: int = 1, titled: bool = True,
                    year: int | None = 2024) -> list[PaperReference]:
    """A reference list of `count` references of one version, each with one link (`titled=False`: with
    no title parsed)."""
    paper_version, _ = PaperVersion.objects.get_or_create(paper=paper, version=version)
    extraction = ReferenceExtraction.objects.create(paper_version=paper_version, source="pdf_text",
                                                    origin=ExtractionOrigin.INGEST, observed_at=observed_at)
    references = PaperReference.objects.bulk_create([
        PaperReference(id=uuid.uuid4(), extraction=extraction, reference_index=start_index + i,
                       raw_text=f"A. Author. Work number {i}. 2024.", title=f"Work number {i}" if titled else None,
                       year=year,
                       parser="test", observed_at=observed_at + timedelta(microseconds=i))
        for i in range(count)
    ])
    write_links(PaperReferenceLink(reference=reference, state=state, resolver_source=resolver_source, cited_paper=cites,
                                   observed_at=reference.observed_at)
                for reference in references)
    papers_changed([paper.pk])                      # as every writer of reference lists does
    return references


def with_works_and_standing(references: list[PaperReference]) -> None:
    """Each reference linked to a work of its own, checked by a standing source that found an event: every
    fact a record shows beside an observation, logged as the writers note them."""
    at = datetime(2026, 8, 2, tzinfo=UTC)
    works = CitedWork.objects.bulk_create([
        CitedWork(doi=f"10.1000/w.{n}", title=f"Work number {n}", year=2024, venue="A Journal",
                  metadata_source="crossref", snapshot_observed_at=at) for n in range(len(references))])
    note_written(LeafKind.WORK, [str(w.pk) for w in works])
    event = ScholarlyWorkEvent.objects.create(source="retraction_watch", source_record_id="1", event_type="retraction",
                                              subject_doi="10.1000/w.0", observed_at=at)
    note_written(LeafKind.STANDING_EVENT, [event.pk])
    receipts = RetractionStatusReceipt.objects.bulk_create([
        RetractionStatusReceipt(work=w, source="retraction_watch", observed_at=at) for w in works])
    ReceiptEvent.objects.bulk_create([ReceiptEvent(receipt=r, event=event) for r in receipts])
    note_written(LeafKind.RECEIPT, [r.pk for r in receipts])
    with transaction.atomic():
        write_links(PaperReferenceLink(reference=r, state="verified_exact", resolver_source="crossref", cited_work=w,
                                       observed_at=at) for r, w in zip(references, works, strict=True))
