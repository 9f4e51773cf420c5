"""Purging a paper's reference lists: the one audited way to remove observations (a takedown).

Everything else in the store is append-only (PostgreSQL triggers refuse UPDATE, DELETE and
TRUNCATE on every observation table). A purge removes the reference lists of a citing paper
(all its versions, or the named ones): their extractions, references, resolution links and the
curation entries about those references, in one transaction that first writes its own audit
entry (ObservationPurge: operator, reason, time, rows removed) and sets `pith.purge`, the setting
the triggers let delete within that transaction only. The paper, its metadata snapshots, and
other papers' references to it stay: they are other observations.
"""
from collections import Counter

from django.db import connection, transaction

from citations.current.papers import papers_changed
from citations.models import (
    CurrentResolution,
    ObservationPurge,
    Override,
    Paper,
    PaperReference,
    PaperReferenceLink,
    ReferenceExtraction,
    WaitingReferenceKey,
)
from citations.models.generations import records_of_papers_changed

MIN_REASON = 10


class PurgeRefused(ValueError):
    """The purge cannot run; the message says why."""


def purge_references(*, arxiv_id: str, reason: str, operator, versions: list[int] | None = None) -> ObservationPurge:
    """Remove the reference lists of a paper (or of some versions), with an audit entry."""
    reason = " ".join(str(reason or "").split())
    if len(reason) < MIN_REASON:
        raise PurgeRefused(f"say why (at least {MIN_REASON} characters): a purge is audited")
    if not (operator and operator.is_active and operator.is_staff):
        raise PurgeRefused("only an active staff user can purge observations")
    paper = Paper.objects.filter(arxiv_id=arxiv_id).first()
    if paper is None:
        raise PurgeRefused(f"arXiv:{arxiv_id} is not held")
    extractions = ReferenceExtraction.objects.filter(paper_version__paper=paper)
    if versions:
        extractions = extractions.filter(paper_version__version__in=versions)
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:     # SET LOCAL: this transaction only
                cursor.execute("SET LOCAL pith.purge = 'on'")
        references = PaperReference.objects.filter(extraction__in=extractions)
        cited = set(PaperReferenceLink.objects.filter(reference__in=references)
                    .exclude(cited_paper=None).values_list("cited_paper_id", flat=True))
        counts = Counter()
        # Not observations (a materialised view of the links): gone with them, and not counted.
        CurrentResolution.objects.filter(reference__in=references).delete()
        WaitingReferenceKey.objects.filter(reference__in=references).delete()
        overrides = Override.objects.filter(reference__in=references)
        # In dependency order: withdrawals name the entries they withdraw, links and entries
        # name their references, references their extraction.
        for label, rows in (("curation_overrides", overrides.exclude(withdraws=None)),
                            ("curation_overrides", overrides),
                            ("paper_reference_links", PaperReferenceLink.objects.filter(reference__in=references)),
                            ("paper_references", references),
                            ("reference_extractions", extractions)):
            counts[label] += rows.delete()[0]
        if not counts["reference_extractions"]:
            raise PurgeRefused(f"arXiv:{arxiv_id} has no reference lists{' of those versions' if versions else ''}")
        papers_changed([paper.pk])     # its record's outbound list may now be an older one, or none
        entry = ObservationPurge.objects.create(arxiv_id=arxiv_id, versions=sorted(versions or []), reason=reason,
                                                operator=operator, counts=dict(counts))
        records_of_papers_changed(paper_ids={paper.pk, *cited})
    return entry
