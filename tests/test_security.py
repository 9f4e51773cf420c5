"""What a hostile or careless client can and cannot do."""
import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client

from citations.models import Paper, PaperReference
from curation.groups import curators_group

SQL_INJECTIONS = ["' OR 1=1 --", "1; DROP TABLE papers; --", "2509.11076' UNION SELECT * FROM auth_user --",
                  "%' AND pg_sleep(5) --", "\x00", "../../etc/passwd", "<script>alert(1)</script>"]


@pytest.mark.parametrize("path", ["/admin/", "/admin/citations/paperreference/", "/admin/citations/override/",
                                  "/admin/citations/paperreference/queues/"])
def test_admin_refuses_anonymous_users(db, client, path):
    response = client.get(path)
    assert response.status_code == 302 and response["Location"].startswith("/admin/login/")


@pytest.mark.parametrize("method, path", [
    ("post", "/api/v1/papers/2509.11076/references/"), ("post", "/api/v1/papers/2509.11076/resolve/"),
    ("post", "/api/v1/overrides/"), ("post", "/api/v1/overrides/1/withdraw/"), ("get", "/api/v1/jobs/"),
])
def test_write_endpoints_refuse_anonymous_users(seeds, client, method, path):
    response = (client.post(path, data="{}", content_type="application/json") if method == "post"
                else client.get(path))
    assert response.status_code == 401
    assert PaperReference.objects.count() == 134


def test_forms_need_their_csrf_token(seeds):
    curator = User.objects.create_user("ada", password="pw-ada-123456", is_staff=True)
    curator.groups.add(curators_group())
    browser = Client(enforce_csrf_checks=True)
    assert browser.post("/admin/login/", {"username": "ada", "password": "pw-ada-123456"}).status_code == 403
    browser.force_login(curator)
    reference = PaperReference.objects.first()
    forged = browser.post(f"/admin/citations/paperreference/{reference.pk}/override/",
                          {"field": "year", "value": "2020", "reason": "forged", "revision": 0})
    assert forged.status_code == 403
    # Session-authenticated API writes need it too (tokens do not: they are not ambient).
    api = browser.post("/api/v1/overrides/", {"reference": str(reference.pk), "field": "year", "value": "2020",
                                              "reason": "forged", "revision": 0}, content_type="application/json")
    assert api.status_code == 403
    assert not reference.overrides.exists()


def test_error_pages_show_no_stack_trace_or_settings(seeds, monkeypatch, settings):
    import citations.pages.views

    def explode(**kwargs):
        raise RuntimeError(f"boom with {settings.SECRET_KEY}")

    monkeypatch.setattr(citations.pages.views, "build_record", explode)
    client = Client(raise_request_exception=False)
    for path in ("/paper/2509.11076/citation-record", "/paper/2509.11076/integrity"):
        response = client.get(path)
        body = response.content.decode()
        assert response.status_code == 500
        assert "Traceback" not in body and "boom" not in body and settings.SECRET_KEY not in body
        assert "DATABASES" not in body and "Something went wrong" in body


def test_api_errors_show_no_stack_trace(seeds, monkeypatch, settings):
    import citations.api.views

    def explode(**kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(citations.api.views, "build_record", explode)
    response = Client(raise_request_exception=False).get("/api/v1/papers/2509.11076/")
    assert response.status_code == 500
    assert response.json() == {"error": {"status": 500, "code": "server_error",
                                         "message": "something went wrong on our side; it was logged"}}


@pytest.mark.parametrize("value", SQL_INJECTIONS)
def test_filters_and_search_are_injection_safe(seeds, client, value):
    for path, param in (("/api/v1/observations/", "citing_paper"), ("/api/v1/observations/", "cited_paper"),
                        ("/api/v1/observations/", "state"), ("/api/v1/observations/", "year"),
                        ("/api/v1/papers/", "search"), ("/api/v1/works/", "doi"),
                        ("/api/v1/standing-events/", "subject_doi"), ("/api/v1/observations/", "ordering"),
                        ("/admin/login/", "next")):
        response = client.get(path, {param: value})
        assert response.status_code in (200, 302, 400), (path, param, response.status_code)
        if response.status_code == 200 and path.startswith("/api/v1/observations") and param != "ordering":
            assert response.json()["results"] == []      # nothing matched the text; nothing was executed
    assert Paper.objects.count() > 0
    with connection.cursor() as cursor:
        cursor.execute("SELECT COUNT(*) FROM papers")


def test_large_bodies_are_refused_with_413(seeds, client, settings):
    body = b"x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1)
    response = client.post("/api/v1/papers/2509.11076/references/", data=body, content_type="application/json")
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "request_too_large"
    assert client.post("/admin/login/", data=body, content_type="application/x-www-form-urlencoded").status_code == 413


def test_host_headers_are_checked(db):
    assert Client(HTTP_HOST="evil.example").get("/").status_code == 400
