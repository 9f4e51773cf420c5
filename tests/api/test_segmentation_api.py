"""Split and join through the API: POST /api/v1/observations/{id}/split and /join (curators)."""
from citations.models import ReferenceExtraction
from citations.records.build import build_record
from tests.curation.test_segmentation import CITING, extracted  # noqa: F401 - the fixture

BASE = "/api/v1/observations"


def test_a_curator_splits_a_reference_and_gets_the_new_observation_ids(curator_api, extracted):
    response = curator_api.post(f"{BASE}/{extracted[2].pk}/split/", {
        "before": "Mohammad Shoeybi", "reason": "Two references run together", "revision": 0}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["field"], body["action"]) == ("split", "set")
    assert body["value"].startswith("split in two, the second beginning “Mohammad Shoeybi")
    outbound = {o["observation_id"]: o for o in build_record(arxiv_id=CITING).record["outbound"]}
    assert [outbound[i]["citation"]["reference_index"] for i in body["observations"]] == [3, 4]
    assert body["follow_up"]["kind"] == "re_resolve_references"


def test_a_join_through_the_api(curator_api, extracted):
    response = curator_api.post(f"{BASE}/{extracted[0].pk}/join/", {"reason": "Cut at a line break", "revision": 0},
                                format="json")
    assert response.status_code == 201, response.content
    assert len(build_record(arxiv_id=CITING).record["outbound"]) == 3


def test_refusals_say_why_with_the_right_status(curator_api, reader_api, api, extracted):
    split = f"{BASE}/{extracted[2].pk}/split/"
    body = {"before": "Yoshua Bengio", "reason": "Two references run together", "revision": 0}
    refused = curator_api.post(split, body, format="json")
    assert refused.status_code == 400 and "is not in this reference" in refused.content.decode()
    assert curator_api.post(split, {"reason": "x y z", "revision": 0}, format="json").status_code == 400   # no before
    assert reader_api.post(split, {**body, "before": "Mohammad"}, format="json").status_code == 403
    assert api.post(split, {**body, "before": "Mohammad"}, format="json").status_code in (401, 403)
    assert curator_api.post(f"{BASE}/{extracted[3].pk}/join/", {"reason": "Cut in two", "revision": 0},
                            format="json").status_code == 400                         # the last has no next
    assert ReferenceExtraction.objects.count() == 1
    # Done once; a second curator working from the old list is told it changed (409).
    assert curator_api.post(split, {**body, "before": "Mohammad"}, format="json").status_code == 201
    again = curator_api.post(f"{BASE}/{extracted[0].pk}/join/", {"reason": "Cut in two", "revision": 0},
                             format="json")
    assert again.status_code == 409 and "a curator corrected it" in again.content.decode()


def test_an_unknown_observation_is_404(curator_api, db):
    response = curator_api.post(f"{BASE}/00000000-0000-0000-0000-000000000000/join/",
                                {"reason": "Cut in two", "revision": 0}, format="json")
    assert response.status_code == 404


def test_an_override_on_an_observation_a_join_superseded_is_409_and_not_listed(curator_api, api, extracted):
    joined = curator_api.post(f"{BASE}/{extracted[0].pk}/join/", {"reason": "Cut at a line break", "revision": 0},
                              format="json")
    assert joined.status_code == 201, joined.content
    listed = api.get("/api/v1/overrides/").json()["results"]
    response = curator_api.post("/api/v1/overrides/", {"reference": str(extracted[3].pk), "field": "title",
                                                       "value": "GPipe", "reason": "From the PDF", "revision": 0},
                                format="json")
    assert response.status_code == 409 and "a curator corrected it" in response.content.decode()
    assert api.get("/api/v1/overrides/").json()["results"] == listed
    # The observation the record shows takes it.
    successor = build_record(arxiv_id=CITING).record["outbound"][-1]["observation_id"]
    accepted = curator_api.post("/api/v1/overrides/", {"reference": successor, "field": "title", "value": "GPipe",
                                                       "reason": "From the PDF", "revision": 0}, format="json")
    assert accepted.status_code == 201, accepted.content
