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


def test_a_tables_rows_in_smaller_type_at_the_top_of_a_page_of_the_list_are_left_out():
    # IEEE sets a float's table in type smaller than the list's, at the top of a page the list runs
    # on to: its rows are flush left among themselves, as a list's lines are, and were read as
    # the lines of the reference the page break had cut.
    refs = [f"A. Author{i}, B. Writer, and C. Scribe, A study of case {i} in a long title, J. Stud. {i}, {i}1 (2019)."
            for i in range(1, 20)]
    first = [(72, 740 - 14 * k, f"Sentence {k} of the body says what the study found and why.", 10)
             for k in range(6)]
    first.append((72, 640, "References", 12))
    first += [(72, 620 - 14 * k, f"[{i}] {refs[i - 1]}", 10) for k, i in enumerate(range(1, 8))]
    first.append((72, 522, "[8] A. Author8, B. Writer, and C. Scribe, A study of case 8", 10))
    second = [(150, 740 - 9 * k, f"Case {k} of the study under test {k}1 Laplace {k}2 0.9{k} 0.8{k}", 8)
              for k in range(8)]
    second.append((90, 650, "in a long title, J. Stud. 8, 81 (2019).", 10))
    second += [(72, 636 - 14 * k, f"[{i}] {refs[i - 1]}", 10) for k, i in enumerate(range(9, 20))]
    result = extract_references(_book([first, second]))
    assert [r.raw_text for r in result.references] == refs
