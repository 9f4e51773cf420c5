"""The admin under bad input: bad ids and lookups are 4xx, never 500."""
import pytest
from django.test import Client

from citations.models import Override

CHANGELIST = "/admin/citations/paperreference/"


@pytest.fixture
def browser(curator):
    client = Client(raise_request_exception=False)
    client.force_login(curator)
    return client


@pytest.mark.parametrize("path", [f"{CHANGELIST}not-a-uuid/change/", f"{CHANGELIST}not-a-uuid/",
                                  f"{CHANGELIST}not-a-uuid/override/", f"{CHANGELIST}not-a-uuid/withdraw/1/",
                                  f"{CHANGELIST}00000000-0000-0000-0000-000000000000/change/",
                                  f"{CHANGELIST}00000000-0000-0000-0000-000000000000/withdraw/abc/",
                                  f"{CHANGELIST}not-a-uuid/history/"])
def test_a_bad_reference_id_is_a_404(browser, reference, path):
    assert browser.get(path, follow=True).status_code == 404


def test_a_bad_id_posted_to_the_override_page_is_a_404(browser, reference):
    response = browser.post(f"{CHANGELIST}not-a-uuid/override/", {"field": "year", "value": "2019",
                                                                  "reason": "why", "revision": 0}, follow=True)
    assert response.status_code == 404 and not Override.objects.exists()


def test_regex_lookups_in_changelists_are_refused(superuser, reference):
    client = Client(raise_request_exception=False)
    client.force_login(superuser)
    for path, lookup in ((CHANGELIST, "raw_text__regex"), (CHANGELIST, "title__iregex"),
                         ("/admin/citations/citedwork/", "title__iregex"), ("/admin/citations/override/", "reason__regex"),
                         ("/admin/auth/user/", "username__regex"), ("/admin/citations/paper/", "arxiv_id__regex")):
        for pattern in ("(", "[", "a{2,1}", "ok"):
            assert client.get(path, {lookup: pattern}).status_code == 400, (path, lookup, pattern)


def test_a_stale_revision_on_a_reference_without_overrides_is_a_message(browser, reference):
    response = browser.post(f"{CHANGELIST}{reference.pk}/override/", {
        "field": "year", "value": "2019", "reason": "From arXiv:1909.08053", "revision": 5}, follow=True)
    assert response.status_code == 200
    assert "Not saved (arXiv:2509.11076 [54]): this reference has no curation entries yet" in response.content.decode()
    assert not Override.objects.exists()


def test_marking_not_a_work_twice_from_the_admin_is_refused(browser, reference):
    page = f"{CHANGELIST}{reference.pk}/override/"
    browser.post(page, {"field": "not_a_work", "reason": "A software manual", "revision": 0})
    entry = Override.objects.get()
    response = browser.post(page, {"field": "not_a_work", "reason": "Still a manual", "revision": entry.pk},
                            follow=True)
    assert "already marked not a scholarly work" in response.content.decode()
    assert Override.objects.count() == 1


@pytest.mark.parametrize("path", ["/admin/nothing-here/", "/admin/citations/nothing/", "/paper/nope/nope/nope",
                                  "/nothing-here"])
def test_404_pages_name_no_url_pattern_or_server_path(db, settings, bare_staff, path):
    settings.DEBUG = False
    client = Client(raise_request_exception=False)
    client.force_login(bare_staff)
    response = client.get(path)
    body = response.content.decode()
    assert response.status_code == 404
    for leak in ("tried", "URLResolver", "URLPattern", "urls.py", "site-packages", str(settings.BASE_DIR)):
        assert leak not in body


def test_years_outside_the_stored_range_are_refused_in_changelists(superuser, db):
    client = Client(raise_request_exception=False)
    client.force_login(superuser)
    for path, query in (("/admin/citations/override/", "created_at__year=9999&created_at__month=12"),
                        ("/admin/citations/override/", "created_at__year=9999"),
                        ("/admin/citations/job/", "created_at__year=99999"),
                        ("/admin/citations/job/", "created_at__year=abc")):
        assert client.get(f"{path}?{query}").status_code == 400, (path, query)
    assert client.get("/admin/citations/override/?created_at__year=2026&created_at__month=12").status_code == 200
