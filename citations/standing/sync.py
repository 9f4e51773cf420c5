"""Synchronising a standing source: all of a file's events, and the sync's time, or nothing.

A run is recorded as it starts. If it succeeds, its events and its time (the record's
standing_sources) are committed together; if anything fails, the events roll back, the previous
state and time stay as they were, and the run is kept as failed, with its error, for operators.

A sync succeeds only when it read something: at least one row that gave an event (Retraction
Watch) or one work with a DOI (Crossref, whose works may carry no notice). Otherwise its time
would move every record's standing `as of` forward for a source that was not read. So a file
fails, with one sentence saying why, when it is empty, is not UTF-8, cannot be read as the
source's format at all (BadFile from the readers: not Retraction Watch's header, CSV the csv
module cannot read, a JSON document cut in the middle or nested too deeply), has no data rows,
or has only rejected rows. A file with some rejected rows and real content succeeds, the
rejections counted by reason: real Retraction Watch data has rows without a DOI.

What a sync stores is history (citations/standing/revisions.py): an event the source revised is
a new revision observed at this sync, the previous one stays unchanged; an event the file no
longer holds stays as it was.
"""
import io
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from citations.record_cache import records_changed
from citations.models import ScholarlyWorkEvent, StandingSourceSync, SyncStatus
from citations.standing import crossref, retraction_watch
from citations.standing.events import BadFile, RejectedRow, SourceEvent, WorkRead, decoded
from citations.standing.revisions import newest_as_of

SOURCES = {retraction_watch.SOURCE: "Retraction Watch CSV", crossref.SOURCE: "Crossref REST work JSON"}
BATCH = 2000


class SyncFailed(Exception):
    """A sync that failed, raised where a caller (the Celery task) must end failed; the message says why."""


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
    """(position, event, work read or rejection) of a source file; BadFile when it cannot be read at all."""
    if not data.removeprefix(b"\xef\xbb\xbf").strip():
        raise BadFile("the file is empty" if not data else "the file is empty (only blank space)")
    if source == retraction_watch.SOURCE:
        # newline="": the csv module splits rows itself (line breaks inside quoted cells stay in them).
        return retraction_watch.read_rows(io.StringIO(decoded(data), newline=""))
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
            events = _read(source, data, report)
            finished = timezone.now()
            report.counts.update(_store(source, list(events.values()), finished))
            StandingSourceSync.objects.filter(pk=run.pk).update(
                status=SyncStatus.SUCCEEDED, finished_at=finished, observed_at=finished,
                counts={**report.counts, "rejected": sum(report.rejected.values())})
            records_changed()          # every record names the sources' times
        report.status, report.observed_at = SyncStatus.SUCCEEDED, finished
    except Exception as error:  # noqa: BLE001 - whatever failed, the run must end recorded as failed
        bad_file = isinstance(error, BadFile)
        report.status = SyncStatus.FAILED
        report.error = (str(error) if bad_file else f"{type(error).__name__}: {error}")[:2000]
        StandingSourceSync.objects.filter(pk=run.pk).update(status=SyncStatus.FAILED, finished_at=timezone.now(),
                                                            error=report.error)
        if not bad_file:
            raise          # not the file's fault: a bug, or the database (the task retries those)
    return report


def _read(source: str, data: bytes, report: SyncReport) -> dict[str, SourceEvent]:
    """The file's events by record id, its rejections counted in the report; BadFile when nothing was read."""
    events: dict[str, SourceEvent] = {}
    for position, item in read_events(source, data):
        if isinstance(item, RejectedRow):
            report.rejected[str(item)] += 1
            report.examples.setdefault(str(item), position)
        elif isinstance(item, WorkRead):
            report.counts["works"] += 1
        else:
            report.counts["accepted"] += 1
            events[item.source_record_id] = item     # a record seen twice: its last row stands
    report.counts["rows"] = report.counts["accepted"] + sum(report.rejected.values())
    if not events and not report.counts["works"]:
        raise BadFile(_nothing_read(source, report))
    return events


def _nothing_read(source: str, report: SyncReport) -> str:
    if source == crossref.SOURCE:
        what = "no Crossref work in the file"
    else:
        what = "no data row could be read" if report.rejected else "no data rows"
    if not report.rejected:
        return what
    reason, count = report.rejected.most_common(1)[0]
    total = sum(report.rejected.values())
    return f"{what}: all {total:,} rejected (most often, {count:,} times: {reason})"


FACTS = ("event_type", "subject_doi", "notice_doi", "occurred_on", "reason")


def _store(source: str, events: list[SourceEvent], observed_at: datetime) -> Counter:
    """New events, and new revisions of those the source revised; a held revision is never changed."""
    counts = Counter(events=len(events))
    for start in range(0, len(events), BATCH):
        batch = events[start:start + BATCH]
        held = {row.source_record_id: row for row in newest_as_of(ScholarlyWorkEvent.objects.filter(
            source=source, source_record_id__in=[e.source_record_id for e in batch]))}
        rows = []
        for event in batch:
            facts = {name: getattr(event, name) for name in FACTS}
            row = held.get(event.source_record_id)
            if row is not None and all(getattr(row, name) == value for name, value in facts.items()):
                continue
            counts["revised" if row is not None else "new"] += 1
            rows.append(ScholarlyWorkEvent(source=source, source_record_id=event.source_record_id,
                                           observed_at=observed_at, **facts))
        ScholarlyWorkEvent.objects.bulk_create(rows)
    counts["unchanged"] = counts["events"] - counts["new"] - counts["revised"]
    counts.update(Counter(f"type:{e.event_type}" for e in events))
    return counts
