"""A PDF's words read in a child process held to a memory and a time limit.

PDFium inflates a page's content streams and builds its objects before any count of ours can run:
a Flate stream of a few hundred kilobytes can ask for gigabytes (a MemoryError, or an abort that
ends the whole process), and a file of many dense pages can take minutes. The reading therefore runs
in a process of its own (a fresh interpreter: nothing of the caller's state, threads or database
connections is shared, and it works the same inside a Celery prefork worker, gunicorn or a
command) whose address space is capped with RLIMIT_AS and whose run is capped in wall-clock time;
past either the file is refused with a sentence and the caller carries on.

The words come back a page at a time (citations.extraction.pdf.pages), as the child reads them:
neither process holds the words of all pages at once.
"""
import io
import json
import os
import resource
import select
import selectors
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from citations.extraction.pdf.model import PdfRefused
from citations.extraction.pdf.pages import Page, PageStore, page_line
from citations.extraction.pdf.words import PdfFile

# The interpreter started for the child imports this package from the same checkout as the caller.
_ROOT = Path(__file__).resolve().parents[3]
_MEMORY_EXIT = 3
_CHUNK = 64 * 1024
# How a process capped by RLIMIT_AS ends when an allocation fails: Python raises MemoryError
# (_MEMORY_EXIT), PDFium's allocator aborts or traps on purpose.
_CRASHES = {signal.SIGABRT, signal.SIGSEGV, signal.SIGBUS, signal.SIGTRAP, signal.SIGILL}


def read_pages_isolated(pdf: bytes | PdfFile, *, max_pages: int, max_page_characters: int, memory_mb: int,
                        seconds: float, on_page: Callable[[Page], None] | None = None) -> PageStore:
    """words.read_pages(pdf) run in a child process of at most memory_mb of address space that
    must finish within seconds, its pages kept in a PageStore as they arrive; PdfRefused with the
    bound that was passed, or with the reader's own refusal; on_page sees each page as it comes.
    A PdfFile is the child's stdin, read where PDFium asks; bytes are written to it."""
    on_disk = isinstance(pdf, PdfFile)
    command = [sys.executable, "-m", __name__, str(max_pages), str(max_page_characters), str(memory_mb),
               str(int(seconds) + 1), str(pdf.length if on_disk else -1)]
    store = PageStore(on_page)
    try:
        with subprocess.Popen(command, cwd=_ROOT, stdin=pdf.file if on_disk else subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE) as child:
            try:
                refusal, errors = _exchange(child, b"" if on_disk else pdf, store, time.monotonic() + seconds)
            except subprocess.TimeoutExpired:
                raise PdfRefused(f"reading this PDF took longer than the {seconds:g} s a PDF may take") from None
            finally:
                # A timeout, or the caller's own time limit (Celery's soft limit) raised while waiting:
                # the child must not outlive the wait.
                if child.poll() is None:
                    child.kill()
        code = child.returncode
        if code == _MEMORY_EXIT or (code < 0 and -code in _CRASHES):
            raise PdfRefused(f"this PDF needs more than the {memory_mb:,} MB a PDF may use to be read")
        if code < 0 and -code == signal.SIGXCPU:
            raise PdfRefused(f"reading this PDF took longer than the {seconds:g} s a PDF may take")
        if code != 0:
            last = errors.decode("utf-8", "replace").strip().splitlines()[-1:] or ["no message"]
            raise PdfRefused(f"the PDF reader stopped with exit status {code} ({last[0][:200]})")
        if refusal is not None:
            raise PdfRefused(refusal)
    except BaseException:
        store.close()
        raise
    return store


def _exchange(child: subprocess.Popen, data: bytes, store: PageStore, deadline: float) -> tuple[str | None, bytes]:
    """The PDF written to the child while its pages are read as they come (a page's words are not
    held twice, nor all pages' as one answer), until it ends or the deadline passes: the
    refusal it sent, if any, and what it wrote to stderr."""
    refusal, pending, errors = None, bytearray(), bytearray()
    sent = memoryview(data)
    with selectors.DefaultSelector() as selector:
        if sent:
            selector.register(child.stdin, selectors.EVENT_WRITE)
        elif child.stdin is not None:
            child.stdin.close()
        selector.register(child.stdout, selectors.EVENT_READ)
        selector.register(child.stderr, selectors.EVENT_READ)
        while selector.get_map():
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise subprocess.TimeoutExpired(child.args, 0)
            for key, _ in selector.select(remaining):
                if key.fileobj is child.stdin:
                    try:
                        # No more than the pipe takes at once, as communicate() writes: a
                        # larger write could block past the deadline.
                        written = os.write(key.fd, sent[:select.PIPE_BUF])
                    except BrokenPipeError:       # the child ended early: its exit status says why
                        written = len(sent)
                    sent = sent[written:]
                    if not sent:
                        selector.unregister(child.stdin)
                        child.stdin.close()
                    continue
                chunk = os.read(key.fd, _CHUNK)
                if not chunk:
                    selector.unregister(key.fileobj)
                    key.fileobj.close()
                elif key.fileobj is child.stderr:
                    errors += chunk
                else:
                    pending += chunk
                    end = pending.rfind(b"\n")
                    if end >= 0:
                        for line in bytes(pending[:end + 1]).splitlines(keepends=True):
                            if line.startswith(b'{"refused"'):
                                refusal = json.loads(line)["refused"]
                            else:
                                store.add(line)
                        del pending[:end + 1]
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        raise subprocess.TimeoutExpired(child.args, 0)
    child.wait(remaining)
    return refusal, bytes(errors)


def _main(argv: list[str]) -> None:
    """The child: limits first, then PDFium, the PDF from stdin (a file read where PDFium asks, or
    the bytes written to a pipe), each page's words as a line of JSON to stdout as soon as it is
    read (or a refusal)."""
    max_pages, max_page_characters, memory_mb, cpu_seconds, length = (int(a) for a in argv)
    limit = memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    # Should the parent die without killing it, the child still ends.
    resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 1))
    try:
        from citations.extraction.pdf import words

        pdf = _FilePrefix(sys.stdin.fileno(), length) if length >= 0 else sys.stdin.buffer.read()
        out = sys.stdout.buffer
        try:
            for size, page_words in words.read_pages(pdf, max_pages, max_page_characters):
                out.write(page_line(size, page_words))
                out.flush()
        except PdfRefused as error:
            out.write(json.dumps({"refused": str(error)}).encode() + b"\n")
        out.flush()
    except MemoryError:
        os._exit(_MEMORY_EXIT)


class _FilePrefix(io.RawIOBase):
    """The first `length` bytes of an open file (what the parent checked, should the file grow),
    read at the positions asked for: the file's offset is shared with the parent."""

    def __init__(self, fd: int, length: int):
        super().__init__()
        self._fd, self._length, self._position = fd, length, 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        base = {io.SEEK_SET: 0, io.SEEK_CUR: self._position, io.SEEK_END: self._length}[whence]
        self._position = base + offset
        return self._position

    def tell(self) -> int:
        return self._position

    def readinto(self, buffer) -> int:
        data = os.pread(self._fd, max(0, min(len(buffer), self._length - self._position)), self._position)
        memoryview(buffer).cast("B")[:len(data)] = data
        self._position += len(data)
        return len(data)


if __name__ == "__main__":
    _main(sys.argv[1:])
