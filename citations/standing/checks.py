"""One-hop checks: each canonical work against each synchronised source, with a dated receipt.

A receipt says: this work's DOIs (its own, and its arXiv DOI) were looked up in this source as
synchronised at this time, and these events were found. Its time is the sync's time, so checking
again against the same sync writes nothing, and a record can say "as of" exactly that. A lookup
that fails raises before anything is written: it can never leave a receipt that reads "no event".

A receipt finds the newest revision of each source record as of its sync (revisions.py): after
Retraction Watch revises a retraction to a correction, the new receipt finds the correction, and
the older receipt keeps the retraction it found.
"""
from collections import defaultdict

from django.db import transaction

from citations.arxiv_ids import arxiv_doi
from citations.current.resolutions import works_changed
from citations.models import (
    CitedWork,
    IdentifierKind,
    ReceiptEvent,
    RetractionStatusReceipt,
    ScholarlyWorkEvent,
    StandingSourceSync,
    SyncStatus,
    WorkIdentifier,
)
from citations.models.generations import records_changed
from citations.models.transparency import LeafKind, note_written
from citations.standing.revisions import newest_as_of

BATCH = 1000


def work_dois(work_doi: str | None, work_arxiv_id: str | None) -> set[str]:
    """The DOIs a work is checked under."""
    dois = {work_doi.lower()} if work_doi else set()
    if work_arxiv_id:
        dois.add(arxiv_doi(work_arxiv_id))
    return dois


def latest_syncs() -> dict[str, StandingSourceSync]:
    newest = {}
    for sync in StandingSourceSync.objects.filter(status=SyncStatus.SUCCEEDED).order_by("source", "-observed_at"):
        newest.setdefault(sync.source, sync)
    return newest


def check_works(*, work_ids=None, sources=None) -> dict[str, int]:
    """Check works (all when none are named) against the newest sync of each source; returns receipts written."""
    syncs = latest_syncs()
    written: dict[str, int] = defaultdict(int)
    works = CitedWork.objects.order_by("id")
    if work_ids is not None:
        works = works.filter(id__in=list(work_ids))
    for source, sync in syncs.items():
        if sources and source not in sources:
            continue
        last = None
        while True:
            batch = works.filter(id__gt=last) if last else works
            rows = list(batch.values_list("id", "doi", "arxiv_id")[:BATCH])
            if not rows:
                break
            written[source] += _check_batch(source, sync, rows)
            last = rows[-1][0]
    return dict(written)


def _check_batch(source: str, sync: StandingSourceSync, rows) -> int:
    at = sync.observed_at
    checked = set(RetractionStatusReceipt.objects.filter(work_id__in=[r[0] for r in rows], source=source,
                                                         observed_at=at).values_list("work_id", flat=True))
    pending = [(work_id, work_dois(doi, arxiv_id)) for work_id, doi, arxiv_id in rows if work_id not in checked]
    # A work is checked under every DOI the works store joined to it: a notice about either the
    # preprint or the published version reaches the references to it.
    joined = defaultdict(set)
    for work_id, kind, value in WorkIdentifier.objects.filter(work_id__in=[w for w, _ in pending]).values_list(
            "work_id", "kind", "value"):
        joined[work_id].add(value if kind == IdentifierKind.DOI else arxiv_doi(value) if kind == IdentifierKind.ARXIV
                            else None)
    pending = [(work_id, dois | (joined[work_id] - {None})) for work_id, dois in pending]
    if not pending:
        return 0
    by_doi = defaultdict(list)
    about = ScholarlyWorkEvent.objects.filter(source=source, subject_doi__in={d for _, dois in pending for d in dois})
    for event_id, subject in newest_as_of(about, at).values_list("id", "subject_doi"):
        by_doi[subject].append(event_id)
    with transaction.atomic():
        receipts = RetractionStatusReceipt.objects.bulk_create(
            [RetractionStatusReceipt(work_id=work_id, source=source, observed_at=at) for work_id, _ in pending],
            ignore_conflicts=True)
        # ignore_conflicts leaves no primary keys on SQLite: read them back.
        ids = dict(RetractionStatusReceipt.objects.filter(
            work_id__in=[w for w, _ in pending], source=source, observed_at=at).values_list("work_id", "id"))
        ReceiptEvent.objects.bulk_create([
            ReceiptEvent(receipt_id=ids[work_id], event_id=event_id)
            for work_id, dois in pending for doi in sorted(dois) for event_id in by_doi.get(doi, ())
        ], ignore_conflicts=True)
        note_written(LeafKind.RECEIPT, sorted(ids.values()))
        # For the changes feed: references to works a notice is found for. (A sync moves every
        # receipt's time; listing every linked reference each day for that would drown the feed.)
        works_changed(work_id for work_id, dois in pending if any(doi in by_doi for doi in dois))
        records_changed()
    return len(receipts)
