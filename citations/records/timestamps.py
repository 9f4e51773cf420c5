"""The two timestamp renderings of the v1 record, and parsing them back.

"Z" rendering: 2026-08-04T17:12:41.104152Z, six fraction digits kept, or no
fraction at all when the value has none (2026-07-15T13:51:17Z).
"+00:00" rendering (standing sources): trailing zeros of the fraction dropped,
as PostgreSQL prints a timestamptz (06:31:55.24221+00:00).
"""
import re
from datetime import UTC, datetime

Z_RENDERING = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?Z$")
OFFSET_RENDERING = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,6})?\+00:00$")
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December")


def _seconds(value: datetime) -> tuple[str, int]:
    if value.tzinfo is None:
        raise ValueError("timestamps in a record must be timezone-aware")
    value = value.astimezone(UTC)
    return (f"{value.year:04d}-{value.month:02d}-{value.day:02d}"
            f"T{value.hour:02d}:{value.minute:02d}:{value.second:02d}", value.microsecond)


def render_z(value: datetime | None) -> str | None:
    """The Z rendering; None stays None."""
    if value is None:
        return None
    base, micro = _seconds(value)
    return f"{base}.{micro:06d}Z" if micro else f"{base}Z"


def render_offset(value: datetime | None) -> str | None:
    """The +00:00 rendering; None stays None."""
    if value is None:
        return None
    base, micro = _seconds(value)
    fraction = f"{micro:06d}".rstrip("0")
    return f"{base}.{fraction}+00:00" if fraction else f"{base}+00:00"


def parse_z(text: str) -> datetime:
    """Parse the Z rendering exactly; raise ValueError on anything else."""
    if not isinstance(text, str) or not Z_RENDERING.match(text):
        raise ValueError(f"{text!r} is not a timestamp in the Z rendering")
    return datetime.fromisoformat(text)


def parse_offset(text: str) -> datetime:
    """Parse the +00:00 rendering exactly; raise ValueError on anything else."""
    if not isinstance(text, str) or not OFFSET_RENDERING.match(text):
        raise ValueError(f"{text!r} is not a timestamp in the +00:00 rendering")
    return datetime.fromisoformat(text)


def truncate_to_minute(value: datetime) -> datetime:
    """The record's as_of: the build time cut to the whole minute, in UTC."""
    return value.astimezone(UTC).replace(second=0, microsecond=0)


def long_date(value: datetime) -> str:
    """'8 August 2026': the thesis date, day without a leading zero."""
    value = value.astimezone(UTC)
    return f"{value.day} {MONTHS[value.month - 1]} {value.year}"
