"""A PDF's reference list as plain strings, each with its index and the page it starts on.

    extract_references(pdf) -> PdfReferences(references=[PdfReference(index, raw_text, page)], pages, heading)

Steps (each a module of citations.extraction.pdf):
  words     words with their boxes from the PDF's text layer, a page at a time (a character
            outside the BMP, which PDFium counts twice, keeps its box; TeX's accents set as glyphs
            of their own composed)
  pages     the pages' words kept for the layout: held for a paper, in a temporary file for a
            long document, read back a page at a time
  margins   running headers, footers and page numbers dropped (lines repeated at the same height
            on several pages, bare numbers at the top or foot), and a draft's line numbers (a
            margin column of numbers counting up row by row, or every fifth row), gathered as the
            pages come
  layout    per page, columns found from an empty vertical strip near the middle (left column
            read before the right); when a float or passage across both columns hides it, per
            band of the page (bands); a strip with only equation numbers or labels on one side
            is no gutter
  section   the LAST heading "References" (Bibliography, Literatur, 参考文献, ...; not a table of
            contents' line) as the start, or without one the last list labelled [1], [2], ...
            after the text (Physical Review Letters), or an author-year list after the body;
            its end at an appendix heading (in any script, 附录 too); float
            captions, tables, a figure's labels and footnotes at the foot of a page left out
  entries   the lines split into references by printed labels ([1], 1., (1), "10.Wang")
            counted up in order (the last one ends at a wide gap), else by hanging indent, else
            (flush-left author-year lists) by a short line followed by a line that begins like
            an author name or by a vertical gap
  joining   the lines of a reference joined, undoing hyphenation at line ends.
Measured on the real papers of bench/real_pdfs/manifest.json against the .bbl each was compiled
with: bench/real_pdfs.py (figures in docs/performance.md). The PDF's words are read in a child
process held to a memory and a time bound (citations/extraction/pdf/isolated.py); neither process
grows with the number of pages (bench/real_pdfs_long.py).
raw_text is the reference without its printed label; index is the printed number when the list
is numbered, else the 1-based position.

Text library: pypdfium2 (Apache-2.0 / BSD-3-Clause; PDFium, Chromium's PDF engine), chosen by
bench/extraction.py --libraries, which runs the same layout and splitting code on each library's
words (figures in docs/performance.md): pdfminer.six is as accurate but several times slower; pypdf
gives only where each string starts. pypdfium2 gives every character's box, font size and weight,
and is maintained. PyMuPDF (AGPL) and poppler (GPL) were not considered.

PDFium runs in a child process held to MAX_MEMORY_MB of address space and MAX_SECONDS of wall-clock
time (citations.extraction.pdf.isolated): a small Flate-compressed file can inflate to gigabytes
inside PDFium before any count of ours runs. Past either bound the PDF is refused with a sentence and
the caller's process is untouched. The commands and the workers pass the settings PDF_READ_MEMORY_MB
and PDF_READ_SECONDS.
"""
# The steps live in citations.extraction.pdf (one module a job); this module keeps the public
# names its callers use, and the limits a test may lower.
from collections.abc import Callable
from pathlib import Path

from citations.extraction.pdf import references_from_pages, references_from_words
from citations.extraction.pdf import words as _words
from citations.extraction.pdf.isolated import read_pages_isolated
from citations.extraction.pdf.joining import Vocabulary, is_word_break, join_lines
from citations.extraction.pdf.margins import MarginWords
from citations.extraction.pdf.model import (
    PageSize,
    PdfReference,
    PdfReferences,
    PdfRefused,
    TextWord,
)
from citations.extraction.pdf.pages import Page, PageStore

MAX_PAGES = _words.MAX_PAGES
MAX_BYTES = _words.MAX_BYTES
MAX_MEMORY_MB = 1024
MAX_SECONDS = 60

__all__ = ["MAX_BYTES", "MAX_MEMORY_MB", "MAX_PAGES", "MAX_SECONDS", "PageSize", "PdfReference", "PdfReferences",
           "PdfRefused", "TextWord", "Vocabulary", "extract_references", "is_word_break", "join_lines", "read_words",
           "references_from_words"]


def extract_references(pdf: bytes | str | Path, *, memory_mb: int | None = None,
                       seconds: float | None = None) -> PdfReferences:
    """The reference list of a PDF given as bytes or a path; PdfRefused says why there is none."""
    # What the margins hold is gathered as the pages come, while the child reads on.
    margins = MarginWords()
    with _words.checked(pdf, MAX_BYTES) as checked, _read_pages(checked, memory_mb, seconds, margins.add) as pages:
        return references_from_pages(pages, margins)


def read_words(data: bytes, *, memory_mb: int | None = None,
               seconds: float | None = None) -> tuple[list[TextWord], list[PageSize]]:
    """Every word of the PDF's text layer with its box, font size and weight, and the page sizes,
    read in a child process of bounded memory and time (MAX_MEMORY_MB and MAX_SECONDS unless given)."""
    words, sizes = [], []
    with _read_pages(data, memory_mb, seconds) as pages:
        for _, size, page_words in pages:
            sizes.append(size)
            words.extend(page_words)
    return words, sizes


def _read_pages(data: bytes | _words.PdfFile, memory_mb: int | None, seconds: float | None,
                on_page: Callable[[Page], None] | None = None) -> PageStore:
    return read_pages_isolated(data, max_pages=MAX_PAGES, max_page_characters=_words.MAX_PAGE_CHARACTERS,
                               memory_mb=memory_mb or MAX_MEMORY_MB, seconds=seconds or MAX_SECONDS, on_page=on_page)
