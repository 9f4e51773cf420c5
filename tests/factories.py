"""Builders of stored observations for tests: papers with snapshots, reference lists, links."""
import uuid
from datetime import UTC, datetime, timedelta

from citations.current.papers import papers_changed
from citations.models import (
    Paper,
    PaperReference,
    PaperReferenceLink,
    PaperSnapshot,
    PaperVersion,
    ReferenceExtraction,
    ResolutionState,
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
