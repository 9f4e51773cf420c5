"""The observation lists' plain rows are ObservationSerializer's representation, field for field."""
from rest_framework.test import APIClient

from citations.api.serializers import ObservationSerializer
from citations.api.views import observations
from citations.models import CurrentResolution


def test_every_row_of_the_lists_is_what_the_serializer_gives(seeds):
    CurrentResolution.objects.filter(reference__reference_index__in=[1, 2]).update(curated=True)
    listed = []
    url = "/api/v1/observations/?page_size=200"
    while url:
        page = APIClient().get(url).json()
        listed += page["results"]
        url = page["next"]
    expected = {str(row.reference_id): ObservationSerializer(row).data for row in observations()}
    assert len(listed) == len(expected) == 134
    for row in listed:
        assert row == expected[row["observation_id"]]
