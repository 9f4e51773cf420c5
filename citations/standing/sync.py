"""Synchronising a standing source: all of a file's events, and the sync's time, or nothing.

A run is recorded as it starts. If it succeeds, its events and its time (the record's
standing_sources) are committed together; if anything fails, the events roll back, the previous
state and time stay as they were, and the run is kept as failed, with its error, for operators.

A sync succeeds only when it read something: at least one row that gave an event (Retraction
Watch), one work with a DOI (Crossref, whose works may carry no notice) or one work with its W id
and is_retracted (OpenAlex, whose works mostly carry none). Otherwise its time would move every
record's standing `as of` forward for a source that was not read. So a file fails, with one
sentence saying why, when it is empty, is not UTF-8, cannot be read as the source's format at all
(BadFile from the readers: not Retraction Watch's header, CSV the csv module cannot read, a JSON
document cut in the middle or nested too deeply, a gzip stream cut or corrupt), has no data rows,
or has only rejected rows. (An OpenAlex file is read a line at a time, so a line that is not UTF-8
is one rejected line there.) A file with some rejected rows and real content succeeds, the
rejections counted by reason: real Retraction Watch data has rows without a DOI.

Retraction Watch and Crossref files are read whole (data); an OpenAlex file is read as a stream of
lines (lines, from source_input), since a snapshot part is gigabytes. The file is read before the
transaction opens, so a long read holds no transaction open; only the events it gave are kept.

What a sync stores is history (citations/standing/revisions.py): an event the source revised is
a new revision observed at this sync, the previous one stays unchanged; an event the file no
longer holds stays as it was. An OpenAlex work read with is_retracted false after an earlier sync
found it retracted is different: OpenAlex states that it is not retracted, so its record gets a new
revision, a reinstatement whose reason says so (`flags_cleared`), and the retraction leaves the
records from this sync on (a record as of before still shows it). Works read without the event an
earlier sync found, and without such a statement, are counted (`not_restated`) for operators.
"""
import io
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from django.db import transaction
from django.utils import timezone

from citations.input_files import lines_of, open_lines
from citations.models import ScholarlyWorkEvent, StandingSourceSync, SyncStatus
from citations.models.generations import records_changed
from citations.models.transparency import LeafKind, note_written
from citations.standing import crossref, openalex, retraction_watch
from citations.standing.events import BadFile, RejectedRow, SourceEvent, WorkRead, decoded
from citations.standing.revisions import newest_as_of

SOURCES = {retraction_watch.SOURCE: "Retraction Watch CSV", crossref.SOURCE: "Crossref REST work JSON",
           openalex.SOURCE: "OpenAlex works JSON lines"}
# Read as a stream of lines, never whole: an OpenAlex snapshot part is gigabytes.
STREAMED = {openalex.SOURCE}
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


def source_input(source: str, path: str | Path) -> dict:
    """sync_standing_source's input from a file: its lines, pulled as read (gzip or not), for a streamed
    source, else its bytes. OSError when the file cannot be opened."""
    if source in STREAMED:
        lines, _, _ = open_lines(path)
        return {"lines": lines}
    return {"data": Path(path).read_bytes()}


def read_events(source: str, data: bytes | None = None, *, lines: Iterable[bytes] | None = None):
    """(position, event, work read or rejection) of a source file; BadFile when it cannot be read at all."""
    if source == openalex.SOURCE:
        return openalex.read_works(lines_of(data) if lines is None else lines)
    if data is None:
        raise ValueError(f"a {source} file is read whole: pass its data")
    if not data.removeprefix(b"\xef\xbb\xbf").strip():
        raise BadFile("the file is empty" if not data else "the file is empty (only blank space)")
    if source == retraction_watch.SOURCE:
        # newline="": the csv module splits rows itself (line breaks inside quoted cells stay in them).
        return retraction_watch.read_rows(io.StringIO(decoded(data), newline=""))
    if source == crossref.SOURCE:
        return crossref.read_messages(data)
    raise ValueError(f"unknown standing source {source!r} (known: {', '.join(SOURCES)})")


def sync_standing_source(*, source: str, data: bytes | None = None, lines: Iterable[bytes] | None = None,
                         input_name: str = "") -> SyncReport:
    """Read a source file (its bytes, or its lines for a streamed source) into events and record the
    sync; see the module docstring."""
    if source not in SOURCES:
        raise ValueError(f"unknown standing source {source!r} (known: {', '.join(SOURCES)})")
    if (data is None) == (lines is None):
        raise TypeError("pass the file as data or as lines, one of them")
    run = StandingSourceSync.objects.create(source=source, status=SyncStatus.RUNNING, started_at=timezone.now(),
                                            input_name=input_name[:500])
    report = SyncReport(sync_id=run.pk, source=source, status=SyncStatus.RUNNING)
    try:
        events = _read(source, read_events(source, data, lines=lines), report)
        with transaction.atomic():
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


def _read(source: str, items, report: SyncReport) -> dict[str, SourceEvent]:
    """The file's events by record id, its rejections counted in the report; BadFile when nothing was read.
    Only the events and the counts are kept: the items are taken one at a time."""
    events: dict[str, SourceEvent] = {}
    held: set[str] | None = None           # record ids of this source with an event stored
    read_again: set[str] = set()           # of those, the ones this file reads as works
    for position, item in items:
        if isinstance(item, RejectedRow):
            report.rejected[str(item)] += 1
            report.examples.setdefault(str(item), position)
        elif isinstance(item, WorkRead):
            report.counts["works"] += 1
            if item.record_id is not None:
                if held is None:
                    held = _held_record_ids(source)
                if item.record_id in held:
                    read_again.add(item.record_id)
        else:
            report.counts["accepted"] += 1
            events[item.source_record_id] = item     # a record seen twice: its last row stands
    report.counts["rows"] = report.counts["accepted"] + sum(report.rejected.values())
    if held is not None:
        not_restated = read_again - events.keys()
        if source == openalex.SOURCE:
            # OpenAlex states "not retracted" (is_retracted false): a revision of the record it revises.
            cleared = openalex.cleared_flags(not_restated)
            events.update(cleared)
            report.counts["flags_cleared"] = len(cleared)
            not_restated -= cleared.keys()
        # Works read without the event an earlier sync found: that event stays (module docstring).
        report.counts["not_restated"] = len(not_restated)
    if not events and not report.counts["works"]:
        raise BadFile(_nothing_read(source, report))
    return events


def _held_record_ids(source: str) -> set[str]:
    # As many as the source's records ever stored (OpenAlex: its retracted works), not its works.
    return set(ScholarlyWorkEvent.objects.filter(source=source).values_list("source_record_id", flat=True))


def _nothing_read(source: str, report: SyncReport) -> str:
    if source == crossref.SOURCE:
        what = "no Crossref work in the file"
    elif source == openalex.SOURCE:
        what = "no OpenAlex work in the file"
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
        note_written(LeafKind.STANDING_EVENT, [row.pk for row in rows])
    counts["unchanged"] = counts["events"] - counts["new"] - counts["revised"]
    counts.update(Counter(f"type:{e.event_type}" for e in events))
    return counts
