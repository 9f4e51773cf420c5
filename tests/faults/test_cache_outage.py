"""A cache that is down costs speed, never a response, and never a stale record."""
import pytest
from django.db import transaction

from citations.models import RecordGeneration
from citations.models.generations import generation_of, lists_generation, records_changed
from citations.records.cache import cached_record, local_bodies
from tests.factories import make_paper, make_references

CLOSED_PORT_CACHE = {"default": {
    "BACKEND": "django_redis.cache.RedisCache", "LOCATION": "redis://127.0.0.1:9/1",
    "OPTIONS": {"SOCKET_CONNECT_TIMEOUT": 0.25, "SOCKET_TIMEOUT": 0.5, "IGNORE_EXCEPTIONS": True}}}


@pytest.fixture
def paper(db):
    paper = make_paper("2601.00001")
    make_references(paper, 3)
    return paper


def test_with_the_cache_down_records_and_the_api_are_served_from_the_database(client, paper, settings):
    settings.CACHES = CLOSED_PORT_CACHE
    record = client.get("/paper/2601.00001/citation-record.json")
    assert record.status_code == 200 and record.json()["paper"]["arxiv_id"] == "2601.00001"
    assert client.get("/api/v1/papers/").status_code == 200
    assert client.get("/api/v1/observations/").status_code == 200
    assert client.get("/paper/2601.00001/citation-record").status_code == 200


def test_health_says_the_cache_is_down_and_the_site_degraded_not_ok(client, db, settings):
    settings.CACHES = CLOSED_PORT_CACHE
    response = client.get("/api/v1/health")
    body = response.json()
    assert body["status"] == "degraded" and body["cache"].startswith("down")
    assert response.status_code == 200          # still serving: a balancer must keep this process


def test_health_says_ok_with_the_cache_up(client, db):
    assert client.get("/api/v1/health").json()["cache"] == "ok"


def test_a_write_is_seen_by_the_next_read_even_by_a_process_holding_the_old_body(paper):
    first = cached_record(arxiv_id="2601.00001")
    assert cached_record(arxiv_id="2601.00001") is first          # served from this process
    records_changed(arxiv_ids=["2601.00001"])
    assert cached_record(arxiv_id="2601.00001") is not first


def test_a_rolled_back_write_changes_no_generation(paper):
    before = generation_of("2601.00001")
    with pytest.raises(RuntimeError), transaction.atomic():
        records_changed(arxiv_ids=["2601.00001"])
        records_changed()
        raise RuntimeError("the write failed")
    assert generation_of("2601.00001") == before


def test_generations_live_in_the_database_so_every_process_sees_them(paper):
    def generations():
        return dict(RecordGeneration.objects.exclude(key__startswith="lists:").values_list("key", "value"))

    lists, before = lists_generation(), generations()
    records_changed(arxiv_ids=["2601.00001", "2601.00001"])
    records_changed()
    assert generations() == {**before, "2601.00001": before.get("2601.00001", 0) + 1, "*": before.get("*", 0) + 1}
    assert lists_generation() == lists + 2                  # and each write changed the API lists too


def test_a_record_built_with_the_cache_down_is_not_served_stale_when_the_cache_returns(paper, settings):
    from django.contrib.auth.models import User

    from citations.models import PaperReference
    from curation.groups import curators_group
    from curation.services import apply_override

    before = cached_record(arxiv_id="2601.00001").body             # cached while the cache is up
    settings.CACHES = CLOSED_PORT_CACHE
    curator = User.objects.create_user("ada", is_staff=True)
    curator.groups.add(curators_group())
    reference = PaperReference.objects.order_by("reference_index").first()
    apply_override(reference_id=reference.pk, field="title", value="A corrected title", reason="checked the PDF",
                   curator=curator, expected_revision=0)
    during = cached_record(arxiv_id="2601.00001").body
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "pith"}}
    local_bodies.clear()
    after = cached_record(arxiv_id="2601.00001").body
    assert b"A corrected title" not in before
    assert b"A corrected title" in during and b"A corrected title" in after
