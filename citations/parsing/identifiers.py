"""Identifiers of a reference string: the exact rules of citations.resolution.identifiers, with
two PDF-text artefacts undone that those rules, reading text as written, keep:
  a DOI glued to the word after it ("10.1103/PhysRevD.7.2333.URL https://..."), and
  a DOI cut short by a line break inside a URL that repeats it whole, kept beside the whole one.
"""
import re
from dataclasses import replace

from citations.resolution.identifiers import Identifier, find_identifiers

# Every pattern of find_identifiers needs one of these; most strings hold none and skip it.
_MAY_HOLD = re.compile(r"10\.|arxiv|corr|doi|http|www\.|/|[0-9]{4}\s?\.[0-9]{4}", re.I)
_GLUED_WORD = re.compile(r"\.(?:url|urlhttps?|https?|available|accessed|retrieved|issn|isbn|pmid|arxiv)$")


def read_identifiers(text: str) -> list[Identifier]:
    """Every identifier in the text (find_identifiers), DOIs repaired as the module docstring says."""
    if not _MAY_HOLD.search(text):
        return []
    found = find_identifiers(text)
    if not any(i.kind == "doi" for i in found):
        return found
    repaired = []
    for identifier in found:
        if identifier.kind == "doi" and identifier.valid and _GLUED_WORD.search(identifier.value):
            identifier = replace(identifier, value=_GLUED_WORD.sub("", identifier.value))
        repaired.append(identifier)
    dois = {i.value for i in repaired if i.kind == "doi" and i.valid}
    return [i for i in repaired if not (i.kind == "doi" and i.valid and
                                        any(other != i.value and other.startswith(i.value + ".") for other in dois))]
