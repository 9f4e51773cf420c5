"""Tokens: the operator's token opens the jobs list; a wrong, deleted or deactivated one is refused
at the next request (the token's user is read on every request, in one statement)."""
from django.contrib.auth.models import Permission, User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient


def _operator(db):
    user = User.objects.create_user("op", password="pw-op-123456")
    user.user_permissions.add(Permission.objects.get(codename="view_job"))
    token = Token.objects.create(user=user)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return user, token, client


def test_a_token_opens_what_its_user_may_see(db):
    _, _, client = _operator(db)
    assert client.get("/api/v1/jobs/").status_code == 200
    assert APIClient().get("/api/v1/jobs/").status_code == 401


def test_a_wrong_token_is_refused_with_the_api_error_shape(db):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token " + "0" * 40)
    response = client.get("/api/v1/papers/")
    assert response.status_code == 401 and "Invalid token" in response.content.decode()


def test_a_deleted_token_and_a_deactivated_user_are_refused_at_the_next_request(db):
    user, token, client = _operator(db)
    assert client.get("/api/v1/jobs/").status_code == 200
    user.is_active = False
    user.save()
    assert client.get("/api/v1/jobs/").status_code == 401
    user.is_active = True
    user.save()
    assert client.get("/api/v1/jobs/").status_code == 200
    token.delete()
    assert client.get("/api/v1/jobs/").status_code == 401


def test_authentication_is_one_statement_however_many_users_and_tokens(db):
    _, _, client = _operator(db)
    client.get("/api/v1/papers/")

    def statements() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert client.get("/api/v1/papers/").status_code == 200
        return len(queries)

    before = statements()
    for n in range(50):
        Token.objects.create(user=User.objects.create_user(f"user{n}"))
    assert statements() == before
