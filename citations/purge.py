"""Purging a paper's reference lists: the one audited way to remove observations (a takedown).

Everything else in the store is append-only (PostgreSQL triggers refuse UPDATE, DELETE and
TRUNCATE on every observation table). A purge removes the reference lists of a citing paper
(all its versions, or the named ones): their extractions, references, resolution links and the
curation entries about those references, in one transaction that first writes its own audit
entry (ObservationPurge: operator, reason, time, the rows it removes, and the transaction's id). On
PostgreSQL the triggers let a row be deleted only in a transaction that has written such an entry
(citations/append_only.py), so no session can delete around the audit, whatever it sets. The paper,
its metadata snapshots, and other papers' references to it stay: they are other observations.
"""
from collections import Counter

from django.db import connection, transaction

from citations.current.papers import papers_changed
from citations.models import (
    CurrentResolution,
    ListReading,
    ObservationPurge,
    Override,
    Paper,
    PaperReference,
    PaperReferenceLink,
    PaperVersion,
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
        # The versions locked first, as an ingest locks them: no list can be added while the
        # rows are counted, so the audit entry written before the deletes says what they remove.
        list(PaperVersion.objects.select_for_update().filter(paper=paper).values_list("id", flat=True))
        references = PaperReference.objects.filter(extraction__in=extractions)
        overrides = Override.objects.filter(reference__in=references)
        links = PaperReferenceLink.objects.filter(reference__in=references)
        # In dependency order: withdrawals name the entries they withdraw, links and entries
        # name their references, references their extraction.
        steps = (("curation_overrides", overrides.exclude(withdraws=None)), ("curation_overrides", overrides),
                 ("paper_reference_links", links), ("paper_references", references),
                 ("reference_extractions", extractions))
        counts = Counter({label: 0 for label, _ in steps})
        counts["curation_overrides"] = overrides.count()
        for label, rows in steps[2:]:
            counts[label] = rows.count()
        if not counts["reference_extractions"]:
            raise PurgeRefused(f"arXiv:{arxiv_id} has no reference lists{' of those versions' if versions else ''}")
        cited = set(links.exclude(cited_paper=None).values_list("cited_paper_id", flat=True))
        entry = ObservationPurge.objects.create(arxiv_id=arxiv_id, versions=sorted(versions or []), reason=reason,
                                                operator=operator, counts=dict(counts),
                                                transaction_id=_transaction_id())
        # Not observations (a materialised view of the links): gone with them, and not counted.
        CurrentResolution.objects.filter(reference__in=references).delete()
        WaitingReferenceKey.objects.filter(reference__in=references).delete()
        ListReading.objects.filter(extraction__in=extractions).delete()
        removed = Counter()
        for label, rows in steps:
            removed[label] += rows.delete()[0]
        if removed != counts:
            raise PurgeRefused(f"the rows changed while they were purged ({dict(removed)} against {dict(counts)}): "
                               "nothing was removed; run the purge again")
        papers_changed([paper.pk])     # its record's outbound list may now be an older one, or none
        records_of_papers_changed(paper_ids={paper.pk, *cited})
    return entry


def _transaction_id() -> int | None:
    """PostgreSQL's id of the current transaction, which the triggers look for in the audit entries."""
    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute("SELECT txid_current()")
        return cursor.fetchone()[0]
