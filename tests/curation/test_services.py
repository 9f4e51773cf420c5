from datetime import date

import pytest
from django.db import DatabaseError, connection, transaction

from citations.models import Override, PaperReference, PaperReferenceLink
from citations.records.build import build_record
from curation.services import OverrideRefused, StaleRevision, apply_override, revision_of, withdraw_override
from tests.factories import make_paper


def observation(arxiv_id: str, reference: PaperReference) -> dict:
    record = build_record(arxiv_id=arxiv_id).record
    return next(o for o in record["outbound"] if o["observation_id"] == str(reference.pk))


def override(reference, curator, field="title", value="Megatron-LM", reason="Read from the PDF", revision=None):
    return apply_override(reference_id=reference.pk, field=field, value=value, reason=reason, curator=curator,
                          expected_revision=revision_of(reference.pk) if revision is None else revision)


def test_an_override_wins_over_the_parsed_title_and_says_so(access_date, curator):
    before = observation("2509.11076", access_date)
    override(access_date, curator, value="NVIDIA Megatron-LM")
    after = observation("2509.11076", access_date)
    assert after["citation"]["cited_work"]["title"] == "NVIDIA Megatron-LM"
    assert after["citation"]["cited_work"]["metadata_source"] == "curation"
    assert after["observation_digest"] != before["observation_digest"]
    # The observation itself is untouched.
    assert PaperReference.objects.get(pk=access_date.pk).title == "Accessed: 2025-06"


def test_the_audit_entry_says_who_changed_what_from_what_and_why(access_date, curator):
    entry = override(access_date, curator, value="NVIDIA Megatron-LM", reason="The URL names the software")
    assert (entry.field, entry.previous_text, entry.value_text, entry.reason, entry.curator) == (
        "title", "Accessed: 2025-06", "NVIDIA Megatron-LM", "The URL names the software", curator)


def test_the_1909_year_is_corrected_and_the_reference_is_resolved_by_its_id(megatron, curator):
    with _eager_on_commit():
        override(megatron, curator, field="year", value="2019", reason="1909 was read from the arXiv id 1909.08053")
    after = observation("2509.11076", megatron)
    assert after["citation"]["cited_work"]["year"] == 2019
    assert after["resolution"]["status"] == "verified_exact"


def test_withdrawing_shows_the_observed_value_again(access_date, curator):
    before = observation("2509.11076", access_date)
    entry = override(access_date, curator, value="NVIDIA Megatron-LM")
    withdraw_override(override_id=entry.pk, reason="Wrong reference", curator=curator,
                      expected_revision=revision_of(access_date.pk))
    after = observation("2509.11076", access_date)
    assert after["citation"]["cited_work"] == before["citation"]["cited_work"]
    assert Override.objects.filter(reference=access_date).count() == 2      # nothing deleted


def test_a_corrected_title_is_resolved_again_and_can_now_match(db, curator):
    from citations.resolution.index import index_paper_titles
    from citations.sources.reference_lists import ReferenceList, ingest_reference_list

    held = make_paper("2104.07857", title="ZeRO-Infinity: Breaking the GPU Memory Wall for Extreme Scale Deep Learning")
    index_paper_titles(paper_ids=[held.pk])
    make_paper("2601.00001")
    _, (reference_id,) = ingest_reference_list(ReferenceList("2601.00001", 1, "pdf_text", (
        (1, "Samyam Rajbhandari, Olatunji Ruwase. Accessed: 2025-06. 2025."),)))
    reference = PaperReference.objects.get(pk=reference_id)
    with _eager_on_commit():
        override(reference, curator, value="ZeRO-Infinity: Breaking the GPU memory wall for extreme scale deep learning")
    link = PaperReferenceLink.objects.filter(reference=reference).order_by("-id").first()
    assert (link.state, link.cited_paper_id) == ("verified_fuzzy", held.pk)
    assert observation("2601.00001", reference)["resolution"]["status"] == "verified_fuzzy"


@pytest.mark.parametrize("field, value, message", [
    ("year", "1599", "between 1600"),
    ("year", str(date.today().year + 2), "between 1600"),
    ("year", "nineteen", "is not a year"),
    ("title", "   ", "cannot be empty"),
    ("title", "Accessed: 2025-06", "is an access date"),
    ("link", "2599.99999", "is neither a DOI"),
    ("link", "10.1000/" + "y" * 300, "at most 255 characters"),
    ("index", "0", "between 1 and"),
    ("index", "five", "is not a reference number"),
    ("color", "red", "cannot be overridden"),
])
def test_bad_values_are_refused_and_nothing_is_written(access_date, curator, field, value, message):
    with pytest.raises(OverrideRefused, match=message):
        override(access_date, curator, field=field, value=value)
    assert not Override.objects.exists()


def test_a_reason_is_required(access_date, curator):
    with pytest.raises(OverrideRefused, match="a reason is required"):
        override(access_date, curator, reason=" ")


def test_the_second_of_two_concurrent_saves_is_refused_with_who_and_when(access_date, curator, other_curator):
    seen = revision_of(access_date.pk)           # both open the page at revision 0
    override(access_date, curator, value="NVIDIA Megatron-LM", revision=seen)
    with pytest.raises(StaleRevision, match="Not saved: ada changed this reference at .* after you opened it"):
        override(access_date, other_curator, value="Megatron", revision=seen)
    assert Override.objects.get().value_text == "NVIDIA Megatron-LM"


def test_a_non_curator_cannot_override(access_date, staff_reader):
    with pytest.raises(OverrideRefused, match="Only curators"):
        override(access_date, staff_reader)


def test_curators_withdraw_their_own_overrides_only(access_date, curator, other_curator):
    entry = override(access_date, curator)
    with pytest.raises(OverrideRefused, match="withdraw their own"):
        withdraw_override(override_id=entry.pk, reason="not mine", curator=other_curator,
                          expected_revision=revision_of(access_date.pk))


def test_an_override_can_be_withdrawn_once(access_date, curator):
    entry = override(access_date, curator)
    withdraw_override(override_id=entry.pk, reason="oops", curator=curator, expected_revision=revision_of(access_date.pk))
    with pytest.raises(OverrideRefused, match="no longer in force"):
        withdraw_override(override_id=entry.pk, reason="again", curator=curator,
                          expected_revision=revision_of(access_date.pk))


def test_a_curated_link_stands_until_withdrawn(access_date, curator):
    with _eager_on_commit():
        override(access_date, curator, field="link", value="1909.08053", reason="It cites Megatron-LM's repository")
    after = observation("2509.11076", access_date)
    assert (after["resolution"]["status"], after["resolution"]["resolver_source"]) == ("verified_exact", "curation")
    assert after["citation"]["cited_paper"]["arxiv_id"] == "1909.08053"


def test_not_a_work_is_shown_as_such(access_date, curator):
    with _eager_on_commit():
        override(access_date, curator, field="not_a_work", value=True, reason="A software download page")
    after = observation("2509.11076", access_date)
    assert after["standing_notice"]["reason"] == "not_a_scholarly_work"
    assert (after["resolution"]["status"], after["resolution"]["resolver_source"]) == ("unresolved", "curation")


def test_the_record_stays_within_six_statements_with_overrides(access_date, megatron, curator,
                                                               django_assert_max_num_queries):
    override(access_date, curator, value="NVIDIA Megatron-LM")
    override(megatron, curator, field="year", value=2019)
    with django_assert_max_num_queries(6):
        build_record(arxiv_id="2509.11076")


def test_an_override_after_the_records_time_does_not_change_it(access_date, curator):
    from datetime import UTC, datetime

    from tests.conftest import SEED_000

    override(access_date, curator, value="NVIDIA Megatron-LM")
    built = build_record(arxiv_id="2509.11076", as_of=datetime(2026, 8, 8, 11, 7, tzinfo=UTC))
    assert built.body == SEED_000.read_bytes()


@pytest.mark.postgresql
def test_the_database_refuses_to_change_or_delete_audit_entries_and_observations(access_date, curator):
    entry = override(access_date, curator)
    for statement in ("UPDATE curation_overrides SET reason = 'rewritten' WHERE id = %s",
                      "DELETE FROM curation_overrides WHERE id = %s"):
        with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(statement, [entry.pk])
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        PaperReference.objects.filter(pk=access_date.pk).update(title="edited in place")


class _eager_on_commit:
    """Run on_commit callbacks (the re-resolution) inside a test's transaction."""

    def __enter__(self):
        from django.test import TestCase

        self._context = TestCase.captureOnCommitCallbacks(execute=True)
        return self._context.__enter__()

    def __exit__(self, *exc):
        return self._context.__exit__(*exc)


INVISIBLE = ["\u200b\u200c\u200d", "\u202e\u202c", "\u2066\u2069\u200e\u200f", "\ufeff\u2060\u00ad", "\u3164\u2800",
             "\u0301\u034f\ufe0f", "\U000e0041\U000e0042"]


@pytest.mark.parametrize("title", INVISIBLE, ids=["zero-width", "bidi override", "isolates and marks", "format",
                                                   "blank glyphs", "marks alone", "tags"])
def test_a_title_with_no_visible_character_is_refused_with_a_sentence(access_date, curator, title):
    with pytest.raises(OverrideRefused, match="has no visible character") as refused:
        override(access_date, curator, field="title", value=f" {title} ")
    assert refused.value.field == "value" and not Override.objects.exists()
    with pytest.raises(OverrideRefused, match="a reason is required"):
        override(access_date, curator, reason=title * 3)
    with pytest.raises(OverrideRefused, match="NUL"):
        override(access_date, curator, field="title", value="A\x00title")
    # Text that shows something is taken, invisible characters and all (a name with a joiner, an RTL title).
    override(access_date, curator, field="title", value="\u200fعنوان\u200b")


@pytest.mark.parametrize("value", ["2509.11076", "10.48550/arXiv.2509.11076"])
def test_a_reference_is_not_linked_by_a_curator_to_its_own_citing_paper(access_date, curator, value):
    with pytest.raises(OverrideRefused, match="A paper is not its own citation") as refused:
        override(access_date, curator, field="link", value=value, reason="It names itself")
    assert refused.value.field == "value" and not Override.objects.exists()
