"""The one way a stored reference is read: which parser, and which of its fields a reference keeps.

Ingest, a curator's split or join, and `reparse_references` all read text through here, so a
reference list is never read by two parsers at once and the parser's name stored with each
reference says truthfully what read it."""
from citations.parsing.crf import PARSER_NAME, parse_reference, parse_references
from citations.parsing.parser import ParsedReference

READER_NAME = PARSER_NAME
# The parsed fields a stored reference (PaperReference) keeps, in its column names.
STORED_FIELDS = ("title", "year", "authors", "venue", "arxiv_id", "doi", "identifiers", "parser")


def read_reference(raw: str) -> ParsedReference:
    """Read one reference's text into fields."""
    return parse_reference(raw)


def read_references(raws: list[str]) -> list[ParsedReference]:
    """Read many references' texts (the model and its feature cache looked up once)."""
    return parse_references(raws)


def stored_fields(parsed: ParsedReference) -> dict:
    """What a PaperReference stores of a reading, by column name."""
    return {"title": parsed.title, "year": parsed.year, "authors": list(parsed.authors), "venue": parsed.venue,
            "arxiv_id": parsed.arxiv_id, "doi": parsed.doi, "identifiers": [i.as_json() for i in parsed.identifiers],
            "parser": parsed.parser}
