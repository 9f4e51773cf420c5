"""A leaf's entry: canonical JSON naming one observation and digesting every stored field of its row.

The entry carries in clear the fields a record shows of the observation (so a client can hold
the record against the log) and, as `content`, the sha256 of all of the row's columns (so the
log's audit catches a change to any of them). Built from rows read back from the database, by
the sequencer and by the audit alike, so both see the same values.
"""
import uuid
from datetime import datetime

from citations.models import LeafKind, PaperReference, PaperReferenceLink
from citations.records.canonical import canonical_bytes, sha256_digest
from citations.records.timestamps import render_z


def _plain(value):
    if isinstance(value, datetime):
        return render_z(value)
    if isinstance(value, uuid.UUID):
        return str(value)
    return value


def row_content(row) -> str:
    """sha256 of the canonical JSON of every concrete column of the row."""
    return sha256_digest({f.column: _plain(f.value_from_object(row)) for f in row._meta.concrete_fields})


def reference_entry(reference: PaperReference) -> bytes:
    """Needs reference.extraction.paper_version.paper loaded (select_related)."""
    version = reference.extraction.paper_version
    return canonical_bytes({
        "kind": LeafKind.REFERENCE, "id": str(reference.pk), "citing_arxiv_id": version.paper.arxiv_id,
        "citing_version": version.version, "source": reference.extraction.source,
        "reference_index": reference.reference_index, "observed_at": render_z(reference.observed_at),
        "content": row_content(reference),
    })


def link_entry(link: PaperReferenceLink) -> bytes:
    """Needs link.cited_paper loaded (select_related)."""
    return canonical_bytes({
        "kind": LeafKind.LINK, "id": link.pk, "reference": str(link.reference_id), "state": link.state,
        "resolver_source": link.resolver_source,
        "cited_work": str(link.cited_work_id) if link.cited_work_id else None,
        "cited_paper": link.cited_paper.arxiv_id if link.cited_paper_id else None,
        "observed_at": render_z(link.observed_at), "content": row_content(link),
    })


REFERENCE_JOINS = ("extraction__paper_version__paper",)
LINK_JOINS = ("cited_paper",)
