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

Importing a file again writes nothing. A batch is one transaction; on PostgreSQL its rows go in
with COPY (the works, their identifiers, their title keys), which is what makes a dump of tens of
millions of works an afternoon's import. A work's row is kept as first observed: a later record of
the same work adds identifiers, and, when it says something not known of the work yet (a title for a
work first known by a notice's bare DOI, a venue version's year), a dated revision (revisions.py).

Speed (bench/works.py): on PostgreSQL the file is parsed in a child process ahead of the writes, so
parsing and writing run on two cores (a thread took turns with the writes for Python's lock); a
batch is decided while a thread stores the one before, so the database works while Python does
(_PipelinedWriter: 27,000-28,000 against 25,000-26,000 works/s on a store of 1M); the
cycle collector is off while a file is read (its records are freed by reference counting); the COPY
rows are plain text joined a chunk at a time (no model instances), which the server reads while the
next is joined; new works get time-ordered ids (UUIDv7), so their index grows at its end; lookups send
one array, not a parameter per value; DOIs and arXiv ids are indexed only where present, and
identifiers carry no deferred foreign-key check. The decisions are made one batch after the other, so
the result does not depend on the reader, nor on the pipelining.
"""
import gc
import os
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime
from itertools import islice
from operator import itemgetter

from django.db import IntegrityError, connection, connections, transaction
from django.utils import timezone

from citations.current.resolutions import works_changed
from citations.input_files import IngestReport, RejectedLine
from citations.models import CitedWork, IdentifierKind, Paper, WorkIdentifier, WorkTitleKey
from citations.models.generations import lists_changed, records_changed
from citations.parsing.text import fold, full_title_key, key_fingerprint
from citations.resolution.service import canonical_works
from citations.resolution.waiting import resolve_references_naming, works_arrived
from citations.sql_arrays import any_of
from citations.works import crossref, dblp, openalex, retraction_watch, revisions
from citations.works.read_ahead import read_ahead
from citations.works.records import WorkRecord

READERS = {crossref.SOURCE: crossref.read_works, openalex.SOURCE: openalex.read_works, dblp.SOURCE: dblp.read_works,
           retraction_watch.SOURCE: retraction_watch.read_works}
# Works a transaction writes. Each batch's title keys land all over their index (fingerprints are
# random), so each batch rewrites most of its pages: 40,000 against 20,000 halved that (PostgreSQL
# 19.6 against 21.7 µs a work, 26,000 against 24,200 works/s, bench/works.py); 60,000 gained no more.
BATCH = 40000
WORK_COLUMNS = ("id", "doi", "arxiv_id", "title", "year", "venue", "metadata_source", "snapshot_observed_at",
                "paper_id", "first_author", "container_title", "volume", "issue", "first_page", "work_type")


@dataclass
class WorksReport(IngestReport):
    stopped: str = ""           # a problem with the file itself: what was read before it is kept
    referencing: int = 0        # references naming a new identifier, sent for resolution (those waiting
                                # for a new title are found by a job queued with each batch)


def import_works(lines: Iterable[bytes], *, source: str, observed_at: datetime | None = None,
                 progress: Callable[[], None] | None = None) -> WorksReport:
    """Read a source's works file into the works store; see the module docstring."""
    if source not in READERS:
        raise ValueError(f"unknown works source {source!r} (known: {', '.join(sorted(READERS))})")
    observed_at = observed_at or timezone.now()
    report = WorksReport()
    batch: list[WorkRecord] = []
    items = read_ahead(READERS[source](lines))
    writer = _PipelinedWriter(observed_at, report, progress) if _can_pipeline() \
        else _Writer(observed_at, report, progress)
    collecting = gc.isenabled()
    # A batch holds tens of thousands of records, each made of containers that reference counting
    # frees; the cycle collector only walked them over and over (a fifth of the Python time).
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
                if len(batch) >= BATCH:
                    writer.write(batch)
                    batch = []
        except RejectedLine as error:
            report.stopped = str(error)
        finally:
            items.close()
            if collecting:
                gc.enable()
        if batch:
            writer.write(batch)
    finally:
        writer.close()          # the batch being written is committed (or its error raised) first
    if progress:
        progress()
    return report


class _Writer:
    """Writes batches one after the other, each in one transaction: looked up, decided, stored."""

    def __init__(self, observed_at: datetime, report: WorksReport, progress: Callable[[], None] | None):
        self.observed_at, self.report, self.progress = observed_at, report, progress

    def write(self, batch: list[WorkRecord]) -> None:
        plan, referencing, _ = _write_and_resolve(batch, self.observed_at)
        self._done(plan, referencing)

    def close(self) -> None:
        pass

    def _done(self, plan: "_Plan", referencing: int) -> None:
        self.report.created.update(plan.counts)
        self.report.created["identifiers"] += len(plan.identifiers)
        self.report.unchanged += plan.unchanged
        self.report.referencing += referencing
        if self.progress:
            self.progress()


def _can_pipeline() -> bool:
    """Whether batches may be stored by a thread of their own: on PostgreSQL (COPY), and only when the
    caller holds no transaction (the thread's connection would not see it, nor write inside it)."""
    return connection.vendor == "postgresql" and not connection.in_atomic_block


class _PipelinedWriter(_Writer):
    """Decides a batch here while a thread stores the one before (COPY, index updates, commit: the
    database's work, half of the time, during which this process sat idle).

    A batch is looked up on this thread's connection, which does not see the batch being stored yet.
    So it is decided here only when it shares nothing with that batch: no identifier it writes, no
    work it makes, joins or revises. Otherwise (a re-import reaching the works just written, dblp's
    CoRR and venue records of one paper, a held paper with no work yet) the stored batch is waited
    for and the batch is written the serial way, looked up and stored in one transaction. Either way
    each batch decides as it would one after the other; a batch whose writing had to start over (a
    concurrent importer wrote some of its works) is also waited for before the next is decided."""

    def __init__(self, observed_at: datetime, report: WorksReport, progress: Callable[[], None] | None):
        super().__init__(observed_at, report, progress)
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="import_works writer")
        self._in_flight: Future | None = None
        self._plan: _Plan | None = None     # the in-flight batch's decisions, when made here

    def write(self, batch: list[WorkRecord]) -> None:
        if self._in_flight is not None and self._plan is None:
            self._wait()                    # its decisions are not known here: nothing to compare
        batch = _in_writing_order(batch)
        lookups = None
        # dblp's venue records find their CoRR versions by title (_corr_versions), which a lookup
        # here would not see in the batch being stored: dblp batches are written the serial way.
        if batch[0].source != dblp.SOURCE:
            lookups = _look_up(batch, as_text=True, make_paper_works=False)
            if lookups is not None and self._plan is not None and self._plan.shares_with(batch, lookups):
                lookups = None
        if lookups is None:
            self._wait()
            self._in_flight, self._plan = self._thread.submit(_write_and_resolve, batch, self.observed_at), None
            return
        plan = _plan(batch, *lookups, as_text=True)
        if self._wait():                    # the batch before was written again: decide afresh
            self.write(batch)
            return
        self._in_flight, self._plan = self._thread.submit(_store_and_resolve, plan, batch, self.observed_at), plan

    def _wait(self) -> bool:
        """Wait for the batch being stored; True when it was not stored as decided here (it was
        looked up again where it was written, and may have been decided otherwise)."""
        if self._in_flight is None:
            return False
        future, self._in_flight, self._plan = self._in_flight, None, None
        plan, referencing, again = future.result()
        self._done(plan, referencing)
        return again

    def close(self) -> None:
        try:
            self._wait()
        finally:
            self._thread.submit(connections.close_all).result()     # in the thread: its own connection
            self._thread.shutdown()


def _write_and_resolve(batch: list[WorkRecord], observed_at: datetime) -> tuple["_Plan", int, bool]:
    """Write the batch (looked up, decided and stored in one transaction), then send to resolution the
    references naming an identifier it taught the store (found here: a batch learns few); the
    references waiting for its titles are found by a worker (works_arrived). Returns its decisions,
    how many references were sent, and True: it was decided from lookups made here (_PipelinedWriter._wait)."""
    copy = connection.vendor == "postgresql"

    def write(copy: bool) -> _Plan:
        with transaction.atomic():
            lists_changed()                 # new works show in /api/v1/works/ (records change on linking)
            plan = _plan(_in_writing_order(batch), *_look_up(batch, as_text=copy), as_text=copy)
            _store(plan, observed_at, copy=copy)
            return plan

    try:
        plan = write(copy)
    except IntegrityError:
        # Another importer wrote some of the same works meanwhile: do the batch again, reading
        # what it wrote (the writes below skip rows that exist by then).
        plan = write(False)
    return plan, plan.resolve_references_naming_learnt(), True


def _store_and_resolve(plan: "_Plan", batch: list[WorkRecord], observed_at: datetime) -> tuple["_Plan", int, bool]:
    """Store a batch decided on another connection (_PipelinedWriter), in one transaction; when that
    fails for a concurrent importer's rows, write it again from its own lookups. As _write_and_resolve,
    with False when it was stored as decided."""
    try:
        with transaction.atomic():
            lists_changed()
            _store(plan, observed_at, copy=True)
    except IntegrityError:
        return _write_and_resolve(batch, observed_at)
    return plan, plan.resolve_references_naming_learnt(), False


@dataclass
class _Plan:
    """What writing a batch will do, decided from what the store held."""

    works: list[tuple]              # (work id, record) of each new work
    identifiers: list[tuple]        # (kind, value, work id, source) of each new identifier
    revised: list[tuple]            # (work id, record) of each revision
    touched: set                    # the works it makes, joins identifiers to, or revises
    counts: Counter
    unchanged: int

    def resolve_references_naming_learnt(self) -> int:
        """Send to resolution the references naming a DOI or arXiv id the store learnt from this batch
        (once it is committed); returns how many."""
        learnt = {IdentifierKind.DOI: set(), IdentifierKind.ARXIV: set()}
        for kind, value, _, _ in self.identifiers:
            if kind in learnt:
                learnt[kind].add(value)
        return resolve_references_naming(dois=learnt[IdentifierKind.DOI], arxiv_ids=learnt[IdentifierKind.ARXIV])

    def shares_with(self, batch: list[WorkRecord], lookups: tuple) -> bool:
        """Whether the batch names an identifier this plan writes, or a work it writes to."""
        held, by_title, _ = lookups
        written = {(kind, value) for kind, value, _, _ in self.identifiers}
        return (any(i in written for record in batch for i in record.identifiers)
                or not self.touched.isdisjoint(held.values()) or not self.touched.isdisjoint(by_title.values()))


def _look_up(batch: list[WorkRecord], *, as_text: bool, make_paper_works: bool = True) -> tuple | None:
    """What the store holds of the batch: its known identifiers' works, dblp venue records' CoRR
    versions, and the facts known of the works it names. None, without make_paper_works, when a held
    paper it names has no work yet (making one is a write: the caller writes the batch serially)."""
    held = _held_identifiers(batch, as_text=as_text, make_paper_works=make_paper_works)
    if held is None:
        return None
    by_title = _corr_versions(batch, held, as_text=as_text)
    # What the store knows of the works this batch names, so a record saying more is a revision
    # (none is read on a first import: no identifier is held yet).
    known = revisions.known_facts({*held.values(), *by_title.values()}) \
        if held and any(map(revisions.states_something, batch)) else {}
    return held, by_title, known


def _plan(batch: list[WorkRecord], held: dict, by_title: dict, known: dict, *, as_text: bool) -> _Plan:
    """Decide the batch (in writing order: _in_writing_order) from what the store holds."""
    counts = Counter()
    unchanged = 0
    # Work ids: text on the COPY path (what COPY writes), uuid.UUID on the ORM path.
    new_ids = iter(_uuid7_texts(len(batch)) if as_text else map(uuid.UUID, _uuid7_texts(len(batch))))
    corr_in_batch: dict[tuple[str, str], list] = {}
    works: list[tuple] = []
    identifiers: list[tuple] = []
    revised: list[tuple] = []
    touched: set = set()
    made_by: dict = {}                      # work id -> the record that made it, in this batch
    for record in batch:
        targets = [held[i] for i in record.identifiers if i in held]
        work_id = held.get(record.identifiers[0]) or (targets[0] if targets else by_title.get(id(record)))
        key = _corr_key(record)
        if work_id is None and key and not record.ids_of(IdentifierKind.ARXIV) and len(corr_in_batch.get(key, ())) == 1:
            work_id = corr_in_batch[key][0]
        created = work_id is None
        if created:
            work_id = next(new_ids)
            works.append((work_id, record))
            counts["works"] += 1
        if key and record.ids_of(IdentifierKind.ARXIV):
            corr_in_batch.setdefault(key, []).append(work_id)
        if len(set(targets)) > 1:
            counts["identifiers already naming another work (kept there)"] += 1
        added = [i for i in record.identifiers if i not in held]
        for kind, value in added:
            held[(kind, value)] = work_id
            identifiers.append((kind, value, work_id, record.source))
        if created:
            made_by[work_id] = record
            touched.add(work_id)
            continue
        if added:
            touched.add(work_id)
        if revisions.states_something(record):
            facts = known.get(str(work_id))
            if facts is None:       # a work this batch made (its facts worked out only when asked)
                facts = known[str(work_id)] = revisions.facts_of(made_by[work_id]) if work_id in made_by \
                    else revisions.KnownFacts()
            if facts.added_by(record):
                revised.append((work_id, record))
                touched.add(work_id)
                facts.add(*(getattr(record, name) for name in revisions.FACT_COLUMNS))
                counts["works revised (a source said more of them)"] += 1
        if added:
            counts["works joined by new identifiers"] += 1
        elif not revised or revised[-1][1] is not record:
            unchanged += 1
    return _Plan(works, identifiers, revised, touched, counts, unchanged)


def _store(plan: _Plan, observed_at: datetime, *, copy: bool) -> None:
    """Write what the plan decided, in the caller's transaction, and queue the search for the
    references waiting for its works (waiting.works_arrived)."""
    works, identifiers = plan.works, plan.identifiers
    keys = [(key, work_id) for work_id, record in works for key in record.title_keys]
    if copy:
        _copy_works(works, identifiers, keys, observed_at)
    else:
        CitedWork.objects.bulk_create([_new_work(work_id, record, observed_at) for work_id, record in works],
                                      batch_size=1000)
        WorkIdentifier.objects.bulk_create(
            [WorkIdentifier(kind=kind, value=value, work_id=work_id, source=source, observed_at=observed_at)
             for kind, value, work_id, source in identifiers], batch_size=1000, ignore_conflicts=True)
        WorkTitleKey.objects.bulk_create([WorkTitleKey(key=key, work_id=work_id) for key, work_id in keys],
                                         batch_size=1000, ignore_conflicts=True)
    revision_ids = revisions.write_revisions(plan.revised, observed_at)
    # The references waiting for these works, found by a worker (ids ascend within a batch).
    works_arrived(works=(works[0][0], works[-1][0]) if works else None, revisions=revision_ids)
    if plan.revised:
        # The record shows a work's newest titled revision; the changes feed names the references to it.
        records_changed()
        works_changed(work_id for work_id, _ in plan.revised)


def _in_writing_order(batch: list[WorkRecord]) -> list[WorkRecord]:
    """arXiv versions, then the others; within each, titled records before bare ones; else in file
    order (a stable sort on those two, in one pass). arXiv versions first, so that a venue record finds
    the CoRR record of its paper in the same batch too; titled records before the bare ones a notice
    names (update-to), so that a notice read before its work leaves the work's fields, not an empty
    stub, when both are in one batch."""
    groups = ([], [], [], [])
    arxiv = IdentifierKind.ARXIV
    for record in batch:
        groups[2 * all(kind != arxiv for kind, _ in record.identifiers) + (record.title is None)].append(record)
    return [record for group in groups for record in group]


def _held_identifiers(batch: list[WorkRecord], *, as_text: bool = False,
                       make_paper_works: bool = True) -> dict[tuple[str, str], uuid.UUID | str] | None:
    """(kind, value) -> work id for every identifier of the batch the store already knows (the id as
    text with as_text, on PostgreSQL: one query of an array per table, not one parameter per value).
    A held paper the batch names is given its work now if it has none; without make_paper_works,
    None is returned instead."""
    values = {value for record in batch for _, value in record.identifiers}
    dois = {v for r in batch for v in r.ids_of(IdentifierKind.DOI)}
    arxiv = {v for r in batch for v in r.ids_of(IdentifierKind.ARXIV)}
    if as_text:
        with connection.cursor() as cursor:
            any_value, params = any_of(values)
            cursor.execute(f"SELECT kind, value, work_id::text FROM work_identifiers WHERE value = {any_value}", params)
            held = {(kind, value): work for kind, value, work in cursor.fetchall()}
            known = []
            for column, wanted in (("doi", dois), ("arxiv_id", arxiv)):
                if wanted:
                    any_value, params = any_of(wanted)
                    cursor.execute(f"SELECT {column}, id::text FROM cited_works WHERE {column} = {any_value}", params)
                    known.append(cursor.fetchall())
                else:
                    known.append([])
        by_doi, by_arxiv = known
    else:
        held = {(kind, value): work for kind, value, work in
                WorkIdentifier.objects.filter(value__in=values).values_list("kind", "value", "work_id")}
        by_doi = CitedWork.objects.filter(doi__in=dois).values_list("doi", "id") if dois else []
        by_arxiv = CitedWork.objects.filter(arxiv_id__in=arxiv).values_list("arxiv_id", "id") if arxiv else []
    # Works made before the works store (held papers' works, works read from records) are known by
    # their own DOI and arXiv id columns.
    for doi, work in by_doi:
        held.setdefault((IdentifierKind.DOI, doi), work)
    for arxiv_id, work in by_arxiv:
        held.setdefault((IdentifierKind.ARXIV, arxiv_id), work)
    # A held paper is one work with every version of it: make its work now if it has none yet.
    papers = dict(Paper.objects.filter(arxiv_id__in=arxiv).values_list("id", "arxiv_id")) if arxiv else {}
    missing = {pid for pid, a in papers.items() if (IdentifierKind.ARXIV, a) not in held}
    if missing and not make_paper_works:
        return None
    if missing:
        for paper_id, work in canonical_works(paper_ids=missing).items():
            held[(IdentifierKind.ARXIV, papers[paper_id])] = str(uuid.UUID(str(work))) if as_text else uuid.UUID(str(work))
    return {(str(k), v): w for (k, v), w in held.items()}


def _corr_key(record: WorkRecord) -> tuple[int, str] | None:
    """dblp's CoRR and venue records of one paper share this: the fingerprint of their whole-title key
    (what the store files works under) and the first author."""
    if record.source != dblp.SOURCE or not record.title or not record.first_author:
        return None
    key = full_title_key(record.title)
    return (key_fingerprint(key), fold(record.first_author)) if key else None


def _corr_versions(batch: list[WorkRecord], held, *, as_text: bool = False) -> dict[int, uuid.UUID | str]:
    """dblp's CoRR record and its venue record are one work: same title, same first author, one an
    arXiv version and the other not. For venue records with no known identifier, the work of an
    arXiv version already in the store with that title and first author (when there is exactly one)."""
    wanted = {id(record): _corr_key(record) for record in batch
              if _corr_key(record) and not record.ids_of(IdentifierKind.ARXIV)
              and not any(i in held for i in record.identifiers)}
    if not wanted:
        return {}
    candidates: dict[tuple[int, str], set] = {}
    for key, work, author, doi in (WorkTitleKey.objects.filter(key__in={k for k, _ in wanted.values()},
                                                               work__arxiv_id__isnull=False)
                                   .values_list("key", "work_id", "work__first_author", "work__doi")):
        if not doi or doi.startswith("10.48550/"):          # an arXiv version, not another venue's
            candidates.setdefault((key, fold(author or "")), set()).add(str(work) if as_text else work)
    return {rid: next(iter(candidates[key])) for rid, key in wanted.items() if len(candidates.get(key, ())) == 1}


def _new_work(work_id: uuid.UUID, record: WorkRecord, observed_at: datetime) -> CitedWork:
    return CitedWork(**dict(zip(WORK_COLUMNS, _work_row(work_id, record, observed_at))))


def _work_row(work_id, record: WorkRecord, observed_at) -> tuple:
    """A new work's values, in WORK_COLUMNS order."""
    doi = arxiv_id = None
    for kind, value in record.identifiers:
        if kind == IdentifierKind.DOI:
            doi = doi or value
        elif kind == IdentifierKind.ARXIV:
            arxiv_id = arxiv_id or value
    return (work_id, doi, arxiv_id, record.title, record.year, record.container_title, record.source, observed_at,
            None, record.first_author, record.container_title, record.volume, record.issue, record.first_page,
            record.work_type)


def _uuid7_texts(count: int) -> list[str]:
    """count new work ids as text: version-7 UUIDs (RFC 9562), the current Unix time in milliseconds
    followed by a counter from a random start (its "monotonic random" method), so one batch's ids
    follow each other. Random version-4 ids landed all over the works' primary-key index, each
    insert touching a page of its own; these all land at its end (bench/works.py)."""
    millis = time.time_ns() // 1_000_000
    start = int.from_bytes(os.urandom(8), "big") >> 2          # room for the batch below 2**74
    ids = []
    for n in range(start, start + count):
        value = (millis << 80) | (0x7 << 76) | ((n >> 62) & 0xFFF) << 64 | (0b10 << 62) | (n & _LOW_62)
        text = f"{value:032x}"
        ids.append(f"{text[:8]}-{text[8:12]}-{text[12:16]}-{text[16:20]}-{text[20:]}")
    return ids


_LOW_62 = (1 << 62) - 1


def _copy_works(works: list[tuple], identifiers: list[tuple], keys: list[tuple], observed_at: datetime) -> None:
    """The batch's rows by COPY, as text, in the order the indexes want (title keys by key), so that
    PostgreSQL does the work and Python only joins strings."""
    when = observed_at.isoformat()

    def work_rows():
        for work_id, record in works:
            row = _work_row(work_id, record, when)
            yield row if row[4] is None else row[:4] + (str(row[4]),) + row[5:]

    _copy("cited_works", WORK_COLUMNS, work_rows())
    _copy("work_identifiers", ("kind", "value", "work_id", "source", "observed_at"),
          ((kind, value, work_id, source, when) for kind, value, work_id, source in identifiers))
    # A key's fingerprint is an integer and an id is a UUID: nothing to escape. In the primary key's order.
    keys.sort(key=itemgetter(0))        # by key alone: an integer comparison, not a tuple's
    _copy_lines("work_title_keys", ("key", "work_id"), (f"{key}\t{work_id}\n" for key, work_id in keys))


# A COPY is written a chunk of rows at a time: the server reads one chunk while the next is joined.
COPY_CHUNK = 2000


def _copy(table: str, columns: tuple[str, ...], rows: Iterable[tuple]) -> None:
    """COPY rows of text values (None is NULL) into the table, in PostgreSQL's text format."""
    _copy_text(table, columns, (_rows_text(chunk, len(columns)) for chunk in _chunks(rows)))


def _copy_lines(table: str, columns: tuple[str, ...], lines: Iterable[str]) -> None:
    """COPY lines already in PostgreSQL's text format (values that need no escaping)."""
    _copy_text(table, columns, (_lines_text(table, chunk, len(columns)) for chunk in _chunks(lines)))


def _chunks(items: Iterable) -> Iterable[list]:
    items = iter(items)
    while chunk := list(islice(items, COPY_CHUNK)):
        yield chunk


def _copy_text(table: str, columns: tuple[str, ...], texts: Iterable[str]) -> None:
    """One COPY of these pieces of text, written as they are made; no statement when there are none."""
    texts = iter(texts)
    first = next(texts, None)
    if first is None:
        return
    # psycopg's own cursor (Django's has no COPY): its errors are made Django's, so that a row another
    # importer wrote meanwhile is the IntegrityError the writes are done again for.
    with connection.cursor() as cursor, connection.wrap_database_errors:
        with cursor.cursor.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
            copy.write(first)
            for text in texts:
                copy.write(text)


def _rows_text(rows: list[tuple], width: int) -> str:
    data = "".join(["\t".join(["\\N" if v is None else v for v in row]) + "\n" for row in rows])
    # No value holds a tab, a line break or a backslash (there is then one backslash per NULL, one
    # tab between values, one line break per row): the common case, written as is. Else escape each.
    nulls = sum(row.count(None) for row in rows)
    if (data.count("\t") != len(rows) * (width - 1) or data.count("\n") != len(rows)
            or data.count("\\") != nulls or "\r" in data):
        data = "".join(["\t".join(["\\N" if v is None else _escape(v) for v in row]) + "\n" for row in rows])
    return data


def _lines_text(table: str, lines: list[str], width: int) -> str:
    data = "".join(lines)
    if data.count("\t") != len(lines) * (width - 1) or data.count("\n") != len(lines) or "\\" in data or "\r" in data:
        raise ValueError(f"a {table} value holds a tab, a line break or a backslash")
    return data


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")
