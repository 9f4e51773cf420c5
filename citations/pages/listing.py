"""The record page's references: every one of the list, a hundred a page, all or those of one state.

The record (and its JSON) itemizes the first CAPS["outbound"] references; the page shows them as the
record does, and reads the rest, or the references of one state, as the record would itemize them
(citations/records/build.py, outbound_window): a list that fits under the cap is filtered from the
record's own rows with no further statement; a longer one costs four more, whatever its length.
"""
from dataclasses import dataclass
from urllib.parse import urlencode

from citations.records.build import CAPS, BuiltRecord, list_state_counts, outbound_window
from citations.records.presentation import STATE_LABELS
from citations.records.rows import observation_rows

PAGE_SIZE = CAPS["outbound"]      # page 1 is the record's own itemization


class BadListing(ValueError):
    """The page or state asked for is not one of the list's; the message says why."""


@dataclass(frozen=True)
class StateFilter:
    state: str            # "" for every state
    label: str
    count: int
    query: str            # the address's query string that shows it
    chosen: bool


@dataclass(frozen=True)
class ReferenceListing:
    rows: list
    number: int           # the page shown, from 1
    pages: int
    state: str            # "" for every state
    matching: int         # references of the list in that state (all of them, with no state)
    total: int            # references of the list
    itemized: int         # of them, in the record and its JSON
    first: int            # the positions (from 1, in list order) of the first and last row shown
    last: int
    state_counts: dict    # every reference of the list, by state
    filters: list
    previous_query: str | None
    next_query: str | None

    @property
    def complete(self) -> bool:
        """The record itemizes every reference of the list."""
        return self.itemized >= self.total


def reference_listing(built: BuiltRecord, page: str, state: str, keep: dict | None = None) -> ReferenceListing:
    """Page `page` of the list's references, of `state` (a state name, or "" for all); `keep`: the
    address's other parameters (as_of), kept by its links."""
    def _query(state: str, number: int) -> str:
        values = {**(keep or {}), "state": state, "page": number if number != 1 else ""}
        return "?" + urlencode({key: value for key, value in values.items() if value})

    if state and state not in STATE_LABELS:
        raise BadListing(f"state must be one of {', '.join(STATE_LABELS)}; {state[:40]!r} is not")
    if not (page.isascii() and page.isdigit() and len(page) <= 9 and int(page) >= 1):
        raise BadListing(f"page must be a whole number from 1; {page[:20]!r} is not")
    number = int(page)
    record = built.record
    total = record["reference_resolution"]["total_outbound_references"]
    itemized = record["reference_resolution"]["displayed"]
    if itemized >= total:
        # The record holds every reference: filter its rows, no statement more.
        counts = dict(record["reference_resolution"]["state_counts"])
        rows = [row for row in observation_rows(built, "outbound") if not state or row.state == state]
        matching = len(rows)
        rows = rows[(number - 1) * PAGE_SIZE:number * PAGE_SIZE]
    elif number == 1 and not state:
        counts, matching = list_state_counts(built), total     # one statement; the rows are the record's
        rows = observation_rows(built, "outbound")
    else:
        window = outbound_window(built, offset=(number - 1) * PAGE_SIZE, state=state or None)
        counts, matching = window.state_counts, window.matching
        rows = observation_rows(built, "outbound", window)
    pages = max(1, -(-matching // PAGE_SIZE))
    if number > pages:
        raise BadListing(f"there is no page {number}: the last is {pages}")
    first = (number - 1) * PAGE_SIZE + 1 if rows else 0
    filters = [StateFilter("", "All states", total, _query("", 1), not state)] + [
        StateFilter(name, label, counts.get(name, 0), _query(name, 1), name == state)
        for name, label in STATE_LABELS.items() if counts.get(name)
    ]
    return ReferenceListing(
        rows=rows, number=number, pages=pages, state=state, matching=matching, total=total, itemized=itemized,
        first=first, last=first + len(rows) - 1 if rows else 0, state_counts=counts, filters=filters,
        previous_query=_query(state, number - 1) if number > 1 else None,
        next_query=_query(state, number + 1) if number < pages else None,
    )
