"""A record's past versions, and what changed between two of them.

Nothing stores a record (citations/records/build.py builds one from observations as of a cutoff), so a
record's history is derived from the times of the append-only observations it is built from: the
paper's snapshots, its reference lists and references, their links and curators' overrides, the
links into the paper from other papers' lists (and those lists' newer extractions), the snapshots
of the papers on either side, receipts and identifiers of the linked works, standing-source syncs
and citation measurements.

A version is the record as of a whole minute, the resolution of the record's own `as_of`: for each
minute in which one of those observations was made, the record as of the next whole minute, which
shows everything observed by then. So a version's address `?as_of=2026-08-04T14:44:00Z` gives the
same bytes as `manage.py export_record ID --as-of 2026-08-04T14:44:00Z`, and its `as_of` is that
very minute. Consecutive minutes whose records have the same context digest are one version.

The work is bounded: the newest HISTORY_MINUTES such minutes are built (six statements each, as any
record), and the page says when there were more.
"""
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from django.utils import timezone

from citations.models import Paper
from citations.records.build import BuiltRecord, RecordUnavailable, build_record
from citations.records.statements import _fetch, _ts  # the record's own vendor-neutral SQL helpers
from citations.records.timestamps import render_z
from citations.validation import OutOfRange, parse_time

HISTORY_MINUTES = 50
CURATION = "curation"
NOT_A_WORK = "not_a_scholarly_work"
EXAMPLE = "2026-08-08T11:07:00Z"


class BadTime(ValueError):
    """A time in a request that names no time a record can be built as of; the message says why."""


def parse_as_of(text: str, *, what: str = "as_of") -> datetime:
    """The cutoff a reader asked for: an ISO 8601 time with its zone, in the stored range, not in the future."""
    try:
        value = parse_time(text, what=what)
    except OutOfRange as error:
        hint = f"; give a time with its zone, such as {EXAMPLE}"
        if isinstance(text, str) and " " in text.strip() and "+" not in text:
            # A + in a query string reads as a space: 11:07:00+00:00 arrives as "11:07:00 00:00".
            hint += " (a + in an address reads as a space: write %2B for it, or Z for UTC)"
        raise BadTime(f"{error}{hint}") from None
    if value > timezone.now():
        raise BadTime(f"{what} {text} is in the future: a record can only state what was observed by now")
    return value


# --- versions ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Change:
    """One field that differs between two versions: its path in the record (or in the observation)."""

    field: str
    before: object
    after: object


@dataclass(frozen=True)
class ObservationChange:
    """What changed at one reference index: an observation added, removed, replaced or changed."""

    direction: str                  # "outbound" or "inbound"
    where: str                      # "[5]", or "arXiv:2509.11076 v2 [31]" for an inbound observation
    kind: str                       # "added", "removed", "replaced" (a new observation at that index), "changed"
    observation_id: str             # the newer one, when there is one
    state: Change | None            # the resolution state, when it changed
    curated: tuple[Change, ...]     # fields a curator set, changed or withdrew
    other: tuple[Change, ...]


@dataclass(frozen=True)
class RecordDiff:
    """Every difference between two versions of a record, by reference index."""

    record: tuple[Change, ...]                   # record-level fields: paper, standing sources, counts...
    observations: tuple[ObservationChange, ...]

    def count(self, kind: str) -> int:
        return sum(1 for o in self.observations if o.kind == kind)

    @property
    def added(self) -> int:
        return self.count("added") + self.count("replaced")

    @property
    def removed(self) -> int:
        return self.count("removed") + self.count("replaced")

    @property
    def states_changed(self) -> int:
        return sum(1 for o in self.observations if o.state is not None)

    @property
    def fields_curated(self) -> int:
        return sum(len(o.curated) for o in self.observations)

    @property
    def other_changes(self) -> int:
        return sum(1 for o in self.observations if o.kind == "changed" and o.other) + len(self.record)

    @property
    def other_areas(self) -> list[str]:
        """Where the other changes are: record fields (standing_sources, coverage...) and observation parts
        (cited_paper, standing_notice...)."""
        areas = {c.field.split("[")[0].split(".")[0] for c in self.record}
        areas |= {_area(c.field) for o in self.observations if o.kind == "changed" for c in o.other}
        return sorted(areas)

    @property
    def summary(self) -> str:
        """'3 observations added · 1 state changed · 1 field curated · 2 other changes (coverage, thesis)'."""
        parts = []
        for count, one, many in ((self.added, "observation added", "observations added"),
                                 (self.removed, "observation removed", "observations removed"),
                                 (self.states_changed, "state changed", "states changed"),
                                 (self.fields_curated, "field curated", "fields curated")):
            if count:
                parts.append(f"{count} {one if count == 1 else many}")
        if self.other_changes:
            noun = "other change" if self.other_changes == 1 else "other changes"
            parts.append(f"{self.other_changes} {noun} ({', '.join(self.other_areas)})")
        return " · ".join(parts) or "no difference"

    @property
    def only_the_date(self) -> bool:
        """True when the two versions differ only by the date in their thesis (a new day, nothing observed)."""
        return not self.observations and [c.field for c in self.record] == ["thesis"]

    @property
    def empty(self) -> bool:
        return not self.record and not self.observations


@dataclass(frozen=True)
class Version:
    """The record as of a cutoff, named by its context digest, and what changed since the version before it."""

    as_of: datetime                 # the earliest cutoff showing this version (a whole minute), or now
    context_digest: str
    outbound: int
    inbound: int
    current: bool                   # the record as it is now
    changes: RecordDiff | None      # against the next older version; None when that one is not listed
    first: bool                     # the record's first version (nothing before it could be built)

    @property
    def as_of_text(self) -> str:
        return render_z(self.as_of)


@dataclass(frozen=True)
class History:
    arxiv_id: str
    versions: list[Version] = field(default_factory=list)
    minutes_found: int = 0          # minutes with an observation, since the paper's first snapshot
    minutes_read: int = 0           # of those, how many were built (the newest)
    built_at: datetime | None = None  # "now" for the current version
    limit: int = HISTORY_MINUTES

    @property
    def bounded(self) -> bool:
        return self.minutes_found > self.minutes_read


def record_history(*, arxiv_id: str, limit: int | None = None, now: datetime | None = None) -> History:
    """The record's versions, newest first, from the newest `limit` (HISTORY_MINUTES) minutes with an observation.

    Statements: one for the paper, one for the minutes, then at most six per record built (one per
    minute, and one for now): at most 2 + 6 * (HISTORY_MINUTES + 1).
    """
    now = now or timezone.now()
    limit = limit or HISTORY_MINUTES
    paper_id = Paper.objects.filter(arxiv_id=arxiv_id).values_list("id", flat=True).first()
    if paper_id is None:
        raise RecordUnavailable(f"arXiv:{arxiv_id} is not held by this Pith store")
    minutes, found = change_minutes(paper_id=paper_id, limit=limit)
    cutoffs = [m + timedelta(minutes=1) for m in minutes]
    # A minute not over yet is part of the current record, built as of now.
    builds: list[tuple[datetime, BuiltRecord, bool]] = [(now, build_record(arxiv_id=arxiv_id, as_of=now), True)]
    for cutoff in cutoffs:
        if cutoff > now:
            continue
        try:
            builds.append((cutoff, build_record(arxiv_id=arxiv_id, as_of=cutoff), False))
        except RecordUnavailable:
            break                    # before the paper's first snapshot: nothing older can be built either
    complete = found <= limit       # the oldest minute listed is the record's first
    return History(arxiv_id=arxiv_id, versions=_versions(builds, complete=complete),
                   minutes_found=found, minutes_read=len(minutes), built_at=now, limit=limit)


def _versions(builds: list[tuple[datetime, BuiltRecord, bool]], *, complete: bool) -> list[Version]:
    # builds are newest first; a run of equal digests is one version, shown from its oldest cutoff.
    runs: list[list[tuple[datetime, BuiltRecord, bool]]] = []
    for build in builds:
        if runs and runs[-1][-1][1].context_digest == build[1].context_digest:
            runs[-1].append(build)
        else:
            runs.append([build])
    versions = []
    for n, run in enumerate(runs):
        cutoff, built, _ = run[-1]
        older = runs[n + 1][0][1].record if n + 1 < len(runs) else None
        first = older is None and complete
        versions.append(Version(
            as_of=cutoff, context_digest=built.context_digest,
            outbound=len(built.record["outbound"]), inbound=len(built.record["inbound"]),
            current=any(is_now for _, _, is_now in run),
            changes=diff_records(older, built.record) if older is not None else (
                diff_records(None, built.record) if first else None),
            first=first,
        ))
    return versions


def change_minutes(*, paper_id: int, limit: int) -> tuple[list[datetime], int]:
    """The newest `limit` UTC minutes (newest first) in which an observation the record shows was made,
    from the paper's first snapshot on, and how many such minutes there are. One statement."""
    minute = f"SUBSTR({_ts('t')}, 1, 16)"
    rows = _fetch(
        f"""WITH refs AS (
                SELECT r.id FROM paper_references r
                JOIN reference_extractions e ON e.id = r.extraction_id
                JOIN paper_versions v ON v.id = e.paper_version_id
                WHERE v.paper_id = %(paper)s),
            out_links AS (
                SELECT l.cited_paper_id, l.cited_work_id, l.observed_at FROM paper_reference_links l
                WHERE l.reference_id IN (SELECT id FROM refs)),
            in_links AS (
                SELECT l.reference_id, l.cited_work_id, l.observed_at FROM paper_reference_links l
                WHERE l.cited_paper_id = %(paper)s),
            in_refs AS (
                SELECT r.id, e.paper_version_id FROM paper_references r
                JOIN reference_extractions e ON e.id = r.extraction_id
                WHERE r.id IN (SELECT reference_id FROM in_links)),
            other_papers AS (
                SELECT cited_paper_id AS id FROM out_links WHERE cited_paper_id IS NOT NULL
                UNION SELECT v.paper_id FROM paper_versions v WHERE v.id IN (SELECT paper_version_id FROM in_refs)),
            works AS (
                SELECT cited_work_id AS id FROM out_links WHERE cited_work_id IS NOT NULL
                UNION SELECT cited_work_id FROM in_links WHERE cited_work_id IS NOT NULL),
            times (t) AS (
                SELECT s.observed_at FROM paper_snapshots s WHERE s.paper_id = %(paper)s
                   OR s.paper_id IN (SELECT id FROM other_papers)
                UNION SELECT s.recorded_at FROM paper_snapshots s WHERE s.recorded_at IS NOT NULL
                  AND (s.paper_id = %(paper)s OR s.paper_id IN (SELECT id FROM other_papers))
                UNION SELECT e.observed_at FROM reference_extractions e
                  JOIN paper_versions v ON v.id = e.paper_version_id WHERE v.paper_id = %(paper)s
                UNION SELECT e.observed_at FROM reference_extractions e
                  WHERE e.paper_version_id IN (SELECT paper_version_id FROM in_refs)
                UNION SELECT r.observed_at FROM paper_references r WHERE r.id IN (SELECT id FROM refs)
                UNION SELECT observed_at FROM out_links
                UNION SELECT observed_at FROM in_links
                UNION SELECT o.created_at FROM curation_overrides o
                  WHERE o.reference_id IN (SELECT id FROM refs) OR o.reference_id IN (SELECT id FROM in_refs)
                UNION SELECT rc.observed_at FROM retraction_status_cache rc WHERE rc.work_id IN (SELECT id FROM works)
                UNION SELECT wi.observed_at FROM work_identifiers wi WHERE wi.work_id IN (SELECT id FROM works)
                UNION SELECT ss.observed_at FROM standing_source_syncs ss WHERE ss.status = 'succeeded'
                UNION SELECT COALESCE(m.recorded_at, m.observed_at) FROM external_citation_measurements m
                  WHERE m.paper_id = %(paper)s)
            SELECT minute, COUNT(*) OVER () FROM (
                SELECT DISTINCT {minute} AS minute FROM times
                WHERE t >= (SELECT MIN(s.observed_at) FROM paper_snapshots s WHERE s.paper_id = %(paper)s)
            ) minutes
            ORDER BY minute DESC
            LIMIT {int(limit)}""",
        {"paper": paper_id},
    )
    found = rows[0][1] if rows else 0
    return [datetime.fromisoformat(text).replace(tzinfo=UTC) for text, _ in rows], found


# --- differences -------------------------------------------------------------------------------------

# Record-level fields that every version has and that say nothing about what was observed.
_UNCOMPARED = ("as_of", "context_digest", "inbound", "outbound", "links", "caps", "schema", "refusal")
_OBSERVATION_UNCOMPARED = ("observation_id", "observation_digest")


def diff_records(before: dict | None, after: dict) -> RecordDiff:
    """What changed from one version of a record to another (before None: the first version)."""
    empty = {"outbound": [], "inbound": []}
    before = before or empty
    record = () if before is empty else tuple(_changes(
        {k: v for k, v in before.items() if k not in _UNCOMPARED},
        {k: v for k, v in after.items() if k not in _UNCOMPARED},
    ))
    observations = []
    for direction in ("outbound", "inbound"):
        old, new = _by_index(before[direction], direction), _by_index(after[direction], direction)
        for key in sorted(old.keys() | new.keys(), key=_sort_key):
            change = _observation_change(direction, key, old.get(key), new.get(key))
            if change is not None:
                observations.append(change)
    return RecordDiff(record=record, observations=tuple(observations))


def _by_index(observations: list[dict], direction: str) -> dict[tuple, dict]:
    # By reference index (inbound: within the citing paper's version); a repeated index keeps its order.
    keyed: dict[tuple, dict] = {}
    for observation in observations:
        citation = observation["citation"]
        base = ((citation["citing_paper"]["arxiv_id"], citation["citing_paper"]["version"])
                if direction == "inbound" else ())
        n = 0
        while (*base, citation["reference_index"], n) in keyed:
            n += 1
        keyed[(*base, citation["reference_index"], n)] = observation
    return keyed


def _sort_key(key: tuple) -> tuple:
    return tuple(str(part) if isinstance(part, str) else f"{part:012d}" for part in key)


def _where(direction: str, key: tuple) -> str:
    if direction == "inbound":
        arxiv_id, version, index, _ = key
        return f"arXiv:{arxiv_id} v{version} [{index}]"
    return f"[{key[0]}]"


def _observation_change(direction: str, key: tuple, old: dict | None, new: dict | None) -> ObservationChange | None:
    where = _where(direction, key)
    if old is None or new is None:
        present = new or old
        return ObservationChange(direction, where, "added" if new else "removed", present["observation_id"],
                                 state=None, curated=(), other=())
    changes = list(_changes(*({k: v for k, v in o.items() if k not in _OBSERVATION_UNCOMPARED} for o in (old, new))))
    replaced = old["observation_id"] != new["observation_id"]
    if not changes and not replaced:
        return None
    state = next((c for c in changes if c.field == "resolution.status"), None)
    curated = _curated(old, new, changes)
    named = {c.field for c in curated} | ({"resolution.status"} if state else set())
    other = tuple(c for c in changes if c.field not in named and not _curation_marker(c, curated))
    return ObservationChange(direction, where, "replaced" if replaced else "changed", new["observation_id"],
                             state=state, curated=curated, other=other)


def _area(path: str) -> str:
    # "citation.cited_paper.title" -> "cited_paper"; "standing_notice.events[...]" -> "standing_notice"
    parts = path.split("[")[0].split(".")
    return parts[1] if parts[0] == "citation" and len(parts) > 2 else parts[0]


def _curated(old: dict, new: dict, changes: list[Change]) -> tuple[Change, ...]:
    """The changes a curator's override (or its withdrawal) made: a title or year the record marks as
    curated, a reference marked as not a scholarly work, a link decided by curation."""
    old_work, new_work = old["citation"]["cited_work"], new["citation"]["cited_work"]
    by_curator = CURATION in (old_work["metadata_source"], new_work["metadata_source"])
    curated = [c for c in changes if by_curator and c.field in ("citation.cited_work.title", "citation.cited_work.year")]
    if NOT_A_WORK in (old["standing_notice"]["reason"], new["standing_notice"]["reason"]):
        curated += [c for c in changes if c.field == "standing_notice.reason"]
    if CURATION in (old["resolution"]["resolver_source"], new["resolution"]["resolver_source"]):
        curated += [c for c in changes if c.field == "resolution.resolver_source"]
    return tuple(curated)


def _curation_marker(change: Change, curated: tuple[Change, ...]) -> bool:
    # metadata_source turning to or from "curation" is the mark of a curated field already listed.
    return bool(curated) and change.field == "citation.cited_work.metadata_source"


def _changes(before: dict, after: dict):
    old, new = dict(_leaves(before)), dict(_leaves(after))
    for path in sorted(old.keys() | new.keys()):
        if old.get(path) != new.get(path):
            yield Change(path, old.get(path), new.get(path))


def _leaves(value, path: str = ""):
    """(path, value) of every scalar in a record's JSON; list items keyed by what names them."""
    if isinstance(value, dict):
        for key in sorted(value):
            yield from _leaves(value[key], f"{path}.{key}" if path else key)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _leaves(item, f"{path}[{_item_name(item, index)}]")
    else:
        yield path, value


def _item_name(item, index: int) -> str:
    if isinstance(item, dict):
        if "lane" in item:
            return item["lane"]
        if "source_record_id" in item:
            return f"{item['source']}:{item['source_record_id']}"
        if "source" in item:
            return item["source"]
    return str(index)
