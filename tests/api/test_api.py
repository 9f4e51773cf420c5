import json

import pytest

from citations.models import Job, PaperReference

RECORD_004 = "/api/v1/papers/2509.23722/citation-record/"


def error_of(response) -> dict:
    body = response.json()
    assert set(body) == {"error"} and {"status", "code", "message"} <= set(body["error"])
    assert body["error"]["status"] == response.status_code
    return body["error"]


# --- reading --------------------------------------------------------------------------------------------


def test_papers_are_listed_with_their_newest_metadata(seeds, api):
    body = api.get("/api/v1/papers/", {"search": "OctoPipe"}).json()
    (paper,) = body["results"]
    assert paper["arxiv_id"] == "2509.23722" and paper["latest_version"] == 2
    assert paper["links"]["json"] == "/paper/2509.23722/citation-record.json"


def test_search_by_arxiv_id(seeds, api):
    assert [p["arxiv_id"] for p in api.get("/api/v1/papers/", {"search": "2509.11076"}).json()["results"]] == [
        "2509.11076"]


def test_a_paper_says_what_its_record_says(seeds, api):
    paper = api.get("/api/v1/papers/2509.23722/").json()
    assert paper["thesis"].endswith("lists 68 of 68 outbound references and 4 inbound Pith citation observations "
                                    "for arXiv:2509.23722.")
    assert paper["state_counts"]["unresolved"] == 68 and paper["total_inbound"] == 4
    assert paper["cites_retracted_work"] is False


def test_the_api_record_is_the_json_pages_bytes_with_the_same_etag(seeds, api, client):
    page = client.get("/paper/2509.23722/citation-record.json")
    response = api.get(RECORD_004)
    assert response.status_code == 200
    assert response.content == page.content
    assert response["ETag"] == page["ETag"]
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert api.get(RECORD_004, HTTP_IF_NONE_MATCH=page["ETag"]).status_code == 304


def test_observations_filter_by_citing_and_cited_paper_state_year_source(seeds, api):
    def count(**params):
        return len(api.get("/api/v1/observations/", {"page_size": 200, **params}).json()["results"])

    assert count(citing_paper="2509.11076") == 62
    assert count(cited_paper="2509.23722") == 4
    assert count(cited_paper="2509.23722", state="verified_exact") == 4
    assert count(citing_paper="2509.11076", year=1909) == 1
    from tests.conftest import SEED_000

    recent = sum(1 for o in json.loads(SEED_000.read_bytes())["outbound"] if (o["citation"]["cited_work"]["year"] or 0) >= 2025)
    assert count(citing_paper="2509.11076", year_min=2025) == recent
    assert count(source="pdf_text", state="verified_fuzzy") == 0
    assert count(has_override=True) == 0


def test_observations_page_with_cursors_at_a_fixed_cost(seeds, api, django_assert_max_num_queries):
    first = api.get("/api/v1/observations/", {"page_size": 50, "citing_paper": "2509.23722"}).json()
    assert len(first["results"]) == 50 and first["next"]
    second = api.get(first["next"]).json()
    assert len(second["results"]) == 18 and second["next"] is None
    assert not {o["observation_id"] for o in first["results"]} & {o["observation_id"] for o in second["results"]}
    # One statement for the page whether it holds 1 or 50 observations, after the lists' generation.
    for size in (1, 50):
        with django_assert_max_num_queries(2):
            api.get("/api/v1/observations/", {"page_size": size})


def test_observations_order_by_reference_index(seeds, api):
    results = api.get("/api/v1/observations/", {"citing_paper": "2509.11076", "ordering": "-reference_index",
                                                "page_size": 3}).json()["results"]
    assert [o["reference_index"] for o in results] == [2024, 61, 60]


def test_works_events_and_overrides_are_listed(seeds, api):
    (work,) = api.get("/api/v1/works/", {"doi": "10.48550/ARXIV.2509.23722"}).json()["results"]
    assert work["title"].startswith("Adaptis") and work["pith_arxiv_id"] == "2509.23722"
    assert api.get("/api/v1/standing-events/").json()["results"] == []
    assert api.get("/api/v1/overrides/").json()["results"] == []


# --- writing --------------------------------------------------------------------------------------------


REFERENCES = {"version": 2, "source": "pdf_text", "references": [
    {"index": 1, "raw": "Tianqi Chen, Bing Xu. Training deep nets with sublinear memory cost.arXiv:1604.06174, 2016."}]}


def test_ingesting_needs_a_token_with_permission(seeds, api, reader_api):
    error = error_of(api.post("/api/v1/papers/2509.11076/references/", REFERENCES, format="json"))
    assert error["status"] == 401
    assert error_of(reader_api.post("/api/v1/papers/2509.11076/references/", REFERENCES, format="json"))["status"] == 403


def test_a_reference_list_is_ingested_once(seeds, ingester_api):
    first = ingester_api.post("/api/v1/papers/2509.11076/references/", REFERENCES, format="json")
    assert first.status_code == 201 and first.json()["outcome"] == "created" and first.json()["references"] == 1
    again = ingester_api.post("/api/v1/papers/2509.11076/references/", REFERENCES, format="json")
    assert again.status_code == 200 and again.json()["outcome"] == "unchanged"


@pytest.mark.parametrize("body, field", [
    ({"version": 0, "references": [{"index": 1, "raw": "x"}]}, "version"),
    ({"version": 1, "references": []}, "references"),
    ({"version": 1, "references": [{"index": -1, "raw": "x"}]}, "references"),
    ({"version": 1, "source": "ocr", "references": [{"index": 1, "raw": "x"}]}, "source"),
    ({"version": 1, "references": [{"index": 1, "raw": "   "}]}, "references"),
])
def test_bad_reference_lists_get_a_json_error_naming_the_field(seeds, ingester_api, body, field):
    error = error_of(ingester_api.post("/api/v1/papers/2509.11076/references/", body, format="json"))
    assert error["status"] == 400 and field in error["fields"]
    assert PaperReference.objects.count() == 134


def test_ingesting_for_a_paper_not_held_is_404(seeds, ingester_api):
    assert error_of(ingester_api.post("/api/v1/papers/2501.00001/references/", REFERENCES, format="json"))[
        "status"] == 404


def test_starting_resolution_returns_the_job(seeds, ingester_api):
    response = ingester_api.post("/api/v1/papers/2509.11076/resolve/")
    assert response.status_code == 202
    job = response.json()
    assert job["kind"] == "resolve" and job["state"] == "succeeded" and job["counts"]["references"] == 62


def test_curators_override_through_the_api_and_stale_revisions_conflict(seeds, curator_api):
    reference = PaperReference.objects.get(extraction__paper_version__paper__arxiv_id="2509.11076", reference_index=54)
    revision = curator_api.get(f"/api/v1/observations/{reference.pk}/revision/").json()["revision"]
    body = {"reference": str(reference.pk), "field": "year", "value": "2019", "reason": "From arXiv:1909.08053",
            "revision": revision}
    created = curator_api.post("/api/v1/overrides/", body, format="json")
    assert created.status_code == 201 and created.json()["value"] == "2019" and created.json()["curator"] == "ada"
    conflict = curator_api.post("/api/v1/overrides/", {**body, "value": "2018"}, format="json")
    assert error_of(conflict)["status"] == 409 and "changed this reference" in error_of(conflict)["message"]
    # The revision is the newest audit entry's id: the one just created (ids need not follow on).
    now = curator_api.get(f"/api/v1/observations/{reference.pk}/revision/").json()["revision"]
    assert now == created.json()["id"]
    invalid = curator_api.post("/api/v1/overrides/", {**body, "value": "1200", "revision": now}, format="json")
    assert error_of(invalid)["status"] == 400 and "between 1600" in error_of(invalid)["message"]
    withdrawn = curator_api.post(f"/api/v1/overrides/{created.json()['id']}/withdraw/",
                                 {"reason": "Second thoughts", "revision": now}, format="json")
    assert withdrawn.status_code == 201 and withdrawn.json()["action"] == "withdraw"


def test_only_curators_can_override(seeds, reader_api, api):
    reference = PaperReference.objects.first()
    body = {"reference": str(reference.pk), "field": "year", "value": "2019", "reason": "because", "revision": 0}
    assert error_of(reader_api.post("/api/v1/overrides/", body, format="json"))["status"] == 403
    assert error_of(api.post("/api/v1/overrides/", body, format="json"))["status"] == 401


def test_curator_names_are_for_staff_only(seeds, curator_api, api):
    reference = PaperReference.objects.first()
    curator_api.post("/api/v1/overrides/", {"reference": str(reference.pk), "field": "year", "value": "2020",
                                            "reason": "checked", "revision": 0}, format="json")
    (entry,) = api.get("/api/v1/overrides/").json()["results"]
    assert entry["curator"] is None and entry["reason"] == "checked"


# --- operators ------------------------------------------------------------------------------------------


def test_every_task_run_has_a_job_record(seeds, curator_api, operator_api, django_capture_on_commit_callbacks):
    reference = PaperReference.objects.first()
    with django_capture_on_commit_callbacks(execute=True):
            curator_api.post("/api/v1/overrides/", {"reference": str(reference.pk), "field": "year", "value": "2020",
                                                "reason": "checked", "revision": 0}, format="json")
    job = Job.objects.get(kind="re_resolve_references")
    assert job.state == "succeeded" and job.counts["states"]
    listed = operator_api.get("/api/v1/jobs/").json()["results"]
    assert any(j["kind"] == "re_resolve_references" for j in listed)


def test_jobs_are_for_staff(seeds, reader_api, api):
    assert error_of(api.get("/api/v1/jobs/"))["status"] == 401
    assert error_of(reader_api.get("/api/v1/jobs/"))["status"] == 403


def test_health_checks_the_database_and_the_broker(db, api):
    body = api.get("/api/v1/health").json()
    assert body["status"] == "ok" and body["database"] == "ok" and body["broker"].startswith("eager")


def test_the_schema_and_docs_are_served(db, client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    assert schema["openapi"].startswith("3.") and "/api/v1/observations/" in schema["paths"]
    docs = client.get("/api/docs/")
    assert docs.status_code == 200 and b"swagger" in docs.content.lower()


# --- errors ---------------------------------------------------------------------------------------------


def test_unknown_routes_and_methods_are_json_errors(db, api):
    assert error_of(api.get("/api/v1/nothing-here/"))["status"] == 404
    assert error_of(api.delete("/api/v1/papers/"))["status"] in (401, 405)
    assert error_of(api.get("/api/v1/papers/2599.99999/"))["status"] == 404
    assert error_of(api.get("/api/v1/observations/not-a-uuid/"))["status"] == 404


def test_anonymous_clients_are_throttled_with_a_json_429(seeds, api, settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"anon": "3/minute",
                                                                                    "user": "3/minute"}}
    statuses = [api.get("/api/v1/papers/").status_code for _ in range(5)]
    assert statuses[:3] == [200, 200, 200] and statuses[3] == 429
    assert error_of(api.get("/api/v1/papers/"))["code"] == "throttled"


def test_health_is_ok_when_only_its_connection_was_ended(db, api, monkeypatch):
    """A connection the server ended (pg_terminate_backend) between its check and the query: a fresh
    connection answers, so the process is healthy (killed backends gave a 503 here, issue #30)."""
    from django.db import OperationalError, connection

    from citations.api import views

    class Ended:
        """The view's connection, whose first `ended` uses fail as a terminated backend's do."""

        in_atomic_block, closed = False, 0

        def __init__(self, ended):
            self.ended = ended

        def cursor(self):
            if self.ended:
                self.ended -= 1
                raise OperationalError("terminating connection due to administrator command")
            return connection.cursor()

        def close(self):
            self.closed += 1

    monkeypatch.setattr(views, "connection", once := Ended(1))
    response = api.get("/api/v1/health")
    assert (response.status_code, response.json()["database"], once.closed) == (200, "ok", 1)
    monkeypatch.setattr(views, "connection", Ended(2))
    response = api.get("/api/v1/health")
    assert (response.status_code, response.json()["database"]) == (503, "down: OperationalError")
