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

from django.db import DatabaseError

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
    (enough to reject it), so memory stays flat however long a line is."""
    pending = b""           # the start of a line whose end is not read yet
    skipping = False        # inside a line too long, whose first bytes were given
    while chunk := stream.read(READ_BYTES):
        pieces = (pending + chunk if pending else chunk).splitlines(keepends=True)
        # The last piece may go on in the next chunk (a "\r" too: a "\n" may follow it).
        pending = pieces.pop() if not pieces[-1].endswith(b"\n") else b""
        for line in pieces:
            if skipping:
                skipping = False        # the end of the line too long
            else:
                yield line[:MAX_LINE_BYTES + 1]
        if not skipping and len(pending) > MAX_LINE_BYTES:
            yield pending[:MAX_LINE_BYTES + 1]
            skipping = True
        if skipping:            # nothing more of the line too long is kept, but a "\r" that may end it
            pending = b"\r" if pending.endswith(b"\r") else b""
    if pending and not skipping:
        yield pending


def database_refusal(error: Exception) -> str:
    """The reason counted for a line the database refused: the first line of its message."""
    first = (str(error).splitlines() or [type(error).__name__])[0]
    return f"the database refused it: {first[:120]}"


def json_lines(lines: Iterable[bytes], report: IngestReport) -> Iterator[tuple[int, dict]]:
    for number, line in enumerate(lines, 1):
        report.lines += 1
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
