"""A work's later statements: when a source's record of a work already held is written as a revision.

A work's row keeps the fields of its first observation (cited_works is append-only). Another record
of the same work, from any source, found by an identifier it shares, is a WorkRevision when it says
something the store does not know of that work yet:

  - a title not known in its comparable form (case, accents and punctuation aside): the title of a
    work first known only by the DOI a notice named, a venue version's title for a preprint, a
    source's corrected title;
  - a year, a first author or a venue not known;
  - a volume and first page not known.

A record that repeats what is known, or states nothing (a notice's bare DOI), writes nothing, so a
file imported again writes nothing. Nothing is ever replaced: the record shows a work's newest
titled revision as of its time (citations/records/statements.py), and resolution weighs every title, year,
author and locator a source gave (citations/resolution/store.py). A revision's title is filed under
its blocking keys like the first one, so a reference citing it finds the work.
"""
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

from django.db import connection

from citations.models import CitedWork, WorkRevision, WorkTitleKey
from citations.models.transparency import LeafKind, note_written
from citations.parsing.locators import normal_page, normal_volume
from citations.parsing.text import comparable_title, fold
from citations.works.records import WorkRecord

# What a revision or a work row holds, in this order (the SQL below reads them so).
FACT_COLUMNS = ("title", "year", "first_author", "container_title", "volume", "first_page")


@dataclass
class KnownFacts:
    """What the store knows of one work, in comparable forms, from its row and its revisions."""

    titles: set[str] = field(default_factory=set)
    years: set[int] = field(default_factory=set)
    authors: set[str] = field(default_factory=set)
    venues: set[str] = field(default_factory=set)
    locators: set[tuple[str, str]] = field(default_factory=set)

    def add(self, title, year, first_author, container_title, volume, first_page) -> None:
        if title:
            self.titles.add(comparable_title(title))
        if year:
            self.years.add(year)
        if first_author:
            self.authors.add(fold(first_author))
        if container_title:
            self.venues.add(fold(container_title))
        if volume and first_page:
            self.locators.add((normal_volume(volume), normal_page(first_page)))

    def added_by(self, record: WorkRecord) -> bool:
        """Whether the record says something of the work that is not known yet."""
        return bool(
            (record.title and comparable_title(record.title) not in self.titles)
            or (record.year and record.year not in self.years)
            or (record.first_author and fold(record.first_author) not in self.authors)
            or (record.container_title and fold(record.container_title) not in self.venues)
            or (record.volume and record.first_page
                and (normal_volume(record.volume), normal_page(record.first_page)) not in self.locators))


def states_something(record: WorkRecord) -> bool:
    """A record with any field a revision could hold (a notice's bare DOI has none)."""
    return any(getattr(record, name) for name in FACT_COLUMNS)


def facts_of(record: WorkRecord) -> KnownFacts:
    facts = KnownFacts()
    facts.add(*(getattr(record, name) for name in FACT_COLUMNS))
    return facts


def known_facts(work_ids: Iterable) -> dict[str, KnownFacts]:
    """work id (text) -> what the store knows of it: two indexed reads, the rows and their revisions."""
    ids = sorted({str(w) for w in work_ids})
    known = {work_id: KnownFacts() for work_id in ids}
    if not ids:
        return known
    columns = ", ".join(FACT_COLUMNS)
    if connection.vendor == "postgresql":
        # One array of the batch's ids (a list parameter is dumped value by value by psycopg).
        with connection.cursor() as cursor:
            cursor.execute(f"""SELECT id::text, {columns} FROM cited_works WHERE id = ANY(%s::uuid[])
                UNION ALL SELECT work_id::text, {columns} FROM work_revisions WHERE work_id = ANY(%s::uuid[])""",
                           ["{" + ",".join(ids) + "}"] * 2)
            rows = cursor.fetchall()
    else:
        rows = [(str(w), *rest) for w, *rest in CitedWork.objects.filter(id__in=ids).values_list("id", *FACT_COLUMNS)]
        rows += [(str(w), *rest) for w, *rest in
                 WorkRevision.objects.filter(work_id__in=ids).values_list("work_id", *FACT_COLUMNS)]
    for work_id, *facts in rows:
        known[work_id].add(*facts)
    return known


def write_revisions(revisions: list[tuple[str, WorkRecord]], observed_at: datetime) -> tuple[int, int] | None:
    """The revisions, and their titles' blocking keys that the works are not filed under yet; returns
    the range of the revisions' primary keys (None when there are none)."""
    if not revisions:
        return None
    written = WorkRevision.objects.bulk_create([
        WorkRevision(work_id=work_id, source=record.source, observed_at=observed_at, title=record.title,
                     year=record.year, first_author=record.first_author, container_title=record.container_title,
                     volume=record.volume, issue=record.issue, first_page=record.first_page,
                     work_type=record.work_type)
        for work_id, record in revisions], batch_size=1000)
    note_written(LeafKind.WORK_REVISION, [row.pk for row in written])
    WorkTitleKey.objects.bulk_create([WorkTitleKey(key=key, work_id=work_id) for work_id, record in revisions
                                      for key in sorted(record.title_keys)], batch_size=1000, ignore_conflicts=True)
    return min(row.pk for row in written), max(row.pk for row in written)
