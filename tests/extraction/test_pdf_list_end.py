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


AUTHOR_YEAR = [(f"Author{c} A, Writer B, Scribe C (20{10 + k}). A study of case {k} in a title long enough",
                "to wrap. Journal of Studies, 4(2), 1-19.") for k, c in enumerate("BCDEFG")]


def test_the_authors_addresses_after_the_list_end_it():
    # The Journal of Statistical Software prints each author's address after the list, under a
    # heading a little larger than the text ("Affiliation:"), one short line a name, a street, an
    # e-mail: they were read as references of their own.
    placed = [(72, 740 - 14 * k, f"Sentence {k} of the body says what the study found and why.", 11)
              for k in range(6)]
    placed.append((72, 640, "References", 14))
    # A hanging indent, as the Journal of Statistical Software sets its list.
    for k, (first, second) in enumerate(AUTHOR_YEAR):
        placed += [(72, 620 - 32 * k, first, 11), (84, 606 - 32 * k, second, 11)]
    y = 620 - 32 * len(AUTHOR_YEAR) - 30
    placed.append((72, y, "Affiliation:", 12))
    placed += [(72, y - 18 - 14 * k, text, 11) for k, text in enumerate(
        ["Ada Lovelace", "Department of Computing and Information Science", "University of Somewhere Far Away",
         "Avenue of the Long Name and the Great Gardens 1234", "Springfield, Utopia",
         "E-mail: ada.lovelace@example.org"])]
    result = extract_references(_book([placed]))
    assert [r.raw_text for r in result.references] == [f"{a} {b}" for a, b in AUTHOR_YEAR]
