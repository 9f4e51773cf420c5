"""The paper citation record (schema pith.paper-citation-record.v1), built from stored observations.

This module only reads. `build_record()` runs at most six SQL statements,
whatever the number of references (the record's caps.database_statements):

  1. the paper's newest metadata snapshot as of the cutoff
  2. outbound observations: the current reference list's newest links, with their total
  3. inbound observations: other papers' current references whose newest link verifies
     a citation of this paper, with their total
  4. standing sources: the newest succeeded synchronisation of each source
  5. check receipts, with the events each found, for the linked works (skipped when none)
  6. external citation measurements, the newest per source

"As of" means: every fact shown was observed at or before the cutoff (the build
time, or the time an export asks for), and for each fact the newest such
observation wins. The contract is ../shared/spec/citation-record-v1.md; what the
seeds do not show is specified in docs/record-v1.md.
"""
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from uuid import UUID

from django.db import connection
from django.db.models import Count, F, Max, OuterRef, Subquery, Window
from django.db.models.functions import Collate
from django.utils import timezone

from citations.canonical import canonical_bytes, context_digest, observation_digest
from citations.models import (
    CitationMeasurement,
    Paper,
    PaperReferenceLink,
    PaperSnapshot,
    ReferenceExtraction,
    ResolutionState,
    RetractionStatusReceipt,
    StandingSourceSync,
    SyncStatus,
)
from citations.timestamps import long_date, render_offset, render_z, truncate_to_minute

SCHEMA = "pith.paper-citation-record.v1"
CAPS = {"database_statements": 6, "inbound": 100, "outbound": 100}
REFUSAL = "A citation records a reference. It does not transfer a finding from one paper to another."
STATES = tuple(sorted(ResolutionState.values))
REFERENCE_SOURCES = "paper_references, paper_reference_links"
STANDING_SOURCES = "scholarly_work_events, retraction_status_cache"

# Standing-notice reasons (docs/record-v1.md, "Standing notice").
NO_WORK_LINK = "canonical_work_link_unavailable"
NO_SOURCE_SYNCHRONISED = "standing_sources_never_synchronised"
CHECK_PENDING = "standing_check_pending"

_SNAPSHOT_FIELDS = ("title", "submitted_at", "last_updated", "observed_at", "latest_version")


class RecordUnavailable(LookupError):
    """No record can be built: the paper is not held, or had no metadata snapshot by the cutoff."""


@dataclass(frozen=True)
class BuiltRecord:
    """A built record: the dict, its canonical bytes, and per-observation facts the HTML page shows."""

    record: dict
    body: bytes
    details: dict[str, dict] = field(default_factory=dict)   # observation_id -> raw text, parsed venue...

    @property
    def context_digest(self) -> str:
        return self.record["context_digest"]


def build_record(*, arxiv_id: str, as_of: datetime | None = None) -> BuiltRecord:
    """Build the record of a held paper as of a time (default: now)."""
    cutoff = as_of if as_of is not None else timezone.now()
    if timezone.is_naive(cutoff):
        raise ValueError("as_of must be timezone-aware")

    paper = _read_paper(arxiv_id, cutoff)                                   # statement 1
    outbound_rows = list(_outbound_rows(paper["paper_id"], cutoff))         # statement 2
    inbound_rows = list(_inbound_rows(paper["paper_id"], cutoff))           # statement 3
    synced = _standing_sources(cutoff)                                      # statement 4
    work_ids = {row["cited_work_id"] for row in outbound_rows + inbound_rows if row["cited_work_id"]}
    receipts = _receipts(work_ids, cutoff) if work_ids else {}              # statement 5
    measurements = _measurements(paper["paper_id"], cutoff)                 # statement 6

    paper_block = _paper_level(arxiv_id, paper)
    outbound, details = [], {}
    for row in outbound_rows:
        citing = {**paper_block, "version": row["reference__extraction__paper_version__version"]}
        cited = _snapshot_block(row, "cited") if row["cited_paper__arxiv_id"] else None
        outbound.append(_observation(row, citing, cited, receipts, synced, details))
    inbound = []
    for row in inbound_rows:
        citing = _snapshot_block(row, "citing")
        cited = {**paper_block, "version": paper["latest_version"]}
        inbound.append(_observation(row, citing, cited, receipts, synced, details))

    total_outbound = outbound_rows[0]["total"] if outbound_rows else 0
    total_inbound = inbound_rows[0]["total"] if inbound_rows else 0
    minute = truncate_to_minute(cutoff)
    record = {
        "as_of": render_z(minute),
        "caps": dict(CAPS),
        "coverage": _coverage(outbound, inbound, total_inbound, synced, measurements),
        "external_citation_measurements": [
            {"count": m["count"], "observed_at": render_z(m["observed_at"]), "source": m["source"]} for m in measurements
        ],
        "inbound": inbound,
        "links": record_links(arxiv_id),
        "outbound": outbound,
        "paper": {
            **paper_block,
            "latest_version": paper["latest_version"],
            "primary_category": paper["primary_category"],
        },
        "reference_resolution": {
            "displayed": len(outbound),
            "state_counts": _state_counts(outbound),
            "total_outbound_references": total_outbound,
        },
        "refusal": REFUSAL,
        "schema": SCHEMA,
        "standing_sources": [{"observed_at": render_offset(at), "source": source} for source, at in synced.items()],
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


def _read_paper(arxiv_id: str, cutoff: datetime) -> dict:
    row = (
        PaperSnapshot.objects.as_of(cutoff)
        .filter(paper__arxiv_id=arxiv_id)
        .order_by("-observed_at")
        .values("paper_id", "title", "submitted_at", "last_updated", "latest_version", "primary_category",
                "observed_at")
        .first()
    )
    if row is None:
        # Off the hot path: say which of the two it is.
        if Paper.objects.filter(arxiv_id=arxiv_id).exists():
            raise RecordUnavailable(f"arXiv:{arxiv_id} has no metadata snapshot observed by {render_z(cutoff)}")
        raise RecordUnavailable(f"arXiv:{arxiv_id} is not held by this Pith store")
    return row


def _snapshot_annotations(prefix: str, paper_ref: str, cutoff: datetime) -> dict:
    latest = PaperSnapshot.objects.latest_value
    return {f"{prefix}_{name}": latest(paper_ref, name, cutoff) for name in _SNAPSHOT_FIELDS}


_OBSERVATION_VALUES = (
    "reference_id", "reference__reference_index", "reference__observed_at", "reference__title",
    "reference__year", "reference__raw_text", "reference__venue", "reference__extraction__source",
    "reference__extraction__paper_version__version", "state", "resolver_source", "observed_at",
    "cited_paper__arxiv_id", "cited_work_id", "cited_work__doi", "cited_work__arxiv_id", "cited_work__title",
    "cited_work__year", "cited_work__venue", "cited_work__metadata_source", "cited_work__snapshot_observed_at",
)


def _by_arxiv_id(path: str):
    # Records sort arXiv ids by code point, as Python does; PostgreSQL sorts text by the
    # database collation unless told otherwise.
    return Collate(path, "C") if connection.vendor == "postgresql" else F(path)


def _outbound_rows(paper_id: int, cutoff: datetime):
    return (
        PaperReferenceLink.objects.current(cutoff)
        .filter(
            reference__extraction_id=ReferenceExtraction.objects.current_for_paper(paper_id, cutoff),
            reference__observed_at__lte=cutoff,
        )
        .annotate(total=Window(Count("id")), **_snapshot_annotations("cited", "cited_paper_id", cutoff))
        .order_by("reference__reference_index", "reference_id")
        .values(*_OBSERVATION_VALUES, "total", *(f"cited_{name}" for name in _SNAPSHOT_FIELDS))
        [: CAPS["outbound"]]
    )


def _inbound_rows(paper_id: int, cutoff: datetime):
    citing_paper = "reference__extraction__paper_version__paper_id"
    return (
        PaperReferenceLink.objects.current(cutoff)
        .linking()
        .filter(cited_paper_id=paper_id, reference__observed_at__lte=cutoff)
        .exclude(**{citing_paper: paper_id})
        .filter(reference__extraction_id=ReferenceExtraction.objects.current_for_version(
            "reference__extraction__paper_version_id", cutoff))
        .annotate(total=Window(Count("id")), **_snapshot_annotations("citing", citing_paper, cutoff))
        .order_by(
            _by_arxiv_id("reference__extraction__paper_version__paper__arxiv_id"),
            "reference__extraction__paper_version__version",
            "reference__reference_index",
            "reference_id",
        )
        .values(*_OBSERVATION_VALUES, "reference__extraction__paper_version__paper__arxiv_id", "total",
                *(f"citing_{name}" for name in _SNAPSHOT_FIELDS))
        [: CAPS["inbound"]]
    )


def _standing_sources(cutoff: datetime) -> dict[str, datetime]:
    rows = (
        StandingSourceSync.objects.filter(status=SyncStatus.SUCCEEDED, observed_at__lte=cutoff)
        .values("source")
        .annotate(last=Max("observed_at"))
        .order_by("source")
    )
    return {row["source"]: row["last"] for row in rows}


def _receipts(work_ids: set[UUID], cutoff: datetime) -> dict[UUID, dict[str, dict]]:
    newest = (
        RetractionStatusReceipt.objects.filter(work_id=OuterRef("work_id"), source=OuterRef("source"),
                                               observed_at__lte=cutoff)
        .order_by("-observed_at")
        .values("id")[:1]
    )
    rows = (
        RetractionStatusReceipt.objects.filter(work_id__in=work_ids, observed_at__lte=cutoff, id=Subquery(newest))
        .values("work_id", "source", "observed_at", "found_events__event_type", "found_events__notice_doi",
                "found_events__occurred_on", "found_events__reason", "found_events__source",
                "found_events__source_record_id", "found_events__subject_doi")
    )
    by_work: dict[UUID, dict[str, dict]] = defaultdict(dict)
    for row in rows:
        receipt = by_work[row["work_id"]].setdefault(row["source"], {"observed_at": row["observed_at"], "events": []})
        if row["found_events__event_type"] is not None:
            receipt["events"].append(_event(row))
    return by_work


def _measurements(paper_id: int, cutoff: datetime) -> list[dict]:
    newest = (
        CitationMeasurement.objects.filter(paper_id=OuterRef("paper_id"), source=OuterRef("source"),
                                           observed_at__lte=cutoff)
        .order_by("-observed_at")
        .values("id")[:1]
    )
    return list(
        CitationMeasurement.objects.filter(paper_id=paper_id, observed_at__lte=cutoff, id=Subquery(newest))
        .order_by("source")
        .values("source", "count", "observed_at")
    )


# --- assembly ----------------------------------------------------------------------------------------


def _paper_level(arxiv_id: str, snapshot: dict) -> dict:
    return {
        "arxiv_id": arxiv_id,
        "last_updated": render_z(snapshot["last_updated"]),
        "snapshot_observed_at": render_z(snapshot["observed_at"]),
        "submitted_at": render_z(snapshot["submitted_at"]),
        "title": snapshot["title"],
    }


def _snapshot_block(row: dict, prefix: str) -> dict:
    """citing_paper / cited_paper of an observation, from the annotated newest snapshot of that paper."""
    arxiv_id = row["cited_paper__arxiv_id"] if prefix == "cited" else row[
        "reference__extraction__paper_version__paper__arxiv_id"]
    version = row[f"{prefix}_latest_version"] if prefix == "cited" else row[
        "reference__extraction__paper_version__version"]
    return {
        "arxiv_id": arxiv_id,
        "last_updated": render_z(row[f"{prefix}_last_updated"]),
        "snapshot_observed_at": render_z(row[f"{prefix}_observed_at"]),
        "submitted_at": render_z(row[f"{prefix}_submitted_at"]),
        "title": row[f"{prefix}_title"],
        "version": version,
    }


def _cited_work(row: dict) -> dict:
    """The cited work as the reference describes it, plus its canonical link where one exists."""
    if row["cited_work_id"] is not None:
        return {
            "arxiv_id": row["cited_work__arxiv_id"],
            "doi": row["cited_work__doi"],
            "metadata_source": row["cited_work__metadata_source"],
            "pith_arxiv_id": row["cited_paper__arxiv_id"],
            "snapshot_observed_at": render_z(row["cited_work__snapshot_observed_at"]),
            "title": row["cited_work__title"],
            "venue": row["cited_work__venue"],
            "work_id": str(row["cited_work_id"]),
            "year": row["cited_work__year"],
        }
    return {
        "arxiv_id": None,
        "doi": None,
        "metadata_source": None,
        "pith_arxiv_id": row["cited_paper__arxiv_id"],
        "snapshot_observed_at": render_z(row["reference__observed_at"]),
        "title": row["reference__title"],
        "venue": None,
        "work_id": None,
        "year": row["reference__year"],
    }


def _observation(row, citing, cited, receipts, synced, details) -> dict:
    links = {"citing_paper": f"/paper/{citing['arxiv_id']}"}
    if cited is not None:
        links["cited_paper"] = f"/paper/{cited['arxiv_id']}"
    observation = {
        "citation": {
            "cited_paper": cited,
            "cited_work": _cited_work(row),
            "citing_paper": citing,
            "reference_index": row["reference__reference_index"],
            "source": row["reference__extraction__source"],
            "source_observed_at": render_z(row["reference__observed_at"]),
        },
        "links": links,
        "observation_id": str(row["reference_id"]),
        "resolution": {
            "observed_at": render_z(row["observed_at"]),
            "resolver_source": row["resolver_source"],
            "status": row["state"],
        },
        "standing_notice": _standing_notice(row["cited_work_id"], receipts, synced),
    }
    observation["observation_digest"] = observation_digest(observation)
    details[observation["observation_id"]] = {"raw_text": row["reference__raw_text"],
                                              "parsed_venue": row["reference__venue"]}
    return observation


def _event(row: dict) -> dict:
    occurred = row["found_events__occurred_on"]
    return {
        "event_type": row["found_events__event_type"],
        "notice_doi": row["found_events__notice_doi"],
        "occurred_on": occurred.isoformat() if occurred else None,
        "reason": row["found_events__reason"] or None,
        "source": row["found_events__source"],
        "source_record_id": row["found_events__source_record_id"],
        "subject_doi": row["found_events__subject_doi"],
    }


def _unavailable(reason: str) -> dict:
    return {"events": [], "reason": reason, "source_receipts": [], "state": "unavailable"}


def _standing_notice(work_id, receipts, synced) -> dict:
    if work_id is None:
        return _unavailable(NO_WORK_LINK)
    checks = receipts.get(work_id)
    if not checks:
        return _unavailable(NO_SOURCE_SYNCHRONISED if not synced else CHECK_PENDING)
    events = sorted(
        (event for check in checks.values() for event in check["events"]),
        key=lambda e: (e["occurred_on"] or "", e["source"], e["event_type"], e["source_record_id"]),
    )
    latest = render_offset(max(check["observed_at"] for check in checks.values()))
    return {
        "events": events,
        "observation": _events_sentence(events, latest),
        "reason": None,
        "source_receipts": [
            {"observed_at": render_offset(checks[source]["observed_at"]), "source": source} for source in sorted(checks)
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


def _state_counts(outbound: list[dict]) -> dict[str, int]:
    counts = dict.fromkeys(STATES, 0)
    for observation in outbound:
        counts[observation["resolution"]["status"]] += 1
    return counts


def _latest(values) -> datetime | None:
    """The newest of some datetimes, ignoring None."""
    present = [v for v in values if v is not None]
    return max(present) if present else None


def _coverage(outbound, inbound, total_inbound, synced, measurements) -> list[dict]:
    resolution_times = [o["resolution"]["observed_at"] for o in outbound]
    inbound_times = [o["citation"]["source_observed_at"] for o in inbound]
    latest_sync = _latest(synced.values())
    latest_measurement = _latest(m["observed_at"] for m in measurements)
    return [
        {
            "denominator": len(outbound),
            "lane": "reference_resolution",
            "note": "Typed states for the displayed outbound observations.",
            "records_observed": len(outbound),
            "source": REFERENCE_SOURCES,
            "source_observed_at": max(resolution_times, key=_z_sort_key) if resolution_times else None,
            "state": "measured",
        },
        {
            "denominator": len(outbound) + len(inbound),
            "lane": "standing_notices",
            "note": "One-hop event checks from named stored sources.",
            "records_observed": len(outbound) + len(inbound),
            "source": STANDING_SOURCES,
            "source_observed_at": render_offset(latest_sync),
            "state": "measured" if synced else "unavailable",
        },
        {
            "denominator": total_inbound,
            "lane": "inbound_itemization",
            "note": "Pith citing papers itemized under the disclosed page cap.",
            "records_observed": len(inbound),
            "source": REFERENCE_SOURCES,
            "source_observed_at": max(inbound_times, key=_z_sort_key) if inbound_times else None,
            "state": "measured",
        },
        {
            "denominator": 1,
            "lane": "external_citation_measurements",
            "note": "A source-named dated measurement, never combined with another source.",
            "records_observed": len(measurements),
            "source": ", ".join(m["source"] for m in measurements) if measurements else "cited_works",
            "source_observed_at": render_z(latest_measurement),
            "state": "measured",
        },
    ]


def _z_sort_key(rendered: str) -> str:
    # "…:17Z" (no fraction) must sort before "…:17.000001Z": pad the missing fraction.
    return rendered if "." in rendered else rendered[:-1] + ".000000Z"


def _thesis(minute, arxiv_id, shown_out, total_out, shown_in, total_in) -> str:
    inbound = f"{shown_in}" if shown_in == total_in else f"{shown_in} of {total_in}"
    return (
        f"As of {long_date(minute)}, this Paper Citation Record lists {shown_out} of {total_out} outbound "
        f"references and {inbound} inbound Pith citation observations for arXiv:{arxiv_id}."
    )
