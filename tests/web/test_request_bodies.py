"""Bodies without a Content-Length (Transfer-Encoding: chunked) are held to the same limit."""
from io import BytesIO

from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.test import RequestFactory


def wsgi_post(path: str, body: bytes, *, terminated: bool = True, headers=None) -> tuple[str, bytes]:
    """A POST as gunicorn hands a chunked request to the application: decoded input, no CONTENT_LENGTH."""
    environ = RequestFactory()._base_environ(PATH_INFO=path, REQUEST_METHOD="POST", CONTENT_TYPE="application/json",
                                             HTTP_TRANSFER_ENCODING="chunked", **(headers or {}))
    environ.pop("CONTENT_LENGTH", None)
    environ["wsgi.input"] = BytesIO(body)
    if terminated:
        environ["wsgi.input_terminated"] = True
    status = []
    # As Django's test client does: the request signals must not close the test's connection, which
    # is inside the test's transaction (on PostgreSQL that closes it for the rest of the test).
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        chunks = WSGIHandler()(environ, lambda s, h, *a: status.append(s))
        body = b"".join(chunks)
        chunks.close()
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)
    return status[0], body


def test_a_chunked_body_over_the_limit_is_a_413(db, settings):
    status, body = wsgi_post("/api/v1/overrides/", b"[" * (7 * 1024 * 1024))
    assert status.startswith("413") and b"request_too_large" in body


def test_a_chunked_body_within_the_limit_reaches_the_view(db, superuser):
    from rest_framework.authtoken.models import Token

    token = Token.objects.create(user=superuser).key
    status, body = wsgi_post("/api/v1/overrides/", b'{"field": "year"', headers={"HTTP_AUTHORIZATION": f"Token {token}"})
    assert status.startswith("400") and b"JSON parse error" in body


def test_a_chunked_body_the_server_does_not_end_is_refused_with_411(db):
    status, body = wsgi_post("/api/v1/overrides/", b"{}", terminated=False)
    assert status.startswith("411")
