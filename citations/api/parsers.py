"""Request body parsers of API v1."""
from rest_framework.exceptions import ParseError
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser


class BoundedJSONParser(JSONParser):
    """DRF's JSON parser, refusing bodies nested too deeply for Python's decoder (a RecursionError,
    which DRF does not catch, would be a 500) with a 400 like any other malformed body."""

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError("JSON parse error - the body is nested too deeply") from None


# For every view that reads a body.
PARSERS = [BoundedJSONParser, FormParser, MultiPartParser]
