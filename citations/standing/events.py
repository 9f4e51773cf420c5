"""What every standing source reader yields: one notice about one work, a rejected row, or (Crossref,
OpenAlex) a work read whole; and what it raises when the file as a whole cannot be read."""
from dataclasses import dataclass
from datetime import date

from citations.validation import OutOfRange, checked_date, clean_text


@dataclass(frozen=True)
class SourceEvent:
    source_record_id: str
    event_type: str            # an EventType value
    subject_doi: str           # normalised
    notice_doi: str | None
    occurred_on: date | None
    reason: str


class RejectedRow(ValueError):
    """A row or message that cannot be read; the message is the reason counted for it."""


@dataclass(frozen=True)
class WorkRead:
    """A work read whole (Crossref: with a DOI; OpenAlex: with its W id and is_retracted): content even
    when it carries no notice."""
    doi: str | None
    # The source's id of the work when its events are keyed by it (OpenAlex), so a sync can tell a
    # work it read without the event an earlier sync found.
    record_id: str | None = None


class BadFile(ValueError):
    """The file as a whole cannot be read as the source's (empty, truncated, not CSV or JSON, no
    content): the sync fails. The message is one sentence for the operator."""


# The columns a notice is stored in (citations/models/standing.py).
DOI_LENGTH = 255
RECORD_ID_LENGTH = 255


def storable(value: str, *, what: str, max_length: int | None = None) -> str:
    """The text when a column can hold it; otherwise its row is rejected (not the file) with the reason."""
    try:
        return clean_text(value, what=what, max_length=max_length)
    except OutOfRange as problem:
        raise RejectedRow(str(problem)) from None


def dated(value: date, *, what: str) -> date:
    """The date when it lies in the one range of stored dates; otherwise its row is rejected."""
    try:
        return checked_date(value, what=what)
    except OutOfRange as problem:
        raise RejectedRow(str(problem)) from None


def decoded(data: bytes) -> str:
    """The file's text (UTF-8, a byte-order mark dropped), or BadFile saying where it is not UTF-8."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise BadFile(f"the file is not UTF-8 text: byte {error.start:,} (0x{data[error.start]:02x}) "
                      "cannot be decoded") from None
