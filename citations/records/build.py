"""The paper citation record (schema pith.paper-citation-record.v1), built from stored observations.

This module only reads. `build_record()` runs at most six SQL statements, whatever the number of
references (the record's caps.database_statements); they, and the reading of their rows, are in
citations/records/statements.py. This module assembles the record from those rows.

"As of" means: every fact shown was observed at or before the cutoff (the build
time, or the time an export asks for), and for each fact the newest such
observation wins. The contract is ../shared/spec/citation-record-v1.md; what the
seeds do not show is specified in docs/record-v1.md.
"""
import json
from dataclasses import dataclass, field
from datetime import datetime

from django.utils import timezone

from citations.models import ResolutionState
from citations.records import statements
from citations.records.canonical import canonical_bytes, context_digest, observation_digest
from citations.records.statements import CAPS, ObservationRow, utc_text, uuid_text
from citations.records.statements import RecordUnavailable as RecordUnavailable  # importable from here, as callers do
from citations.records.timestamps import long_date, render_z, truncate_to_minute

SCHEMA = "pith.paper-citation-record.v1"
REFUSAL = "A citation records a reference. It does not transfer a finding from one paper to another."
STATES = tuple(sorted(ResolutionState.values))
REFERENCE_SOURCES = "paper_references, paper_reference_links"
STANDING_SOURCES = "scholarly_work_events, retraction_status_cache"

# Standing-notice reasons (docs/record-v1.md, "Standing notice").
NO_WORK_LINK = "canonical_work_link_unavailable"
NO_SOURCE_SYNCHRONISED = "standing_sources_never_synchronised"
CHECK_PENDING = "standing_check_pending"
NOT_A_WORK = "not_a_scholarly_work"
CURATION = "curation"


@dataclass(frozen=True)
class BuiltRecord:
    """A built record: the dict, its canonical bytes, and per-observation facts the HTML page shows."""

    record: dict
    body: bytes
    details: dict[str, dict] = field(default_factory=dict)   # observation_id -> raw text, parsed venue
    paper_id: int | None = None
    cutoff: datetime | None = None

    @property
    def context_digest(self) -> str:
        return self.record["context_digest"]


def build_record(*, arxiv_id: str, as_of: datetime | None = None) -> BuiltRecord:
    """Build the record of a held paper as of a time (default: now)."""
    cutoff = as_of if as_of is not None else timezone.now()
    if timezone.is_naive(cutoff):
        raise ValueError("as_of must be timezone-aware")

    paper_id, *snapshot = statements.read_paper(arxiv_id, cutoff)                                # statement 1
    outbound_rows = [ObservationRow(*row) for row in statements.outbound_rows(paper_id, cutoff)]  # statement 2
    inbound_rows = [ObservationRow(*row) for row in statements.inbound_rows(paper_id, cutoff)]   # statement 3
    synced = statements.standing_sources(cutoff)                                                 # statement 4
    work_ids = sorted({uuid_text(r.work_id) for r in outbound_rows + inbound_rows if r.work_id is not None})
    receipts = statements.receipts(work_ids, cutoff) if work_ids else {}                         # statement 5
    measurements = statements.measurements(paper_id, cutoff)                                     # statement 6

    title, submitted_at, last_updated, latest_version, primary_category, observed_at = snapshot
    paper_level = {
        "arxiv_id": arxiv_id,
        "last_updated": _z(last_updated),
        "snapshot_observed_at": _z(observed_at),
        "submitted_at": _z(submitted_at),
        "title": title,
    }
    details: dict[str, dict] = {}
    outbound = _outbound(outbound_rows, paper_level, receipts, synced, details)
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
    return BuiltRecord(record=record, body=canonical_bytes(record), details=details, paper_id=paper_id,
                       cutoff=cutoff)


@dataclass(frozen=True)
class OutboundWindow:
    """References of a record's list the HTML page shows past the cap or by state, built as the record
    builds its own: observations (not in the record's bytes), their details, and how many match."""

    outbound: list
    details: dict
    matching: int                     # references of the list in the asked state (all, with no state)
    state_counts: dict                # every reference of the list, by state


def list_state_counts(built: BuiltRecord) -> dict[str, int]:
    """Every reference of the record's list by state, itemized or not: one statement."""
    return dict.fromkeys(STATES, 0) | statements.outbound_state_counts(built.paper_id, built.cutoff)


def outbound_window(built: BuiltRecord, *, offset: int = 0, state: str | None = None,
                    limit: int = CAPS["outbound"]) -> OutboundWindow:
    """The list's references from `offset` (in the record's order), of one state or all: four statements
    (the rows, the whole list's state counts, the standing sources, the rows' check receipts)."""
    cutoff = built.cutoff
    rows = [ObservationRow(*row) for row in statements.outbound_rows(built.paper_id, cutoff, offset=offset,
                                                                      state=state, limit=limit)]
    counts = list_state_counts(built)
    synced = statements.standing_sources(cutoff)
    work_ids = sorted({uuid_text(r.work_id) for r in rows if r.work_id is not None})
    receipts = statements.receipts(work_ids, cutoff) if work_ids else {}
    paper = built.record["paper"]
    paper_level = {key: paper[key] for key in ("arxiv_id", "last_updated", "snapshot_observed_at", "submitted_at",
                                               "title")}
    details: dict[str, dict] = {}
    outbound = _outbound(rows, paper_level, receipts, synced, details)
    matching = counts.get(state, 0) if state else sum(counts.values())
    return OutboundWindow(outbound=outbound, details=details, matching=matching, state_counts=counts)


def record_links(arxiv_id: str) -> dict:
    """The record's own addresses."""
    return {
        "evidence": "/evidence",
        "html": f"/paper/{arxiv_id}/citation-record",
        "integrity": f"/paper/{arxiv_id}/integrity",
        "json": f"/paper/{arxiv_id}/citation-record.json",
        "paper": f"/paper/{arxiv_id}",
    }


# Renderings of the text timestamps the statements return ("YYYY-MM-DD HH:MM:SS.ffffff").

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


# --- assembly ----------------------------------------------------------------------------------------


def _outbound(rows: list[ObservationRow], paper_level: dict, receipts, synced, details: dict) -> list[dict]:
    """The outbound observations of these rows: the paper cites, each version its own list."""
    return [_observation(row, citing={**paper_level, "version": row.citing_version},
                         cited=_other_paper(row, version=row.other_latest_version) if row.other_arxiv_id else None,
                         receipts=receipts, synced=synced, details=details)
            for row in rows]


def _other_paper(row: ObservationRow, *, version: int | None) -> dict:
    """The citing_paper (inbound) or cited_paper (outbound) block, from that paper's newest snapshot."""
    return {
        "arxiv_id": row.other_arxiv_id,
        "last_updated": _z(row.other_last_updated),
        "snapshot_observed_at": _z(row.other_observed_at),
        "submitted_at": _z(row.other_submitted_at),
        "title": row.other_title,
        "version": version,
    }


def _cited_work(row: ObservationRow, pith_arxiv_id: str | None) -> dict:
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
            "work_id": uuid_text(row.work_id),
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


def _observation(row: ObservationRow, *, citing: dict, cited: dict | None, receipts, synced, details) -> dict:
    observation_id = uuid_text(row.reference_id)
    links = {"citing_paper": f"/paper/{citing['arxiv_id']}"}
    if cited is not None:
        links["cited_paper"] = f"/paper/{cited['arxiv_id']}"
    work = _cited_work(row, cited["arxiv_id"] if cited else None)
    observation = {
        "citation": {
            "cited_paper": cited,
            "cited_work": work,
            "citing_paper": citing,
            "reference_index": row.reference_index if row.index_override is None else row.override_index,
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
                                                 ("not_a_work", row.not_a_work_override),
                                                 ("index", row.index_override)) if entry is not None}
    details[observation_id] = {"raw_text": row.raw_text, "parsed_venue": row.venue, "curated": curated,
                               "parsed_title": row.title, "parsed_year": row.year,
                               "parsed_authors": _json_list(row.authors), "printed_arxiv_id": row.printed_arxiv_id,
                               "printed_doi": row.printed_doi, "identifiers": _json_list(row.identifiers),
                               "correction": (row.correction_field, row.correction_id) if row.correction_id else None}
    return observation



def _json_list(value) -> list:
    """A JSON list column as read: a list on PostgreSQL, its text on SQLite."""
    if isinstance(value, str):
        value = json.loads(value)
    return value if isinstance(value, list) else []


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


def _state_counts(rows: list[ObservationRow]) -> dict[str, int]:
    counts = dict.fromkeys(STATES, 0)
    for row in rows:
        counts[row.state] += 1
    return counts


def _newest(values) -> str | None:
    present = [utc_text(v) for v in values if v is not None]
    return max(present) if present else None


def _coverage(outbound: list[ObservationRow], inbound: list[ObservationRow], total_inbound, synced,
              measurements) -> list[dict]:
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
