"""Reference strings to fields with a CRF sequence labeller trained on GROBID's and AnyStyle's
hand-labelled references (see docs/parsing.md)."""
import re

from citations.parsing.fields import build
from citations.parsing.identifier_repair import read_identifiers
from citations.parsing.parser import ParsedReference
from citations.parsing.tagger import Tagger, shipped
from citations.parsing.text import clean_reference_text
from citations.parsing.tokens import tokenise

PARSER_NAME = "pith-crf/2"
# TeX left in references typeset from LaTeX: ties and braces are spaces, `` '' are quotes.
_TEX = re.compile(r"~|\\[a-zA-Z]+\b\s*|[{}]")


def _text(raw: str) -> str:
    text = clean_reference_text(raw or "")
    if "~" in text or "\\" in text or "{" in text or "`" in text or "''" in text:
        text = " ".join(_TEX.sub(" ", text.replace("``", "“").replace("''", "”")).split())
    return text


def parse_reference(raw: str, tagger: Tagger | None = None) -> ParsedReference:
    """Parse one reference string."""
    tagger = tagger or shipped()
    text = _text(raw)
    tokens = tokenise(text)
    identifiers = read_identifiers(text)
    labels = tagger.labels(text, tokens, identifiers)
    return build(raw, text, tokens, labels, identifiers, PARSER_NAME)


def parse_references(raws, tagger: Tagger | None = None) -> list[ParsedReference]:
    """Parse a list of reference strings (the tagger and its feature cache looked up once)."""
    tagger = tagger or shipped()
    return [parse_reference(raw, tagger) for raw in raws]
