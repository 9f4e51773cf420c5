"""Checks every value crossing a boundary (importers, the API, commands) passes before it is stored.

One range for every timestamp and date Pith stores, so nothing stored can break a later read
(a year-9999 time at -12:00 is year 10000 in UTC; 0001-01-01 at +14:00 is a date BC):

    TIME_RANGE: 1900-01-01T00:00:00Z <= t < 2200-01-01T00:00:00Z, in UTC, and the same for dates.

Observation times (when Pith or a source observed something, when arXiv received a version)
must also not be in the future: an observation "from 2999" would outrank every real one.
FUTURE_SKEW allows for clocks a little ahead of ours. docs/record-v1.md states the same.

Text bound for a column must hold no NUL (PostgreSQL refuses it) and no lone surrogate (no
encoding can write it), and fit its column. Text meant to be read (a reference, a title) must also
show something: a visible character, not only spaces, zero-width characters, direction marks or
other format characters (visible_text).
"""
import re
import unicodedata
from datetime import UTC, date, datetime, timedelta

from django.utils import timezone

EARLIEST = datetime(1900, 1, 1, tzinfo=UTC)
LATEST = datetime(2200, 1, 1, tzinfo=UTC)          # exclusive
FUTURE_SKEW = timedelta(minutes=5)
RANGE_TEXT = "between 1900-01-01 and 2199-12-31 (UTC)"
_SURROGATE = re.compile("[\ud800-\udfff]")
# Categories that show nothing by themselves: separators (spaces), controls, format characters (zero-width,
# bidi controls, tags), surrogates, private use, unassigned; marks with no base to sit on.
_SHOWS_NOTHING = frozenset(("Zs", "Zl", "Zp", "Cc", "Cf", "Cs", "Co", "Cn", "Mn", "Me", "Mc"))
# Letters and symbols drawn blank: Hangul fillers, the blank Braille pattern.
_BLANK_GLYPHS = frozenset("\u115f\u1160\u3164\uffa0\u2800")


class OutOfRange(ValueError):
    """A value Pith will not store; the message says which and why, for the person who sent it."""


def checked_time(value: datetime, *, what: str, observation: bool = False) -> datetime:
    """The time in UTC when it lies in TIME_RANGE (and, for an observation, is not in the future)."""
    if not isinstance(value, datetime):
        raise OutOfRange(f"{what} is not a time")
    if value.tzinfo is None or value.utcoffset() is None:
        raise OutOfRange(f"{what} has no time zone")
    try:
        utc = value.astimezone(UTC)
    except (OverflowError, ValueError):
        raise OutOfRange(f"{what} {value.isoformat()} is not {RANGE_TEXT}") from None
    if not EARLIEST <= utc < LATEST:
        raise OutOfRange(f"{what} {value.isoformat()} is not {RANGE_TEXT}")
    if observation and utc > timezone.now() + FUTURE_SKEW:
        raise OutOfRange(f"{what} {value.isoformat()} is in the future")
    return utc


def checked_date(value: date, *, what: str) -> date:
    """The date when it lies in TIME_RANGE."""
    if not isinstance(value, date) or isinstance(value, datetime):
        raise OutOfRange(f"{what} is not a date")
    if not EARLIEST.date() <= value < LATEST.date():
        raise OutOfRange(f"{what} {value.isoformat()} is not {RANGE_TEXT}")
    return value


def parse_time(text, *, what: str, observation: bool = False) -> datetime:
    """An ISO 8601 time with a zone (a trailing Z included), checked as checked_time() does."""
    if not isinstance(text, str) or len(text) > 40:
        raise OutOfRange(f"{what} is not an ISO 8601 time")
    try:
        value = datetime.fromisoformat(text.strip())
    except ValueError:
        raise OutOfRange(f"{what} {text[:40]!r} is not an ISO 8601 time") from None
    return checked_time(value, what=what, observation=observation)


def clean_text(value, *, what: str, max_length: int | None = None) -> str:
    """The text when it can be stored: no NUL, no lone surrogate, at most max_length characters."""
    if not isinstance(value, str):
        raise OutOfRange(f"{what} is not text")
    if "\x00" in value:
        raise OutOfRange(f"{what} holds a NUL character")
    if _SURROGATE.search(value):
        raise OutOfRange(f"{what} holds a lone surrogate (not valid Unicode)")
    if max_length is not None and len(value) > max_length:
        raise OutOfRange(f"{what} is longer than {max_length:,} characters")
    return value


def is_storable_text(value: str) -> bool:
    """True when clean_text() would accept the value (no length limit)."""
    return "\x00" not in value and not _SURROGATE.search(value)


def has_visible_character(value: str) -> bool:
    """True when the text shows at least one character (see _SHOWS_NOTHING)."""
    return any(unicodedata.category(c) not in _SHOWS_NOTHING and c not in _BLANK_GLYPHS for c in value)


def visible_text(value, *, what: str, max_length: int | None = None) -> str:
    """clean_text(), and the text shows something: not only spaces, zero-width characters, direction marks."""
    value = clean_text(value, what=what, max_length=max_length)
    if not has_visible_character(value):
        raise OutOfRange(f"{what} has no visible character (only spaces, zero-width characters, "
                         "direction marks or other invisible ones)")
    return value
