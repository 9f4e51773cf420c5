"""Request hygiene before any view: bodies over the limit get 413, NUL characters in the query 400."""
from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import JsonResponse


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
        # No text column can hold a NUL (PostgreSQL refuses it): say so instead of failing later.
        if any("\x00" in value for _, values in request.GET.lists() for value in values):
            return _too_large("the query string holds a NUL character", status=400)
        return self.get_response(request)

    def process_exception(self, request, exception):
        # A chunked body with no Content-Length is caught when read.
        if isinstance(exception, RequestDataTooBig):
            return _too_large(f"request bodies are limited to {settings.DATA_UPLOAD_MAX_MEMORY_SIZE:,} bytes")
        return None


def _too_large(message: str, status: int = 413) -> JsonResponse:
    return JsonResponse({"error": {"status": status, "code": "request_too_large" if status == 413 else "bad_request",
                                   "message": message}}, status=status)
