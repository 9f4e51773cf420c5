"""Writing works read from a source: one work per scholarly work, idempotent, in batches.

For each record the importer looks up every identifier it carries (the source's own id, its DOIs,
its arXiv id...). None known: a new work, dated and named by its source, filed under its title's
blocking keys. Some known: the record is that work, and the identifiers it adds (a published DOI
for a preprint, an OpenAlex id...) are joined to it. An identifier already naming another work is
never moved: the record joins the work of its own id, and the clash is counted. A record naming a
held arXiv paper joins that paper's work, so a reference to the paper's DOI reaches the paper.

References that may now name a work are resolved again: those printing a DOI or an arXiv id a batch
learnt are sent with it, and those waiting for its titles, volumes and pages are found by a job
queued with it and run by a worker (citations/resolution/waiting.py).

Importing a file again writes nothing. A batch is one transaction (writers.py), looked up and
decided by batch_plan.py and stored by batch_store.py; on PostgreSQL its rows go in with COPY (the
works, their identifiers, their title keys), which is what makes importing a whole dump practical. A
work's row is kept as first observed: a later record of the same work adds identifiers, and, when it
says something not known of the work yet (a title for a work first known by a notice's bare DOI, a
venue version's year), a dated revision (revisions.py). A record dated (--observed-at) before an
observation the store holds of the work it would add to is refused as back-dated, with its line: a
record as of a time between the two was published without it (batch_plan.BACK_DATED).

Speed (bench/works.py; the figures are in docs/performance.md): on PostgreSQL the file is parsed in
a child process ahead of the writes, so parsing and writing run on two cores (a thread took turns
with the writes for Python's lock); a batch is decided while a thread stores the one before, so the
database works while Python does (PipelinedWriter); the cycle collector is off while a file is read
(its records are freed by reference counting); the COPY rows are plain text joined a chunk at a time
(no model instances), which the server reads while the next is joined; new works get time-ordered
ids (UUIDv7), so their index grows at its end; lookups send one array, not a parameter per value;
DOIs and arXiv ids are indexed only where present, and identifiers carry no deferred foreign-key
check. The decisions are made one batch after the other, so the result does not depend on the
reader, nor on the pipelining.
"""
import gc
from collections.abc import Callable, Iterable
from datetime import datetime

from django.db import connection
from django.utils import timezone

from citations.input_files import RejectedLine
from citations.works import crossref, dblp, openalex, retraction_watch
from citations.works.read_ahead import read_ahead
from citations.works.records import WorkRecord
from citations.works.report import WorksReport
from citations.works.writers import BatchWriter, PipelinedWriter

READERS = {crossref.SOURCE: crossref.read_works, openalex.SOURCE: openalex.read_works, dblp.SOURCE: dblp.read_works,
           retraction_watch.SOURCE: retraction_watch.read_works}
# Works a transaction writes. Each batch's title keys land all over their index (fingerprints are
# random), so each batch rewrites most of its pages, and a larger batch shares that cost among more
# works: up to this size, past which it gained no more (bench/works.py; docs/performance.md).
BATCH = 40000


def import_works(lines: Iterable[bytes], *, source: str, observed_at: datetime | None = None,
                 progress: Callable[[], None] | None = None) -> WorksReport:
    """Read a source's works file into the works store; see the module docstring."""
    if source not in READERS:
        raise ValueError(f"unknown works source {source!r} (known: {', '.join(sorted(READERS))})")
    observed_at = observed_at or timezone.now()
    report = WorksReport()
    batch: list[WorkRecord] = []
    positions: list[int] = []         # each batched record's line, for the report
    items = read_ahead(READERS[source](lines))
    writer = PipelinedWriter(observed_at, report, progress) if _can_pipeline() \
        else BatchWriter(observed_at, report, progress)
    collecting = gc.isenabled()
    # A batch holds tens of thousands of records, each made of containers that reference counting
    # frees; the cycle collector only walked them over and over (docs/performance.md: its share).
    gc.disable()
    try:
        try:
            for position, item in items:
                report.lines += 1
                if isinstance(item, RejectedLine):
                    report.reject(position, str(item))
                    continue
                for reason in item.dropped:
                    report.reject_value(position, reason)
                batch.append(item)
                positions.append(position)
                if len(batch) >= BATCH:
                    writer.write(batch, positions)
                    batch, positions = [], []
        except RejectedLine as error:
            report.stopped = str(error)
        finally:
            items.close()
            if collecting:
                gc.enable()
        if batch:
            writer.write(batch, positions)
    finally:
        writer.close()          # the batch being written is committed (or its error raised) first
    if progress:
        progress()
    return report


def _can_pipeline() -> bool:
    """Whether batches may be stored by a thread of their own: on PostgreSQL (COPY), and only when the
    caller holds no transaction (the thread's connection would not see it, nor write inside it)."""
    return connection.vendor == "postgresql" and not connection.in_atomic_block
