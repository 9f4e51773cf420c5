"""DRF's errors in the one JSON shape of citations/json_errors.py, and the API's own exceptions."""
from rest_framework import exceptions, status
from rest_framework.views import exception_handler

from citations.json_errors import api_error_response, error_body
from citations.pages import views as pages


def json_errors(exc, context):
    response = exception_handler(exc, context)
    if response is None:
        return None       # not an API error: Django's handlers (and our 500 page) take it
    code = getattr(exc, "default_code", "error")
    if isinstance(exc, exceptions.ValidationError):
        fields = response.data if isinstance(response.data, dict) else {"record": response.data}
        message = "; ".join(f"{path}: {text}" for path, text in _flattened(fields))
        response.data = error_body(response.status_code, "invalid", message or "invalid input", fields)
    else:
        detail = response.data.get("detail", str(exc)) if isinstance(response.data, dict) else str(exc)
        response.data = error_body(response.status_code, getattr(detail, "code", code), str(detail))
    return response


def not_found(request, exception=None):
    """The 404 of every address: JSON in the API's one shape where JSON was asked for (the API, a
    record's .json, any .json file), the page otherwise."""
    if request.path.endswith(".json") and not request.path.startswith("/api/"):
        return api_error_response(404, "not_found",
                                  pages._public_reason(exception) or "there is nothing at this address")
    return pages.not_found(request, exception)


def _flattened(errors, path: str = ""):
    """(path, text) pairs of nested serializer errors: references[3].raw: This field is required.
    Plain text throughout: a nested dict or list must not reach the message as a Python repr."""
    if isinstance(errors, dict):
        for key, value in errors.items():
            # A list serializer keys its items' errors by index (DRF 3.16+).
            yield from _flattened(value, f"{path}[{key}]" if isinstance(key, int) else f"{path}.{key}" if path
                                  else str(key))
    elif isinstance(errors, list):
        texts = [str(item) for item in errors if not isinstance(item, (dict, list))]
        if texts:
            yield path or "record", " ".join(texts)
        for index, item in enumerate(errors):
            if isinstance(item, (dict, list)) and item:
                yield from _flattened(item, f"{path}[{index}]")
    else:
        yield path or "record", str(errors)


class Conflict(exceptions.APIException):
    status_code = status.HTTP_409_CONFLICT
    default_code = "conflict"
    default_detail = "The resource changed since you read it."
