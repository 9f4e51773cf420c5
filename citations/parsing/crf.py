"""Reference strings to fields with a CRF sequence labeller trained on GROBID's and AnyStyle's
hand-labelled references (see docs/parsing.md)."""
import re

from citations.parsing.fields import build
from citations.parsing.identifier_repair import read_identifiers
from citations.parsing.long_author_lists import read_long_author_lists
from citations.parsing.parser import ParsedReference
from citations.parsing.tagger import Tagger, shipped
from citations.parsing.text import clean_reference_text
from citations.parsing.tokens import tokenise

PARSER_NAME = "pith-crf/23"
# TeX left in references typeset from LaTeX: ties and braces are spaces, `` '' are quotes.
_TEX = re.compile(r"~|\\[a-zA-Z]+\b\s*|[{}]")
# ACL's style cuts a long author list with "and 2 others", where the labelled sets print "et al.", which
# the tagger knows as an author list's end; alone it reads "and 2 others" as a title or a name.
_AND_OTHERS = re.compile(r",?\s+and [0-9]+ others\b\.?")


def _text(raw: str) -> str:
    text = clean_reference_text(raw or "")
    if "~" in text or "\\" in text or "{" in text or "`" in text or "''" in text:
        text = " ".join(_TEX.sub(" ", text.replace("``", "“").replace("''", "”")).split())
    if " others" in text:
        text = _AND_OTHERS.sub(", et al.", text)
    return text


def parse_reference(raw: str, tagger: Tagger | None = None) -> ParsedReference:
    """Parse one reference string."""
    return parse_references([raw], tagger)[0]


def parse_references(raws, tagger: Tagger | None = None) -> list[ParsedReference]:
    """Parse a list of reference strings, labelled together (see decoding.py)."""
    tagger = tagger or shipped()
    raws = list(raws)
    texts = [_text(raw) for raw in raws]
    strings = [(text, tokenise(text), read_identifiers(text)) for text in texts]
    labels = read_long_author_lists(strings, tagger.labels(strings), tagger.labels)
    return [build(raw, text, tokens, found, identifiers, PARSER_NAME)
            for raw, (text, tokens, identifiers), found in zip(raws, strings, labels)]
