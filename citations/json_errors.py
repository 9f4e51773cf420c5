"""Errors as JSON with one stable shape: {"error": {"status", "code", "message", "fields"?}}, for the
API (citations/api/errors.py gives DRF's errors this shape) and the JSON pages outside it."""
from django.http import JsonResponse


def error_body(status_code: int, code: str, message: str, fields=None) -> dict:
    error = {"status": status_code, "code": code, "message": message}
    if fields:
        error["fields"] = fields
    return {"error": error}


def api_error_response(status_code: int, code: str, message: str) -> JsonResponse:
    """The same shape outside DRF (404 and 500 handlers for /api/ paths)."""
    return JsonResponse(error_body(status_code, code, message), status=status_code)
