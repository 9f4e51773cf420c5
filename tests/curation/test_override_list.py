"""/curation/overrides/: every public audit entry, newest first, filterable by citing paper."""
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from curation.services import apply_override, revision_of, withdraw_override
from tests.curation.conftest import seed_reference


def override(reference, curator, field, value, reason):
    return apply_override(reference_id=reference.pk, field=field, value=value, reason=reason, curator=curator,
                          expected_revision=revision_of(reference.pk))


@pytest.fixture
def entries(access_date, megatron, curator):
    """Two corrections of 2509.11076, one withdrawn; one of the other seed (2509.23722)."""
    title = override(access_date, curator, "title", "NVIDIA Megatron-LM", "The URL names the software")
    override(megatron, curator, "year", "2019", "1909 was read from arXiv:1909.08053")
    withdrawal = withdraw_override(override_id=title.pk, reason="Checked again: keep the PDF's text", curator=curator,
                                   expected_revision=revision_of(access_date.pk))
    other = seed_reference("2509.23722", 1)
    override(other, curator, "year", "2021", "The venue's year")
    return title, withdrawal


def test_the_list_shows_every_entry_newest_first_with_its_change_reason_and_status(client, entries):
    title, withdrawal = entries
    html = client.get("/curation/overrides/").content.decode()
    assert "4 entries" in html
    assert html.index("arXiv:2509.23722 [1]") < html.index(f"#{withdrawal.pk}") < html.index("arXiv:2509.11076 [54]")
    assert "Accessed: 2025-06 → <strong>NVIDIA Megatron-LM</strong>" in html
    assert f'Withdrawn by <a href="/curation/overrides/{withdrawal.pk}">' in html
    assert "1909 was read from arXiv:1909.08053" in html
    assert "by ada" not in html                      # curators' names are for staff only


def test_the_list_filters_by_citing_paper(client, entries):
    html = client.get("/curation/overrides/?paper=arXiv:2509.11076v1").content.decode()
    assert "3 entries on references of arXiv:2509.11076" in html
    assert "2509.23722" not in html.split("<table", 1)[1]
    assert "No curator has corrected a reference of arXiv:2401.00001" in (
        client.get("/curation/overrides/?paper=2401.00001").content.decode())


def test_staff_see_who_made_each_entry(client, entries, curator):
    client.force_login(curator)
    assert "by ada" in client.get("/curation/overrides/").content.decode()


@pytest.mark.parametrize("query, words", [
    ("?paper=2513.00001", "month 13 does not exist"),
    ("?page=0", "page must be a whole number"),
    ("?page=2", "there is no page 2"),
    ("?sort=date", "sort is not one of them"),
])
def test_bad_parameters_get_a_sentence_not_a_list(client, entries, query, words):
    response = client.get(f"/curation/overrides/{query}")
    assert response.status_code == 400
    assert words in response.content.decode()


def test_a_page_costs_the_same_statements_for_one_entry_or_many(client, access_date, curator):
    override(access_date, curator, "title", "Megatron-LM", "First reading")
    with CaptureQueriesContext(connection) as one:
        client.get("/curation/overrides/")
    for n in range(6):
        override(access_date, curator, "title", f"Megatron-LM {n}", "Read again")
    with CaptureQueriesContext(connection) as many:
        html = client.get("/curation/overrides/").content.decode()
    assert len(many) == len(one)
    assert html.count("Replaced by a newer entry for this field") == 6
