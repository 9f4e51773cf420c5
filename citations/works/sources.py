"""Reading a works file as a stream of (position, document): JSON lines, or one JSON document.

Bulk files come both ways: OpenAlex snapshots and most exports are JSON lines; a Crossref public
data file is one document ({"items": [...]}), and a REST response is {"message": ...}. A file whose
first line is a whole JSON value is read as JSON lines (a line that is not JSON is rejected with
its number, the rest read); otherwise the file is one document and is parsed whole (bounded: the
public data file's parts are tens of MB each).
"""
import json
import re
from collections.abc import Iterable, Iterator

import orjson

from citations.input_files import MAX_LINE_BYTES, FileProblem, RejectedLine

MAX_DOCUMENT_BYTES = 1024 * 1024 * 1024
# orjson reads an integer beyond 64 bits as a float, where json keeps it an int: text holding a run of
# 19 digits is left to json. Found by mapping every digit to "0" and looking for 19 of them: a regular
# expression took three times as long as orjson's parse of the line (bench/works.py).
_DIGITS_AS_ZERO = bytes(0x30 if 0x30 <= byte <= 0x39 else byte for byte in range(256))
_NINETEEN_DIGITS = b"0" * 19
_LONG_NUMBER = re.compile(rb"[0-9]{19}")
_SHORT = 1024 * 1024        # longer text (a whole document) is searched in place, not copied


def _has_long_number(data: bytes) -> bool:
    if len(data) > _SHORT:
        return _LONG_NUMBER.search(data) is not None
    return _NINETEEN_DIGITS in data.translate(_DIGITS_AS_ZERO)


def loads(data: bytes):
    """json.loads(data), the same value or the same exception, faster: orjson parses what it can
    parse identically (UTF-8, no integer beyond 64 bits); json reads everything else (a BOM, UTF-16,
    NaN, lone surrogates, deep nesting...) and raises its own errors."""
    if not _has_long_number(data):
        try:
            return orjson.loads(data)
        except orjson.JSONDecodeError:
            pass
    return json.loads(data)


def json_documents(lines: Iterable[bytes]) -> Iterator[tuple[int, object]]:
    """(line number, parsed JSON value or RejectedLine) of a file."""
    lines = iter(lines)
    head: list[bytes] = []
    for line in lines:
        head.append(line)
        if line.strip():
            break
    first = head[-1] if head else b""
    if not first.strip():
        return
    try:
        first_value = loads(first)
    except (UnicodeDecodeError, ValueError, RecursionError):
        first_value = None
    if first_value is not None or not first.lstrip().startswith((b"{", b"[")):
        yield from _json_lines(head, lines)
        return
    yield from _one_document(head, lines)


def _parse(line: bytes):
    if isinstance(line, FileProblem):
        return RejectedLine(line.reason)
    if len(line) > MAX_LINE_BYTES:
        return RejectedLine("line longer than 4 MiB")
    try:
        return loads(line)
    except UnicodeDecodeError:
        return RejectedLine("not UTF-8")
    except RecursionError:
        return RejectedLine("JSON nested too deeply")
    except ValueError:
        return RejectedLine("not JSON")


def _json_lines(head: list[bytes], rest: Iterator[bytes]) -> Iterator[tuple[int, object]]:
    number = 0
    for chunk in (head, rest):
        for line in chunk:
            number += 1
            if line.strip():
                yield number, _parse(line)


def _one_document(head: list[bytes], rest: Iterator[bytes]) -> Iterator[tuple[int, object]]:
    data = bytearray(b"".join(head))
    for line in rest:
        data += line
        if len(data) > MAX_DOCUMENT_BYTES:
            raise RejectedLine("a single JSON document larger than 1 GiB: split it into JSON lines")
    try:
        value = loads(bytes(data))
    except UnicodeDecodeError:
        raise RejectedLine("the file is not UTF-8") from None
    except RecursionError:
        raise RejectedLine("the file's JSON is nested too deeply") from None
    except ValueError as error:
        raise RejectedLine(f"the file is not JSON ({error}); truncated?") from None
    yield 1, value
