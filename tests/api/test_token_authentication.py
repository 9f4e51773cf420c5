"""Tokens: the operator's token opens the jobs list; a wrong, deleted or deactivated one is refused
at the next request (the token's user is read on every request, in one statement)."""
import pytest
from django.contrib.auth.models import Permission, User
from django.db import OperationalError, connection
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


def _terminate_backend_of(connection_) -> None:
    """End the server process of Django's connection from another connection, and wait until it is gone."""
    import time

    import psycopg

    with connection_.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    params = connection_.get_connection_params()
    with psycopg.connect(dbname=params["dbname"], user=params.get("user"), host=params.get("host"),
                         port=params.get("port"), autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])
        for _ in range(100):
            if other.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", [pid]).fetchone() is None:
                return
            time.sleep(0.02)


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_a_backend_killed_before_the_token_statement_costs_no_500(monkeypatch):
    """The server ends the connection's backend after its health check (or with health checks off):
    the token statement, the request's first, is read again on a new connection."""
    from django.db import connections

    django_connection = connections["default"]

    _, _, client = _operator(None)
    assert client.get("/api/v1/jobs/").status_code == 200
    monkeypatch.setattr(django_connection, "health_check_enabled", False)   # killed after the check
    for path in ("/api/v1/jobs/", "/api/v1/papers/"):
        _terminate_backend_of(django_connection)
        assert client.get(path).status_code == 200
    _terminate_backend_of(django_connection)
    anonymous = APIClient()
    anonymous.credentials(HTTP_AUTHORIZATION="Token " + "0" * 40)
    assert anonymous.get("/api/v1/papers/").status_code == 401


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_inside_an_open_transaction_a_lost_connection_is_not_read_again(monkeypatch):
    from django.db import connections

    django_connection = connections["default"]
    from django.db import transaction

    from citations.api.authentication import TokenAuthentication

    _, token, client = _operator(None)
    assert client.get("/api/v1/jobs/").status_code == 200
    monkeypatch.setattr(django_connection, "health_check_enabled", False)
    with pytest.raises(OperationalError), transaction.atomic():
        _terminate_backend_of(django_connection)
        TokenAuthentication().authenticate_credentials(token.key)
