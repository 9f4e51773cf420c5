"""An arXiv source package's reference list as plain strings, each with its index and cite key.

    extract_references(source) -> SourceReferences(
        references=[SourceReference(index, raw_text, key, origin, member, links)],
        origin, members, notes)

The package is read by source_package (safely, in memory) and each entry's LaTeX is turned into
text by latex_text; these modules choose the bibliography and parse it. The references come, in
order of preference, from what BibTeX or biber wrote: a .bbl (classic `thebibliography` or
biblatex's `\\entry` records) or a `thebibliography` typed into a .tex; only when there is none,
from the .bib entries that the .tex files cite, in order of first citation.

This module reads the package's files and chooses the main .tex; bbl_references.py reads a .bbl or
a typed thebibliography, bib_references.py the .bib entries (with bibtex_reader.py), and
reference_format.py writes one reference string from bibliography fields.
"""
import os
import re

from citations.extraction.bbl_references import references_from_bbl
from citations.extraction.bib_references import references_from_bib
from citations.extraction.source_package import SINGLE_FILE_NAME, read_package
from citations.extraction.source_references import SourceReferences


def extract_references(source: bytes | str | os.PathLike) -> SourceReferences:
    """The reference list of an arXiv source package given as bytes or a path."""
    blobs, notes = read_package(source)
    return _references_from_files(blobs, notes)


# --- Choosing the bibliography -------------------------------------------------------------

_DOCUMENTCLASS = re.compile(r"\\document(?:class|style)(?![A-Za-z])")
_BEGIN_DOCUMENT = re.compile(r"\\begin\s*\{document\}")
# A '%' starts a comment unless escaped; "%20" right after other characters is a URL's escape
# (BibTeX copies URLs into the .bbl as they are). The comment takes its newline and the next
# line's indent with it, as in TeX, so "%"-continued lines join.
_COMMENT_OR_URL_ESCAPE = re.compile(r"(?P<keep>(?<=\S)%[0-9A-Fa-f]{2})|(?<!\\)%[^\n]*(?:\n[ \t]*)?")


def _references_from_files(blobs: dict[str, bytes], notes: list[str]) -> SourceReferences:
    texts = {}
    for name, data in blobs.items():
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = data.decode("latin-1")  # older arXiv sources; latin-1 decodes any byte
            notes.append(f"{name} is not UTF-8; read it as Latin-1")
        # BibTeX has no comment character inside entries, so a .bib keeps its '%'.
        texts[name] = text if name.lower().endswith(".bib") else _strip_comments(text)
    main = _main_tex(texts)
    return references_from_bbl(texts, main, notes) or references_from_bib(texts, main, notes)


def _strip_comments(tex: str) -> str:
    return _COMMENT_OR_URL_ESCAPE.sub(lambda m: m.group("keep") or "", tex)


def _main_tex(texts: dict[str, str]) -> str | None:
    """The .tex with \\documentclass; of several, one with \\begin{document}, then the largest."""
    mains = [n for n, t in texts.items() if n.lower().endswith(".tex") and _DOCUMENTCLASS.search(t)]
    if not mains:
        return SINGLE_FILE_NAME if SINGLE_FILE_NAME in texts else None
    return min(mains, key=lambda n: (not _BEGIN_DOCUMENT.search(texts[n]), -len(texts[n]), n))

