"""OpenAPI schema: the error responses every operation can give, in the one shape they all have, and
the parameters drf-spectacular cannot derive by itself."""
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter

# An observation's address: its reference's id (the lists read reference_current_resolutions, whose
# key is the reference, which drf-spectacular cannot type from the model).
OBSERVATION_ID = OpenApiParameter("id", OpenApiTypes.UUID, OpenApiParameter.PATH,
                                  description="The observation id of the reference.")

ERROR = {
    "type": "object",
    "required": ["error"],
    "properties": {"error": {
        "type": "object", "required": ["status", "code", "message"],
        "properties": {"status": {"type": "integer"}, "code": {"type": "string"}, "message": {"type": "string"},
                       "fields": {"type": "object", "description": "Per-field messages (400 only)."}}}},
}
MEANINGS = {
    "400": "The request is malformed: an unknown parameter or ordering, a bad cursor, an invalid body.",
    "401": "No or bad credentials: send a token (Authorization: Token <key>).",
    "403": "The token's user lacks the permission this needs.",
    "404": "Not found.",
    "409": "The reference changed since you read its revision: read it again.",
    "413": "The request body is larger than the server accepts.",
    "429": "Too many requests: slow down (Retry-After says when).",
}
WRITES = {"post", "put", "patch", "delete"}


def error_responses(result, generator, request, public):
    """Add the errors each operation can answer with (spectacular postprocessing hook)."""
    result.setdefault("components", {}).setdefault("schemas", {})["Error"] = ERROR
    reference = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
    for path, operations in result.get("paths", {}).items():
        for method, operation in operations.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            codes = ["400", "404", "429"]
            if method in WRITES:
                codes += ["401", "403", "413"] + (["409"] if "override" in path else [])
            elif "/jobs/" in path:
                codes += ["401", "403"]
            for code in codes:
                operation["responses"].setdefault(code, {"description": MEANINGS[code], "content": reference})
    return result
