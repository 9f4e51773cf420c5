"""Times and names on the reader pages: to the minute with the zone, the exact value one click away."""
from django import template
from django.utils.html import format_html

from citations.records.presentation import (
    NO_DATE,
    SOURCE_NAMES,
    day_text,
    field_words,
    minute_text,
    parse_time,
    value_words,
)

register = template.Library()


@register.filter
def when(value):
    """<time> showing '8 Aug 2026, 11:07 UTC'; the exact value (as the record writes it) in its datetime
    and title, and shown on a click (the reader pages' script). Empty for None."""
    if value in (None, ""):
        return ""
    if parse_time(value) is None:
        return str(value)
    exact = value.isoformat() if hasattr(value, "isoformat") else str(value)
    return format_html('<time datetime="{}" title="{}" tabindex="0">{}</time>', exact, exact, minute_text(value))


@register.filter
def day(value) -> str:
    """'1 May 2020', for a date or the day of a time."""
    return day_text(value) if value not in (None, "") else ""


@register.filter
def event_day(value) -> str:
    """An event's date as day() gives it, or that its source gave none (never a guessed one)."""
    return day_text(value) if value not in (None, "") else NO_DATE


@register.filter
def source_name(value) -> str:
    """'retraction_watch' -> 'Retraction Watch'; unknown sources as named."""
    return SOURCE_NAMES.get(value, value)


@register.filter
def field(value) -> str:
    """A record's JSON path in words ('citation.cited_work.title': 'title')."""
    return field_words(str(value))


@register.filter
def value(value) -> str:
    """A record's value as a reader reads it: times to the minute, 'none' for null."""
    return value_words(value)
