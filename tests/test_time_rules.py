"""Each rule of time is said once in SQL and once as a QuerySet verb (citations/time_rules.py): here,
on rows built to tell the rules' cases apart, the two pick the same rows at every cutoff."""
from datetime import timedelta
from uuid import UUID

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.utils import timezone

from citations.models import Override, PaperReferenceLink, PaperSnapshot
from citations.time_rules import (
    is_plausible_year,
    latest_plausible_year,
    newest_link_sql,
    newest_snapshot_sql,
    override_in_force_sql,
)
from tests.factories import T0, make_paper, make_references

CUTOFFS = [T0 - timedelta(days=1), T0, T0 + timedelta(hours=1), T0 + timedelta(hours=2), T0 + timedelta(days=9)]


def _rows(sql: str, params) -> dict:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return dict(cursor.fetchall())


@pytest.fixture
def references(db):
    """Two references: links at several times, two at the same time (the greater id decides)."""
    first, second = make_references(make_paper("2501.00001"), 2)
    for reference, hours in ((first, 1), (first, 1), (first, 3), (second, 2)):
        PaperReferenceLink.objects.create(reference=reference, state="unresolved",
                                          observed_at=T0 + timedelta(hours=hours))
    return first, second


def test_the_newest_link_as_of_a_time_is_the_same_in_sql_and_orm(references):
    for cutoff in CUTOFFS:
        sql = _rows(f"SELECT r.id, {newest_link_sql('r.id', '%s')} FROM paper_references r", [cutoff])
        orm = dict(PaperReferenceLink.objects.current(cutoff).values_list("reference_id", "id"))
        expected = {reference: link for reference, link in sql.items() if link is not None}
        assert {UUID(str(k)): v for k, v in orm.items()} == {UUID(str(k)): v for k, v in expected.items()}, cutoff
    assert len(orm) == 2


def test_the_newest_snapshot_as_of_a_time_is_the_same_in_sql_and_orm(db):
    paper = make_paper("2501.00002", observed_at=T0)
    later = PaperSnapshot.objects.get(paper=paper)
    for hours, revision, recorded in ((2, 0, None), (2, 1, 3), (1, 0, None)):     # a completion recorded later
        later.pk, later.observed_at, later.revision = None, T0 + timedelta(hours=hours), revision
        later.recorded_at = None if recorded is None else T0 + timedelta(hours=recorded)
        later.save()
    for cutoff in [*CUTOFFS, T0 + timedelta(hours=3)]:
        sql = _rows(f"SELECT p.id, {newest_snapshot_sql('p.id', '%s')} FROM papers p", [cutoff, cutoff])
        newest = PaperSnapshot.objects.filter(paper=paper).known_by(cutoff).newest_first().first()
        assert sql[paper.pk] == (newest.pk if newest else None), cutoff


def test_an_override_in_force_is_the_same_in_sql_and_orm(references):
    first, second = references
    curator = User.objects.create_user("ada")
    entries = []

    def entry(reference, field, hours, action="set", withdraws=None, **value):
        made = Override.objects.create(reference=reference, field=field, action=action, reason="why", curator=curator,
                                       created_at=T0 + timedelta(hours=hours), withdraws=withdraws, **value)
        entries.append(made)
        return made

    title = entry(first, "title", 1, value_text="A title")
    entry(first, "title", 2, action="withdraw", withdraws=title)
    entry(first, "title", 3, value_text="Another title")
    entry(first, "year", 1, value_year=2019)
    entry(second, "year", 1, value_year=2020)
    entry(second, "year", 2, value_year=2021)
    entry(second, "not_a_work", 3, value_text=None)
    for cutoff in [None, *CUTOFFS, T0 + timedelta(hours=3)]:
        condition = override_in_force_sql("o", None if cutoff is None else "%s")
        params = [] if cutoff is None else [cutoff, cutoff]
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT o.id FROM curation_overrides o WHERE {condition}", params)
            sql = {row[0] for row in cursor.fetchall()}
        orm = set(Override.objects.in_force(as_of=cutoff).values_list("id", flat=True))
        assert sql == orm, cutoff
    assert len(orm) == 4                # now: the second title, the newest year of each, not a work


def test_a_plausible_year_runs_to_next_year():
    assert latest_plausible_year() == timezone.now().year + 1
    assert is_plausible_year(1600) and is_plausible_year(latest_plausible_year())
    assert not is_plausible_year(1599) and not is_plausible_year(latest_plausible_year() + 1)
