"""Where the reference list ends, on classes of real PDFs that the real sets (bench/real_pdfs/) showed
the extractor misreading, each on a small PDF built here."""
from citations.extraction.pdf_references import extract_references
from tests.extraction.test_pdf_layouts import LIST, _book


def test_an_appendix_opening_with_display_math_ends_the_list():
    # The appendix's first lines are equations set apart from the column's edge: they and the heading
    # above them went out as a block foreign to the list (a table's), and the appendix's prose on
    # the next page, starting where the list's lines do, was read as the last reference's lines.
    first = [(72, 740 - 14 * k, f"Sentence {k} of the body says what the study found and why.", 10)
             for k in range(6)]
    first.append((72, 640, "References", 12))
    first += [(72, 620 - 14 * k, f"[{i}] {text}", 10) for k, (i, text) in enumerate(enumerate(LIST, 1))]
    y = 620 - 14 * len(LIST) - 30
    first.append((72, y, "Appendix A: Derivations", 14))
    first += [(230, y - 22, "f(x) = g(x) + h(x)", 10), (250, y - 40, "= k(x, y)", 10),
              (210, y - 58, "E(x) <= 2 C(x)", 10)]
    second = [(72, 740 - 14 * k, f"Proof line {k} of the appendix goes on with words here.", 10) for k in range(4)]
    result = extract_references(_book([first, second]))
    assert result.heading == "References"
    assert [r.raw_text for r in result.references] == LIST
