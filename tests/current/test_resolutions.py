"""reference_current_resolutions stays what the append-only log says, written by every writer of links."""
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.utils import timezone

from citations.api.page_cache import local_pages
from citations.current.resolutions import rebuild
from citations.models import CurrentResolution, PaperReference, PaperReferenceLink
from citations.resolution.service import resolve_paper
from curation.services import apply_override, revision_of, withdraw_override
from tests.factories import make_paper, make_references

COLUMNS = ("reference_id", "link_id", "state", "resolver_source", "cited_paper_id", "cited_work_id", "resolved_at",
           "citing_paper_id", "source", "observed_at", "reference_index", "doi", "curated")


def table() -> set[tuple]:
    return set(CurrentResolution.objects.values_list(*COLUMNS))


def newest_links() -> dict:
    newest = {}
    for link in PaperReferenceLink.objects.order_by("observed_at", "id"):
        newest[link.reference_id] = link.pk
    return newest


def test_every_writer_keeps_the_table_equal_to_its_rebuild_from_the_log(seeds, curator):
    resolve_paper(arxiv_id="2509.11076")
    reference = PaperReference.objects.filter(extraction__paper_version__paper__arxiv_id="2509.11076").first()
    entry = apply_override(reference_id=reference.pk, field="title", value="A title read from the PDF",
                           reason="the parse took the authors", curator=curator, expected_revision=0)
    apply_override(reference_id=reference.pk, field="link", value="2509.23722", reason="the paper it cites",
                   curator=curator, expected_revision=revision_of(reference.pk))
    withdraw_override(override_id=entry.pk, reason="the title was right", curator=curator,
                      expected_revision=revision_of(reference.pk))
    held = table()
    assert {row[0]: row[1] for row in held} == newest_links()
    assert len(held) == PaperReference.objects.count()
    assert CurrentResolution.objects.get(reference=reference).curated is True       # the link is in force
    assert rebuild() == len(held) and table() == held


def test_an_older_link_written_later_does_not_become_current(db):
    from citations.current.resolutions import links_written

    (reference,) = make_references(make_paper("2601.00001"), 1)
    newest = CurrentResolution.objects.get(reference=reference).link_id
    older = PaperReferenceLink.objects.create(reference=reference, state="parse_uncertain",
                                              observed_at=reference.observed_at - timedelta(days=1))
    links_written([older.pk])
    assert CurrentResolution.objects.get(reference=reference).link_id == newest


def test_the_changes_feed_lists_what_changed_after_a_time_in_order(seeds, curator, client):
    since = timezone.now()
    assert client.get("/api/v1/changes/", {"since": since.isoformat()}).json()["results"] == []
    reference = PaperReference.objects.filter(extraction__paper_version__paper__arxiv_id="2509.23722").first()
    apply_override(reference_id=reference.pk, field="year", value=2023, reason="the year printed", curator=curator,
                   expected_revision=0)
    resolve_paper(arxiv_id="2509.11076")
    changes = client.get("/api/v1/changes/", {"since": since.isoformat(), "page_size": 200}).json()["results"]
    ids = [change["observation_id"] for change in changes]
    assert ids[0] == str(reference.pk) and changes[0]["has_override"] is True
    assert [c["changed_at"] for c in changes] == sorted(c["changed_at"] for c in changes)
    resolved = set(CurrentResolution.objects.filter(changed_at__gt=since).values_list("reference_id", flat=True))
    assert {str(r) for r in resolved} == set(ids)


@pytest.mark.parametrize("path", ["/api/v1/observations/?state=unresolved", "/api/v1/observations/",
                                  "/api/v1/observations/?citing_paper=2601.00001&ordering=reference_index",
                                  "/api/v1/observations/?cited_paper=2601.00002", "/api/v1/observations/?doi=10.1/X",
                                  "/api/v1/observations/?has_override=true", "/api/v1/changes/?since=2020-01-01T00:00:00Z"])
def test_a_list_page_costs_the_same_statements_for_ten_and_for_a_hundred_references(db, client, path,
                                                                                  django_assert_num_queries):
    citing, cited = make_paper("2601.00001"), make_paper("2601.00002")
    make_references(citing, 10, cites=cited, state="verified_exact", resolver_source="arxiv_id")
    client.get(path)                                     # settle first-request costs (content types, sessions)
    local_pages.clear()
    cache.clear()
    with django_assert_num_queries(2) as small:          # the lists' generation, then the page
        client.get(path)
    with django_assert_num_queries(1):                   # again: the generation alone, the page from the cache
        client.get(path)
    make_references(citing, 90, cites=cited, state="verified_exact", resolver_source="arxiv_id", version=2,
                    start_index=11)
    with django_assert_num_queries(len(small.captured_queries)):
        response = client.get(path)
    assert response.status_code == 200
