"""Input files as importers read them: lines (gzip or not, in flat memory however long a line is),
JSON lines, and the report of what was kept and what was rejected, line by line, with the reason.
Every importer (papers, references, works, standing sources, citation counts) reads through here."""
import gzip
import io
import json
import zlib
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from django.db import DatabaseError

T = TypeVar("T")
MAX_LINE_BYTES = 4 * 1024 * 1024
READ_BYTES = 1024 * 1024
MAX_REASONS = 100          # distinct rejection reasons kept apart; the rest are counted together
OTHER_REASONS = f"other reasons (only the first {MAX_REASONS} reasons are told apart)"
# What a damaged input file raises while it is read: not gzip, ends early, corrupt inside.
FILE_ERRORS = (OSError, EOFError, zlib.error)
# What a database raises for a row it will not store; a driver refuses text it cannot encode
# before the database sees it.
DATABASE_REFUSALS = (DatabaseError, UnicodeEncodeError)


class RejectedLine(ValueError):
    """A line that cannot be ingested; the message is the reason counted for it."""


TRAILING_GARBAGE = ("the gzip stream is followed by bytes that are not gzip (trailing garbage): the lines before "
                    "them were read, the bytes after them ignored")


class FileProblem(bytes):
    """Not a line but what ended the reading of a file early, given last in place of a line: an importer
    counts it as a rejected line, `reason` its reason. (Its bytes are no JSON, CSV or XML, so a reader
    that does not look for it rejects it all the same, never skips it.)"""

    reason: str

    def __new__(cls, reason: str):
        problem = super().__new__(cls, b"\x00 " + reason.encode())
        problem.reason = reason
        return problem

    def __reduce__(self):           # sent to another process whole, as it was made
        return FileProblem, (self.reason,)


@dataclass
class IngestReport:
    lines: int = 0
    created: Counter = field(default_factory=Counter)
    unchanged: int = 0
    rejected: Counter = field(default_factory=Counter)
    examples: dict[str, int] = field(default_factory=dict)   # reason -> first line number
    # Values refused on lines kept without them (a work kept with its year unknown): reason -> count, first line.
    values_rejected: Counter = field(default_factory=Counter)
    value_examples: dict[str, int] = field(default_factory=dict)

    def job_counts(self) -> dict:
        """What the import did, as its job's counts (manage.py jobs, the admin, /api/v1/jobs/)."""
        return {"lines": self.lines, **dict(self.created), "unchanged": self.unchanged,
                "rejected": sum(self.rejected.values())}

    def reject(self, line_number: int, reason: str) -> None:
        if reason not in self.rejected and len(self.rejected) >= MAX_REASONS:
            reason = OTHER_REASONS      # reasons that name values must not grow without bound
        self.rejected[reason] += 1
        self.examples[reason] = min(self.examples.get(reason, line_number), line_number)

    def reject_value(self, line_number: int, reason: str) -> None:
        """A value of a kept line was refused (the line is kept without it)."""
        self.values_rejected[reason] += 1
        self.value_examples[reason] = min(self.value_examples.get(reason, line_number), line_number)

    def merge(self, other: "IngestReport") -> None:
        """Add the outcome of a part of the input (a batch written) to this report."""
        self.created.update(other.created)
        self.unchanged += other.unchanged
        for reason, count in other.rejected.items():
            for _ in range(count):
                self.reject(other.examples[reason], reason)
        for reason, count in other.values_rejected.items():
            self.values_rejected[reason] += count
            self.value_examples[reason] = min(self.value_examples.get(reason, other.value_examples[reason]),
                                              other.value_examples[reason])

    @property
    def rejected_lines(self) -> int:
        return sum(self.rejected.values())

    def as_json(self) -> dict:
        return {"lines": self.lines, "created": dict(self.created), "unchanged": self.unchanged,
                "rejected": dict(self.rejected), "values_rejected": dict(self.values_rejected)}


def open_lines(path: str | Path) -> tuple[Iterator[bytes], Callable[[], int], int]:
    """Lines of a file, gzip or not, with a function telling how many bytes of the file are read."""
    raw = open(path, "rb")
    size = Path(path).stat().st_size
    magic = raw.peek(2)[:2] if hasattr(raw, "peek") else b""
    stream = gzip.GzipFile(fileobj=raw) if magic == b"\x1f\x8b" else raw
    return _bounded_lines(stream), raw.tell, size


def _bounded_lines(stream) -> Iterator[bytes]:
    """The stream's lines, each ended by "\n", "\r\n" or "\r" alone (kept at its end), as the files of
    old Mac tools end them; of a line longer than MAX_LINE_BYTES only its first MAX_LINE_BYTES + 1 bytes
    (enough to reject it), so memory stays flat however long a line is. A gzip stream followed by bytes
    that are not gzip ends with a FileProblem (TRAILING_GARBAGE) after the lines before them."""
    parts, size = [], 0     # the start of a line whose end is not read yet (joined once, when it ends)
    skipping = False        # inside a line too long, whose first bytes were given
    # read1: what one read of the file gives, so the lines read before damaged bytes are given before
    # the error (read() would read on, and lose them with its error).
    read, garbage = getattr(stream, "read1", stream.read), False
    while True:
        try:
            chunk = read(READ_BYTES)
        except gzip.BadGzipFile as error:
            # After a whole gzip member, bytes that do not start another: the file's data has ended.
            if not str(error).startswith("Not a gzipped file"):
                raise
            chunk, garbage = b"", True
        if not chunk:
            break
        if parts and parts[-1].endswith(b"\r"):      # a "\r" ending a line, or the first half of "\r\n"
            if chunk.startswith(b"\n"):
                parts.append(b"\n")
                chunk = chunk[1:]
            line, parts, size = b"".join(parts), [], 0
            if skipping:
                skipping = False                    # the end of the line too long
            else:
                yield line[:MAX_LINE_BYTES + 1]
            if not chunk:
                continue
        pieces = chunk.splitlines(keepends=True)
        rest = pieces.pop() if not pieces[-1].endswith(b"\n") else b""
        for line in pieces:
            if parts:
                line, parts, size = b"".join((*parts, line)), [], 0
            if skipping:
                skipping = False
            else:
                yield line[:MAX_LINE_BYTES + 1]
        if rest:
            if not skipping:
                parts.append(rest)
                size += len(rest)
                if size > MAX_LINE_BYTES:
                    yield b"".join(parts)[:MAX_LINE_BYTES + 1]
                    skipping = True
            if skipping:        # nothing more of the line too long is kept, but a "\r" that may end it
                parts, size = ([b"\r"], 1) if rest.endswith(b"\r") else ([], 0)
    if parts and not skipping:
        yield b"".join(parts)
    if garbage:
        yield FileProblem(TRAILING_GARBAGE)


def database_refusal(error: Exception) -> str:
    """The reason counted for a line the database refused: the first line of its message."""
    first = (str(error).splitlines() or [type(error).__name__])[0]
    return f"the database refused it: {first[:120]}"


def json_lines(lines: Iterable[bytes], report: IngestReport) -> Iterator[tuple[int, dict]]:
    for number, line in enumerate(lines, 1):
        report.lines += 1
        if isinstance(line, FileProblem):
            report.reject(number, line.reason)
            continue
        if not line.strip():
            report.lines -= 1
            continue
        if len(line) > MAX_LINE_BYTES:
            report.reject(number, "line longer than 4 MiB")
            continue
        try:
            value = json.loads(line)
        except RecursionError:
            report.reject(number, "JSON nested too deeply to read")
            continue
        except ValueError:      # not UTF-8, not JSON, or a number of more digits than int() reads
            report.reject(number, "not JSON")
            continue
        if not isinstance(value, dict):
            report.reject(number, "not a JSON object")
            continue
        yield number, value




def lines_of(data: bytes) -> Iterator[bytes]:
    """Lines of in-memory input (an upload, a test), split as open_lines() splits a file's."""
    return _bounded_lines(io.BytesIO(data))


def handled_lines(lines: Iterable[bytes], report: "IngestReport", handle: Callable[[dict], T]) -> Iterator[T]:
    """What `handle` makes of each JSON line; a line it rejects (RejectedLine) or the database refuses
    is counted in the report with its number and reason, and the next line is read."""
    for number, value in json_lines(lines, report):
        try:
            yield handle(value)
        except RejectedLine as error:
            report.reject(number, str(error))
        except DATABASE_REFUSALS as error:
            report.reject(number, database_refusal(error))
