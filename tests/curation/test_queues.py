"""The curator's day (issue 12, items 11-15): queues list what still needs a decision and empty as
decisions are made; they start on the admin home; each queued reference shows what a curator checks
against; lists read in the paper's order; a reference can be linked by DOI or arXiv id."""
from urllib.parse import quote

import pytest

from citations.models import Override
from curation.queues import queue_counts
from curation.services import apply_override, revision_of
from tests.curation.conftest import seed_reference
from tests.factories import make_paper, make_references

CHANGELIST = "/admin/citations/paperreference/"


@pytest.fixture
def logged_in(client, curator):
    client.force_login(curator)
    return client


def _post_override(client, reference, **fields):
    return client.post(f"{CHANGELIST}{reference.pk}/override/",
                       {"revision": revision_of(reference.pk), **fields}, follow=True)


# 11. A queue lists what still needs a decision; done items leave it and the count falls.

def test_a_decided_reference_leaves_its_queue_and_the_count_falls(logged_in, access_date, curator):
    assert queue_counts()["access_date"] == 8
    _post_override(logged_in, access_date, field="title", value="NVIDIA Megatron-LM", reason="Named by its URL")
    assert queue_counts()["access_date"] == 7
    other = seed_reference("2509.11076", 6)
    apply_override(reference_id=other.pk, field="not_a_work", value=True, curator=curator,
                   reason="A web page, not a scholarly work", expected_revision=revision_of(other.pk))
    assert queue_counts()["access_date"] == 6
    listed = logged_in.get(f"{CHANGELIST}?queue=access_date").content.decode()
    assert "6 results" in listed and f"{access_date.pk}" not in listed


def test_a_year_override_takes_a_reference_out_of_the_year_queue_only(logged_in, megatron):
    before = queue_counts()
    _post_override(logged_in, megatron, field="year", value="2019", reason="1909 was its arXiv id")
    after = queue_counts()
    assert after["arxiv_year"] == before["arxiv_year"] - 1
    assert after["access_date"] == before["access_date"]


# 12. The queues are on the admin home page.

def test_the_admin_home_starts_with_the_queues_and_their_counts(logged_in, access_date):
    html = logged_in.get("/admin/").content.decode()
    assert "Curation queues" in html and html.index("Curation queues") < html.index("Paper references")
    assert f'href="{CHANGELIST}?queue=access_date">Title is an access date</a></th><td class="count">8</td>' in html


# 13. What a curator checks against.

def test_a_queued_reference_shows_its_raw_text_its_paper_on_arxiv_and_its_neighbours(logged_in, access_date):
    html = logged_in.get(f"{CHANGELIST}{access_date.pk}/change/?_changelist_filters="
                         + quote("queue=access_date")).content.decode()
    assert "https://arxiv.org/abs/2509.11076v" in html and "https://arxiv.org/pdf/2509.11076v" in html
    neighbours = [seed_reference("2509.11076", 4), seed_reference("2509.11076", 6)]
    for neighbour in neighbours:
        assert f"{CHANGELIST}{neighbour.pk}/change/" in html
    assert "The source gave no raw text for this reference" in html      # the seeds carry none
    assert "8 waiting · " in html and "next: arXiv:2509.11076 [6]</a>" in html.split("8 waiting · ", 1)[1][:300]


def test_a_reference_with_raw_text_shows_it_as_the_source_gave_it(logged_in, db):
    [reference] = make_references(make_paper("2501.00003"), 1)
    html = logged_in.get(f"{CHANGELIST}{reference.pk}/change/").content.decode()
    assert '<blockquote id="raw-text"' in html and reference.raw_text in html


def test_a_reference_read_from_a_pdf_shows_the_page_it_starts_on(logged_in, db):
    from citations.sources.reference_lists import ReferenceList, ingest_reference_list

    make_paper("2501.00004")
    _, [reference_id] = ingest_reference_list(ReferenceList("2501.00004", 1, "pdf_text",
                                                            ((1, "A. Author. A title. 2020."),), pages=(14,)))
    html = logged_in.get(f"{CHANGELIST}{reference_id}/change/").content.decode()
    assert "(index 1, pdf_text, page 14 of the PDF)" in html


def test_identical_entries_are_told_apart_by_their_index(logged_in, access_date):
    html = logged_in.get(f"{CHANGELIST}{access_date.pk}/change/").content.decode()
    twins = (access_date.extraction.references.filter(title=access_date.title).exclude(pk=access_date.pk)
             .values_list("reference_index", flat=True))
    assert twins and all(f"[{index}]" in html for index in twins)


# 14. Order, the per-paper filter, the field select, messages, times.

def test_a_queue_lists_references_by_paper_then_index(logged_in, access_date):
    html = logged_in.get(f"{CHANGELIST}?queue=access_date").content.decode()
    cells = [cell.split("</a>", 1)[0] for cell in html.split('class="field-index_shown"')[1:]]
    indexes = [int(cell.rsplit("[", 1)[1].split("]", 1)[0]) for cell in cells]
    assert len(indexes) == 8 and indexes == sorted(indexes)       # the eight access dates, one paper


def test_the_per_paper_link_opens_only_that_papers_queued_references_and_says_so(logged_in, access_date):
    html = logged_in.get(f"{CHANGELIST}?queue=parse_uncertain&paper=2509.23722").content.decode()
    assert "arXiv:2509.23722" in html and "arXiv:2509.11076 [" not in html


def test_the_field_select_follows_the_queue_the_curator_came_from(logged_in, megatron):
    html = logged_in.get(f"{CHANGELIST}{megatron.pk}/change/?_changelist_filters="
                         + quote("queue=arxiv_year")).content.decode()
    assert '<option value="year" selected>' in html
    html = logged_in.get(f"{CHANGELIST}{megatron.pk}/change/").content.decode()
    assert '<option value="title" selected>' in html


def test_messages_name_the_reference_as_curators_do(logged_in, access_date):
    saved = _post_override(logged_in, access_date, field="title", value="NVIDIA Megatron-LM", reason="By its URL")
    assert "of arXiv:2509.11076 [5]" in saved.content.decode()
    refused = _post_override(logged_in, access_date, field="year", value="1200", reason="A wrong year")
    assert "Not saved (arXiv:2509.11076 [5])" in refused.content.decode()
    assert str(access_date.pk) not in refused.content.decode().split("messagelist", 1)[1].split("</ul>", 1)[0]


def test_the_bulk_confirmation_has_a_cancel_and_admin_times_name_their_zone(logged_in, access_date):
    confirm = logged_in.post(CHANGELIST, {"action": "mark_not_a_work", "_selected_action": [access_date.pk]})
    assert "Cancel" in confirm.content.decode()
    _post_override(logged_in, access_date, field="title", value="NVIDIA Megatron-LM", reason="By its URL")
    audit = logged_in.get("/admin/citations/override/").content.decode()
    assert " UTC" in audit


# 15. Linking by DOI or arXiv id, with the same audit trail.

def test_a_curator_links_a_reference_by_arxiv_id(logged_in, access_date, client):
    saved = _post_override(logged_in, access_date, field="link", value="arXiv:2509.23722",
                           reason="The PDF cites this paper")
    assert "Saved: link of arXiv:2509.11076 [5]" in saved.content.decode()
    entry = Override.objects.get(field="link")
    assert entry.link_paper.arxiv_id == "2509.23722"
    record = client.get("/paper/2509.11076/citation-record.json").json()
    shown = next(o for o in record["outbound"] if o["observation_id"] == str(access_date.pk))
    assert shown["citation"]["cited_paper"]["arxiv_id"] == "2509.23722"
    assert shown["resolution"]["status"] == "verified_exact" and shown["resolution"]["resolver_source"] == "curation"


def test_a_curator_links_a_reference_by_the_journal_doi_of_a_held_paper(logged_in, access_date):
    make_paper("2301.00007", title="A paper with a journal DOI", doi="10.1000/journal.7")
    saved = _post_override(logged_in, access_date, field="link", value="https://doi.org/10.1000/JOURNAL.7",
                           reason="The DOI printed in the PDF")
    assert "Saved: link of arXiv:2509.11076 [5]" in saved.content.decode()
    assert Override.objects.get(field="link").link_paper.arxiv_id == "2301.00007"


def test_a_link_to_a_doi_the_store_does_not_hold_creates_the_work(logged_in, access_date):
    saved = _post_override(logged_in, access_date, field="link", value="https://doi.org/10.9999/Nowhere",
                           reason="The DOI printed in the PDF")
    assert "Saved: link of" in saved.content.decode()
    entry = Override.objects.get()
    assert (entry.link_work.doi, entry.link_work.title, entry.link_work.metadata_source) == (
        "10.9999/nowhere", None, "curation")
