"""Bodies without a Content-Length (Transfer-Encoding: chunked) are held to the same limit; under
gunicorn, a malformed one is a 400, and a body must arrive in time (slow clients cannot starve it)."""
import concurrent.futures
import contextlib
import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
from io import BytesIO
from pathlib import Path

import pytest
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.test import RequestFactory

from tests.celery_worker import ROOT
from tests.conftest import require_service


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


# --- under gunicorn, as deployed (pith/gunicorn_conf.py) ---------------------------------------------
BODY_SECONDS = 3


@pytest.fixture
def gunicorn_server(tmp_path):
    """gunicorn with the project's configuration on a free loopback port, on a database of its own (the
    requests here reach no table), two workers as on a small machine; its address."""
    if shutil.which("gunicorn", path=str(Path(sys.executable).parent)) is None:
        require_service("gunicorn")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {key: value for key, value in os.environ.items()
           if key not in ("DATABASE_URL", "REDIS_CACHE_URL", "CELERY_BROKER_URL", "CELERY_RESULT_BACKEND")}
    env.update(DATABASE_URL=f"sqlite:///{tmp_path / 'web.sqlite3'}", PITH_VAR_DIR=str(tmp_path),
               GUNICORN_BIND=f"127.0.0.1:{port}", WEB_CONCURRENCY="2", REQUEST_BODY_SECONDS=str(BODY_SECONDS),
               PYTHONPATH=str(ROOT))
    log = open(tmp_path / "gunicorn.log", "w+")     # noqa: SIM115 - closed below
    server = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "pith/gunicorn_conf.py", "pith.wsgi"],
                              cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    log.seek(0)
                    pytest.fail(f"gunicorn did not start:\n{log.read()[-3000:]}")
                time.sleep(0.2)
        # Each worker's first request loads the URLs and the views: not what is measured here.
        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            list(pool.map(lambda _: raw_request(("127.0.0.1", port), HEALTH, timeout=30), range(16)))
        yield ("127.0.0.1", port)
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log.close()


def raw_request(address, data: bytes, timeout: float = 10) -> bytes:
    """What the server answers to `data` written on a new connection (until it closes it, or `timeout`)."""
    with socket.create_connection(address, timeout=timeout) as conn:
        conn.sendall(data)
        answer = b""
        with contextlib.suppress(TimeoutError):
            while chunk := conn.recv(65536):
                answer += chunk
                if b"\r\n\r\n" in answer and b"Connection: close" not in answer and b"connection: close" not in answer:
                    head, _, body = answer.partition(b"\r\n\r\n")
                    length = re.search(rb"(?i)content-length: *(\d+)", head)
                    if length and len(body) >= int(length.group(1)):
                        break
    return answer


HEALTH = b"GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
CHUNKED_POST = (b"POST /api/v1/overrides/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                b"Transfer-Encoding: chunked\r\n\r\n")


@pytest.mark.gunicorn
@pytest.mark.parametrize("body", [b"zz\r\n{}\r\n0\r\n\r\n", b"2\r\n{}XX0\r\n\r\n", b"2;\x01\r\n{}\r\n0\r\n\r\n",
                                  b"-1\r\n{}\r\n0\r\n\r\n", b"2\r\n{}\r\nzz\r\n{}\r\n0\r\n\r\n"])
def test_a_malformed_chunked_body_is_a_400_under_gunicorn(gunicorn_server, body):
    answer = raw_request(gunicorn_server, CHUNKED_POST + body)
    assert answer.startswith(b"HTTP/1.1 400"), answer[:300]


@pytest.mark.gunicorn
def test_clients_trickling_bodies_do_not_keep_a_third_from_the_health_check(gunicorn_server):
    """Two clients each send a chunked body a byte every 0.2 s, never ending it (and one a body of a
    stated length the same way); a third client's health check is answered at once, and the
    tricklers get 408 once REQUEST_BODY_SECONDS have passed."""
    answers, stop = {}, threading.Event()

    def trickle(name: str, head: bytes, piece: bytes):
        with socket.create_connection(gunicorn_server, timeout=BODY_SECONDS + 10) as conn:
            conn.sendall(head)
            started = time.monotonic()
            try:
                while not stop.is_set():
                    conn.sendall(piece)
                    conn.settimeout(0.2)
                    with contextlib.suppress(TimeoutError):
                        answer = conn.recv(65536)
                        if answer:
                            answers[name] = (answer, time.monotonic() - started)
                            return
                    conn.settimeout(BODY_SECONDS + 10)
            except OSError as error:
                answers[name] = (repr(error).encode(), time.monotonic() - started)

    tricklers = [threading.Thread(target=trickle, args=(f"chunked{n}", CHUNKED_POST, b"1\r\n{\r\n")) for n in (1, 2)]
    tricklers.append(threading.Thread(target=trickle, args=("length", CHUNKED_POST.replace(
        b"Transfer-Encoding: chunked", b"Content-Length: 100000"), b"{")))
    for thread in tricklers:
        thread.start()
    try:
        time.sleep(1)                                   # the tricklers have their threads
        timings = []
        for _ in range(3):
            started = time.monotonic()
            answer = raw_request(gunicorn_server, HEALTH, timeout=10)
            timings.append(time.monotonic() - started)
            assert answer.startswith(b"HTTP/1.1 200"), answer[:300]
        assert max(timings) < 2, timings
        for thread in tricklers:
            thread.join(timeout=BODY_SECONDS + 10)
    finally:
        stop.set()
    assert set(answers) == {"chunked1", "chunked2", "length"}, answers
    for name, (answer, after) in answers.items():
        assert answer.startswith(b"HTTP/1.1 408"), (name, answer[:300])
        assert BODY_SECONDS - 0.5 < after < BODY_SECONDS + 3, (name, after)
    print(f"health while trickling: {', '.join(f'{t:.3f}' for t in timings)} s; "
          f"408 after {', '.join(f'{name} {after:.2f} s' for name, (_, after) in sorted(answers.items()))}")
