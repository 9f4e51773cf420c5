"""Every queue can be emptied (issue 31, item 9): a curator confirms a reference as read correctly,
links it to a work the store does not hold yet (created from its DOI or arXiv id, filled when its
metadata arrives), or corrects its reference number; an override that changes nothing is refused."""
import json

import pytest

from citations.input_files import lines_of
from citations.models import CitedWork, Override, PaperReference
from citations.records.build import build_record
from citations.works.importer import import_works
from curation.queues import queue_counts
from curation.services import OverrideRefused, apply_override, revision_of, withdraw_override
from tests.curation.conftest import seed_reference
from tests.factories import make_paper, make_references


def override(reference, curator, field, value=None, reason="Checked against the PDF"):
    return apply_override(reference_id=reference.pk, field=field, value=value, reason=reason, curator=curator,
                          expected_revision=revision_of(reference.pk))


def outbound(arxiv_id: str, reference: PaperReference) -> dict:
    record = build_record(arxiv_id=arxiv_id).record
    return next(o for o in record["outbound"] if o["observation_id"] == str(reference.pk))


@pytest.fixture
def untitled(db):
    """A reference with no title parsed, unresolved."""
    [reference] = make_references(make_paper("2501.00007"), 1, titled=False, year=1781)
    return reference


def test_checked_correct_takes_a_reference_out_of_every_queue_it_waits_in(untitled, curator):
    before = queue_counts()
    entry = override(untitled, curator, "checked")
    after = queue_counts()
    assert (after["no_title"], after["unresolved"], after["old_year"]) == (
        before["no_title"] - 1, before["unresolved"] - 1, before["old_year"] - 1)
    assert (entry.field, entry.action, entry.shown_value) == ("checked", "set", "checked: read correctly")
    with pytest.raises(OverrideRefused, match="already checked"):
        override(untitled, curator, "checked", reason="again")
    # Withdrawn, it waits again.
    withdraw_override(override_id=entry.pk, reason="Not so sure", curator=curator,
                      expected_revision=revision_of(untitled.pk))
    assert queue_counts()["no_title"] == before["no_title"]


def test_a_no_op_override_is_refused_with_a_sentence(untitled, curator):
    with pytest.raises(OverrideRefused, match=r"^\['Not saved: the year is already 1781; an override must change"):
        override(untitled, curator, "year", "1781")
    with pytest.raises(OverrideRefused, match="the reference number is already 1"):
        override(untitled, curator, "index", "1")
    assert not Override.objects.exists()


def test_a_link_to_a_doi_the_store_does_not_hold_creates_the_work_and_its_metadata_fills_it(untitled, curator):
    entry = override(untitled, curator, "link", "doi:10.5555/Later.1")
    work = CitedWork.objects.get(doi="10.5555/later.1")
    assert entry.link_work == work and work.title is None and work.metadata_source == "curation"
    assert outbound("2501.00007", untitled)["citation"]["cited_work"]["work_id"] == str(work.pk)
    assert queue_counts()["unresolved"] == 0

    crossref = {"DOI": "10.5555/later.1", "title": ["A work that arrived later"], "type": "journal-article",
                "issued": {"date-parts": [[2020]]}}
    # (Now: a record dated before the work was written from the DOI is refused as back-dated.)
    import_works(lines_of(json.dumps(crossref).encode()), source="crossref")
    assert CitedWork.objects.filter(doi="10.5555/later.1").count() == 1          # the same work, filled
    cited = outbound("2501.00007", untitled)["citation"]["cited_work"]
    assert (cited["work_id"], cited["title"], cited["year"]) == (str(work.pk), "A work that arrived later", 2020)
    # Linked again to the same work: nothing would change.
    with pytest.raises(OverrideRefused, match="already linked"):
        override(untitled, curator, "link", "10.5555/later.1", reason="again")


def test_a_link_to_an_arxiv_id_not_held_creates_the_work(untitled, curator):
    entry = override(untitled, curator, "link", "arXiv:2412.01234v2")
    assert (entry.link_paper, entry.link_work.arxiv_id, entry.link_work.doi) == (None, "2412.01234", None)


def test_a_corrected_reference_number_shows_in_the_record_and_the_api(seeds, curator, client):
    reference = seed_reference("2509.11076", 54)
    entry = override(reference, curator, "index", "[1781]", reason="The PDF prints [1781]; the index was lost")
    assert (entry.value_index, entry.previous_text, entry.shown_value) == (1781, "54", "[1781]")
    observation = outbound("2509.11076", reference)
    assert observation["citation"]["reference_index"] == 1781
    record = build_record(arxiv_id="2509.11076").record
    indexes = [o["citation"]["reference_index"] for o in record["outbound"]]
    assert indexes == sorted(indexes) and 1781 in indexes and 54 not in indexes      # in its place
    page = "/api/v1/observations/?citing_paper=2509.11076&ordering=reference_index&page_size=100"
    listed = client.get(page).json()["results"]
    shown = next(o for o in listed if o["observation_id"] == str(reference.pk))
    assert (shown["reference_index"], shown["curated"]) == (1781, {"index": entry.pk})
    assert client.get(f"/api/v1/observations/{reference.pk}/").json()["reference_index"] == 1781


def test_a_curator_checks_a_page_of_the_queue_at_once(client, curator, untitled):
    client.force_login(curator)
    changelist = "/admin/citations/paperreference/"
    confirm = client.post(f"{changelist}?queue=no_title", {"action": "mark_checked",
                                                           "_selected_action": [str(untitled.pk)]})
    assert "Mark as checked, read correctly" in confirm.content.decode()
    chosen = {"action": "mark_checked", "_selected_action": [str(untitled.pk)]}
    done = client.post(f"{changelist}?queue=no_title", {**chosen, "apply": "1", "reason": "Author-year references"},
                       follow=True)
    assert "Marked 1 reference(s) as checked, read correctly" in done.content.decode()
    assert queue_counts()["no_title"] == 0
