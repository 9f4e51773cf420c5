"""Crossref REST work messages and their update relations.

A work's `updated-by` lists the notices that update it (its retraction, corrections...), and a
notice's `update-to` lists the works it updates. Both become events about the updated work.
Types are kept as Crossref names them; relation types that are no standing notice (a new
version, a new edition) are left out.

A file is one JSON document (a response, a work, a list), or JSON lines when its first non-blank
line is a JSON object on its own. A document that does not parse fails the file (BadFile: cut in
the middle, nested too deeply to read) instead of being read as lines that all fail; in JSON lines,
a line that does not parse is a rejected row. Every work with a DOI counts as read (WorkRead),
notices or not: a sync needs at least one. A relation that cannot be stored is rejected with its
reason: no DOI, a DOI longer than its column (255), a NUL or lone surrogate in stored text, an
`updated` date that is not a calendar date between 1900-01-01 and 2199-12-31. Without
`date-parts` (or with Crossref's [[null]]) the date is null. Numbers of more than 18 digits are
kept as their text (Python refuses to convert 4,300+ digits), so they reject their relation too.
"""
import hashlib
import json
from collections.abc import Iterable, Iterator
from datetime import date

from citations.models import EventType
from citations.parsing.identifiers import normalise_doi
from citations.standing.events import (
    DOI_LENGTH,
    RECORD_ID_LENGTH,
    BadFile,
    RejectedRow,
    SourceEvent,
    WorkRead,
    dated,
    decoded,
    storable,
)

SOURCE = "crossref"
TYPES = {
    "retraction": EventType.RETRACTION, "partial_retraction": EventType.PARTIAL_RETRACTION,
    "withdrawal": EventType.WITHDRAWAL, "removal": EventType.REMOVAL,
    "expression_of_concern": EventType.EXPRESSION_OF_CONCERN, "correction": EventType.CORRECTION,
    "erratum": EventType.ERRATUM, "corrigendum": EventType.CORRIGENDUM, "addendum": EventType.ADDENDUM,
    "clarification": EventType.CLARIFICATION, "reinstatement": EventType.REINSTATEMENT,
}
NOT_NOTICES = {"new_version", "new_edition", "comment", "reply"}


def read_messages(data: bytes) -> Iterator[tuple[int, SourceEvent | WorkRead | RejectedRow]]:
    """Events from one response ({"message": ...} or {"message": {"items": [...]}}), a bare work, a
    JSON list of works, or JSON lines of any of these; see the module docstring for what fails."""
    for number, document in _documents(decoded(data)):
        if isinstance(document, RejectedRow):
            yield number, document
            continue
        for work in _works(document):
            if not isinstance(work, dict):
                yield number, RejectedRow("a work is not a JSON object")
                continue
            yield from ((number, item) for item in _events(work))


def _loads(text: str):
    # Long numbers stay text: int() of 4,300+ digits raises, and no field read here needs one.
    return json.loads(text, parse_int=lambda digits: int(digits) if len(digits) <= 18 else digits)


def _documents(text: str) -> list[tuple[int, object]]:
    try:
        return [(1, _loads(text))]
    except RecursionError:
        if not _is_json_lines(text):
            raise BadFile("the JSON is nested too deeply to read") from None
    except ValueError as error:
        if not _is_json_lines(text):
            raise BadFile(_not_json(error, text)) from None
    return [(number, _line(line)) for number, line in enumerate(text.splitlines(), 1) if line.strip()]


def _is_json_lines(text: str) -> bool:
    first = next((line for line in text.splitlines() if line.strip()), "")
    try:
        return isinstance(_loads(first), dict)
    except (ValueError, RecursionError):
        return False


def _line(line: str):
    try:
        return _loads(line)
    except RecursionError:
        return RejectedRow("JSON nested too deeply to read")
    except ValueError:
        return RejectedRow("not JSON")


def _not_json(error: ValueError, text: str) -> str:
    if not isinstance(error, json.JSONDecodeError):
        return f"not JSON ({error})"
    if error.pos >= len(text.rstrip()) or error.msg.startswith("Unterminated string"):
        return "not JSON: it ends in the middle (truncated?)"
    return f"not JSON: {error.msg} at line {error.lineno:,}, column {error.colno:,}"


def _works(document) -> Iterable:
    if isinstance(document, list):
        return document
    if isinstance(document, dict) and "message" in document:
        message = document["message"]
        if isinstance(message, dict) and isinstance(message.get("items"), list):
            return message["items"]
        return [message]
    return [document]


def _events(work: dict) -> Iterator[SourceEvent | WorkRead | RejectedRow]:
    own = normalise_doi(str(work.get("DOI") or ""))
    if own is None:
        yield RejectedRow("a work without a DOI")
        return
    try:
        own = storable(own, what="the work's DOI", max_length=DOI_LENGTH)
    except RejectedRow as rejected:
        yield rejected
        return
    yield WorkRead(own)
    for relation, updated_is_me in (("updated-by", True), ("update-to", False)):
        entries = work.get(relation) or []
        if not isinstance(entries, list):
            yield RejectedRow(f"{relation} is not a list")
            continue
        for entry in entries:
            try:
                yield _event(entry, own, updated_is_me)
            except RejectedRow as rejected:
                if str(rejected) != "not a notice":
                    yield rejected


def _event(entry, own: str, updated_is_me: bool) -> SourceEvent:
    if not isinstance(entry, dict):
        raise RejectedRow("an update relation is not an object")
    kind = str(entry.get("type") or "").strip().lower().replace("-", "_").replace(" ", "_")
    if kind in NOT_NOTICES:
        raise RejectedRow("not a notice")
    if kind not in TYPES:
        raise RejectedRow(f"unknown update type {entry.get('type')!r}")
    other = normalise_doi(str(entry.get("DOI") or ""))
    if other is None:
        raise RejectedRow("an update relation without a DOI")
    other = storable(other, what="the relation's DOI", max_length=DOI_LENGTH)
    subject, notice = (own, other) if updated_is_me else (other, own)
    occurred = _date(entry.get("updated"))
    label = str(entry.get("label") or "").strip()
    origin = str(entry.get("source") or "").strip()
    reason = "; ".join(part for part in (label, f"asserted by {origin}" if origin else "") if part)
    reason = storable(reason, what="the relation's label or source")
    return SourceEvent(_record_id(notice, TYPES[kind], subject), TYPES[kind], subject,
                       notice if notice != subject else None, occurred, reason)


def _record_id(notice: str, kind: str, subject: str) -> str:
    # The relation is the record: the same notice, type and work seen from either side is one event.
    # Two long DOIs can outgrow the column; their digest is as stable a key.
    key = f"{notice}|{kind}|{subject}"
    return key if len(key) <= RECORD_ID_LENGTH else "sha1:" + hashlib.sha1(key.encode()).hexdigest()


def _date(updated) -> date | None:
    """The relation's date: null when Crossref gives none, a rejected relation when it gives a bad one."""
    try:
        parts = updated["date-parts"][0]
    except (TypeError, KeyError, IndexError):
        return None
    if parts is None or parts == [] or (isinstance(parts, list) and parts[0] is None):
        return None          # [[null]] is Crossref's "unknown"
    if not isinstance(parts, list) or not all(type(part) is int for part in parts[:3]):
        raise RejectedRow(f"updated date-parts {str(parts)[:40]} is not a date")
    try:
        day = date(*(parts[:3] + [1, 1])[:3])
    except (ValueError, OverflowError):
        raise RejectedRow(f"updated date-parts {str(parts)[:40]} is not a date") from None
    return dated(day, what="the relation's updated date")
