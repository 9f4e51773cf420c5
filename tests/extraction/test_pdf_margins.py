"""Text a page prints that is not the document's (line numbers of a review copy), on classes of
real PDFs that a fresh set of papers (bench/real_pdfs/manifest-5.json) showed the extractor
misreading, each on a small PDF built here."""
from citations.extraction.pdf_references import extract_references
from tests.extraction.test_pdf_layouts import BODY_LINES, LIST, hand_pdf


def test_line_numbers_drawn_over_the_text_are_dropped():
    # A venue's review ruler under a page geometry its style was not made for (ACL's review mode)
    # prints its small numbers at a fixed place inside the column, over the words of each row:
    # they were read into the words they cover ("References461", "models464 is").
    lines = BODY_LINES + ["References"] + [f"[{i}] {text}" for i, text in enumerate(LIST, start=1)]
    placed = []
    for row, text in enumerate(lines):
        y = 740 - 14 * row
        placed += [(72, y, text), (160, y + 0.5, str(461 + row), 8)]
    result = extract_references(hand_pdf(placed, size=9))
    assert result.heading == "References"
    assert [r.raw_text for r in result.references] == LIST
