"""A leaf's entry: canonical JSON naming one observation and digesting every stored field of its row.

The entry carries in clear the fields a record shows of the observation (so a client can hold
the record against the log) and, as `content`, the sha256 of all of the row's columns (so the
log's audit catches a change to any of them). Built from rows read back from the database as
plain values (`reference_rows`, `link_rows`: no model instances, the sequencer's largest cost
otherwise), by the sequencer and by the audit alike, so both see the same values.
"""
import uuid
from datetime import datetime

from citations.models import LeafKind, PaperReference, PaperReferenceLink
from citations.records.canonical import canonical_bytes, sha256_digest
from citations.records.timestamps import render_z

_REFERENCE_COLUMNS = [(f.column, f.attname) for f in PaperReference._meta.concrete_fields]
_LINK_COLUMNS = [(f.column, f.attname) for f in PaperReferenceLink._meta.concrete_fields]
_REFERENCE_JOINED = ("extraction__source", "extraction__paper_version__version",
                     "extraction__paper_version__paper__arxiv_id")
_LINK_JOINED = ("cited_paper__arxiv_id",)


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
