"""Request hygiene before any view: bodies over the limit get 413, bodies that do not arrive in time
408 (their connection's reading side shut), malformed ones 400, NUL characters in the query 400; every response says how long the
application took to make it (Server-Timing); a read whose database connection was ended under it is
run once more on a new one (RetryLostConnection)."""
import socket
import threading
import time
from io import BytesIO

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.db import InterfaceError, OperationalError, connection
from django.http import JsonResponse


class ServerTiming:
    """`Server-Timing: app;dur=<ms>` on every response: the time from the request reaching the
    application to its response leaving it. A client (or bench/api.py) that sees a slow response can
    tell the server's own time from time spent elsewhere (the network, a queue, scheduling)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        started = time.perf_counter()
        response = self.get_response(request)
        response["Server-Timing"] = f"app;dur={(time.perf_counter() - started) * 1000:.2f}"
        return response


class RetryLostConnection:
    """A GET or HEAD whose database connection the server ended while it ran (a restart, a failover,
    pg_terminate_backend: the connection's check at the request's start cannot see an end that comes
    after it) is run once more on a new connection instead of answering 500. A read writes nothing,
    so running it again is harmless; a write, or a request inside a transaction, is never run twice,
    and an error on a connection still usable (a query's own error) is not a lost connection."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if (request.method not in ("GET", "HEAD") or not isinstance(exception, (OperationalError, InterfaceError))
                or getattr(request, "_lost_connection_retried", False) or request.resolver_match is None
                or connection.in_atomic_block or connection.is_usable()):
            return None
        connection.close()
        request._lost_connection_retried = True
        match = request.resolver_match
        return match.func(request, *match.args, **match.kwargs)


class RefuseLargeBodies:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            return _too_large("a Content-Length that is not a number", status=400)
        if limit is not None and length > limit:
            return _too_large(f"request bodies are limited to {limit:,} bytes; this one has {length:,}")
        if not request.META.get("CONTENT_LENGTH") and _is_chunked(request):
            refused = _read_chunked_body(request, limit)
            if refused is not None:
                return refused
        elif length and request.META.get("gunicorn.socket") is not None:
            refused = _read_body_in_time(request)
            if refused is not None:
                return refused
        # No text column can hold a NUL (PostgreSQL refuses it): say so instead of failing later.
        if any("\x00" in value for _, values in request.GET.lists() for value in values):
            return _too_large("the query string holds a NUL character", status=400)
        return self.get_response(request)

    def process_exception(self, request, exception):
        # A chunked body with no Content-Length is caught when read.
        if isinstance(exception, RequestDataTooBig):
            return _too_large(f"request bodies are limited to {settings.DATA_UPLOAD_MAX_MEMORY_SIZE:,} bytes")
        return None


def _is_chunked(request) -> bool:
    return "chunked" in request.META.get("HTTP_TRANSFER_ENCODING", "").lower()


def _read_chunked_body(request, limit):
    """A chunked body has no Content-Length, so Django reads it as empty (and a view then refuses
    it as missing fields, not as too large). Read it here, at most limit + 1 bytes, when the server
    has decoded it and ends it (wsgi.input_terminated: gunicorn); refuse it when it is over the limit,
    and otherwise hand it to the view as a body of known length.

    The read is bounded in time (settings.REQUEST_BODY_SECONDS): a client that trickles its body, or
    never ends it, would hold the thread (under a sync worker, the whole process) for as long as it
    likes. At the deadline the connection's reading side is shut down (gunicorn.socket), which ends
    the read, and the client gets 408. A body gunicorn cannot decode (a chunk size that is not hex, a
    chunk without its CRLF) is the client's error, 400, not a 500."""
    if not request.META.get("wsgi.input_terminated"):
        # Reading to the end would wait on the open connection: ask for a length instead.
        return _too_large("send the body with a Content-Length: this server cannot read a chunked one", status=411)
    deadline = _Deadline(request.META.get("gunicorn.socket"), settings.REQUEST_BODY_SECONDS)
    try:
        data = request.META["wsgi.input"].read(limit + 1 if limit is not None else -1)
    except Exception:  # noqa: BLE001 - the server's decoder: gunicorn.http.errors.*, OSError, ValueError
        if deadline.passed:
            return _timed_out()
        return _too_large("the chunked body is malformed (Transfer-Encoding: chunked)", status=400)
    finally:
        deadline.cancel()
    if deadline.passed:
        return _timed_out()
    if limit is not None and len(data) > limit:
        return _too_large(f"request bodies are limited to {limit:,} bytes; this one has more")
    request.META["CONTENT_LENGTH"] = str(len(data))
    request._stream = BytesIO(data)      # what HttpRequest.read() and .body read from
    return None


class _Deadline:
    """Shuts down the reading side of `sock` after `seconds` unless cancelled first (no socket: nothing
    to bound, as under the test client)."""

    def __init__(self, sock, seconds: float):
        self.passed = False
        self._timer = None
        if sock is not None and seconds:
            self._timer = threading.Timer(seconds, self._expire, args=(sock,))
            self._timer.daemon = True
            self._timer.start()

    def _expire(self, sock) -> None:
        self.passed = True
        try:
            sock.shutdown(socket.SHUT_RD)
        except OSError:
            pass                            # the client went away meanwhile

    def cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()


def _read_body_in_time(request):
    """A body of known length (within the limit), read now, within REQUEST_BODY_SECONDS as a chunked
    one is: a client announcing a length and sending it a byte at a time holds a thread no longer."""
    deadline = _Deadline(request.META.get("gunicorn.socket"), settings.REQUEST_BODY_SECONDS)
    try:
        body = request.body
    except OSError:                         # UnreadablePostError: the client went away, or the deadline
        return _timed_out() if deadline.passed else _too_large("the request body ended early", status=400)
    finally:
        deadline.cancel()
    if deadline.passed or len(body) < int(request.META["CONTENT_LENGTH"]):
        return _timed_out() if deadline.passed else _too_large("the request body ended early", status=400)
    return None


def _timed_out() -> JsonResponse:
    return _too_large(f"the request body did not arrive within {settings.REQUEST_BODY_SECONDS:g} seconds",
                      status=408)


def _too_large(message: str, status: int = 413) -> JsonResponse:
    code = {413: "request_too_large", 411: "length_required", 408: "request_timeout"}.get(status, "bad_request")
    return JsonResponse({"error": {"status": status, "code": code, "message": message}}, status=status)
