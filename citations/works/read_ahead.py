"""Reading a works file ahead of the writes: in a child process on PostgreSQL, else in a thread.

The importer (importer.py) takes (position, record or rejection) pairs from here, in order. Reading
and parsing a record is about half the work of importing it; done ahead, on another core, it runs
while the database writes the batch before.
"""
import gc
import multiprocessing
import queue
import threading
from collections.abc import Callable, Iterable, Iterator

from django.db import connection

from citations.works.records import WorkRecord

READ_AHEAD_CHUNK = 1000     # records the reader hands over at a time
READ_AHEAD_DEPTH = 80       # chunks it may read ahead of the writes: two batches (importer.BATCH)


def read_ahead(items: Iterable):
    """The reader's items, read ahead: in a child process on PostgreSQL (the bulk path, where the
    parsing is half the work) when this process may fork one, else in a thread."""
    if (connection.vendor == "postgresql" and "fork" in multiprocessing.get_all_start_methods()
            and not multiprocessing.current_process().daemon):
        return _ReadAheadProcess(items, prepare=_prepare)
    return _ReadAhead(items, prepare=_prepare)


def _prepare(item) -> None:
    """What the reader works out ahead of the writes: a record's title keys."""
    if isinstance(item, WorkRecord):
        item.title_keys


class ReaderDied(RuntimeError):
    """The child process reading the file ended before the file did (killed: out of memory?)."""


class _ReadAheadProcess:
    """_ReadAhead's items, read and prepared in a child process, handed over a chunk at a time (pickled):
    the parsing runs on another core instead of taking turns with the writes for Python's lock, which
    made Python the bottleneck of a one-process import (bench/works.py). The child is forked:
    it inherits the open file and the reader, and never touches the database (the parent's connection
    is left alone: a forked child ends by os._exit, closing nothing). In order; an exception of the
    reader comes where it happened, and a child that dies (killed) is an error, never a wait forever."""

    _END = "end"

    def __init__(self, items: Iterable, prepare: Callable[[object], None] = lambda item: None):
        context = multiprocessing.get_context("fork")
        self._queue = context.Queue(maxsize=READ_AHEAD_DEPTH)
        self._process = context.Process(target=self._read, args=(items, prepare, self._queue),
                                        name="import_works reader", daemon=True)
        self._process.start()

    @classmethod
    def _read(cls, items: Iterable, prepare, out) -> None:
        gc.disable()            # short-lived objects only, freed by reference counting (import_works)
        chunk = []
        try:
            for item in items:
                prepare(item[1])
                chunk.append(item)
                if len(chunk) >= READ_AHEAD_CHUNK:
                    out.put((chunk, None))
                    chunk = []
        except BaseException as error:          # handed over, raised in the importing process
            out.put((chunk, error))
            return
        out.put((chunk, cls._END))

    def __iter__(self) -> Iterator:
        while True:
            try:
                chunk, end = self._queue.get(timeout=1)
            except queue.Empty:
                if self._process.is_alive():
                    continue
                raise ReaderDied(f"the process reading the file ended (exit code {self._process.exitcode}) "
                                 "before the end of the file") from None
            yield from chunk
            if end == self._END:
                return
            if end is not None:
                raise end

    def close(self) -> None:
        """Stop reading (the importer is done, or failed) and wait for the child."""
        if self._process.is_alive():
            self._process.terminate()
        self._process.join()
        self._queue.close()


class _ReadAhead:
    """The reader's (position, item) pairs, read in a thread ahead of the writes: parsing the file
    (Python) and writing the previous batch (PostgreSQL) go on at once; prepare(item) does more of
    the Python work there. In order; an exception of
    the reader (a file that stops being readable) comes where it happened, after the items before it."""

    _END = object()

    def __init__(self, items: Iterable, prepare: Callable[[object], None] = lambda item: None):
        self._prepare = prepare
        self._queue: queue.Queue = queue.Queue(maxsize=READ_AHEAD_DEPTH)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._read, args=(items,), name="import_works reader", daemon=True)
        self._thread.start()

    def _read(self, items: Iterable) -> None:
        chunk = []
        try:
            for item in items:
                self._prepare(item[1])
                chunk.append(item)
                if len(chunk) >= READ_AHEAD_CHUNK:
                    if not self._put((chunk, None)):
                        return
                    chunk = []
        except BaseException as error:          # handed over, raised in the importing thread
            self._put((chunk, error))
            return
        self._put((chunk, self._END))

    def _put(self, entry) -> bool:
        while not self._stop.is_set():
            try:
                self._queue.put(entry, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def __iter__(self) -> Iterator:
        while True:
            chunk, end = self._queue.get()
            yield from chunk
            if end is self._END:
                return
            if end is not None:
                raise end

    def close(self) -> None:
        """Stop reading (the importer is done, or failed) and wait for the thread, so that nothing
        reads the caller's file after import_works returns."""
        self._stop.set()
        self._thread.join()


