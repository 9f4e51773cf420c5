"""More failure classes of real PDFs (issue #29, the second round), each on a small PDF built here.

The helpers are those of tests/extraction/test_pdf_layouts.py; bench/real_pdfs.py measures the
same classes on real papers, which cannot be committed.
"""
from citations.extraction.pdf_references import extract_references
from tests.extraction.test_pdf_layouts import _width, hand_pdf

# --- columns found per region of the page ----------------------------------------------------------


def test_a_gutter_just_wider_than_the_least_is_found_under_a_float():
    # A table across the page over two columns 9.2 points apart (the least a gutter is: 0.9 em
    # of 10-point type), their baselines two points out of step as a float leaves them.
    # On the grid of whole points the strip shared by the rows is one point narrower.
    refs = [f"A. Au{i}, Title {i}, Phys. Rev. {i} (2019)." for i in range(1, 9)]
    body = [f"Body line {k} of the left column of text." for k in range(5)]
    left = body + ["References"] + [f"[{i}] {refs[i - 1]}" for i in range(1, 5)]
    right = [f"[{i}] {refs[i - 1]}" for i in range(5, 9)] + [""] * 3 + [f"Right column text line {k} here." for k in range(4)]
    left_x = 301.4 - max(_width(text) for text in left)
    placed = [(72, 740 - 12 * k, f"Table 1: row {k} of a wide table across the page, from margin to margin {k}")
              for k in range(5)]
    placed += [(left_x, 660 - 12 * k, text) for k, text in enumerate(left)]
    placed += [(310.6, 658 - 12 * k, text) for k, text in enumerate(right)]
    result = extract_references(hand_pdf(placed))
    assert [r.raw_text for r in result.references] == refs
