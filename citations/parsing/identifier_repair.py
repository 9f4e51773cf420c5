"""Identifiers of a reference string: the exact rules of citations.parsing.identifiers, with
PDF-text artefacts undone that those rules, reading text as written, keep:
  a DOI glued to the word or note after it ("10.1103/PhysRevD.7.2333.URL https://...",
  "10.1126/science.1193063.PMID:20847271", "10.1039/c9ee00453j(2019)"),
  a DOI cut by a space the line break left ("10.1093/molbev /msu300", "10.5194/npg- 19-227-2012"):
  the cut is where a DOI cannot end (after "-", "." or "/", or a suffix with no digit yet), and
  a DOI cut short inside a URL that repeats it whole, kept beside the whole one.
"""
import re
from dataclasses import replace

from citations.parsing.identifiers import Identifier, find_identifiers

# Every pattern of find_identifiers needs one of these; most strings hold none and skip it.
_MAY_HOLD = re.compile(r"10\.|arxiv|corr|doi|http|www\.|/|[0-9]{4}\s?\.[0-9]{4}", re.I)
_NUMBERED = re.compile(r"[0-9]{4}\s?\.[0-9]{4}")
_GLUED_WORD = re.compile(r"\.(?:url|urlhttps?|https?|available|accessed|retrieved|issn|isbn|pmid|arxiv)(?::\S*)?$"
                         r"|\.\([a-z]\)$|\((?:1[6-9]|20)[0-9]{2}\)$|\([a-z]{6,}$|(?<=[0-9])(?:for|and|see|in)$")
_CONTINUATION = re.compile(r"\s{1,2}([./-]?[\w./()-]*[0-9][\w./()-]*)")


def read_identifiers(text: str) -> list[Identifier]:
    """Every identifier in the text (find_identifiers), DOIs repaired as the module docstring says."""
    if not _may_hold(text):
        return []
    found = find_identifiers(text)
    if not any(i.kind == "doi" for i in found):
        return found
    repaired = []
    for identifier in found:
        if identifier.kind == "doi" and identifier.valid:
            value = _joined(text, identifier)
            value = _GLUED_WORD.sub("", value).rstrip(".,;")
            if value != identifier.value:
                identifier = replace(identifier, value=value)
        repaired.append(identifier)
    dois = {i.value for i in repaired if i.kind == "doi" and i.valid}
    return [i for i in repaired if not (i.kind == "doi" and i.valid and
                                        any(other != i.value and other.startswith(i.value + ".") for other in dois))]


def _may_hold(text: str) -> bool:
    """Whether _MAY_HOLD is in the text. In ASCII text, where ignoring case is lowering it, its words
    are found as substrings of the text in lower case, faster than by a case-blind regex."""
    if not text.isascii():
        return _MAY_HOLD.search(text) is not None
    lower = text.lower()
    return ("/" in lower or "10." in lower or "doi" in lower or "http" in lower or "arxiv" in lower
            or "corr" in lower or "www." in lower or _NUMBERED.search(text) is not None)


def _joined(text: str, identifier: Identifier) -> str:
    """The DOI with the piece after a space added, where the space cut it (see the module docstring)."""
    value = identifier.value
    suffix = value.split("/", 1)[1]
    rest = _CONTINUATION.match(text, identifier.span[1])
    if rest and (value[-1] in "-./" or rest.group(1)[0] in "./" or not any(c.isdigit() for c in suffix)):
        cut_at_period = text[identifier.span[1] - 1] == "." and value[-1] != "."
        return value + ("." if cut_at_period else "") + rest.group(1).lower().rstrip(".,;)")
    return value
