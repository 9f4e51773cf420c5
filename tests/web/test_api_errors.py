"""API v1 under bad input: every answer is a 4xx in the JSON error envelope, never a 500."""
import base64

import pytest
from django.test import Client

from citations.models import Override
from tests.web.conftest import error_of, token_client

LISTS = ["/api/v1/papers/", "/api/v1/observations/", "/api/v1/changes/", "/api/v1/works/", "/api/v1/standing-events/",
         "/api/v1/overrides/"]
# Each list's orderings, so the position is checked against every ordering field's type.
ORDERINGS = {"/api/v1/papers/": ["", "arxiv_id"], "/api/v1/observations/": ["", "observed_at", "-observed_at"],
             "/api/v1/changes/": ["", "changed_at"],
             "/api/v1/works/": ["", "snapshot_observed_at", "-year"], "/api/v1/standing-events/": ["", "occurred_on",
                                                                                                "observed_at"],
             "/api/v1/overrides/": ["", "created_at"]}


def b64(text: bytes) -> str:
    return base64.b64encode(text).decode()


RANDOM = b"\x8f\x12\xfe\x00\x9ap=\xc3\x28\x01\xff\x7f\x80"
# Refused whatever the ordering field's type.
TAMPERED_ANY = [b64(b"p=\x00"), b64(b"p=%00"), b64(RANDOM), b64(b"o=-1"), b64(b"o=x"), b64(b"r=x"), "not base64!",
                b64("p=é".encode())]
# Refused where the list is ordered by a number, a time, a date or a UUID (papers are ordered by
# their arXiv id: any text is a place in that order, and gives a page).
TAMPERED_TYPED = [b64(b"p=garbage"), b64(b"p=2026-13-45 25:61:61+00:00"), b64(b"p=0001-01-01 00:00:00+05:00"),
                  b64(b"p=" + b"9" * 30)]
TAMPERED = TAMPERED_ANY + TAMPERED_TYPED


def assert_refused_cursor(response):
    error = error_of(response)
    assert response.status_code == 400 and error["status"] == 400
    assert error["code"] == "invalid" and "cursor" in error["message"]


@pytest.mark.parametrize("path", LISTS)
def test_a_tampered_cursor_is_a_400_on_every_list(reference, path):
    client = Client(raise_request_exception=False)
    for cursor in TAMPERED:
        for ordering in ORDERINGS[path]:
            response = client.get(path, {"cursor": cursor, "ordering": ordering})
            if path == "/api/v1/papers/" and cursor in TAMPERED_TYPED:
                assert response.status_code == 200
            else:
                assert_refused_cursor(response)


def test_a_tampered_cursor_is_a_400_on_the_jobs_list(db, operator):
    client = token_client(operator)
    for cursor in TAMPERED:
        assert_refused_cursor(client.get("/api/v1/jobs/", {"cursor": cursor}))


def walk(client, url: str, key: str) -> list:
    seen = []
    while url:
        page = client.get(url)
        assert page.status_code == 200, page.content[:300]
        seen += [row[key] for row in page.json()["results"]]
        url = page.json()["next"]
    return seen


@pytest.mark.parametrize("ordering", ["", "observed_at", "-observed_at"])
@pytest.mark.parametrize("page_size", [3, 20])
def test_the_cursors_the_api_gives_walk_every_row_once(reference, ordering, page_size):
    seen = walk(Client(), f"/api/v1/observations/?page_size={page_size}&ordering={ordering}", "observation_id")
    assert len(seen) == len(set(seen)) == 134


@pytest.mark.parametrize("ordering", ["reference_index", "-reference_index"])
def test_the_references_of_one_paper_walk_in_list_order(reference, ordering):
    from citations.models import PaperReference

    paper = "2509.23722"
    seen = walk(Client(), f"/api/v1/observations/?page_size=7&citing_paper={paper}&ordering={ordering}",
                "reference_index")
    held = sorted(PaperReference.objects.filter(extraction__paper_version__paper__arxiv_id=paper)
                  .values_list("reference_index", flat=True), reverse=ordering.startswith("-"))
    assert seen == held


def test_list_order_without_a_citing_paper_is_refused_with_a_sentence(reference):
    response = Client().get("/api/v1/observations/", {"ordering": "reference_index"})
    assert response.status_code == 400 and "give citing_paper" in response.json()["error"]["message"]


@pytest.mark.parametrize("ordering", ["observed_at", "-observed_at"])
def test_the_previous_cursors_the_api_gives_are_accepted(reference, ordering):
    # A cursor is a row's place in the full order (the primary key last): walking back from the last
    # page gives every row once, ties or not (DRF's offset cursors repeated a few on a change of direction).
    client = Client()
    page = client.get(f"/api/v1/observations/?page_size=4&ordering={ordering}").json()
    while page["next"]:
        page = client.get(page["next"]).json()
    seen = [row["observation_id"] for row in page["results"]]
    while page["previous"]:
        response = client.get(page["previous"])
        assert response.status_code == 200, response.content[:300]
        page = response.json()
        seen += [row["observation_id"] for row in page["results"]]
    assert len(seen) == len(set(seen)) == 134


@pytest.mark.parametrize("ordering", ["year", "-year", "snapshot_observed_at"])
def test_works_walk_every_row_once(reference, ordering):
    from citations.models import CitedWork

    seen = walk(Client(), f"/api/v1/works/?page_size=2&ordering={ordering}", "work_id")
    assert len(seen) == len(set(seen)) == CitedWork.objects.count()


def test_withdrawing_a_non_numeric_override_id_is_a_404(reference, curator):
    response = token_client(curator).post("/api/v1/overrides/abc/withdraw/", {"reason": "why", "revision": 0},
                                          format="json")
    assert response.status_code == 404 and error_of(response)["status"] == 404


def test_withdrawing_an_override_id_past_any_integer_is_refused(reference, curator):
    response = token_client(curator).post(f"/api/v1/overrides/{10 ** 30}/withdraw/",
                                          {"reason": "why not", "revision": 0}, format="json")
    assert response.status_code == 400 and "no such override" in error_of(response)["message"]


@pytest.mark.parametrize("path", ["/api/v1/overrides/", "/api/v1/overrides/1/withdraw/",
                                  "/api/v1/papers/2509.11076/references/"])
def test_json_nested_too_deeply_is_a_400_on_every_post_endpoint(reference, superuser, path):
    body = "[" * 100_000 + "]" * 100_000
    response = token_client(superuser).post(path, body, content_type="application/json")
    assert response.status_code == 400 and "nested too deeply" in error_of(response)["message"]


def test_a_lone_surrogate_the_error_echoes_is_written_as_its_escape_not_a_500(reference, curator):
    body = f'{{"reference": "{reference.pk}", "field": "\\ud800", "value": 1, "reason": "why", "revision": 0}}'
    response = token_client(curator).post("/api/v1/overrides/", body, content_type="application/json")
    error = error_of(response)
    assert response.status_code == 400 and "\\ud800" in error["message"] and list(error["fields"]) == ["field"]


def test_nested_field_errors_read_as_text(reference, superuser):
    response = token_client(superuser).post("/api/v1/papers/2509.11076/references/", {
        "version": 1, "references": [{"index": 0, "raw": "A. Author. A title. 2020."}, {"index": "x"}]},
        format="json")
    error = error_of(response)
    assert response.status_code == 400
    assert "ErrorDetail" not in error["message"] and "{" not in error["message"]
    assert "references[1].index: A valid integer is required." in error["message"]
    assert "references[1].raw: This field is required." in error["message"]
    assert error["fields"]["references"]["1"]["index"] == ["A valid integer is required."]


def test_a_too_short_reason_is_reported_under_reason(reference, curator):
    response = token_client(curator).post("/api/v1/overrides/", {
        "reference": str(reference.pk), "field": "year", "value": "2019", "reason": "  x ", "revision": 0},
        format="json")
    error = error_of(response)
    assert response.status_code == 400 and list(error["fields"]) == ["reason"]
    assert error["message"] == "reason: Say why: a reason is required."


def test_a_stale_revision_on_a_reference_without_overrides_is_a_409(reference, curator):
    response = token_client(curator).post("/api/v1/overrides/", {
        "reference": str(reference.pk), "field": "year", "value": "2019", "reason": "From arXiv:1909.08053",
        "revision": 7}, format="json")
    error = error_of(response)
    assert response.status_code == 409 and error["code"] == "conflict"
    assert "has no curation entries yet" in error["message"]
    assert not Override.objects.exists()


def test_marking_not_a_work_twice_is_refused_without_a_second_entry(reference, curator):
    client = token_client(curator)
    body = {"reference": str(reference.pk), "field": "not_a_work", "reason": "A software manual"}
    first = client.post("/api/v1/overrides/", {**body, "revision": 0}, format="json")
    assert first.status_code == 201
    second = client.post("/api/v1/overrides/", {**body, "revision": first.json()["id"]}, format="json")
    assert second.status_code == 400
    assert "already marked not a scholarly work" in error_of(second)["message"]
    assert Override.objects.count() == 1


def test_a_reason_over_the_cap_is_refused(reference, curator):
    response = token_client(curator).post("/api/v1/overrides/", {
        "reference": str(reference.pk), "field": "year", "value": "2019", "reason": "x" * 2001, "revision": 0},
        format="json")
    assert response.status_code == 400 and "reason" in error_of(response)["fields"]
    assert not Override.objects.exists()


@pytest.mark.parametrize("path", ["/api/v1/nothing-here", "/api/v1/papers/2509.11076/nope/", "/api/v9/"])
def test_api_404s_name_no_url_pattern_or_server_path(db, settings, path):
    settings.DEBUG = False
    response = Client().get(path)
    body = response.content.decode()
    assert response.status_code == 404 and error_of(response)["status"] == 404
    for leak in ("tried", "URLResolver", "URLPattern", "urls.py", "site-packages", str(settings.BASE_DIR)):
        assert leak not in body
