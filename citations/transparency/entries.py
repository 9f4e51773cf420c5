"""A leaf's entry: canonical JSON naming one observation and digesting every stored field of its row.

Observations proper (references, resolution links) and the facts a record shows beside them (work
statements, paper snapshots, standing events and receipts, citation measurements: FACTS) alike.

The entry carries in clear the fields a record shows of the observation (so a client can hold
the record against the log) and, as `content`, the sha256 of all of the row's columns (so the
log's audit catches a change to any of them). Built from rows read back from the database as
plain values (`reference_rows`, `link_rows`: no model instances, the sequencer's largest cost
otherwise), by the sequencer and by the audit alike, so both see the same values.
"""
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property

from django.db import connection

from citations.models import (
    CitationMeasurement,
    CitedWork,
    LeafKind,
    Override,
    PaperReference,
    PaperReferenceLink,
    PaperSnapshot,
    ReceiptEvent,
    RetractionStatusReceipt,
    ScholarlyWorkEvent,
    WorkIdentifier,
    WorkRevision,
)
from citations.records.canonical import canonical_bytes, sha256_digest
from citations.records.timestamps import render_z
from citations.sql_arrays import any_of

_REFERENCE_COLUMNS = [(f.column, f.attname) for f in PaperReference._meta.concrete_fields]
_LINK_COLUMNS = [(f.column, f.attname) for f in PaperReferenceLink._meta.concrete_fields]
_REFERENCE_JOINED = ("extraction__source", "extraction__paper_version__version",
                     "extraction__paper_version__paper__arxiv_id")
_LINK_JOINED = ("cited_paper__arxiv_id",)


_AS_IS = {str, int, bool, float, type(None)}


def _plain(value):
    if isinstance(value, datetime):
        return render_z(value)
    if isinstance(value, uuid.UUID):
        return str(value)
    return value


def _content(columns, row: dict) -> str:
    """sha256 of the canonical JSON of every concrete column of the row."""
    return sha256_digest({column: _plain(row[attname]) for column, attname in columns})


def reference_rows(ids) -> dict[str, dict]:
    """The references' rows with what their entries name, by id (as text)."""
    rows = PaperReference.objects.filter(pk__in=list(ids)).values(*(a for _, a in _REFERENCE_COLUMNS), *_REFERENCE_JOINED)
    return {str(row["id"]): row for row in rows}


def link_rows(ids) -> dict[int, dict]:
    """The links' rows with what their entries name, by id."""
    rows = PaperReferenceLink.objects.filter(pk__in=list(ids)).values(*(a for _, a in _LINK_COLUMNS), *_LINK_JOINED)
    return {row["id"]: row for row in rows}


def reference_entry(row: dict) -> bytes:
    return canonical_bytes({
        "kind": LeafKind.REFERENCE, "id": str(row["id"]), "citing_arxiv_id": row["extraction__paper_version__paper__arxiv_id"],
        "citing_version": row["extraction__paper_version__version"], "source": row["extraction__source"],
        "reference_index": row["reference_index"], "observed_at": render_z(row["observed_at"]),
        "content": _content(_REFERENCE_COLUMNS, row),
    })


def link_entry(row: dict) -> bytes:
    return canonical_bytes({
        "kind": LeafKind.LINK, "id": row["id"], "reference": str(row["reference_id"]), "state": row["state"],
        "resolver_source": row["resolver_source"],
        "cited_work": str(row["cited_work_id"]) if row["cited_work_id"] else None,
        "cited_paper": row["cited_paper__arxiv_id"], "observed_at": render_z(row["observed_at"]),
        "content": _content(_LINK_COLUMNS, row),
    })


# --- the facts a record shows beside its observations: one leaf per row, logged alone ------------------
#
# Each entry names its row and carries, under the names the verifier holds them against (work
# statements under the cited_work block's names), the fields a record shows of it, and `content`.

def _work_entry(row: dict) -> dict:
    return {"work": str(row["id"]), "doi": row["doi"], "arxiv_id": row["arxiv_id"], "title": row["title"],
            "year": row["year"], "venue": row["venue"], "metadata_source": row["metadata_source"],
            "observed_at": render_z(row["snapshot_observed_at"])}


def _revision_entry(row: dict) -> dict:
    return {"work": str(row["work_id"]), "title": row["title"], "year": row["year"], "venue": row["container_title"],
            "metadata_source": row["source"], "observed_at": render_z(row["observed_at"])}


def _snapshot_entry(row: dict) -> dict:
    return {"arxiv_id": row["paper__arxiv_id"], "title": row["title"], "submitted_at": render_z(row["submitted_at"]),
            "last_updated": render_z(row["last_updated"]), "latest_version": row["latest_version"],
            "primary_category": row["primary_category"], "observed_at": render_z(row["observed_at"]),
            "revision": row["revision"], "recorded_at": render_z(row["recorded_at"])}


def _event_entry(row: dict) -> dict:
    return {"event_type": row["event_type"], "notice_doi": row["notice_doi"],
            "occurred_on": str(row["occurred_on"]) if row["occurred_on"] is not None else None,
            "reason": row["reason"] or None, "source": row["source"], "source_record_id": row["source_record_id"],
            "subject_doi": row["subject_doi"], "observed_at": render_z(row["observed_at"])}


def _receipt_entry(row: dict) -> dict:
    return {"work": str(row["work_id"]), "source": row["source"], "observed_at": render_z(row["observed_at"]),
            "events": row["events"]}


def _measurement_entry(row: dict) -> dict:
    return {"arxiv_id": row["paper__arxiv_id"], "source": row["source"], "count": row["count"],
            "observed_at": render_z(row["observed_at"])}


def _override_entry(row: dict) -> dict:
    # The values a record may show from the entry (title, year, reference number; a link and
    # "not a work" by their presence), and its time: the verifier holds the shown value against it.
    return {"reference": str(row["reference_id"]), "field": row["field"], "action": row["action"],
            "value_text": row["value_text"], "value_year": row["value_year"], "value_index": row["value_index"],
            "link_paper": row["link_paper_id"], "link_work": str(row["link_work_id"]) if row["link_work_id"] else None,
            "withdraws": row["withdraws_id"], "created_at": render_z(row["created_at"])}


def _identifier_entry(row: dict) -> dict:
    return {"work": str(row["work_id"]), "identifier_kind": row["kind"], "value": row["value"],
            "source": row["source"], "observed_at": render_z(row["observed_at"])}


@dataclass(frozen=True)
class _Fact:
    model: type
    joined: tuple
    shown: Callable[[dict], dict]

    @cached_property
    def columns(self) -> list[tuple[str, str]]:
        return [(f.column, f.attname) for f in self.model._meta.concrete_fields]


FACTS = {
    LeafKind.WORK: _Fact(CitedWork, (), _work_entry),
    LeafKind.WORK_REVISION: _Fact(WorkRevision, (), _revision_entry),
    LeafKind.SNAPSHOT: _Fact(PaperSnapshot, ("paper__arxiv_id",), _snapshot_entry),
    LeafKind.STANDING_EVENT: _Fact(ScholarlyWorkEvent, (), _event_entry),
    LeafKind.RECEIPT: _Fact(RetractionStatusReceipt, (), _receipt_entry),
    LeafKind.MEASUREMENT: _Fact(CitationMeasurement, ("paper__arxiv_id",), _measurement_entry),
    LeafKind.OVERRIDE: _Fact(Override, (), _override_entry),
    LeafKind.WORK_IDENTIFIER: _Fact(WorkIdentifier, (), _identifier_entry),
}


def identifier_ids(keys) -> dict[str, str]:
    """The ids of work identifiers named "kind:value" (as the works importer notes them: its COPY and
    its bulk INSERT that skips conflicts return no ids), by that name."""
    keys = {str(k) for k in keys}
    found = {}
    for part in among(WorkIdentifier.objects.all(), WorkIdentifier._meta.get_field("value"),
                      {k.partition(":")[2] for k in keys}):
        for pk, kind, value in part.values_list("id", "kind", "value"):
            if f"{kind}:{value}" in keys:
                found[f"{kind}:{value}"] = str(pk)
    return found


def among(queryset, field, ids) -> list:
    """queryset.filter(field in ids), as querysets to read one after the other: on PostgreSQL one, with
    the ids as one array parameter, not one per id (psycopg dumps and splits a query of ten thousand
    parameters at a fifth of the sequencer's time); elsewhere a few, under SQLite's parameter limit."""
    ids = [str(i) for i in ids]
    if connection.vendor != "postgresql" or not ids:
        return [queryset.filter(**{f"{field.attname}__in": ids[n:n + 5000]}) for n in range(0, len(ids), 5000)]
    sql, params = any_of(ids)
    target = field.target_field if field.is_relation else field
    cast = {"UUIDField": "uuid[]", "BigAutoField": "bigint[]", "AutoField": "integer[]"}.get(target.get_internal_type())
    sql = f"{sql[:-1]}::{cast})" if cast else sql           # ANY(<array>::uuid[])
    return [queryset.extra(where=[f'"{queryset.model._meta.db_table}"."{field.column}" = {sql}'], params=params)]


def fact_rows(kind: str, ids) -> dict[str, dict]:
    """Rows of one kind with what their entries name, by id as text (a receipt with its events' ids)."""
    fact = FACTS[kind]
    found = {str(row["id"]): row for part in among(fact.model.objects.all(), fact.model._meta.pk, ids)
             for row in part.values(*(a for _, a in fact.columns), *fact.joined)}
    if kind == LeafKind.RECEIPT:
        for row in found.values():
            row["events"] = []
        for part in among(ReceiptEvent.objects.order_by("event_id"), ReceiptEvent._meta.get_field("receipt"), found):
            for receipt, event in part.values_list("receipt_id", "event_id"):
                found[str(receipt)]["events"].append(event)
    return found


def fact_entry(kind: str, row: dict) -> bytes:
    fact = FACTS[kind]
    content = {}
    for column, attname in fact.columns:
        value = row[attname]
        content[column] = value if type(value) in _AS_IS else _plain(value)    # most are: skips a call each
    if kind == LeafKind.RECEIPT:
        content["found_events"] = row["events"]
    return canonical_bytes({"kind": kind, "id": str(row["id"]), **fact.shown(row),
                            "content": sha256_digest(content)})
