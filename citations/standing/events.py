"""What every standing source reader yields: one notice about one work."""
from dataclasses import dataclass
from datetime import date


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
