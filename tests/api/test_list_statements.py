"""The standing events, overrides and jobs lists cost a fixed number of statements a page: the same for
two rows as for forty (papers, works and observations have their own such tests)."""
from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth.models import Permission, User
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from citations.api.page_cache import local_pages
from citations.models import Job, ScholarlyWorkEvent
from curation.groups import curators_group
from curation.services import apply_override, revision_of
from tests.api.conftest import token_client
from tests.factories import make_paper, make_references

pytestmark = pytest.mark.django_db
T0 = datetime(2026, 3, 1, tzinfo=UTC)


def add_rows(count: int, start: int, curator) -> None:
    paper = make_paper(f"2601.{start:05d}")
    for n, reference in enumerate(make_references(paper, count)):
        ScholarlyWorkEvent.objects.create(source="crossref", source_record_id=f"notice-{start + n}",
                                          event_type="retraction", subject_doi=f"10.1234/w.{start + n}",
                                          observed_at=T0 + timedelta(minutes=start + n))
        apply_override(reference_id=reference.pk, field="year", value=2000 + n % 20, reason="printed year",
                       curator=curator, expected_revision=revision_of(reference.pk))
        Job.objects.create(kind="resolve", arguments={"paper": paper.arxiv_id})


@pytest.mark.parametrize("path", ["/api/v1/standing-events/", "/api/v1/overrides/", "/api/v1/jobs/"])
def test_a_list_page_costs_the_same_statements_for_two_rows_and_for_forty(path):
    curator = User.objects.create_user("ada", is_staff=True)
    curator.groups.add(curators_group())
    reader = User.objects.create_user("reader", is_staff=True)       # staff see curators' names too
    reader.user_permissions.add(Permission.objects.get(codename="view_job"))
    client = token_client(reader)

    def statements() -> tuple[int, int]:
        local_pages.clear()
        cache.clear()
        with CaptureQueriesContext(connection) as queries:
            response = client.get(path)
        assert response.status_code == 200
        return len(queries), len(response.json()["results"])

    add_rows(2, 1, curator)
    client.get(path)                        # settle first-request costs (content types, permissions)
    few, listed = statements()
    assert listed >= 2                      # (an override queues jobs of its own)
    add_rows(38, 100, curator)
    many, listed_now = statements()
    assert listed_now >= 40 and many == few
