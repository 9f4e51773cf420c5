"""Resolving references: what the resolver finds for each, written through the one link writer
(citations/resolution/links.py).

Resolution is idempotent: a reference whose newest link already says what the resolver finds
(same state, resolver, paper and work) gets no new row, so re-running a job, or a job redelivered
after its worker died, writes nothing twice. Each batch is one transaction that locks its
references first, so two workers given the same references cannot both write.
"""
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

from django.db import transaction
from django.db.models import OuterRef, Subquery
from django.utils import timezone

from citations.arxiv_ids import arxiv_doi
from citations.models import CitedWork, Paper, PaperReference, PaperReferenceLink, PaperSnapshot, ReferenceExtraction
from citations.models.overrides import active_overrides
from citations.models.references import source_rank
from citations.models.transparency import LeafKind, note_written
from citations.resolution.fields import reference_fields
from citations.resolution.links import write_links
from citations.resolution.matching import RESOLVER_VERSION, Resolution, resolve
from citations.resolution.store import DatabaseStore
from citations.resolution.waiting import waiting_keys

BATCH_SIZE = 200
CURATION = "curation"


@dataclass
class ResolutionSummary:
    states: Counter = field(default_factory=Counter)
    written: int = 0
    unchanged: int = 0

    def add(self, other: "ResolutionSummary") -> None:
        self.states.update(other.states)
        self.written += other.written
        self.unchanged += other.unchanged

    def as_json(self) -> dict:
        return {"states": dict(sorted(self.states.items())), "written": self.written, "unchanged": self.unchanged}


def current_reference_ids(*, paper_ids: Iterable[int]) -> list:
    """References of the current list of every version of these papers (what records show: the
    source package's before the PDF's, then the newest)."""
    newest = (
        ReferenceExtraction.objects.filter(paper_version_id=OuterRef("extraction__paper_version_id"))
        .order_by(source_rank(), "-observed_at", "-id").values("id")[:1]
    )
    return list(
        PaperReference.objects.filter(extraction__paper_version__paper_id__in=list(paper_ids),
                                      extraction_id=Subquery(newest))
        .order_by("id").values_list("id", flat=True)
    )


def resolve_paper(*, arxiv_id: str) -> ResolutionSummary:
    """Resolve every current reference of a held paper (all its versions)."""
    paper = Paper.objects.get(arxiv_id=arxiv_id)
    return resolve_references(reference_ids=current_reference_ids(paper_ids=[paper.pk]))


def resolve_references(*, reference_ids: Iterable, pause=None, on_batch=None) -> ResolutionSummary:
    """Resolve references in batches, in the order given; returns what was found and what was written.
    on_batch(ids, summary), when given, is called in each batch's transaction with what it did."""
    reference_ids = list(reference_ids)
    summary = ResolutionSummary()
    for start in range(0, len(reference_ids), BATCH_SIZE):
        batch = reference_ids[start:start + BATCH_SIZE]
        if on_batch is None:
            part = _resolve_batch(batch)
        else:
            with transaction.atomic():
                part = _resolve_batch(batch)
                on_batch(batch, part)
        summary.add(part)
        if pause:
            pause()
    return summary


def _resolve_batch(reference_ids: list) -> ResolutionSummary:

    summary = ResolutionSummary()
    with transaction.atomic():
        references = list(PaperReference.objects.select_for_update(of=("self",))
                          .select_related("extraction__paper_version").filter(id__in=reference_ids).order_by("id"))
        if not references:
            return summary
        overrides = active_overrides(reference_ids=[r.pk for r in references])
        fields = {r.pk: reference_fields(r, overrides.get(r.pk), citing_paper_id=r.extraction.paper_version.paper_id)
                  for r in references}
        store = DatabaseStore()
        store.prefetch(fields.values())
        now = timezone.now()
        newest = {
            row["reference_id"]: row
            for row in PaperReferenceLink.objects.current(now).filter(reference_id__in=fields)
            .values("reference_id", "state", "resolver_source", "cited_paper_id", "cited_work_id")
        }
        results = {pk: resolve(fields[pk], store) for pk in fields}
        works = canonical_works(paper_ids={r.paper_id for r in results.values() if r.paper_id})
        new_links = []
        waiting = {}                            # reference -> the keys it waits under for a work
        for pk, result in results.items():
            summary.states[result.state] += 1
            held = newest.get(pk)
            if held and held["resolver_source"] == CURATION and not fields[pk].not_a_work and \
                    overrides.get(pk, {}).get("link"):
                summary.unchanged += 1          # a curator's link stands until it is withdrawn
                waiting[pk] = set()
                continue
            waiting[pk] = waiting_keys(fields[pk], result)
            work_id = works.get(result.paper_id) if result.paper_id else result.work_id
            if held and (held["state"], held["resolver_source"], held["cited_paper_id"],
                         _uuid_or_none(held["cited_work_id"])) == (result.state, result.resolver_source,
                                                                   result.paper_id, _uuid_or_none(work_id)):
                summary.unchanged += 1
                continue
            new_links.append(_link(pk, result, work_id, now))
        write_links(new_links, waiting=waiting)
        summary.written += len(new_links)
    return summary


def _link(reference_id, result: Resolution, work_id, now: datetime) -> PaperReferenceLink:
    return PaperReferenceLink(
        reference_id=reference_id, state=result.state, resolver_source=result.resolver_source,
        cited_paper_id=result.paper_id, cited_work_id=work_id, observed_at=now, evidence=result.evidence,
        resolver_version=RESOLVER_VERSION,
    )


def _uuid_or_none(value):
    return str(value) if value else None


def canonical_works(*, paper_ids: set[int]) -> dict[int, str]:
    """The canonical work of each held paper, made from its newest metadata where none exists yet."""
    if not paper_ids:
        return {}
    works = {paper_id: str(work_id) for work_id, paper_id in
             CitedWork.objects.filter(paper_id__in=paper_ids).values_list("id", "paper_id")}
    missing = paper_ids - set(works)
    if missing:
        arxiv = dict(Paper.objects.filter(id__in=missing).values_list("id", "arxiv_id"))
        # A work read from a record may name the paper by arXiv id only: adopt it.
        for work in CitedWork.objects.filter(arxiv_id__in=arxiv.values(), paper__isnull=True):
            paper_id = next(pid for pid, aid in arxiv.items() if aid == work.arxiv_id)
            CitedWork.objects.filter(pk=work.pk, paper__isnull=True).update(paper_id=paper_id)
            works[paper_id] = str(work.pk)
        missing -= set(works)
    if missing:
        newest = {}
        for snapshot in PaperSnapshot.objects.filter(paper_id__in=missing).order_by("paper_id", "-observed_at", "-revision"):
            newest.setdefault(snapshot.paper_id, snapshot)
        taken = set(CitedWork.objects.filter(doi__in=[s.doi.lower() for s in newest.values() if s.doi])
                    .values_list("doi", flat=True))
        rows = []
        for paper_id in missing:
            snapshot = newest.get(paper_id)
            if snapshot is None:
                continue
            arxiv_id = arxiv[paper_id]
            doi = snapshot.doi.lower() if snapshot.doi and snapshot.doi.lower() not in taken else arxiv_doi(arxiv_id)
            rows.append(CitedWork(
                doi=doi, arxiv_id=arxiv_id, title=snapshot.title,
                year=snapshot.submitted_at.year if snapshot.submitted_at else None,
                venue=snapshot.journal_ref or "arXiv", metadata_source="arxiv_metadata",
                snapshot_observed_at=snapshot.observed_at, paper_id=paper_id,
            ))
        # Another worker may create the same work at the same moment: the unique arXiv id settles it.
        CitedWork.objects.bulk_create(rows, ignore_conflicts=True)
        made = {paper_id: str(work_id) for work_id, paper_id in
                CitedWork.objects.filter(paper_id__in=missing).values_list("id", "paper_id")}
        note_written(LeafKind.WORK, made.values())      # the sequencer skips one another worker logged
        works.update(made)
    return works
