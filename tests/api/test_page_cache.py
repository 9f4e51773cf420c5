"""List pages come from a cache, and never a stale one: every write shows in the next page."""
import pytest
from django.contrib.auth.models import User

from citations.api.page_cache import local_pages
from curation.groups import curators_group
from curation.services import apply_override, revision_of
from tests.factories import make_paper, make_references
from tests.faults.test_cache_outage import CLOSED_PORT_CACHE


@pytest.fixture
def store(db):
    paper = make_paper("2601.00001")
    make_references(paper, 3)
    return paper


def overridden(client) -> list[bool]:
    return [o["has_override"] for o in client.get("/api/v1/observations/?citing_paper=2601.00001"
                                                  "&ordering=reference_index").json()["results"]]


@pytest.mark.parametrize("reader", ["anonymous", "token"])
def test_an_override_shows_in_the_next_page_though_the_page_was_cached(client, store, reader,
                                                                       django_assert_num_queries):
    from tests.api.conftest import token_client

    api = client if reader == "anonymous" else token_client(User.objects.create_user("reader"))
    assert overridden(api) == [False, False, False]
    # Cached: the lists' generation only (with a token, read by the token's own statement).
    with django_assert_num_queries(1):
        assert overridden(api) == [False, False, False]
    curator = User.objects.create_user("ada", is_staff=True)
    curator.groups.add(curators_group())
    reference = store.versions.get().extractions.get().references.order_by("reference_index").first()
    apply_override(reference_id=reference.pk, field="title", value="The title from the PDF", reason="misparsed",
                   curator=curator, expected_revision=revision_of(reference.pk))
    assert overridden(api) == [True, False, False]


def test_new_papers_and_references_show_in_the_next_page(client, store):
    assert [p["arxiv_id"] for p in client.get("/api/v1/papers/").json()["results"]] == ["2601.00001"]
    make_paper("2601.00002")
    make_references(make_paper("2601.00003"), 2)
    papers = [p["arxiv_id"] for p in client.get("/api/v1/papers/").json()["results"]]
    # make_paper writes no generation (a test helper); new references do, as every writer of links does.
    assert "2601.00003" in papers
    assert len(client.get("/api/v1/observations/").json()["results"]) == 5


def test_staff_and_the_public_never_get_each_others_page(store, client, admin_client):
    curator = User.objects.create_user("ada", is_staff=True)
    curator.groups.add(curators_group())
    reference = store.versions.get().extractions.get().references.first()
    apply_override(reference_id=reference.pk, field="year", value="2021", reason="year of the venue",
                   curator=curator, expected_revision=revision_of(reference.pk))
    assert client.get("/api/v1/overrides/").json()["results"][0]["curator"] is None
    assert admin_client.get("/api/v1/overrides/").json()["results"][0]["curator"] == "ada"
    assert client.get("/api/v1/overrides/").json()["results"][0]["curator"] is None


def test_next_links_name_the_host_the_page_was_asked_on(client, store, settings):
    settings.ALLOWED_HOSTS = ["a.example", "b.example"]
    one = client.get("/api/v1/observations/?page_size=1", HTTP_HOST="a.example").json()["next"]
    two = client.get("/api/v1/observations/?page_size=1", HTTP_HOST="b.example").json()["next"]
    assert one.startswith("http://a.example/") and two.startswith("http://b.example/")


def test_errors_are_not_cached_and_the_browsable_api_is_built_each_time(client, store):
    assert client.get("/api/v1/observations/?ordering=reference_index").status_code == 400
    assert client.get("/api/v1/observations/?cursor=garbage").status_code == 400
    assert not local_pages._entries
    page = client.get("/api/v1/observations/", HTTP_ACCEPT="text/html")
    assert page.status_code == 200 and b"<html" in page.content.lower()


def test_with_the_cache_down_pages_are_built_from_the_database(client, store, settings):
    settings.CACHES = CLOSED_PORT_CACHE
    local_pages.clear()
    assert len(client.get("/api/v1/observations/").json()["results"]) == 3


# --- the jobs list: cached under its own generation, which every write of a job bumps -----------------


def jobs_listed(api) -> list[tuple]:
    return [(j["id"], j["state"], j["done_chunks"], j["total_chunks"])
            for j in api.get("/api/v1/jobs/").json()["results"]]


def test_a_jobs_progress_shows_in_the_next_page_though_the_page_was_cached(operator_api, store,
                                                                             django_assert_num_queries):
    from citations.models import Job, JobChunk

    job = Job.objects.create(kind="resolve", total_chunks=2)
    JobChunk.objects.bulk_create([JobChunk(job=job, index=n) for n in range(2)])
    assert jobs_listed(operator_api) == [(job.pk, "queued", 0, 2)]
    # Cached: the token, read with the lists' generations and the permissions; no read of the jobs.
    with django_assert_num_queries(1):
        assert jobs_listed(operator_api) == [(job.pk, "queued", 0, 2)]
    first, second = job.chunks.order_by("index")
    assert first.claim()                                    # a queryset update of the job
    assert jobs_listed(operator_api) == [(job.pk, "running", 0, 2)]
    first.complete({"references": 3})                       # Job.save
    assert jobs_listed(operator_api) == [(job.pk, "running", 1, 2)]
    second.complete({})
    assert jobs_listed(operator_api) == [(job.pk, "succeeded", 2, 2)]
    later = Job.objects.create(kind="standing.sync")
    assert [row[0] for row in jobs_listed(operator_api)] == [later.pk, job.pk]


def test_a_running_job_does_not_empty_the_cache_of_the_other_lists(client, store, django_assert_num_queries):
    from citations.models import Job

    assert len(client.get("/api/v1/observations/").json()["results"]) == 3
    Job.objects.create(kind="resolve", total_chunks=1)
    Job.objects.filter(kind="resolve").update(state="running")
    with django_assert_num_queries(1):                      # still cached: the lists' generation only
        assert len(client.get("/api/v1/observations/").json()["results"]) == 3


def test_a_job_write_that_rolls_back_leaves_the_cached_page_right(operator_api, store):
    from django.db import transaction

    from citations.models import Job

    job = Job.objects.create(kind="resolve", total_chunks=1)
    assert jobs_listed(operator_api) == [(job.pk, "queued", 0, 1)]
    with pytest.raises(RuntimeError), transaction.atomic():
        Job.objects.filter(pk=job.pk).update(state="failed")
        raise RuntimeError("the worker died before it committed")
    assert jobs_listed(operator_api) == [(job.pk, "queued", 0, 1)]
