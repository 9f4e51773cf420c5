"""Reference lists in the text layer OCR gives a scanned paper (issue #29), each class on a small PDF built here.

Tesseract (through ocrmypdf) reads a column of labels as a block of its own and loses some of its
labels, misreads brackets and digits, and sizes each line by its box. bench/real_pdfs_ocr.py
measures the same classes on scanned copies of real papers, which cannot be committed.
"""
import pytest

from citations.extraction.pdf_references import extract_references, join_lines
from tests.extraction.test_pdf_layouts import _width, hand_pdf

BODY = [f"Sentence {i} of the body says what the study found and why it matters to the field."
        for i in range(6)]


def _entry(k: int) -> tuple[str, str]:
    return (f"A. Author{k}, B. Writer, and C. Scribe, A study of the case {k} of drops impacting a surface,",
            f"J. Fluid Mech. {k}0{k}, 1{k} (2019).")


def _list_page(labels: dict[int, str], count: int, *, leading: float, between: float,
               sizes: dict[int, float] | None = None) -> bytes:
    """A body, a heading and count two-line references; those in labels carry that label, set
    left of the text as a hanging label is; a reference's second line in the size given in sizes."""
    placed = [(72, 740 - 14 * row, text) for row, text in enumerate(BODY)]
    y = 740 - 14 * len(BODY) - 10
    placed.append((72, y, "References"))
    y -= 20
    for k in range(1, count + 1):
        first, second = _entry(k)
        if k in labels:
            placed.append((72, y, labels[k]))
        placed.append((90, y, first))
        placed.append((90, y - leading, second, (sizes or {}).get(k, 10)))
        y -= 2 * leading + between
    return hand_pdf(placed)


def _texts(k_range) -> list[str]:
    return [" ".join(_entry(k)) for k in k_range]


@pytest.mark.parametrize("leading, between", [(12, 6), (20, 0)], ids=["apart", "double-spaced"])
def test_references_whose_labels_ocr_lost_are_read_between_the_labels_left(leading, between):
    # Labels [2] to [4] lost, and [7], [8] after the last label kept; the references are either set
    # apart by a gap or, double-spaced, known by a short last line before a name.
    pdf = _list_page({1: "[1]", 5: "[5]", 6: "[6]"}, 8, leading=leading, between=between)
    result = extract_references(pdf)
    assert [r.raw_text for r in result.references] == _texts(range(1, 9))
    assert [r.index for r in result.references] == list(range(1, 9))


def test_labels_with_brackets_or_digits_ocr_misread_are_labels():
    labels = {1: "[1]", 2: "(2]", 3: "[3|", 4: "{4]", 5: "[5]", 6: "[6]", 7: "[7]", 8: "[8]", 9: "[9]",
              10: "[1O]", 11: "[I1]", 12: "[12]"}
    result = extract_references(_list_page(labels, 12, leading=12, between=0))
    assert [r.raw_text for r in result.references] == _texts(range(1, 13))
    assert [r.index for r in result.references] == list(range(1, 13))


def test_a_line_ocr_sized_larger_than_the_list_does_not_end_it():
    # "J. Fluid Mech. 303, 13 (2019)." begins as an appendix heading does ("A. Proofs"), and OCR
    # gives the line a size of its own: taller marks, a taller box.
    labels = {k: f"[{k}]" for k in range(1, 7)}
    result = extract_references(_list_page(labels, 6, leading=12, between=0, sizes={3: 14}))
    assert [r.raw_text for r in result.references] == _texts(range(1, 7))


def test_a_full_line_ocr_sized_larger_than_the_list_does_not_end_it():
    # A justified line within a reference, beginning with an initial: "V. Nolte, et al., 2014 ...".
    refs = [(f"Author{k}, A., B. Writer, C. Scribe, D. Person, E. Someone, and",
             f"F. Nolte, et al., 2014 A study of the case {k} of drops impacting a solid wall in a steady shear",
             f"flow. J. Fluid Mech. {k}0{k}: 1{k}.") for k in range(1, 7)]
    placed = [(72, 740 - 14 * row, text) for row, text in enumerate(BODY)]
    y = 740 - 14 * len(BODY) - 10
    placed.append((72, y, "References"))
    for k, (first, middle, last) in enumerate(refs, start=1):
        placed += [(72, y - 20, first), (81, y - 32, middle, 12 if k == 3 else 10), (81, y - 44, last)]
        y -= 36
    assert _width(refs[0][1]) + 81 > max(_width(text) + 72 for text in BODY)     # the line runs to the edge
    result = extract_references(hand_pdf(placed))
    assert [r.raw_text for r in result.references] == [" ".join(ref) for ref in refs]


@pytest.mark.parametrize("lines", [["Report, 2025. URL https: //example.org/blog/2025-06-05/."],
                                   ["Report, 2025. URL https:", "//example.org/blog/2025-06-05/."]],
                         ids=["in a line", "at a line end"])
def test_a_url_ocr_parted_after_its_scheme_is_whole(lines):
    assert join_lines(lines) == "Report, 2025. URL https://example.org/blog/2025-06-05/."
