"""Errors as JSON with one stable shape: {"error": {"status", "code", "message", "fields"?}}, for the
API (citations/api/errors.py gives DRF's errors this shape) and the JSON pages outside it."""
from django.http import JsonResponse


def error_body(status_code: int, code: str, message: str, fields=None) -> dict:
    error = {"status": status_code, "code": code, "message": _encodable(message)}
    if fields:
        error["fields"] = _encodable(fields)
    return {"error": error}


def _encodable(value):
    """The value with every lone surrogate a message echoes from the request ('"\ud800" is not a valid
    choice') written as its escape: as it was, the response could not be encoded and was a 500."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return value.encode("utf-8", "backslashreplace").decode("utf-8")
        return value
    if isinstance(value, dict):
        return {_encodable(key): _encodable(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_encodable(item) for item in value]
    return value


def api_error_response(status_code: int, code: str, message: str) -> JsonResponse:
    """The same shape outside DRF (404 and 500 handlers for /api/ paths)."""
    return JsonResponse(error_body(status_code, code, message), status=status_code)
