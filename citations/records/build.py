"""The paper citation record (schema pith.paper-citation-record.v1), built from stored observations.

This module only reads. `build_record()` runs at most six SQL statements,
whatever the number of references (the record's caps.database_statements):

  1. the paper's newest metadata snapshot as of the cutoff
  2. outbound observations: the current reference list with each reference's newest link,
     and their total
  3. inbound observations: other papers' current references whose newest link verifies
     a citation of this paper, and their total
  4. standing sources: the newest succeeded synchronisation of each source
  5. check receipts, with the events each found, for the linked works (skipped when none)
  6. external citation measurements, the newest per source

Curators' overrides (curation/) in force as of the cutoff are joined into statements 2 and 3.

"As of" means: every fact shown was observed at or before the cutoff (the build
time, or the time an export asks for), and for each fact the newest such
observation wins. The contract is ../shared/spec/citation-record-v1.md; what the
seeds do not show is specified in docs/record-v1.md.
"""
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from typing import NamedTuple
from uuid import UUID

from django.db import connection
from django.utils import timezone

from citations.models import CitedWork, Paper, ResolutionState
from citations.models.references import source_rank_sql
from citations.models.resolution import LINKING_STATES
from citations.records.canonical import canonical_bytes, context_digest, observation_digest
from citations.records.timestamps import long_date, render_z, truncate_to_minute
from citations.time_rules import newest_link_sql, newest_snapshot_sql, override_in_force_sql, snapshot_known_sql

SCHEMA = "pith.paper-citation-record.v1"
CAPS = {"database_statements": 6, "inbound": 100, "outbound": 100}
REFUSAL = "A citation records a reference. It does not transfer a finding from one paper to another."
STATES = tuple(sorted(ResolutionState.values))
REFERENCE_SOURCES = "paper_references, paper_reference_links"
_LIST_RANK = source_rank_sql("e2")       # a version's lists, best first
CUTOFF = "%(cutoff)s"                    # every statement's time, as a named parameter
STANDING_SOURCES = "scholarly_work_events, retraction_status_cache"

# Standing-notice reasons (docs/record-v1.md, "Standing notice").
NO_WORK_LINK = "canonical_work_link_unavailable"
NO_SOURCE_SYNCHRONISED = "standing_sources_never_synchronised"
CHECK_PENDING = "standing_check_pending"
NOT_A_WORK = "not_a_scholarly_work"
CURATION = "curation"


class RecordUnavailable(LookupError):
    """No record can be built: the paper is not held, or had no metadata snapshot by the cutoff."""


@dataclass(frozen=True)
class BuiltRecord:
    """A built record: the dict, its canonical bytes, and per-observation facts the HTML page shows."""

    record: dict
    body: bytes
    details: dict[str, dict] = field(default_factory=dict)   # observation_id -> raw text, parsed venue

    @property
    def context_digest(self) -> str:
        return self.record["context_digest"]


class _Row(NamedTuple):
    """One observation as the outbound and inbound reads return it (see _observation_columns)."""

    reference_id: object
    reference_index: int
    observed_at: str
    title: str | None
    year: int | None
    raw_text: str | None
    venue: str | None
    source: str
    citing_version: int
    state: str
    resolver_source: str | None
    resolved_at: str
    other_arxiv_id: str | None        # outbound: the cited paper; inbound: the citing paper
    other_title: str | None
    other_submitted_at: str | None
    other_last_updated: str | None
    other_observed_at: str | None
    other_latest_version: int | None
    work_id: object
    work_doi: str | None
    work_arxiv_id: str | None
    work_title: str | None
    work_year: int | None
    work_venue: str | None
    work_metadata_source: str | None
    work_observed_at: str | None
    title_override: int | None        # the curation entry in force for each field, if any
    override_title: str | None
    year_override: int | None
    override_year: int | None
    not_a_work_override: int | None
    total: int


def build_record(*, arxiv_id: str, as_of: datetime | None = None) -> BuiltRecord:
    """Build the record of a held paper as of a time (default: now)."""
    cutoff = as_of if as_of is not None else timezone.now()
    if timezone.is_naive(cutoff):
        raise ValueError("as_of must be timezone-aware")

    paper_id, *snapshot = _read_paper(arxiv_id, cutoff)                           # statement 1
    outbound_rows = [_Row(*row) for row in _outbound_rows(paper_id, cutoff)]      # statement 2
    inbound_rows = [_Row(*row) for row in _inbound_rows(paper_id, cutoff)]        # statement 3
    synced = _standing_sources(cutoff)                                            # statement 4
    work_ids = sorted({_uuid_text(r.work_id) for r in outbound_rows + inbound_rows if r.work_id is not None})
    receipts = _receipts(work_ids, cutoff) if work_ids else {}                    # statement 5
    measurements = _measurements(paper_id, cutoff)                                # statement 6

    title, submitted_at, last_updated, latest_version, primary_category, observed_at = snapshot
    paper_level = {
        "arxiv_id": arxiv_id,
        "last_updated": _z(last_updated),
        "snapshot_observed_at": _z(observed_at),
        "submitted_at": _z(submitted_at),
        "title": title,
    }
    details: dict[str, dict] = {}
    outbound = [
        _observation(row, citing={**paper_level, "version": row.citing_version},
                     cited=_other_paper(row, version=row.other_latest_version) if row.other_arxiv_id else None,
                     receipts=receipts, synced=synced, details=details)
        for row in outbound_rows
    ]
    inbound = [
        _observation(row, citing=_other_paper(row, version=row.citing_version),
                     cited={**paper_level, "version": latest_version},
                     receipts=receipts, synced=synced, details=details)
        for row in inbound_rows
    ]

    total_outbound = outbound_rows[0].total if outbound_rows else 0
    total_inbound = inbound_rows[0].total if inbound_rows else 0
    minute = truncate_to_minute(cutoff)
    record = {
        "as_of": render_z(minute),
        "caps": dict(CAPS),
        "coverage": _coverage(outbound_rows, inbound_rows, total_inbound, synced, measurements),
        "external_citation_measurements": [
            {"count": count, "observed_at": _z(at), "source": source} for source, count, at in measurements
        ],
        "inbound": inbound,
        "links": record_links(arxiv_id),
        "outbound": outbound,
        "paper": {**paper_level, "latest_version": latest_version, "primary_category": primary_category},
        "reference_resolution": {
            "displayed": len(outbound),
            "state_counts": _state_counts(outbound_rows),
            "total_outbound_references": total_outbound,
        },
        "refusal": REFUSAL,
        "schema": SCHEMA,
        "standing_sources": [{"observed_at": _offset(at), "source": source} for source, at in synced.items()],
        "thesis": _thesis(minute, arxiv_id, len(outbound), total_outbound, len(inbound), total_inbound),
    }
    record["context_digest"] = context_digest(record)
    return BuiltRecord(record=record, body=canonical_bytes(record), details=details)


def record_links(arxiv_id: str) -> dict:
    """The record's own addresses."""
    return {
        "evidence": "/evidence",
        "html": f"/paper/{arxiv_id}/citation-record",
        "integrity": f"/paper/{arxiv_id}/integrity",
        "json": f"/paper/{arxiv_id}/citation-record.json",
        "paper": f"/paper/{arxiv_id}",
    }


# --- reads -------------------------------------------------------------------------------------------
#
# Plain SQL that runs unchanged on PostgreSQL and SQLite: a record page is the hottest path of the
# site, and these six statements are all it costs. Every "newest ... as of the cutoff" is a
# correlated subquery answered by a named index (see the models). Timestamps come back as UTC text
# "YYYY-MM-DD HH:MM:SS[.ffffff]", which the renderings below turn into the record's two forms without
# building datetime objects.


def _ts(column: str) -> str:
    if connection.vendor == "postgresql":
        return f"to_char({column} AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US')"
    # Django stores SQLite datetimes as this very text, in UTC; the cast keeps sqlite3 from
    # turning the declared datetime column back into an object.
    return f"CAST({column} AS TEXT)"


def _text_collation() -> str:
    # Records sort arXiv ids by code point, as Python does; PostgreSQL sorts text by the
    # database's collation unless told otherwise.
    return ' COLLATE "C"' if connection.vendor == "postgresql" else ""


def _params(cutoff: datetime, **values) -> dict:
    return {"cutoff": connection.ops.adapt_datetimefield_value(cutoff), **values}


def _fetch(sql: str, params) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


# A snapshot's completions (more of the same snapshot, known to a later record) are revisions of
# it, each showing from the time it was recorded; a record as of an earlier time never sees them.
_SNAPSHOT_KNOWN = snapshot_known_sql("s2", CUTOFF)
_NEWEST_LINK = newest_link_sql("r.id", CUTOFF)


# A work known by its arXiv DOI only (a held paper's work) shows the published version's DOI once the
# works store has joined one to it (citations/works/), as of the cutoff.
_WORK_DOI = """CASE WHEN w.doi IS NULL OR w.doi LIKE '10.48550/%%' THEN COALESCE((
        SELECT wi.value FROM work_identifiers wi
        WHERE wi.work_id = w.id AND wi.kind = 'doi' AND wi.value NOT LIKE '10.48550/%%'
          AND wi.observed_at <= %(cutoff)s ORDER BY wi.observed_at, wi.id LIMIT 1), w.doi) ELSE w.doi END"""


# A work's fields as its newest titled statement as of the cutoff gives them: a later source's
# revision (citations/works/revisions.py: the title of a work first known by a notice's bare DOI),
# else the work's first observation. A statement is shown whole, under the source that made it.
_NEWEST_REVISION = """LEFT JOIN work_revisions wr ON wr.id = (
                SELECT v2.id FROM work_revisions v2
                WHERE v2.work_id = w.id AND v2.title IS NOT NULL AND v2.observed_at <= %(cutoff)s
                ORDER BY v2.observed_at DESC, v2.id DESC LIMIT 1)"""
_WORK_STATED = "CASE WHEN wr.id IS NULL THEN w.{} ELSE wr.{} END"


def _observation_columns(snapshot_paper: str) -> str:
    """The columns of one observation row, in the order _Row reads them."""
    return f"""r.id, r.reference_index, {_ts("r.observed_at")}, r.title, r.year, r.raw_text, r.venue,
        e.source, v.version, l.state, l.resolver_source, {_ts("l.observed_at")},
        {snapshot_paper}.arxiv_id, ps.title, {_ts("ps.submitted_at")}, {_ts("ps.last_updated")},
        {_ts("ps.observed_at")}, ps.latest_version,
        w.id, {_WORK_DOI}, w.arxiv_id, {_WORK_STATED.format("title", "title")}, {_WORK_STATED.format("year", "year")},
        {_WORK_STATED.format("venue", "container_title")}, {_WORK_STATED.format("metadata_source", "source")},
        {_ts(_WORK_STATED.format("snapshot_observed_at", "observed_at"))},
        ot.id, ot.value_text, oy.id, oy.value_year, onw.id,
        COUNT(*) OVER ()"""


def _override_joins() -> str:
    """Curators' overrides in force as of the cutoff: for each field, the newest entry, if it sets."""
    return "\n".join(
        f"""LEFT JOIN curation_overrides {alias} ON {alias}.reference_id = r.id AND {alias}.field = '{field}'
                AND {override_in_force_sql(alias, CUTOFF)}"""
        for alias, field in (("ot", "title"), ("oy", "year"), ("onw", "not_a_work"))
    )


def _read_paper(arxiv_id: str, cutoff: datetime) -> tuple:
    rows = _fetch(
        f"""SELECT p.id, s2.title, {_ts("s2.submitted_at")}, {_ts("s2.last_updated")}, s2.latest_version,
                   s2.primary_category, {_ts("s2.observed_at")}
            FROM papers p JOIN paper_snapshots s2 ON s2.paper_id = p.id
            WHERE p.arxiv_id = %(arxiv_id)s AND s2.observed_at <= %(cutoff)s AND {_SNAPSHOT_KNOWN}
            ORDER BY s2.observed_at DESC, s2.revision DESC LIMIT 1""",
        _params(cutoff, arxiv_id=arxiv_id),
    )
    if not rows:
        # Off the hot path: say which of the two it is.
        if Paper.objects.filter(arxiv_id=arxiv_id).exists():
            raise RecordUnavailable(f"arXiv:{arxiv_id} has no metadata snapshot observed by {render_z(cutoff)}")
        raise RecordUnavailable(f"arXiv:{arxiv_id} is not held by this Pith store")
    return rows[0]


def _outbound_rows(paper_id: int, cutoff: datetime) -> list[tuple]:
    # The newest extraction of the highest version that has one; each reference's newest link;
    # the cited paper's newest snapshot.
    return _fetch(
        f"""SELECT {_observation_columns("cp")}
            FROM paper_references r
            JOIN reference_extractions e ON e.id = r.extraction_id
            JOIN paper_versions v ON v.id = e.paper_version_id
            JOIN paper_reference_links l ON l.id = {_NEWEST_LINK}
            LEFT JOIN papers cp ON cp.id = l.cited_paper_id
            LEFT JOIN paper_snapshots ps ON ps.id = {newest_snapshot_sql("l.cited_paper_id", CUTOFF)}
            LEFT JOIN cited_works w ON w.id = l.cited_work_id
            {_NEWEST_REVISION}
            {_override_joins()}
            WHERE r.extraction_id = (
                SELECT e2.id FROM reference_extractions e2 JOIN paper_versions v2 ON v2.id = e2.paper_version_id
                WHERE v2.paper_id = %(paper)s AND e2.observed_at <= %(cutoff)s
                ORDER BY v2.version DESC, {_LIST_RANK}, e2.observed_at DESC, e2.id DESC LIMIT 1)
              AND r.observed_at <= %(cutoff)s
            ORDER BY r.reference_index, r.id
            LIMIT {CAPS["outbound"]}""",
        _params(cutoff, paper=paper_id),
    )


def _inbound_rows(paper_id: int, cutoff: datetime) -> list[tuple]:
    # Links into this paper that verify a citation and are their reference's newest, from the
    # newest extraction of each citing version of another paper; the citing paper's newest snapshot.
    linking = ", ".join(f"'{state}'" for state in LINKING_STATES)
    return _fetch(
        f"""SELECT {_observation_columns("cp")}
            FROM paper_reference_links l
            JOIN paper_references r ON r.id = l.reference_id
            JOIN reference_extractions e ON e.id = r.extraction_id
            JOIN paper_versions v ON v.id = e.paper_version_id
            JOIN papers cp ON cp.id = v.paper_id
            LEFT JOIN paper_snapshots ps ON ps.id = {newest_snapshot_sql("v.paper_id", CUTOFF)}
            LEFT JOIN cited_works w ON w.id = l.cited_work_id
            {_NEWEST_REVISION}
            {_override_joins()}
            WHERE l.cited_paper_id = %(paper)s AND l.state IN ({linking}) AND l.observed_at <= %(cutoff)s
              AND v.paper_id <> %(paper)s AND r.observed_at <= %(cutoff)s
              AND l.id = {_NEWEST_LINK}
              AND r.extraction_id = (
                SELECT e2.id FROM reference_extractions e2
                WHERE e2.paper_version_id = e.paper_version_id AND e2.observed_at <= %(cutoff)s
                ORDER BY {_LIST_RANK}, e2.observed_at DESC, e2.id DESC LIMIT 1)
            ORDER BY cp.arxiv_id{_text_collation()}, v.version, r.reference_index, r.id
            LIMIT {CAPS["inbound"]}""",
        _params(cutoff, paper=paper_id),
    )


def _standing_sources(cutoff: datetime) -> dict[str, str]:
    rows = _fetch(
        f"""SELECT source, {_ts("MAX(observed_at)")} FROM standing_source_syncs
            WHERE status = 'succeeded' AND observed_at <= %(cutoff)s
            GROUP BY source ORDER BY source""",
        _params(cutoff),
    )
    return {source: _utc_text(at) for source, at in rows}


def _receipts(work_ids: list, cutoff: datetime) -> dict[str, dict[str, dict]]:
    prepare = CitedWork._meta.pk.get_db_prep_value
    names = [f"w{n}" for n in range(len(work_ids))]
    rows = _fetch(
        f"""SELECT rc.work_id, rc.source, {_ts("rc.observed_at")}, ev.event_type, ev.notice_doi, ev.occurred_on,
                   ev.reason, ev.source, ev.source_record_id, ev.subject_doi
            FROM retraction_status_cache rc
            LEFT JOIN retraction_status_cache_events re ON re.receipt_id = rc.id
            LEFT JOIN scholarly_work_events ev ON ev.id = re.event_id
            WHERE rc.work_id IN ({", ".join(f"%({name})s" for name in names)})
              AND rc.id = (SELECT r2.id FROM retraction_status_cache r2
                           WHERE r2.work_id = rc.work_id AND r2.source = rc.source AND r2.observed_at <= %(cutoff)s
                           ORDER BY r2.observed_at DESC LIMIT 1)""",
        _params(cutoff, **{name: prepare(UUID(w), connection) for name, w in zip(names, work_ids)}),
    )
    by_work: dict[str, dict[str, dict]] = defaultdict(dict)
    for work_id, source, at, *event in rows:
        receipt = by_work[_uuid_text(work_id)].setdefault(source, {"observed_at": _utc_text(at), "events": []})
        if event[0] is not None:
            receipt["events"].append(_event(event))
    return by_work


def _measurements(paper_id: int, cutoff: datetime) -> list[tuple]:
    rows = _fetch(
        f"""SELECT m.source, m.count, {_ts("m.observed_at")} FROM external_citation_measurements m
            WHERE m.paper_id = %(paper)s AND m.id = (
                SELECT m2.id FROM external_citation_measurements m2
                WHERE m2.paper_id = m.paper_id AND m2.source = m.source AND m2.observed_at <= %(cutoff)s
                ORDER BY m2.observed_at DESC LIMIT 1)
            ORDER BY m.source""",
        _params(cutoff, paper=paper_id),
    )
    return [(source, count, _utc_text(at)) for source, count, at in rows]


# Text timestamps from the reads: "YYYY-MM-DD HH:MM:SS.ffffff", always with six fraction digits, so
# they compare as the times they name.

def _utc_text(value: str | None) -> str | None:
    if value is None or len(value) == 26:
        return value
    return value + ".000000" if len(value) == 19 else (value + "000000")[:26]


def _z(value: str | None) -> str | None:
    """Z rendering of a text timestamp from the reads (called for every time shown: kept lean)."""
    if value is None:
        return None
    if len(value) > 19 and value[20:26] != "000000":
        return value[:10] + "T" + value[11:26] + "Z"
    return value[:10] + "T" + value[11:19] + "Z"


def _offset(value: str | None) -> str | None:
    """+00:00 rendering of a text timestamp from the reads."""
    if value is None:
        return None
    fraction = value[20:26].rstrip("0")
    return value[:10] + "T" + value[11:19] + (f".{fraction}+00:00" if fraction else "+00:00")


def _uuid_text(value) -> str:
    # PostgreSQL returns uuid.UUID; SQLite returns the 32 hex digits Django stores there.
    return str(value) if isinstance(value, UUID) else str(UUID(value))


# --- assembly ----------------------------------------------------------------------------------------


def _other_paper(row: _Row, *, version: int | None) -> dict:
    """The citing_paper (inbound) or cited_paper (outbound) block, from that paper's newest snapshot."""
    return {
        "arxiv_id": row.other_arxiv_id,
        "last_updated": _z(row.other_last_updated),
        "snapshot_observed_at": _z(row.other_observed_at),
        "submitted_at": _z(row.other_submitted_at),
        "title": row.other_title,
        "version": version,
    }


def _cited_work(row: _Row, pith_arxiv_id: str | None) -> dict:
    """The cited work as the reference describes it, plus its canonical link where one exists;
    a curator's title or year, where one is in force, over both (metadata_source says so)."""
    if row.work_id is not None:
        work = {
            "arxiv_id": row.work_arxiv_id,
            "doi": row.work_doi,
            "metadata_source": row.work_metadata_source,
            "pith_arxiv_id": pith_arxiv_id,
            "snapshot_observed_at": _z(row.work_observed_at),
            "title": row.work_title,
            "venue": row.work_venue,
            "work_id": _uuid_text(row.work_id),
            "year": row.work_year,
        }
    else:
        work = {
            "arxiv_id": None,
            "doi": None,
            "metadata_source": None,
            "pith_arxiv_id": pith_arxiv_id,
            "snapshot_observed_at": _z(row.observed_at),
            "title": row.title,
            "venue": None,
            "work_id": None,
            "year": row.year,
        }
    if row.title_override is not None:
        work["title"] = row.override_title
    if row.year_override is not None:
        work["year"] = row.override_year
    if row.title_override is not None or row.year_override is not None:
        work["metadata_source"] = CURATION
    return work


def _observation(row: _Row, *, citing: dict, cited: dict | None, receipts, synced, details) -> dict:
    observation_id = _uuid_text(row.reference_id)
    links = {"citing_paper": f"/paper/{citing['arxiv_id']}"}
    if cited is not None:
        links["cited_paper"] = f"/paper/{cited['arxiv_id']}"
    work = _cited_work(row, cited["arxiv_id"] if cited else None)
    observation = {
        "citation": {
            "cited_paper": cited,
            "cited_work": work,
            "citing_paper": citing,
            "reference_index": row.reference_index,
            "source": row.source,
            "source_observed_at": _z(row.observed_at),
        },
        "links": links,
        "observation_id": observation_id,
        "resolution": {"observed_at": _z(row.resolved_at), "resolver_source": row.resolver_source,
                       "status": row.state},
        "standing_notice": (_unavailable(NOT_A_WORK) if row.not_a_work_override is not None and work["work_id"] is None
                            else _standing_notice(work["work_id"], receipts, synced)),
    }
    observation["observation_digest"] = observation_digest(observation)
    curated = {field: entry for field, entry in (("title", row.title_override), ("year", row.year_override),
                                                 ("not_a_work", row.not_a_work_override)) if entry is not None}
    details[observation_id] = {"raw_text": row.raw_text, "parsed_venue": row.venue, "curated": curated,
                               "parsed_title": row.title, "parsed_year": row.year}
    return observation


def _event(values) -> dict:
    event_type, notice_doi, occurred_on, reason, source, source_record_id, subject_doi = values
    return {
        "event_type": event_type,
        "notice_doi": notice_doi,
        "occurred_on": str(occurred_on) if occurred_on is not None else None,   # a date, or its text on SQLite
        "reason": reason or None,
        "source": source,
        "source_record_id": source_record_id,
        "subject_doi": subject_doi,
    }


def _unavailable(reason: str) -> dict:
    return {"events": [], "reason": reason, "source_receipts": [], "state": "unavailable"}


def _standing_notice(work_id: str | None, receipts, synced) -> dict:
    if work_id is None:
        return _unavailable(NO_WORK_LINK)
    checks = receipts.get(work_id)
    if not checks:
        return _unavailable(NO_SOURCE_SYNCHRONISED if not synced else CHECK_PENDING)
    events = sorted(
        (event for check in checks.values() for event in check["events"]),
        key=lambda e: (e["occurred_on"] or "", e["source"], e["event_type"], e["source_record_id"]),
    )
    latest = _offset(max(check["observed_at"] for check in checks.values()))
    return {
        "events": events,
        "observation": _events_sentence(events, latest),
        "reason": None,
        "source_receipts": [
            {"observed_at": _offset(checks[source]["observed_at"]), "source": source} for source in sorted(checks)
        ],
        "state": "measured",
    }


def _events_sentence(events: list[dict], latest: str) -> str:
    if not events:
        return f"No event found in the named queried sources as of {latest}."
    described = "; ".join(
        f"{e['event_type'].replace('_', ' ')} ({e['source']}{', ' + e['occurred_on'] if e['occurred_on'] else ''})"
        for e in events
    )
    noun = "event" if len(events) == 1 else "events"
    return f"{len(events)} {noun} found in the named queried sources as of {latest}: {described}."


def _state_counts(rows: list[_Row]) -> dict[str, int]:
    counts = dict.fromkeys(STATES, 0)
    for row in rows:
        counts[row.state] += 1
    return counts


def _newest(values) -> str | None:
    present = [_utc_text(v) for v in values if v is not None]
    return max(present) if present else None


def _coverage(outbound: list[_Row], inbound: list[_Row], total_inbound, synced, measurements) -> list[dict]:
    return [
        {
            "denominator": len(outbound),
            "lane": "reference_resolution",
            "note": "Typed states for the displayed outbound observations.",
            "records_observed": len(outbound),
            "source": REFERENCE_SOURCES,
            "source_observed_at": _z(_newest(row.resolved_at for row in outbound)),
            "state": "measured",
        },
        {
            "denominator": len(outbound) + len(inbound),
            "lane": "standing_notices",
            "note": "One-hop event checks from named stored sources.",
            "records_observed": len(outbound) + len(inbound),
            "source": STANDING_SOURCES,
            "source_observed_at": _offset(_newest(synced.values())),
            "state": "measured" if synced else "unavailable",
        },
        {
            "denominator": total_inbound,
            "lane": "inbound_itemization",
            "note": "Pith citing papers itemized under the disclosed page cap.",
            "records_observed": len(inbound),
            "source": REFERENCE_SOURCES,
            "source_observed_at": _z(_newest(row.observed_at for row in inbound)),
            "state": "measured",
        },
        {
            "denominator": 1,
            "lane": "external_citation_measurements",
            "note": "A source-named dated measurement, never combined with another source.",
            "records_observed": len(measurements),
            "source": ", ".join(source for source, _, _ in measurements) if measurements else "cited_works",
            "source_observed_at": _z(_newest(at for _, _, at in measurements)),
            "state": "measured",
        },
    ]


def _thesis(minute, arxiv_id, shown_out, total_out, shown_in, total_in) -> str:
    inbound = f"{shown_in}" if shown_in == total_in else f"{shown_in} of {total_in}"
    return (
        f"As of {long_date(minute)}, this Paper Citation Record lists {shown_out} of {total_out} outbound "
        f"references and {inbound} inbound Pith citation observations for arXiv:{arxiv_id}."
    )
