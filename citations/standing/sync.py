"""Synchronising a standing source: all of a file's events, and the sync's time, or nothing.

A run is recorded as it starts. If it succeeds, its events and its time (the record's
standing_sources) are committed together; if anything fails, the events roll back, the previous
state and time stay as they were, and the run is kept as failed, with its error, for operators.
"""
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from citations.record_cache import records_changed
from citations.models import ScholarlyWorkEvent, StandingSourceSync, SyncStatus
from citations.standing import crossref, retraction_watch
from citations.standing.events import RejectedRow, SourceEvent

SOURCES = {retraction_watch.SOURCE: "Retraction Watch CSV", crossref.SOURCE: "Crossref REST work JSON"}
BATCH = 2000


@dataclass
class SyncReport:
    sync_id: int
    source: str
    status: str
    observed_at: datetime | None = None
    counts: Counter = field(default_factory=Counter)
    rejected: Counter = field(default_factory=Counter)
    examples: dict = field(default_factory=dict)
    error: str = ""


def read_events(source: str, data: bytes):
    """(position, event or rejection) of a source file."""
    if source == retraction_watch.SOURCE:
        text = data.decode("utf-8-sig")
        return retraction_watch.read_rows(text.splitlines(keepends=True))
    if source == crossref.SOURCE:
        return crossref.read_messages(data)
    raise ValueError(f"unknown standing source {source!r} (known: {', '.join(SOURCES)})")


def sync_standing_source(*, source: str, data: bytes, input_name: str = "") -> SyncReport:
    """Read a source file into events and record the sync; see the module docstring."""
    if source not in SOURCES:
        raise ValueError(f"unknown standing source {source!r} (known: {', '.join(SOURCES)})")
    run = StandingSourceSync.objects.create(source=source, status=SyncStatus.RUNNING, started_at=timezone.now(),
                                            input_name=input_name[:500])
    report = SyncReport(sync_id=run.pk, source=source, status=SyncStatus.RUNNING)
    try:
        with transaction.atomic():
            events: dict[str, SourceEvent] = {}
            for position, item in read_events(source, data):
                if isinstance(item, RejectedRow):
                    report.rejected[str(item)] += 1
                    report.examples.setdefault(str(item), position)
                else:
                    events[item.source_record_id] = item     # a record seen twice: its last row stands
            finished = timezone.now()
            report.counts.update(_store(source, list(events.values()), finished))
            StandingSourceSync.objects.filter(pk=run.pk).update(
                status=SyncStatus.SUCCEEDED, finished_at=finished, observed_at=finished,
                counts={**report.counts, "rejected": sum(report.rejected.values())})
            records_changed()          # every record names the sources' times
        report.status, report.observed_at = SyncStatus.SUCCEEDED, finished
    except Exception as error:  # noqa: BLE001 - whatever failed, the run must end recorded as failed
        report.status, report.error = SyncStatus.FAILED, f"{type(error).__name__}: {error}"[:2000]
        StandingSourceSync.objects.filter(pk=run.pk).update(status=SyncStatus.FAILED, finished_at=timezone.now(),
                                                            error=report.error)
        if not isinstance(error, (RejectedRow, UnicodeDecodeError)):
            raise
    return report


def _store(source: str, events: list[SourceEvent], observed_at: datetime) -> Counter:
    counts = Counter(events=len(events))
    for start in range(0, len(events), BATCH):
        batch = events[start:start + BATCH]
        held = {e.source_record_id: e for e in ScholarlyWorkEvent.objects.filter(
            source=source, source_record_id__in=[e.source_record_id for e in batch])}
        new, changed = [], []
        for event in batch:
            facts = {"event_type": event.event_type, "subject_doi": event.subject_doi, "notice_doi": event.notice_doi,
                     "occurred_on": event.occurred_on, "reason": event.reason}
            row = held.get(event.source_record_id)
            if row is None:
                new.append(ScholarlyWorkEvent(source=source, source_record_id=event.source_record_id,
                                              observed_at=observed_at, **facts))
            elif any(getattr(row, name) != value for name, value in facts.items()):
                # The source revised its row: the event says what the source says now.
                for name, value in facts.items():
                    setattr(row, name, value)
                row.observed_at = observed_at
                changed.append(row)
        ScholarlyWorkEvent.objects.bulk_create(new)
        ScholarlyWorkEvent.objects.bulk_update(changed, ["event_type", "subject_doi", "notice_doi", "occurred_on",
                                                         "reason", "observed_at"])
        counts["new"] += len(new)
        counts["revised"] += len(changed)
    counts["unchanged"] = counts["events"] - counts["new"] - counts["revised"]
    counts.update(Counter(f"type:{e.event_type}" for e in events))
    return counts
