"""The API's permission check answers as Django's ModelBackend does, in one statement."""
import pytest
from django.contrib.auth.models import Permission, User
from django.db import connection
from django.test.utils import CaptureQueriesContext

from citations.api.permissions import user_has_perm
from curation.groups import curators_group

PERMS = ["citations.view_job", "citations.add_job", "citations.add_paperreference", "citations.add_override",
         "curation.no_such_permission"]


@pytest.fixture
def users(db):
    direct = User.objects.create_user("direct")
    direct.user_permissions.add(Permission.objects.get(codename="view_job"))
    grouped = User.objects.create_user("grouped")
    grouped.groups.add(curators_group())
    inactive = User.objects.create_user("inactive", is_active=False)
    inactive.user_permissions.add(Permission.objects.get(codename="view_job"))
    return [direct, grouped, inactive, User.objects.create_user("nobody"),
            User.objects.create_superuser("root-user", password="pw-root-123456")]


def test_it_agrees_with_django_for_every_kind_of_user(users):
    for user in users:
        for perm in PERMS:
            fresh = User.objects.get(pk=user.pk)          # Django caches permissions on the instance
            assert user_has_perm(user, perm) == fresh.has_perm(perm), (user.username, perm)


def test_it_is_one_statement(users):
    with CaptureQueriesContext(connection) as queries:
        assert user_has_perm(users[1], "citations.add_override")
    assert len(queries) == 1


def test_operators_see_jobs_and_others_are_refused(users, client):
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    for user, status in ((users[0], 200), (users[3], 403), (users[1], 403)):
        api = APIClient()
        api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
        assert api.get("/api/v1/jobs/").status_code == status, user.username


def test_operators_filter_jobs_by_kind_and_state(users):
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    from citations.models import Job

    Job.objects.create(kind="resolve_references", state="failed", total_chunks=1)
    Job.objects.create(kind="check_standing", state="succeeded", total_chunks=1)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=users[0]).key}")
    assert [j["kind"] for j in api.get("/api/v1/jobs/?state=failed").json()["results"]] == ["resolve_references"]
    assert [j["state"] for j in api.get("/api/v1/jobs/?kind=citations.check_standing").json()["results"]] == ["succeeded"]
    assert api.get("/api/v1/jobs/?state=exploded").status_code == 400


def test_the_permissions_read_with_the_token_agree_with_django_and_a_revoked_one_is_refused_next(users):
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    from citations.api.authentication import TokenAuthentication
    from citations.api.permissions import HELD

    for user in users:
        key = Token.objects.create(user=user).key
        if not user.is_active:
            continue
        authenticated, _ = TokenAuthentication().authenticate_credentials(key)
        assert getattr(authenticated, HELD) is not None
        for perm in PERMS:
            fresh = User.objects.get(pk=user.pk)
            assert user_has_perm(authenticated, perm) == fresh.has_perm(perm), (user.username, perm)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get(user=users[0]).key}")
    assert api.get("/api/v1/jobs/").status_code == 200
    users[0].user_permissions.clear()
    assert api.get("/api/v1/jobs/").status_code == 403
