"""A PDF's reference list, in small steps (see citations.extraction.pdf_references for the whole).

    model     the values passed between the steps, and PdfRefused
    words     words with their boxes out of the text layer (pypdfium2), a page at a time
    pages     the pages' words kept between the layout's readings of them
    layout    lines in reading order: columns, running headers and footers
    section   where the reference list starts and ends
    entries   the list's lines split into references
    joining   a reference's lines joined, hyphenation undone
"""
from citations.extraction.pdf.entries import split_references
from citations.extraction.pdf.joining import VocabularyGathered
from citations.extraction.pdf.layout import ColumnEdges, page_lines
from citations.extraction.pdf.margins import MarginWords
from citations.extraction.pdf.model import (
    PageSize,
    PdfReference,
    PdfReferences,
    PdfRefused,
    TextWord,
)
from citations.extraction.pdf.pages import Page, PageStore, pages_of
from citations.extraction.pdf.section import PossibleListLines, reference_region


def references_from_words(words: list[TextWord], sizes: list[PageSize]) -> PdfReferences:
    """The reference list found in the words of a document (any text library can supply them)."""
    return references_from_pages(pages_of(words, sizes))


def references_from_pages(pages: PageStore | list[Page], margins: MarginWords | None = None) -> PdfReferences:
    """The reference list found in a document's pages (a PageStore, or pages_of a document's words);
    margins, if given, has seen every page as it came."""
    edges, kept, vocabulary = ColumnEdges(), PossibleListLines(), VocabularyGathered()
    for lines in page_lines(pages, margins):
        edges.add(lines)
        vocabulary.add(ln.text for ln in lines)
        kept.add(lines)
    heading, region = reference_region(edges.apply(kept.lines))
    if heading is None and not region:
        raise PdfRefused("no reference section found: no heading such as 'References' or 'Bibliography', "
                         "no list numbered [1], [2], ... or 1., 2., ... or labelled [Knu84], [GMS+20], ..., "
                         "and no run of entries beginning 'Surname, A.' with a year and a hanging indent")
    references = [
        PdfReference(index, text, page)
        for index, text, page in split_references(region, vocabulary.vocabulary())
        if text
    ]
    if not references:
        raise PdfRefused(f"the heading '{heading}' is followed by no references" if heading
                         else "the numbered list found holds no references")
    return PdfReferences(references=references, pages=len(pages), heading=heading)
