"""Who sees what: job details for those who may view jobs, queues for curators, curator names for staff."""
import pytest
from django.test import Client

from tests.web.conftest import error_of, token_client

QUEUES = "/admin/citations/paperreference/queues/"


def test_staff_without_permissions_cannot_list_jobs(db, bare_staff):
    client = token_client(bare_staff)
    assert error_of(client.get("/api/v1/jobs/"))["status"] == 403
    assert error_of(client.get("/api/v1/jobs/1/"))["status"] == 403


def test_the_jobs_api_needs_the_view_job_permission(db, operator, superuser):
    assert token_client(operator).get("/api/v1/jobs/").status_code == 200
    assert token_client(superuser).get("/api/v1/jobs/").status_code == 200


def test_staff_without_permissions_cannot_see_the_queues(db, bare_staff):
    client = Client(raise_request_exception=False)
    client.force_login(bare_staff)
    assert client.get(QUEUES).status_code == 403


def test_curators_see_the_queues(seeds, curator):
    client = Client()
    client.force_login(curator)
    assert client.get(QUEUES).status_code == 200


def test_staff_without_permissions_cannot_open_a_reference_page(reference, bare_staff):
    client = Client(raise_request_exception=False)
    client.force_login(bare_staff)
    assert client.get(f"/admin/citations/paperreference/{reference.pk}/change/").status_code == 403


@pytest.fixture
def changed_by_ada(reference, curator):
    created = token_client(curator).post("/api/v1/overrides/", {
        "reference": str(reference.pk), "field": "year", "value": "2019", "reason": "From arXiv:1909.08053",
        "revision": 0}, format="json")
    assert created.status_code == 201
    return {"reference": str(reference.pk), "field": "year", "value": "2018", "reason": "Another reading",
            "revision": 0}


def test_a_conflict_names_the_other_curator_to_staff(changed_by_ada, curator):
    message = error_of(token_client(curator).post("/api/v1/overrides/", changed_by_ada, format="json"))["message"]
    assert message.startswith("Not saved: ada changed this reference at ")


def test_a_conflict_names_no_curator_to_non_staff(changed_by_ada, other_curator):
    error = error_of(token_client(other_curator).post("/api/v1/overrides/", changed_by_ada, format="json"))
    assert error["status"] == 409
    assert error["message"].startswith("Not saved: another curator changed this reference at ")
    assert "ada" not in error["message"]
