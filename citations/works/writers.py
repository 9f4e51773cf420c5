"""Writing batches of works, each in one transaction: one after the other (BatchWriter), or, on
PostgreSQL, deciding a batch while a thread stores the one before (PipelinedWriter)."""
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import datetime

from django.db import IntegrityError, connection, connections, transaction

from citations.models.generations import lists_changed
from citations.works import dblp
from citations.works.batch_plan import BACK_DATED, BatchPlan, in_writing_order, look_up_batch, plan_batch
from citations.works.batch_store import store_batch
from citations.works.records import WorkRecord
from citations.works.report import WorksReport


class BatchWriter:
    """Writes batches one after the other, each in one transaction: looked up, decided, stored."""

    def __init__(self, observed_at: datetime, report: WorksReport, progress: Callable[[], None] | None):
        self.observed_at, self.report, self.progress = observed_at, report, progress
        # id(record) -> its line in the file, for the batch being written and the one before (a
        # PipelinedWriter finishes a batch while it decides the next).
        self._lines: tuple[dict, dict] = ({}, {})

    def _new_batch(self, batch: list[WorkRecord], lines: list[int]) -> None:
        self._lines = (self._lines[1], dict(zip(map(id, batch), lines)))

    def write(self, batch: list[WorkRecord], lines: list[int]) -> None:
        self._new_batch(batch, lines)
        plan, referencing, _ = _write_and_resolve(batch, self.observed_at)
        self._done(plan, referencing)

    def close(self) -> None:
        pass

    def _done(self, plan: BatchPlan, referencing: int) -> None:
        for record in plan.back_dated:
            lines = self._lines[1] if id(record) in self._lines[1] else self._lines[0]
            self.report.reject(lines[id(record)], BACK_DATED)
        self.report.created.update(plan.counts)
        self.report.created["identifiers"] += len(plan.identifiers)
        self.report.unchanged += plan.unchanged
        self.report.referencing += referencing
        if self.progress:
            self.progress()


class PipelinedWriter(BatchWriter):
    """Decides a batch here while a thread stores the one before (COPY, index updates, commit: the
    database's work, a large share of the time, during which this process sat idle).

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
        self._plan: BatchPlan | None = None     # the in-flight batch's decisions, when made here

    def write(self, batch: list[WorkRecord], lines: list[int]) -> None:
        self._new_batch(batch, lines)
        if self._in_flight is not None and self._plan is None:
            self._wait()                    # its decisions are not known here: nothing to compare
        batch = in_writing_order(batch)
        lookups = None
        # dblp's venue records find their CoRR versions by title (batch_plan._corr_versions), which a lookup
        # here would not see in the batch being stored: dblp batches are written the serial way.
        if batch[0].source != dblp.SOURCE:
            lookups = look_up_batch(batch, as_text=True, observed_at=self.observed_at, make_paper_works=False)
            if lookups is not None and self._plan is not None and self._plan.shares_with(batch, lookups):
                lookups = None
        if lookups is None:
            self._wait()
            self._in_flight, self._plan = self._thread.submit(_write_and_resolve, batch, self.observed_at), None
            return
        plan = plan_batch(batch, *lookups, as_text=True)
        if self._wait():                    # the batch before was written again: decide afresh
            self.write(batch, lines)
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


def _write_and_resolve(batch: list[WorkRecord], observed_at: datetime) -> tuple[BatchPlan, int, bool]:
    """Write the batch (looked up, decided and stored in one transaction), then send to resolution the
    references naming an identifier it taught the store (found here: a batch learns few); the
    references waiting for its titles are found by a worker (works_arrived). Returns its decisions,
    how many references were sent, and True: it was decided from lookups made here (PipelinedWriter._wait)."""
    copy = connection.vendor == "postgresql"

    def write(copy: bool) -> BatchPlan:
        with transaction.atomic():
            lists_changed()                 # new works show in /api/v1/works/ (records change on linking)
            plan = plan_batch(in_writing_order(batch), *look_up_batch(batch, as_text=copy, observed_at=observed_at),
                              as_text=copy)
            store_batch(plan, observed_at, copy=copy)
            return plan

    try:
        plan = write(copy)
    except IntegrityError:
        # Another importer wrote some of the same works meanwhile: do the batch again, reading
        # what it wrote (the writes below skip rows that exist by then).
        plan = write(False)
    return plan, plan.resolve_references_naming_learnt(), True


def _store_and_resolve(plan: BatchPlan, batch: list[WorkRecord], observed_at: datetime) -> tuple[BatchPlan, int, bool]:
    """Store a batch decided on another connection (PipelinedWriter), in one transaction; when that
    fails for a concurrent importer's rows, write it again from its own lookups. As _write_and_resolve,
    with False when it was stored as decided."""
    try:
        with transaction.atomic():
            lists_changed()
            store_batch(plan, observed_at, copy=True)
    except IntegrityError:
        return _write_and_resolve(batch, observed_at)
    return plan, plan.resolve_references_naming_learnt(), False
