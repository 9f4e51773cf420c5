"""The observation lists' plain rows are ObservationSerializer's representation, field for field,
and both show what the record shows: a curator's title and year over the parsed ones."""
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from citations.api.serializers import ObservationSerializer
from citations.api.views import observations
from citations.models import CurrentResolution, PaperReference
from curation.services import apply_override, revision_of, withdraw_override


def _megatron() -> PaperReference:
    return PaperReference.objects.get(extraction__paper_version__paper__arxiv_id="2509.11076", reference_index=54)


def _curate_year(curator):
    reference = _megatron()
    return apply_override(reference_id=reference.pk, field="year", value="2019", curator=curator,
                          reason="1909 was read from its arXiv id", expected_revision=revision_of(reference.pk))


def _all_pages(client, url):
    listed = []
    while url:
        page = client.get(url).json()
        listed += page["results"]
        url = page["next"]
    return listed


def test_every_row_of_the_lists_is_what_the_serializer_gives(seeds, curator):
    CurrentResolution.objects.filter(reference__reference_index__in=[1, 2]).update(curated=True)
    _curate_year(curator)
    listed = _all_pages(APIClient(), "/api/v1/observations/?page_size=200")
    expected = {str(row.reference_id): ObservationSerializer(row).data for row in observations()}
    assert len(listed) == len(expected) == 134
    for row in listed:
        assert row == expected[row["observation_id"]]


def test_an_observation_shows_the_curated_year_with_the_parsed_one_beside_it(seeds, curator):
    entry = _curate_year(curator)
    client = APIClient()
    url = "/api/v1/observations/?citing_paper=2509.11076&ordering=reference_index&page_size=100"
    row = next(o for o in client.get(url).json()["results"] if o["reference_index"] == 54)
    assert (row["year"], row["parsed_year"], row["curated"], row["has_override"]) == (2019, 1909, {"year": entry.pk}, True)
    record = client.get("/api/v1/papers/2509.11076/citation-record/").json()
    shown = next(o for o in record["outbound"] if o["observation_id"] == row["observation_id"])
    assert shown["citation"]["cited_work"]["year"] == row["year"]

    withdraw_override(override_id=entry.pk, reason="checked again", curator=curator,
                      expected_revision=revision_of(_megatron().pk))
    row = next(o for o in client.get(url).json()["results"] if o["reference_index"] == 54)
    assert (row["year"], row["parsed_year"], row["curated"], row["has_override"]) == (1909, 1909, {}, False)


def test_curated_values_cost_one_statement_a_page_whatever_the_number_curated(seeds, curator):
    client = APIClient()
    url = "/api/v1/observations/?citing_paper=2509.11076&page_size=100"

    def statements() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        return len(queries)

    none_curated = statements()
    _curate_year(curator)
    one_curated = statements()
    for index in (1, 2, 3):
        reference = PaperReference.objects.get(extraction__paper_version__paper__arxiv_id="2509.11076",
                                               reference_index=index)
        apply_override(reference_id=reference.pk, field="title", value=f"A checked title {index}", curator=curator,
                       reason="read from the PDF", expected_revision=revision_of(reference.pk))
    assert statements() == one_curated <= none_curated + 1


def test_an_audit_entry_with_no_previous_value_says_null_not_a_dash(seeds, curator):
    reference = PaperReference.objects.filter(extraction__paper_version__paper__arxiv_id="2509.11076",
                                              year__isnull=True).first()
    apply_override(reference_id=reference.pk, field="year", value="2020", curator=curator,
                   reason="the PDF says 2020", expected_revision=revision_of(reference.pk))
    entry = APIClient().get("/api/v1/overrides/").json()["results"][0]
    assert entry["previous"] is None and entry["value"] == "2020"


def test_one_curated_observation_reads_its_overrides_once(seeds, curator):
    entry = _curate_year(curator)
    row = observations().get(reference_id=entry.reference_id)
    with CaptureQueriesContext(connection) as queries:
        data = ObservationSerializer(row).data
    assert (data["year"], data["parsed_year"], data["curated"]) == (2019, 1909, {"year": entry.pk})
    assert len(queries) == 1
