"""A PDF's words read in a child process held to a memory and a time limit.

PDFium inflates a page's content streams and builds its objects before any count of ours can run:
a Flate stream of a few hundred kilobytes can ask for gigabytes (a MemoryError, or an abort that
ends the whole process), and a file of many dense pages can take minutes. The reading therefore runs
in a process of its own (a fresh interpreter: nothing of the caller's state, threads or database
connections is shared, and it works the same inside a Celery prefork worker, gunicorn or a
command) whose address space is capped with RLIMIT_AS and whose run is capped in wall-clock time;
past either the file is refused with a sentence and the caller carries on.

The words come back as JSON (not pickle: the child has read untrusted input), which gives back
every float and string exactly.
"""
import json
import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

from citations.extraction.pdf.model import PageSize, PdfRefused, TextWord

# The interpreter started for the child imports this package from the same checkout as the caller.
_ROOT = Path(__file__).resolve().parents[3]
_MEMORY_EXIT = 3
# How a process capped by RLIMIT_AS ends when an allocation fails: Python raises MemoryError
# (_MEMORY_EXIT), PDFium's allocator aborts or traps on purpose.
_CRASHES = {signal.SIGABRT, signal.SIGSEGV, signal.SIGBUS, signal.SIGTRAP, signal.SIGILL}


def read_words_isolated(data: bytes, *, max_pages: int, max_page_characters: int, memory_mb: int,
                        seconds: float) -> tuple[list[TextWord], list[PageSize]]:
    """words.read_words(data) run in a child process of at most memory_mb of address space that
    must finish within seconds; PdfRefused with the bound that was passed, or with the reader's own refusal."""
    command = [sys.executable, "-m", __name__, str(max_pages), str(max_page_characters), str(memory_mb),
               str(int(seconds) + 1)]
    with subprocess.Popen(command, cwd=_ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE) as child:
        try:
            output, errors = child.communicate(data, timeout=seconds)
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
    answer = json.loads(output)
    if "refused" in answer:
        raise PdfRefused(answer["refused"])
    return [TextWord(*word) for word in answer["words"]], [PageSize(*size) for size in answer["sizes"]]


def _main(argv: list[str]) -> None:
    """The child: limits first, then PDFium, the PDF from stdin, the words as JSON to stdout."""
    max_pages, max_page_characters, memory_mb, cpu_seconds = (int(a) for a in argv)
    limit = memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    # Should the parent die without killing it, the child still ends.
    resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 1))
    try:
        from citations.extraction.pdf import words

        data = sys.stdin.buffer.read()
        try:
            found, sizes = words.read_words(data, max_pages, max_page_characters)
        except PdfRefused as error:
            answer = {"refused": str(error)}
        else:
            answer = {"words": [[w.page, w.x0, w.x1, w.bottom, w.top, w.text, w.size, w.bold] for w in found],
                      "sizes": [[s.width, s.height] for s in sizes]}
        sys.stdout.write(json.dumps(answer))
        sys.stdout.flush()
    except MemoryError:
        os._exit(_MEMORY_EXIT)


if __name__ == "__main__":
    _main(sys.argv[1:])
