"""More failure classes of real PDFs (issue #29, the second round), each on a small PDF built here.

The helpers are those of tests/extraction/test_pdf_layouts.py; bench/real_pdfs.py measures the
same classes on real papers, which cannot be committed.
"""
import pytest

from citations.extraction.pdf_references import PdfRefused, extract_references
from tests.extraction.test_pdf_layouts import BODY_LINES, _page, _width, hand_pdf

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


def test_lines_tex_could_not_justify_do_not_make_a_column():
    # Three lines of a one-column list spread by TeX around a long word (a DOI) leave a strip
    # empty in the middle; the words after it start anywhere, as a right column's never do.
    refs = [f"[{i}] Author{i}, A., Writer, B., 2014. A study of case {i}. Rev. Phys. {i}, 4{i}." for i in range(1, 10)]
    placed = [(72, 740 - 14 * k, text[:60]) for k, text in enumerate(BODY[:4])] + [(72, 680, "References")]
    rows = [(72, text) for text in refs[:3]]
    rows += [(72, "[4] Feigelson, E.D., Babu, G.J., 2012. Modern Statistical Methods"),
             (90, "for Astronomy: With R Applications."), (338, "Cambridge University Press."),
             (90, "doi:10.1017/CBO9781139015653."),
             (72, "[5] Figueiredo, V.M.F., 2026."), (352, "Nisa Radial Control Unit"),
             (90, "Battery. Zenodo software"), (345, "release, version 1.1.0 of it.")]
    rows += [(72, text) for text in refs[5:]]
    y, previous = 666, None
    for x, text in rows:
        # Words of one line beside each other: the second part shares the first's baseline.
        if x > 300:
            placed.append((x, previous, text))
            continue
        placed.append((x, y, text))
        previous, y = y, y - 14
    result = extract_references(hand_pdf(placed, size=12))
    texts = [r.raw_text for r in result.references]
    assert texts[3] == ("Feigelson, E.D., Babu, G.J., 2012. Modern Statistical Methods for Astronomy: "
                        "With R Applications. Cambridge University Press. doi:10.1017/CBO9781139015653.")
    assert texts[4] == ("Figueiredo, V.M.F., 2026. Nisa Radial Control Unit Battery. Zenodo software release, "
                        "version 1.1.0 of it.")
    assert len(texts) == 9


# --- a numbered list without a heading -----------------------------------------------------------


def test_the_numbered_points_of_an_argument_are_no_reference_list():
    # A paper without references ends on "1. ... 2. ... 3. ...": undated points, not references.
    points = [f"{k}. Point {k} of the argument holds because the field is weak in case {k}." for k in range(1, 8)]
    with pytest.raises(PdfRefused, match="no reference section found"):
        extract_references(hand_pdf([(72, 740 - 12 * k, text) for k, text in enumerate(BODY + points)], size=9))


def test_a_dated_list_numbered_1_2_3_without_a_heading_is_the_list():
    refs = [f"A. Author{k}, B. Writer, A study of case {k}. Nature {k}0, {k}1 (20{10 + k})." for k in range(1, 8)]
    lines = BODY + [f"{k}. {text}" for k, text in enumerate(refs, start=1)]
    result = extract_references(hand_pdf([(72, 740 - 12 * k, text) for k, text in enumerate(lines)], size=9))
    assert result.heading is None
    assert [r.raw_text for r in result.references] == refs


# --- the list's end: appendices ------------------------------------------------------------------


def test_an_appendix_in_larger_type_than_the_list_ends_it_however_long_it_is():
    # imsart: the list in 9 points, then pages of appendix in 11 under "APPENDIX A: OVERVIEW".
    authors = [f"AUTHOR{i}, A. and WRITER, B. (2019). A study of case {i}. Journal of Things {i} {i}1-{i}9."
               for i in range(1, 7)]
    placed = [(72, 740 - 11 * k, text, 9) for k, text in enumerate(BODY[:3] + ["REFERENCES"] + authors)]
    placed.append((150, 620, "APPENDIX A: OVERVIEW OF APPENDIX", 11))
    placed += [(72, 600 - 13 * k, f"Appendix text line {k} says how the proofs of the paper go on.", 11)
               for k in range(40)]
    result = extract_references(hand_pdf(placed))
    assert [r.raw_text for r in result.references] == authors


def test_a_sentence_ending_on_the_word_literature_is_no_heading():
    # An appendix after the list wraps "... as is usual in the" / "literature." onto a line alone;
    # the last references heading is the list's, not that line.
    refs = [f"[{i}] A. Author{i}, A study of case {i}, Phys. Rev. {i} (2019)." for i in range(1, 6)]
    lines = BODY[:4] + ["References"] + refs + ["", "Appendix A", "The proof goes as the one of the main text, as is usual in the",
                                             "literature.", "The second step bounds the remaining terms."]
    result = extract_references(hand_pdf([(72, 740 - 12 * k, text) for k, text in enumerate(lines)], size=9))
    assert result.heading == "References"
    assert [r.raw_text for r in result.references] == [text[4:] for text in refs]


def test_a_chinese_appendix_heading_ends_the_list():
    from citations.extraction.pdf.model import Line
    from citations.extraction.pdf.section import reference_region

    def line(text: str, y: float, size: float = 10.9) -> Line:
        return Line(page=1 if y > 0 else 2, column=0, x0=71, x1=500, bottom=abs(y), size=size, bold=False,
                    text=text, left=71, right=526)

    lines = [line("References", 700, 14.3)] + [line(f"[{i}] A. Author. Title {i}. Nature, 2025.", 680 - 14 * i)
                                               for i in range(1, 6)]
    lines += [line("A 附录: 核心概念操作化 (精简)", -756, 14.3), line("代价敏感性测量: 通过控制代价", -730)]
    heading, region = reference_region(lines)
    assert heading == "References"
    assert [ln.text for ln in region] == [ln.text for ln in lines[1:6]]


# --- an author-year list without a heading ---------------------------------------------------------

BODY = [f"Sentence {i} of the body says what the study found and why it matters to the field."
        for i in range(12)]
AUTHOR_YEAR = [("Curtin, R. R., Cline, J. R., Slagle, N. P., March, W. B., Ram, P., Mehta,",
                "N. A., Gray, A. G., 2013. mlpack: A scalable C++ machine learning library."),
               ("Feng, Y., Modi, C., Jul. 2016. A fast algorithm for identifying Friends-of-",
                "Friends halos. ArXiv e-prints."),
               ("Foreman-Mackey, D., Hogg, D. W., Lang, D., Goodman, J., Mar. 2013.",
                "emcee: The MCMC Hammer. PASP 125, 306-312."),
               ("van der Berg, A., 2019. A study of the last case.", None)]


def _hanging(entries, top: float) -> list[tuple[float, float, str]]:
    placed, y = [], top
    for first, second in entries:
        placed.append((72, y, first))
        y -= 12
        if second:
            placed.append((84, y, second))
            y -= 12
        y -= 4
    return placed


def test_an_author_year_list_after_an_empty_section_without_a_heading_is_the_list():
    # elsarticle with the heading left out: an empty "Acknowledgements", then the entries.
    placed = [(72, 740 - 12 * k, text) for k, text in enumerate(BODY)] + [(72, 580, "Acknowledgements")]
    placed += _hanging(AUTHOR_YEAR, 556)
    placed += [(84, 250, "3 Another option would be a library written elsewhere: see its site.", 7)]
    result = extract_references(hand_pdf(placed, size=9))
    assert result.heading is None
    assert [r.raw_text for r in result.references] == [
        first + ("" if first.endswith("-") else " ") + second if second else first for first, second in AUTHOR_YEAR]


def test_names_with_commas_in_the_body_are_no_list():
    # Paragraphs may begin "Smith, J." too, but they do not hang under it nor follow one another.
    lines = [f"Smith, J. and others found in {2000 + k} that case {k} holds when the field is weak" for k in range(3)]
    placed = []
    y = 740
    for k, line in enumerate(lines):
        placed += [(72, y, line), (72, y - 12, "and the strong case follows from it by the same argument.")]
        y -= 30
    with pytest.raises(PdfRefused, match="no run of entries beginning 'Surname, A.'"):
        extract_references(hand_pdf(placed + [(72, y - 12 * k, text) for k, text in enumerate(BODY)], size=9))


# --- footnotes --------------------------------------------------------------------------------------


def test_a_footnote_in_larger_type_than_the_list_at_a_columns_foot_is_no_reference():
    # A&A sets its list in 8 points and a footnote of the text in 9, under a 6-point marker, at
    # the foot of the left column; the list runs on in the right column.
    refs = [(f"Author{i}, A., Writer, B., & Scribe, C. 20{10 + i}, The Astrophysical", f"Journal, {i}01, {i}")
            for i in range(1, 11)]

    def column(x: float, entries) -> list:
        rows = [(x + (8 if k else 0), text) for first, second in entries for k, text in enumerate((first, second))]
        return [(left, 676 - 9 * k, text, 8) for k, (left, text) in enumerate(rows)]

    placed = [(36, 740 - 11 * k, f"Left column text line {k} of the body of the paper.", 9) for k in range(4)]
    placed.append((36, 690, "References", 9))
    placed += column(36, refs[:5]) + [(38, 570, "2", 6), (46, 566, "https://github.com/someone/some-code/", 9)]
    placed += column(320, refs[5:])
    result = extract_references(hand_pdf(placed))
    assert [r.raw_text for r in result.references] == [f"{first} {second}" for first, second in refs]


# --- grouped entries (JHEP, JCAP) ---------------------------------------------------------------

GROUP = ["ATLAS collaboration, Observation of a new particle, Phys. Lett. B 716 (2012) 1 [arXiv:1207.7214];",
         "CMS collaboration, Observation of a new boson, Phys. Lett. B 716 (2012) 30 [arXiv:1207.7235];",
         "G. Aad et al., Combined measurement of the Higgs boson mass, Phys. Rev. Lett. 114 (2015) 191803."]


@pytest.mark.parametrize("labels", ["right-aligned", "flush-left"])
def test_a_grouped_entry_is_one_reference_without_its_label(labels):
    # JHEP's hand-grouped \bibitem "[2] a; b; c", each work on a line of its own at the indent
    # after the right-aligned labels: the .bbl holds one entry, which ingest_source stores.
    works = [f"A. Author{i}, A study of case {i}, J. High Energy Phys. {i:02d} (20{10 + i}) {i}01." for i in range(1, 13)]
    lines = []
    for i, work in enumerate(works, start=1):
        for k, text in enumerate(GROUP if i == 2 else [work]):
            lines.append((i if k == 0 else None, text))
    placed = [(72, 740 - 11 * k, text) for k, text in enumerate(BODY[:4])] + [(72, 690, "References")]
    for row, (label, text) in enumerate(lines):
        y = 672 - 11 * row
        if label:
            placed.append((92 - _width(f"[{label}]", 8) if labels == "right-aligned" else 72, y, f"[{label}]"))
        placed.append((96, y, text))
    result = extract_references(hand_pdf(placed, size=8))
    expected = list(works)
    expected[1] = " ".join(GROUP)
    assert [(r.index, r.raw_text) for r in result.references] == list(enumerate(expected, start=1))


# --- alpha-style labels of entries without a year ----------------------------------------------------

# The alpha style labels an entry that has no year with its names only ("[Bog]"; amsalpha's "[B+]"
# for more authors): those entries were read into the one before.
YEARLESS_ALPHA = [("Arc99", "A. F. Archer, A modern treatment of the 15 puzzle, Amer. Math. Monthly 106 (1999)."),
                  ("B+", "R. A. Beeler et al., Fifteen puzzle supplement, lecture notes."),
                  ("B+25", "M. Bona et al., Parity property of hexagonal sliding puzzles, Amer. Math. Monthly."),
                  ("Bog", "A. Bogomolny, Group theory for the fifteen puzzle, Cut the Knot."),
                  ("Con17", "K. Conrad, The 15 puzzle, group theory, and permutations, 2017."),
                  ("JS79", "W. W. Johnson and W. E. Story, Notes on the 15 puzzle, Amer. J. Math. 2 (1879)."),
                  ("Lim18", "A. Lim, Group theory and the fifteen puzzle, 2018.")]


@pytest.mark.parametrize("heading", [["References"], []])
def test_alpha_labels_without_a_year_start_entries(heading):
    # Without a heading the labels alone say where the list starts: a label without a year goes
    # on the list begun by labels with years, not a new list after it.
    lines = BODY_LINES + heading + [f"[{label}] {text}" for label, text in YEARLESS_ALPHA]
    result = extract_references(hand_pdf(_page(lines), size=8))
    assert [r.raw_text for r in result.references] == [text for _, text in YEARLESS_ALPHA]
