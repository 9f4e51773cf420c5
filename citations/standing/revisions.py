"""Events are kept as revisions: what a source said about one of its records, as of each sync.

A source that revises a row (Retraction Watch changing Record ID 50438 from Retraction to
Correction) gives a new ScholarlyWorkEvent row for the same (source, source_record_id), observed at
that sync; the row before it is never changed, so the receipts that found it, and every record
built as of a time before the revision, keep saying what the source said then. A row the source
drops from its file is not a revision: its newest revision stays as it was.

Whoever reads events "as the source says" reads the newest revision of each record as of a time.
"""
from datetime import datetime

from django.db.models import Exists, OuterRef, QuerySet

from citations.models import ScholarlyWorkEvent


def newest_as_of(events: QuerySet, at: datetime | None = None) -> QuerySet:
    """Those of `events` that are the newest revision of their record observed by `at` (default: ever)."""
    newer = ScholarlyWorkEvent.objects.filter(source=OuterRef("source"), source_record_id=OuterRef("source_record_id"),
                                              observed_at__gt=OuterRef("observed_at"))
    if at is not None:
        events, newer = events.filter(observed_at__lte=at), newer.filter(observed_at__lte=at)
    return events.filter(~Exists(newer))
