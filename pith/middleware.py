"""Request hygiene before any view: bodies over the limit get 413, NUL characters in the query 400;
and every response says how long the application took to make it (Server-Timing)."""
import time
from io import BytesIO

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
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
    and otherwise hand it to the view as a body of known length."""
    if not request.META.get("wsgi.input_terminated"):
        # Reading to the end would wait on the open connection: ask for a length instead.
        return _too_large("send the body with a Content-Length: this server cannot read a chunked one", status=411)
    data = request.META["wsgi.input"].read(limit + 1 if limit is not None else -1)
    if limit is not None and len(data) > limit:
        return _too_large(f"request bodies are limited to {limit:,} bytes; this one has more")
    request.META["CONTENT_LENGTH"] = str(len(data))
    request._stream = BytesIO(data)      # what HttpRequest.read() and .body read from
    return None


def _too_large(message: str, status: int = 413) -> JsonResponse:
    code = {413: "request_too_large", 411: "length_required"}.get(status, "bad_request")
    return JsonResponse({"error": {"status": status, "code": code, "message": message}}, status=status)
