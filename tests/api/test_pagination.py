"""Every list, in every order it takes, is walked by its `next` links to its last row, each row once,
over more than 1,000 rows that share the ordering value (DRF's cursor, a value and an offset capped at
1,000, served the same page forever past that many ties)."""
import uuid
from base64 import b64encode
from datetime import UTC, date, datetime
from urllib.parse import urlencode

import pytest
from django.contrib.auth.models import Permission, User
from django.core.cache import cache

from citations.api.page_cache import local_pages
from citations.models import CitedWork, CurrentResolution, Job, Override, Paper, ScholarlyWorkEvent
from tests.api.conftest import token_client
from tests.factories import make_paper, make_references

pytestmark = pytest.mark.django_db
TIED = 1_150                 # past DRF's 1,000 offset, and not a multiple of the page size
PAGE = 100
T = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def walk(client, path: str, key: str, params: str = "") -> list:
    """Every row's `key`, following `next` from the first page; fails on a page seen twice."""
    local_pages.clear()
    cache.clear()
    url, seen, pages = f"{path}?page_size={PAGE}{params}", [], set()
    while url:
        assert url not in pages, f"{path}{params}: the same page twice after {len(seen)} rows"
        pages.add(url)
        response = client.get(url)
        assert response.status_code == 200, response.content[:300]
        body = response.json()
        seen += [row[key] for row in body["results"]]
        url = body["next"]
    return seen


def walk_back(client, path: str, key: str, params: str = "") -> list:
    """From the last page, by `previous` links to the first: the rows in list order."""
    local_pages.clear()
    url = f"{path}?page_size={PAGE}{params}"
    while True:
        body = client.get(url).json()
        if not body["next"]:
            break
        url = body["next"]
    seen = []
    while url:
        body = client.get(url).json()
        seen = [row[key] for row in body["results"]] + seen
        url = body["previous"]
    return seen


def once_each(seen: list, expected: set) -> None:
    assert len(seen) == len(set(seen)), f"{len(seen) - len(set(seen))} rows seen twice"
    assert set(seen) == expected


@pytest.fixture
def reader():
    user = User.objects.create_user("operator", is_staff=True)
    user.user_permissions.add(Permission.objects.get(codename="view_job"))
    return token_client(user)


def test_papers_walk_to_the_end(reader):
    Paper.objects.bulk_create([Paper(arxiv_id=f"2601.{n:05d}") for n in range(TIED)])
    seen = walk(reader, "/api/v1/papers/", "arxiv_id")
    once_each(seen, set(Paper.objects.values_list("arxiv_id", flat=True)))
    assert seen == sorted(seen)


def test_observations_and_changes_walk_to_the_end_of_one_long_tied_list(reader):
    paper = make_paper("2601.00001")
    make_references(paper, TIED)
    CurrentResolution.objects.update(observed_at=T, changed_at=T)   # one list: one time, one change
    expected = {str(pk) for pk in CurrentResolution.objects.values_list("pk", flat=True)}
    for params in ("", "&ordering=observed_at", "&ordering=-observed_at", "&citing_paper=2601.00001",
                   "&citing_paper=2601.00001&ordering=reference_index",
                   "&citing_paper=2601.00001&ordering=-reference_index"):
        seen = walk(reader, "/api/v1/observations/", "observation_id", params)
        once_each(seen, expected)
    seen = walk(reader, "/api/v1/changes/", "observation_id", "&since=2026-02-01T00:00:00Z")
    once_each(seen, expected)
    assert walk_back(reader, "/api/v1/changes/", "observation_id", "&since=2026-02-01T00:00:00Z") == seen
    assert len(seen) == TIED


def test_works_walk_to_the_end_in_each_order(reader):
    CitedWork.objects.bulk_create([CitedWork(id=uuid.uuid4(), title=f"Work {n}", snapshot_observed_at=T,
                                             year=None if n % 3 else 2020) for n in range(TIED)])
    expected = {str(pk) for pk in CitedWork.objects.values_list("pk", flat=True)}
    for params in ("", "&ordering=year", "&ordering=-year", "&ordering=snapshot_observed_at",
                   "&ordering=-snapshot_observed_at", "&ordering=year,-snapshot_observed_at"):
        once_each(walk(reader, "/api/v1/works/", "work_id", params), expected)
    assert walk_back(reader, "/api/v1/works/", "work_id", "&ordering=year") == \
        walk(reader, "/api/v1/works/", "work_id", "&ordering=year")


def test_standing_events_walk_to_the_end_in_each_order(reader):
    ScholarlyWorkEvent.objects.bulk_create([
        ScholarlyWorkEvent(source="crossref", source_record_id=f"notice-{n}", event_type="retraction",
                           subject_doi=f"10.1234/w.{n}", observed_at=T,
                           occurred_on=None if n % 2 else date(2024, 5, 1)) for n in range(TIED)])
    expected = set(ScholarlyWorkEvent.objects.values_list("pk", flat=True))
    for params in ("", "&ordering=observed_at", "&ordering=-observed_at", "&ordering=occurred_on",
                   "&ordering=-occurred_on", "&revisions=all&ordering=observed_at"):
        once_each(walk(reader, "/api/v1/standing-events/", "id", params), expected)


def test_overrides_and_jobs_walk_to_the_end_in_each_order(reader):
    curator = User.objects.create_user("ada", is_staff=True)
    references = make_references(make_paper("2601.00001"), 3)
    Override.objects.bulk_create([Override(reference=references[n % 3], field="not_a_work", action="set",
                                           reason="a heading", curator=curator, created_at=T)
                                  for n in range(TIED)])
    Job.objects.bulk_create([Job(kind="resolve", created_at=T) for _ in range(TIED)])
    for path, model in (("/api/v1/overrides/", Override), ("/api/v1/jobs/", Job)):
        expected = set(model.objects.values_list("pk", flat=True))
        for params in ("", "&ordering=created_at", "&ordering=-created_at"):
            once_each(walk(reader, path, "id", params), expected)


def cursor(position: str, **tokens) -> str:
    return b64encode(urlencode({"p": position, **tokens}).encode()).decode()


@pytest.mark.parametrize("position", [
    '["2026-03-01 12:00:00+00:00"]', '["2026-03-01 12:00:00+00:00","x"]', '[1,2]', '["a","b","c"]',
    '["9999-12-31 23:59:59+00:00","00000000-0000-0000-0000-000000000000"]', '["2026-03-01', '{"a":1}',
    '["2026-03-01 12:00:00+00:00","00000000-0000-0000-0000-00000000000\\u0000"]'])
def test_a_tampered_position_is_a_400(api, position):
    response = api.get("/api/v1/works/", {"cursor": cursor(position)})
    assert response.status_code == 400, response.content
    assert "cursor" in response.json()["error"]["fields"]


def test_an_offset_beside_a_position_is_a_400(api):
    position = '["2026-03-01 12:00:00+00:00","00000000-0000-0000-0000-000000000000"]'
    assert api.get("/api/v1/works/", {"cursor": cursor(position, o="5")}).status_code == 400


def test_a_cursor_drf_made_is_still_read(reader):
    """A consumer who stored a changes-feed cursor before keyset cursors resumes where it was: DRF's
    cursors are a position (rows after that value) and an offset past the rows sharing the next one."""
    make_references(make_paper("2601.00001"), 10)
    CurrentResolution.objects.filter(reference_index__gt=4).update(changed_at=T)
    rows = [str(pk) for pk in CurrentResolution.objects.order_by("changed_at", "pk").values_list("pk", flat=True)]

    def page(drf_cursor: str) -> list:
        response = reader.get("/api/v1/changes/", {"since": "2026-02-01T00:00:00Z", "page_size": 3,
                                                   "cursor": drf_cursor})
        assert response.status_code == 200
        return [row["observation_id"] for row in response.json()["results"]]

    assert page(b64encode(b"o=3").decode()) == rows[3:6]
    assert page(cursor(str(T), o="2")) == rows[8:10]      # the six at T, then the four written now
