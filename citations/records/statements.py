"""The SQL of the paper citation record: the at most six statements `build_record()` runs
(citations/records/build.py), whatever the number of references (the record's caps.database_statements):

  1. the paper's newest metadata snapshot as of the cutoff
  2. outbound observations: the current reference list with each reference's newest link,
     and their total
  3. inbound observations: other papers' current references whose newest link verifies
     a citation of this paper, and their total
  4. standing sources: the newest succeeded synchronisation of each source
  5. check receipts, with the events each found, for the linked works (skipped when none)
  6. external citation measurements, the newest per source

Curators' overrides (curation/) in force as of the cutoff are joined into statements 2 and 3.
Each statement returns rows as read (ObservationRow for 2 and 3); build.py assembles the record.
"""
from collections import defaultdict
from datetime import datetime
from typing import NamedTuple
from uuid import UUID

from django.db import connection

from citations.models import CitedWork, Paper
from citations.models.references import source_rank_sql
from citations.models.resolution import LINKING_STATES
from citations.records.timestamps import render_z
from citations.time_rules import newest_link_sql, newest_snapshot_sql, override_in_force_sql, snapshot_known_sql

CAPS = {"database_statements": 6, "inbound": 100, "outbound": 100}
_LIST_RANK = source_rank_sql("e2")       # a version's lists, best first
CUTOFF = "%(cutoff)s"                    # every statement's time, as a named parameter


class RecordUnavailable(LookupError):
    """No record can be built: the paper is not held, or had no metadata snapshot by the cutoff."""


class ObservationRow(NamedTuple):
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
    authors: object                   # the parsed reference's own fields, for the HTML page (not the JSON)
    printed_arxiv_id: str | None
    printed_doi: str | None
    identifiers: object
    correction_id: int | None         # the split or join that made this reference, if one did
    correction_field: str | None
    index_override: int | None
    override_index: int | None        # the reference number a curator corrected it to
    total: int


# --- reads -------------------------------------------------------------------------------------------
#
# Plain SQL that runs unchanged on PostgreSQL and SQLite: a record page is the hottest path of the
# site, and these six statements are all it costs. Every "newest ... as of the cutoff" is a
# correlated subquery answered by a named index (see the models). Timestamps come back as UTC text
# "YYYY-MM-DD HH:MM:SS[.ffffff]", which build.py's renderings turn into the record's two forms without
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
    """The columns of one observation row, in the order ObservationRow reads them."""
    return f"""r.id, r.reference_index, {_ts("r.observed_at")}, r.title, r.year, r.raw_text, r.venue,
        e.source, v.version, l.state, l.resolver_source, {_ts("l.observed_at")},
        {snapshot_paper}.arxiv_id, ps.title, {_ts("ps.submitted_at")}, {_ts("ps.last_updated")},
        {_ts("ps.observed_at")}, ps.latest_version,
        w.id, {_WORK_DOI}, w.arxiv_id, {_WORK_STATED.format("title", "title")}, {_WORK_STATED.format("year", "year")},
        {_WORK_STATED.format("venue", "container_title")}, {_WORK_STATED.format("metadata_source", "source")},
        {_ts(_WORK_STATED.format("snapshot_observed_at", "observed_at"))},
        ot.id, ot.value_text, oy.id, oy.value_year, onw.id,
        r.authors, r.arxiv_id, r.doi, r.identifiers, COALESCE(sj.id, sj2.id), COALESCE(sj.field, sj2.field),
        oi.id, oi.value_index,
        COUNT(*) OVER ()"""


def _override_joins() -> str:
    """Curators' overrides in force as of the cutoff: for each field, the newest entry, if it sets;
    and the split or join that made the reference (its list's correction, or the one before it that
    made the reference it was carried over from)."""
    return "\n".join(
        f"""LEFT JOIN curation_overrides {alias} ON {alias}.reference_id = r.id AND {alias}.field = '{field}'
                AND {override_in_force_sql(alias, CUTOFF)}"""
        for alias, field in (("ot", "title"), ("oy", "year"), ("onw", "not_a_work"), ("oi", "index"))
    ) + """
            LEFT JOIN curation_overrides sj ON sj.result_list_id = r.extraction_id
                AND sj.reference_id = r.derived_from_id AND sj.field IN ('split', 'join')
            LEFT JOIN paper_references rd ON rd.id = r.derived_from_id AND rd.raw_text = r.raw_text
            LEFT JOIN curation_overrides sj2 ON sj2.result_list_id = rd.extraction_id
                AND sj2.reference_id = rd.derived_from_id AND sj2.field IN ('split', 'join')"""


def read_paper(arxiv_id: str, cutoff: datetime) -> tuple:
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


# The references of the paper's list as of the cutoff, each with its newest link: the newest extraction
# of the highest version that has one.
_OUTBOUND_LIST = f"""FROM paper_references r
            JOIN reference_extractions e ON e.id = r.extraction_id
            JOIN paper_versions v ON v.id = e.paper_version_id
            JOIN paper_reference_links l ON l.id = {_NEWEST_LINK}"""
_OUTBOUND_WHERE = f"""r.extraction_id = (
                SELECT e2.id FROM reference_extractions e2 JOIN paper_versions v2 ON v2.id = e2.paper_version_id
                WHERE v2.paper_id = %(paper)s AND e2.observed_at <= %(cutoff)s
                ORDER BY v2.version DESC, {_LIST_RANK}, e2.observed_at DESC, e2.id DESC LIMIT 1)
              AND r.observed_at <= %(cutoff)s"""


def outbound_rows(paper_id: int, cutoff: datetime, *, offset: int = 0, state: str | None = None,
                  limit: int = CAPS["outbound"]) -> list[tuple]:
    # The record's rows are the first CAPS["outbound"]; the HTML page reads the rest (offset) and the
    # rows of one state the same way, so its pages past the cap show what the record would.
    return _fetch(
        f"""SELECT {_observation_columns("cp")}
            {_OUTBOUND_LIST}
            LEFT JOIN papers cp ON cp.id = l.cited_paper_id
            LEFT JOIN paper_snapshots ps ON ps.id = {newest_snapshot_sql("l.cited_paper_id", CUTOFF)}
            LEFT JOIN cited_works w ON w.id = l.cited_work_id
            {_NEWEST_REVISION}
            {_override_joins()}
            WHERE {_OUTBOUND_WHERE}{" AND l.state = %(state)s" if state else ""}
            ORDER BY COALESCE(oi.value_index, r.reference_index), r.id
            LIMIT {int(limit)} OFFSET {int(offset)}""",
        _params(cutoff, paper=paper_id, state=state),
    )


def outbound_state_counts(paper_id: int, cutoff: datetime) -> dict[str, int]:
    """The states of every reference of the list, itemized or not (the HTML pages past the cap)."""
    return dict(_fetch(
        f"""SELECT l.state, COUNT(*) {_OUTBOUND_LIST}
            WHERE {_OUTBOUND_WHERE} GROUP BY l.state""",
        _params(cutoff, paper=paper_id),
    ))


def inbound_rows(paper_id: int, cutoff: datetime) -> list[tuple]:
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
            ORDER BY cp.arxiv_id{_text_collation()}, v.version, COALESCE(oi.value_index, r.reference_index), r.id
            LIMIT {CAPS["inbound"]}""",
        _params(cutoff, paper=paper_id),
    )


def standing_sources(cutoff: datetime) -> dict[str, str]:
    rows = _fetch(
        f"""SELECT source, {_ts("MAX(observed_at)")} FROM standing_source_syncs
            WHERE status = 'succeeded' AND observed_at <= %(cutoff)s
            GROUP BY source ORDER BY source""",
        _params(cutoff),
    )
    return {source: utc_text(at) for source, at in rows}


def receipts(work_ids: list, cutoff: datetime) -> dict[str, dict[str, dict]]:
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
        receipt = by_work[uuid_text(work_id)].setdefault(source, {"observed_at": utc_text(at), "events": []})
        if event[0] is not None:
            receipt["events"].append(_event(event))
    return by_work


def measurements(paper_id: int, cutoff: datetime) -> list[tuple]:
    """Each source's newest count as of the cutoff, among those already recorded by then
    (citations/models/standing.py, CitationMeasurement.recorded_at)."""
    rows = _fetch(
        f"""SELECT m.source, m.count, {_ts("m.observed_at")} FROM external_citation_measurements m
            WHERE m.paper_id = %(paper)s AND m.id = (
                SELECT m2.id FROM external_citation_measurements m2
                WHERE m2.paper_id = m.paper_id AND m2.source = m.source AND m2.observed_at <= %(cutoff)s
                  AND (m2.recorded_at IS NULL OR m2.recorded_at <= %(cutoff)s)
                ORDER BY m2.observed_at DESC LIMIT 1)
            ORDER BY m.source""",
        _params(cutoff, paper=paper_id),
    )
    return [(source, count, utc_text(at)) for source, count, at in rows]


# Text timestamps from the reads: "YYYY-MM-DD HH:MM:SS.ffffff", always with six fraction digits, so
# they compare as the times they name.

def utc_text(value: str | None) -> str | None:
    if value is None or len(value) == 26:
        return value
    return value + ".000000" if len(value) == 19 else (value + "000000")[:26]


def uuid_text(value) -> str:
    # PostgreSQL returns uuid.UUID; SQLite returns the 32 hex digits Django stores there.
    return str(value) if isinstance(value, UUID) else str(UUID(value))


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
