"""A curator's "split here" and "join with next": a corrected list, the observed one kept, audited."""
import pytest

from citations.models import Override, PaperReference, PaperReferenceLink, ReferenceExtraction
from citations.records.build import build_record
from citations.resolution.index import index_paper_titles
from citations.sources.reference_lists import ReferenceList, ingest_reference_list
from curation.segmentation import join_with_next, joined_text, split_reference, successors
from curation.services import OverrideRefused, StaleRevision, apply_override, revision_of, withdraw_override
from tests.factories import make_paper

CITING = "2601.00001"
TENSORFLOW_HEAD = ("Martín Abadi, Paul Barham, Jianmin Chen, Zhifeng Chen, Andy Davis, Jeffrey Dean, Matthieu Devin, "
                   "Sanjay Ghemawat, Geoffrey Irving, Michael Isard, Manjunath Kudlur, Josh Levenberg, Rajat Monga, "
                   "Sherry Moore, Derek G.")
TENSORFLOW_TAIL = ("Murray, Benoit Steiner, Paul Tucker, Vijay Va- sudevan, Pete Warden, Martin Wicke, Yuan Yu, and "
                   "Xiaoqiang Zheng. TensorFlow: A system for large-scale machine learning. In OSDI, pages 265–283, "
                   "2016.")
ZERO = ("Samyam Rajbhandari, Jeff Rasley, Olatunji Ruwase, and Yuxiong He. ZeRO: Memory optimizations toward "
        "training trillion parameter models. In SC20, pages 1–16, 2020.")
MEGATRON = ("Mohammad Shoeybi, Mostofa Patwary, Raul Puri, Patrick LeGresley, Jared Casper, and Bryan Catanzaro. "
            "Megatron-LM: Training multi-billion parameter language models using model parallelism. "
            "arXiv:1909.08053, 2019.")
GPIPE = ("Yanping Huang, Youlong Cheng, Ankur Bapna, Orhan Firat, Mia Xu Chen, Dehao Chen, HyoukJoong Lee, Jiquan "
         "Ngiam, Quoc V. Le, Yonghui Wu, and Zhifeng Chen. GPipe: Efficient training of giant neural networks using "
         "pipeline parallelism. In NeurIPS, 2019.")
# As an extractor cut it: [1] and [2] are one reference cut in two, [3] is two run together.
EXTRACTED = ((1, TENSORFLOW_HEAD), (2, TENSORFLOW_TAIL), (3, f"{ZERO} {MEGATRON}"), (4, GPIPE))


@pytest.fixture
def extracted(db):
    held = make_paper("1909.08053", title="Megatron-LM: Training Multi-Billion Parameter Language Models Using "
                                          "Model Parallelism")
    index_paper_titles(paper_ids=[held.pk])
    make_paper(CITING)
    _, ids = ingest_reference_list(ReferenceList(CITING, 1, "pdf_text", EXTRACTED, pages=(9, 9, 9, 10)))
    return [PaperReference.objects.get(pk=pk) for pk in ids]


def outbound() -> list[dict]:
    return build_record(arxiv_id=CITING).record["outbound"]


def split(reference, curator, before, reason="Two references run together", revision=None):
    return split_reference(reference_id=reference.pk, before=before, reason=reason, curator=curator,
                           expected_revision=revision_of(reference.pk) if revision is None else revision)


def join(reference, curator, reason="One reference cut at a line break", revision=None):
    return join_with_next(reference_id=reference.pk, reason=reason, curator=curator,
                          expected_revision=revision_of(reference.pk) if revision is None else revision)


def test_a_split_shows_two_references_and_the_second_resolves(extracted, curator, django_capture_on_commit_callbacks):
    before = outbound()
    with django_capture_on_commit_callbacks(execute=True):
        entry = split(extracted[2], curator, "Mohammad Shoeybi, Mostofa")
    rows = outbound()
    assert [o["citation"]["reference_index"] for o in rows] == [1, 2, 3, 4, 5]
    assert [o["citation"]["cited_work"]["title"] for o in rows[2:]] == [
        "ZeRO: Memory optimizations toward training trillion parameter models",
        "Megatron-LM: Training Multi-Billion Parameter Language Models Using Model Parallelism",   # the held paper's
        "GPipe: Efficient training of giant neural networks using pipeline parallelism"]
    assert [o["citation"]["cited_work"] for o in rows[:2]] == [o["citation"]["cited_work"] for o in before[:2]]
    assert rows[3]["resolution"]["status"] == "verified_exact"
    assert rows[3]["citation"]["cited_paper"]["arxiv_id"] == "1909.08053"
    assert [o["citation"]["source"] for o in rows] == ["pdf_text"] * 5
    # The audit entry says what was cut where, and names the list it wrote.
    assert (entry.field, entry.previous_text, entry.split_at) == ("split", f"{ZERO} {MEGATRON}", len(ZERO) + 1)
    assert entry.value_text.startswith("Mohammad Shoeybi") and entry.result_list.corrects_id == extracted[0].extraction_id
    assert [p.raw_text for p in entry.parts] == [ZERO, MEGATRON] and [p.page for p in entry.parts] == [9, 9]


def test_the_list_as_extracted_is_kept_and_still_shown_as_of_before(extracted, curator):
    from django.utils import timezone

    before_the_split = timezone.now()
    before = build_record(arxiv_id=CITING, as_of=before_the_split).record
    split(extracted[2], curator, "Mohammad Shoeybi")
    original = PaperReference.objects.filter(extraction_id=extracted[0].extraction_id).order_by("reference_index")
    assert [(r.reference_index, r.raw_text) for r in original] == list(EXTRACTED)
    assert len(outbound()) == 5
    assert build_record(arxiv_id=CITING, as_of=before_the_split).record == before


def test_a_join_mends_the_author_list_cut_at_a_line_break(extracted, curator, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        entry = join(extracted[0], curator)
    rows = outbound()
    assert [o["citation"]["reference_index"] for o in rows] == [1, 2, 3]
    assert rows[0]["citation"]["cited_work"]["title"] == "TensorFlow: A system for large-scale machine learning"
    assert rows[0]["citation"]["cited_work"]["year"] == 2016
    assert entry.parts[0].raw_text == f"{TENSORFLOW_HEAD} {TENSORFLOW_TAIL}"
    assert entry.join_with_id == extracted[1].pk
    # The old reference leads to the joined one; the one it absorbed leads nowhere else.
    assert [r.pk for r in successors(extracted[0])] == [entry.parts[0].pk]
    assert successors(extracted[1]) == []


def test_joining_puts_a_word_broken_at_the_seam_back_together():
    assert joined_text("Vijay Va-", "sudevan, Pete Warden.") == "Vijay Vasudevan, Pete Warden."
    assert joined_text("Attention with Multi-", "Head layers.") == "Attention with Multi-Head layers."
    assert joined_text("Derek G.", "Murray") == "Derek G. Murray"


def test_carried_references_keep_their_resolution_and_overrides(extracted, curator, other_curator):
    gpipe = extracted[3]
    override = apply_override(reference_id=gpipe.pk, field="year", value="2018", reason="The arXiv version",
                              curator=other_curator, expected_revision=0)
    before = {o["citation"]["reference_index"]: o for o in outbound()}
    split(extracted[2], curator, "Mohammad Shoeybi")
    after = {o["citation"]["reference_index"]: o for o in outbound()}
    # GPipe moved from [4] to [5]; what it shows is the same, under a new observation id.
    assert after[5]["citation"]["cited_work"] == before[4]["citation"]["cited_work"]
    assert after[5]["citation"]["cited_work"]["year"] == 2018
    assert after[5]["resolution"] == before[4]["resolution"]
    assert after[5]["observation_id"] != before[4]["observation_id"]
    carried = Override.objects.get(reference_id=after[5]["observation_id"])
    assert (carried.carried_from_id, carried.curator, carried.reason, carried.value_year) == (
        override.pk, other_curator, "The arXiv version", 2018)
    # The old entry is untouched, and still in force on the old observation.
    assert Override.objects.in_force().filter(pk=override.pk).exists()


def test_overrides_of_a_cut_reference_are_reported_not_carried(extracted, curator):
    entry = apply_override(reference_id=extracted[2].pk, field="title", value="ZeRO", reason="From the PDF",
                           curator=curator, expected_revision=0)
    correction = split(extracted[2], curator, "Mohammad Shoeybi")
    assert [e.pk for e in correction.not_carried] == [entry.pk]
    assert not Override.objects.filter(carried_from=entry).exists()


def test_ingesting_the_same_list_again_keeps_the_correction(extracted, curator):
    split(extracted[2], curator, "Mohammad Shoeybi")
    outcome, _ = ingest_reference_list(ReferenceList(CITING, 1, "pdf_text", EXTRACTED, pages=(9, 9, 9, 10)))
    assert outcome == "unchanged" and len(outbound()) == 5


def test_a_new_extraction_replaces_the_corrected_list(extracted, curator):
    split(extracted[2], curator, "Mohammad Shoeybi")
    outcome, _ = ingest_reference_list(ReferenceList(CITING, 1, "pdf_text", ((1, ZERO), (2, MEGATRON))))
    assert outcome == "created" and len(outbound()) == 2


@pytest.mark.parametrize("before, message", [
    ("Yoshua Bengio", "is not in this reference's raw text"),
    ("and", "occurs 2 times"),
    ("egatron-LM", "is not in this reference's raw text"),       # only from a word's start
    ("Samyam Rajbhandari", "already begins there"),
    ("   ", "Say where to split"),
])
def test_a_split_the_text_does_not_support_is_refused_and_writes_nothing(extracted, curator, before, message):
    with pytest.raises(OverrideRefused, match=message):
        split(extracted[2], curator, before)
    assert ReferenceExtraction.objects.count() == 1 and Override.objects.count() == 0


def test_the_last_reference_has_nothing_to_join(extracted, curator):
    with pytest.raises(OverrideRefused, match="last reference of its list"):
        join(extracted[3], curator)


def test_a_stale_page_and_a_replaced_list_are_refused(extracted, curator, other_curator):
    apply_override(reference_id=extracted[2].pk, field="year", value="2018", reason="From the PDF",
                   curator=other_curator, expected_revision=0)
    with pytest.raises(StaleRevision):
        split(extracted[2], curator, "Mohammad Shoeybi", revision=0)
    split(extracted[2], curator, "Mohammad Shoeybi")
    # The list as extracted is no longer the record's: a second curator working from it is refused.
    with pytest.raises(OverrideRefused, match="a curator corrected it"):
        join(extracted[0], other_curator)
    assert ReferenceExtraction.objects.count() == 2


def test_only_curators_correct_lists(extracted, staff_reader):
    with pytest.raises(OverrideRefused, match="Only curators"):
        split(extracted[2], staff_reader, "Mohammad Shoeybi")


def test_a_correction_is_undone_by_the_opposite_one_not_withdrawn(extracted, curator):
    entry = split(extracted[2], curator, "Mohammad Shoeybi")
    with pytest.raises(OverrideRefused, match="not withdrawn"):
        withdraw_override(override_id=entry.pk, reason="Oops", curator=curator,
                          expected_revision=revision_of(extracted[2].pk))
    with pytest.raises(OverrideRefused, match="correction of the list"):
        apply_override(reference_id=extracted[2].pk, field="split", value="x", reason="Oops", curator=curator,
                       expected_revision=revision_of(extracted[2].pk))
    join(entry.parts[0], curator, reason="They were one after all")
    assert [o["citation"]["cited_work"]["title"] for o in outbound()][2].startswith("ZeRO")
    assert len(outbound()) == 4


def test_the_new_references_are_new_observations_named_on_the_public_audit_list(extracted, curator, client):
    entry = split(extracted[2], curator, "Mohammad Shoeybi")
    # Not yet resolved (nothing ran the commit's job here): unresolved, and saying why.
    links = PaperReferenceLink.objects.filter(reference__in=entry.parts)
    assert [(link.state, link.evidence["stage"][:34]) for link in links] == [
        ("unresolved", "cut anew by a curator (split in tw")] * 2
    html = client.get("/curation/overrides/").content.decode()
    assert "split in two, the second beginning “Mohammad Shoeybi" in html


# --- the admin reference page ------------------------------------------------------------------------


def change_page(reference) -> str:
    return f"/admin/citations/paperreference/{reference.pk}/change/"


def test_the_reference_page_offers_split_and_join_next_to_the_raw_text(extracted, curator, client):
    client.force_login(curator)
    html = client.get(change_page(extracted[2])).content.decode()
    assert "Correct how the list is cut" in html and 'id="split-form"' in html and 'id="join-form"' in html
    assert 'id="join-form"' not in client.get(change_page(extracted[3])).content.decode()   # the last has no next


def test_a_split_posted_from_the_page_leads_to_the_first_part(extracted, curator, client,
                                                             django_capture_on_commit_callbacks):
    client.force_login(curator)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(change_page(extracted[2]).replace("change/", "split/"), {
            "before": "Mohammad  Shoeybi,\nMostofa", "reason": "Two references run together", "revision": 0})
    first = PaperReference.objects.get(derived_from=extracted[2], raw_text=ZERO)
    assert response.status_code == 302 and response["Location"] == change_page(first)
    html = client.get(response["Location"]).content.decode()
    assert "split in two, [3] and [4] in a corrected list" in html
    assert "it comes from" in html


def test_the_page_of_a_replaced_reference_leads_to_its_successor_and_offers_no_forms(extracted, curator, client):
    join(extracted[0], curator)
    client.force_login(curator)
    html = client.get(change_page(extracted[0])).content.decode()
    assert "This list was cut anew" in html and "curate it there" in html
    assert 'id="override-form"' not in html and 'id="split-form"' not in html


def test_a_refused_split_says_why_on_the_page(extracted, curator, client):
    client.force_login(curator)
    response = client.post(change_page(extracted[2]).replace("change/", "split/"), {
        "before": "Yoshua Bengio", "reason": "Two references run together", "revision": 0}, follow=True)
    assert "Not split" in response.content.decode() and "is not in this reference" in response.content.decode()
    assert ReferenceExtraction.objects.count() == 1


def test_replaced_references_leave_the_queues_and_their_successors_wait_instead(extracted, curator):
    from curation.queues import QUEUES_BY_KEY, reference_queryset

    unresolved = QUEUES_BY_KEY["unresolved"]
    waiting = lambda: set(reference_queryset().filter(unresolved.waiting()).values_list("raw_text", flat=True))
    assert f"{ZERO} {MEGATRON}" in waiting()
    split(extracted[2], curator, "Mohammad Shoeybi")
    assert f"{ZERO} {MEGATRON}" not in waiting() and {ZERO, MEGATRON} <= waiting()
    assert PaperReference.objects.count() == 9


def test_a_purge_removes_corrected_lists_with_the_others(extracted, curator, django_user_model):
    from citations.purge import purge_references

    join(extracted[0], curator)
    operator = django_user_model.objects.create_user("op", password="pw-op-1234567", is_staff=True)
    entry = purge_references(arxiv_id=CITING, reason="The author asked for a takedown", operator=operator)
    assert entry.counts["reference_extractions"] == 2
    assert not PaperReference.objects.filter(extraction__paper_version__paper__arxiv_id=CITING).exists()


@pytest.mark.parametrize("field, value", [("title", "A title a curator read"), ("year", "2016"), ("not_a_work", True)])
def test_an_override_on_a_reference_of_a_joined_list_is_refused_and_writes_nothing(extracted, curator, field, value):
    join(extracted[0], curator)
    entries = Override.objects.count()
    # [4] was carried into the corrected list as a new observation: the old one no record shows.
    with pytest.raises(OverrideRefused, match="a curator corrected it") as refused:
        apply_override(reference_id=extracted[3].pk, field=field, value=value, reason="Read from the PDF",
                       curator=curator, expected_revision=revision_of(extracted[3].pk))
    assert refused.value.field == "revision" and Override.objects.count() == entries


def test_an_override_on_a_reference_of_a_list_a_newer_ingest_replaced_is_refused(extracted, curator):
    ingest_reference_list(ReferenceList(CITING, 1, "pdf_text", ((1, ZERO),)))
    with pytest.raises(OverrideRefused, match="a newer pdf_text list replaced it"):
        apply_override(reference_id=extracted[2].pk, field="year", value="2020", reason="From the PDF",
                       curator=curator, expected_revision=0)
