"""Crossref REST work messages and their update relations.

A work's `updated-by` lists the notices that update it (its retraction, corrections...), and a
notice's `update-to` lists the works it updates. Both become events about the updated work.
Types are kept as Crossref names them; relation types that are no standing notice (a new
version, a new edition) are left out.
"""
import json
from collections.abc import Iterable, Iterator
from datetime import date

from citations.models import EventType
from citations.resolution.identifiers import normalise_doi
from citations.standing.events import RejectedRow, SourceEvent

SOURCE = "crossref"
TYPES = {
    "retraction": EventType.RETRACTION, "partial_retraction": EventType.PARTIAL_RETRACTION,
    "withdrawal": EventType.WITHDRAWAL, "removal": EventType.REMOVAL,
    "expression_of_concern": EventType.EXPRESSION_OF_CONCERN, "correction": EventType.CORRECTION,
    "erratum": EventType.ERRATUM, "corrigendum": EventType.CORRIGENDUM, "addendum": EventType.ADDENDUM,
    "clarification": EventType.CLARIFICATION, "reinstatement": EventType.REINSTATEMENT,
}
NOT_NOTICES = {"new_version", "new_edition", "comment", "reply"}


def read_messages(data: bytes) -> Iterator[tuple[int, SourceEvent | RejectedRow]]:
    """Events from one response ({"message": ...} or {"message": {"items": [...]}}), a bare work, a
    JSON list of works, or JSON lines of any of these."""
    text = data.decode("utf-8", errors="strict")
    try:
        documents = [(1, json.loads(text))]
    except json.JSONDecodeError:
        documents = []
        for number, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                documents.append((number, json.loads(line)))
            except json.JSONDecodeError:
                yield number, RejectedRow("not JSON")
    for number, document in documents:
        for work in _works(document):
            if not isinstance(work, dict):
                yield number, RejectedRow("a work is not a JSON object")
                continue
            yield from ((number, item) for item in _events(work))


def _works(document) -> Iterable:
    if isinstance(document, list):
        return document
    if isinstance(document, dict) and "message" in document:
        message = document["message"]
        if isinstance(message, dict) and isinstance(message.get("items"), list):
            return message["items"]
        return [message]
    return [document]


def _events(work: dict) -> Iterator[SourceEvent | RejectedRow]:
    own = normalise_doi(str(work.get("DOI") or ""))
    if own is None:
        yield RejectedRow("a work without a DOI")
        return
    for relation, updated_is_me in (("updated-by", True), ("update-to", False)):
        for entry in work.get(relation) or []:
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
    subject, notice = (own, other) if updated_is_me else (other, own)
    occurred = _date(entry.get("updated"))
    label = str(entry.get("label") or "").strip()
    origin = str(entry.get("source") or "").strip()
    reason = "; ".join(part for part in (label, f"asserted by {origin}" if origin else "") if part)
    # The relation is the record: the same notice, type and work seen from either side is one event.
    return SourceEvent(f"{notice}|{TYPES[kind]}|{subject}", TYPES[kind], subject,
                       notice if notice != subject else None, occurred, reason)


def _date(updated) -> date | None:
    try:
        parts = updated["date-parts"][0]
        return date(int(parts[0]), int(parts[1]) if len(parts) > 1 else 1, int(parts[2]) if len(parts) > 2 else 1)
    except (TypeError, KeyError, IndexError, ValueError):
        return None
