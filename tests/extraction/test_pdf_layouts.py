"""Failure classes of real PDFs (issue #29), each on a small PDF built here.

bench/real_pdfs.py measures the extractor on real papers that cannot be committed; these tests
keep each class it found fixed, on PDFs typeset in the test (reportlab, or a few hand-written
PDF objects where reportlab cannot say what is needed).
"""
import io

import pytest

from citations.extraction.pdf_references import PdfRefused, extract_references, read_words


def hand_pdf(lines: list[tuple], *, size: float = 10, astral: str = "", glyph_name: str = "") -> bytes:
    """A one-page PDF of Helvetica text lines (x, y, text) or (x, y, text, size), object by object.

    With astral set, the byte '@' is shown as Helvetica's '@' but its ToUnicode mapping says it is
    that character (outside the Basic Multilingual Plane, like a math italic from a TeX font).
    With glyph_name set, '@' is drawn as the glyph of that name and no ToUnicode says what it is.
    A text may be a list of runs (font, text), font "F1" or "F2": two font objects, both Helvetica.
    """
    def escape(text: str) -> str:
        return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")

    def shown(text: str | list[tuple[str, str]], points: float) -> str:
        runs = [("F1", text)] if isinstance(text, str) else text
        return " ".join(f"/{font} {points} Tf ({escape(run)}) Tj" for font, run in runs)

    content = "".join(f"BT {x:.2f} {y:.2f} Td {shown(text, rest[0] if rest else size)} ET\n"
                      for x, y, text, *rest in lines)
    second_font = 7 if astral else 6
    objects = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        f"/Resources << /Font << /F1 5 0 R /F2 {second_font} 0 R >> >> >>",
        f"<< /Length {len(content.encode('latin-1'))} >>\nstream\n{content}endstream",
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding "
        + (f"<< /BaseEncoding /WinAnsiEncoding /Differences [64 /{glyph_name}] >>" if glyph_name
           else "/WinAnsiEncoding") + (" /ToUnicode 6 0 R" if astral else "") + " >>",
    ]
    if astral:
        utf16 = astral.encode("utf-16-be").hex().upper()
        cmap = ("/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
                "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n"
                "/CMapName /Adobe-Identity-UCS def /CMapType 2 def\n"
                "1 begincodespacerange <00> <FF> endcodespacerange\n"
                f"1 beginbfchar <40> <{utf16}> endbfchar\n"
                "1 beginbfrange <20> <3F> <0020> endbfrange\n"
                "1 beginbfrange <41> <7E> <0041> endbfrange\n"
                "endcmap CMapName currentdict /CMap defineresource pop end end\n")
        objects.append(f"<< /Length {len(cmap)} >>\nstream\n{cmap}endstream")
    objects.append("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding "
                   "/FirstChar 12 /LastChar 12 /Widths [778] >>")
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(out.tell())
        out.write(f"{number} 0 obj\n{body}\nendobj\n".encode("latin-1"))
    xref = out.tell()
    out.write(f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode())
    for offset in offsets:
        out.write(f"{offset:010d} 00000 n \n".encode())
    out.write(f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode())
    return out.getvalue()


# --- class 1: characters outside the Basic Multilingual Plane --------------------------------------


def test_words_after_an_astral_character_keep_their_boxes():
    # PDFium counts 𝐴 as two characters (its UTF-16 surrogates); counting it once gave every
    # later character its neighbour's box, and words came apart: "Re f eren c es".
    line = "Let @ be a matrix and the references follow in order here"
    words, _ = read_words(hand_pdf([(72, 700, line)], astral="\U0001D434"))
    assert [w.text for w in words] == line.replace("@", "\U0001D434").split()
    assert all(a.x1 < b.x0 for a, b in zip(words, words[1:]))


def test_a_list_after_astral_characters_is_read():
    body = [(72, 740 - 14 * i, f"The value @ = {i} holds for every case we tried in the study.") for i in range(8)]
    refs = [(72, 600, "References")] + [
        (72, 580 - 14 * i, f"[{i + 1}] A. Author{i}, A title about @ number {i}, J. Phys. {i} (2020).")
        for i in range(6)]
    result = extract_references(hand_pdf(body + refs, astral="\U0001D6FD"))
    assert [r.raw_text for r in result.references] == [
        f"A. Author{i}, A title about \U0001D6FD number {i}, J. Phys. {i} (2020)." for i in range(6)]


# --- ligatures of TeX's bitmap fonts -----------------------------------------------------------------


def test_ligatures_and_dashes_of_a_tex_bitmap_font_are_read_as_what_they_are():
    # A Type 3 font that names its glyphs by number gives the text layer the font's codes: OT1's
    # fi is 12 (a form feed, which splits the word), T1's ff is 27 and its en dash 21. A code
    # standing apart (cmmi's alpha at 11) is no ligature.
    lines = [f"A. Author{i}, The signi\x0ccance of {i} \x0cnite di\x1berences, e\x0bects and \x0b-helices, "
             f"J. Phys. {i} (2020) 1457\x151493." for i in range(1, 7)]
    placed = _page(BODY_LINES + ["References"] + [f"[{i}] {text}" for i, text in enumerate(lines, start=1)])
    result = extract_references(hand_pdf(placed, size=8))
    assert [r.raw_text for r in result.references] == [
        f"A. Author{i}, The significance of {i} finite differences, effects and -helices, J. Phys. {i} (2020) "
        "1457\u20131493."
        for i in range(1, 7)]


def test_a_symbol_fonts_code_beside_a_letter_is_no_ligature():
    # cmsy's solar circle is code 12 too, set after an "M" of another font: "1.4 M\u2609 stars".
    line = [("F1", "Mass of 1.4 M"), ("F2", "\x0c "), ("F1", "stars and the signi\x0ccance")]
    words, _ = read_words(hand_pdf([(72, 700, line)]))
    assert [w.text for w in words] == ["Mass", "of", "1.4", "M", "stars", "and", "the", "significance"]


def _width(text: str, size: float = 10) -> float:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    return stringWidth(text, "Helvetica", size)


BODY_LINES = [f"Sentence {i} of the body says what the study found and why it matters to the field."
              for i in range(10)]
LIST = [f"A. Author{i}, B. Writer, and C. Scribe, A study of case {i}, Phys. Rev. Lett. {100 + i}, {i}01 (2019)."
        for i in range(1, 7)]


def _page(lines: list[str], numbers: str | None = None, first: int = 41) -> list[tuple[float, float, str]]:
    """Lines down a page from x=72; with numbers 'left' or 'right', each line numbered in that margin."""
    placed = []
    for row, text in enumerate(lines):
        y = 740 - 14 * row
        placed.append((72, y, text))
        if numbers:
            number = str(first + row)
            x = 62 - _width(number) if numbers == "left" else 560
            placed.append((x, y, number))
    return placed


# --- line numbers of review copies -----------------------------------------------------------------


@pytest.mark.parametrize("side", ["left", "right"])
def test_line_numbers_in_a_margin_are_not_read_as_text(side):
    lines = BODY_LINES + ["References"] + [f"[{i}] {text}" for i, text in enumerate(LIST, start=1)]
    result = extract_references(hand_pdf(_page(lines, side), size=8))
    assert result.heading == "References"
    assert [r.raw_text for r in result.references] == LIST


# --- lists without a heading -----------------------------------------------------------------------


def test_a_numbered_list_without_a_heading_after_the_text_is_the_reference_list():
    # Physical Review Letters prints its references (and notes) after the text with no heading.
    lines = BODY_LINES + ["* Corresponding author: someone@example.org"] + [
        f"[{i}] {text}" for i, text in enumerate(LIST, start=1)]
    result = extract_references(hand_pdf(_page(lines), size=8))
    assert result.heading is None
    assert [r.raw_text for r in result.references] == LIST


def test_without_a_heading_or_a_numbered_list_the_refusal_says_both():
    with pytest.raises(PdfRefused, match="no heading such as 'References'.*no list numbered"):
        extract_references(hand_pdf(_page(BODY_LINES), size=8))


# --- the list's end: captions and tables after it --------------------------------------------------


def test_captions_and_a_table_after_the_list_are_not_references():
    lines = BODY_LINES + ["References"] + [f"[{i}] {text}" for i, text in enumerate(LIST, start=1)]
    placed = _page(lines)
    y = placed[-1][1] - 40
    placed += [(72, y, "Fig 6. Running time."), (72, y - 12, "Box plots of running time per variant of each method,"),
               (72, y - 24, "over 1000 simulations on a workstation."),
               (72, y - 60, "Model     Accuracy     Time"), (72, y - 72, "Ours      0.93         12 s"),
               (72, y - 84, "Theirs    0.88         40 s")]
    result = extract_references(hand_pdf(placed, size=8))
    assert [r.raw_text for r in result.references] == LIST


def test_a_caption_among_the_references_is_left_out():
    lines = ["References"] + [f"[{i}] {text}" for i, text in enumerate(LIST[:3], start=1)] + [
        "Table 2: Results of the second run, averaged over five seeds.", ""] + [
        f"[{i}] {text}" for i, text in enumerate(LIST[3:], start=4)]
    result = extract_references(hand_pdf(_page(BODY_LINES + lines), size=8))
    assert [r.raw_text for r in result.references] == LIST


def test_an_appendix_heading_a_little_larger_than_the_list_ends_it():
    # \subsection in 12 pt over a list in 10.95 pt: 1.096 times as large.
    lines = ["References"] + [f"[{i}] {text}" for i, text in enumerate(LIST, start=1)]
    placed = _page(BODY_LINES + lines)
    y = placed[-1][1] - 30
    placed += [(72, y, "A Trading Algorithms", 8.77)] + [
        (72, y - 14 * (k + 1), f"{k + 1}. This section describes the algorithms evaluated in this study.") for k in range(6)]
    result = extract_references(hand_pdf(placed, size=8))
    assert [r.raw_text for r in result.references] == LIST


# --- columns found per region of the page ----------------------------------------------------------

SHORT = [f"A. Author{i}, Short title {i}, Phys. Rev. {i} (2019)." for i in range(1, 9)]


def _two_columns(left: list[str], right: list[str], top: float) -> list[tuple[float, float, str]]:
    placed = [(72, top - 11 * k, text) for k, text in enumerate(left)]
    placed += [(320, top - 11 * k, text) for k, text in enumerate(right)]
    return placed


def test_a_float_across_both_columns_does_not_hide_the_gutter():
    across = [(72, 740 - 11 * k, f"Table 1: row {k} of a wide table that runs across the whole page, "
                                 f"from the left margin to the right margin, value {k}") for k in range(8)]
    body = [f"Body line {k} of the left column text goes on here." for k in range(10)]
    left = body + ["References"] + [f"[{i}] {SHORT[i - 1]}" for i in range(1, 5)]
    right = [f"[{i}] {SHORT[i - 1]}" for i in range(5, 9)] + [f"After the list, line {k}." for k in range(0)]
    result = extract_references(hand_pdf(across + _two_columns(left, right, 640), size=7))
    assert [r.raw_text for r in result.references] == SHORT


def test_a_one_column_page_with_a_formula_gap_is_not_cut_in_two():
    # Display formulas and short lines leave the middle empty on a few rows of a one-column page.
    placed = []
    y = 740
    for k in range(6):
        placed.append((72, y, f"Line {k} of the running text of this one-column page goes on across it all."))
        y -= 12
        if k % 2:
            placed += [(120, y, "E(x) = a + b"), (420, y, "(3)")]
            y -= 12
    placed.append((72, y, "References"))
    for i, text in enumerate(LIST, start=1):
        y -= 12
        placed.append((72, y, f"[{i}] {text}"))
    result = extract_references(hand_pdf(placed, size=8))
    assert [r.raw_text for r in result.references] == LIST


def test_a_table_after_an_author_year_list_is_not_read_as_references():
    authors = [f"Author{i}, A., and Writer, B. 2019. A study of case {i}. Journal of Things {i}: {i}1-{i}9."
               for i in range(1, 6)]
    placed = _page(BODY_LINES + ["References"] + authors)
    y = placed[-1][1] - 40
    for k, cells in enumerate([("Characteristic", "Mean", "Median"), ("Age (yrs)", "30.2", "29"),
                               ("Body mass", "26.6", "25"), ("Parity", "0.4", "0"), ("Cycle day", "9.2", "10")]):
        placed += [(120 + 130 * c, y - 16 * k, cell) for c, cell in enumerate(cells)]
    result = extract_references(hand_pdf(placed, size=8))
    assert [r.raw_text for r in result.references] == authors


# --- labels and footnotes --------------------------------------------------------------------------


def test_labels_glued_to_the_name_are_labels():
    # "10.Wang": the label's box touches the name and no space is drawn between them.
    names = ["Wang", "Li", "Chen", "Zhang", "Liu", "Yang", "Huang", "Zhao", "Wu", "Zhou", "Xu"]
    refs = [f"{name} X, Some title of work {i}. J Appl Phys {i}: {i}0-{i}9 (2018)." for i, name in enumerate(names, 1)]
    lines = BODY_LINES + ["References"] + [f"{i}.{text}" for i, text in enumerate(refs, start=1)]
    result = extract_references(hand_pdf(_page(lines), size=8))
    assert [r.raw_text for r in result.references] == refs
    assert [r.index for r in result.references] == list(range(1, 12))


def test_a_footnote_at_the_foot_of_a_page_is_no_reference():
    authors = [f"Author{i}, A., and Writer, B. 2019. A study of case {i}. Journal of Things {i}: {i}1-{i}9."
               for i in range(1, 6)]
    placed = [(x, y, text, 8) for x, y, text in _page(BODY_LINES + ["References"] + authors)]
    placed += [(72, 80, "1 The code is at https://example.org/code and the data at https://example.org/data.", 6.5)]
    result = extract_references(hand_pdf(placed))
    assert [r.raw_text for r in result.references] == authors


def test_tex_accents_set_as_glyphs_of_their_own_are_composed():
    # OT1 fonts put the accent over the letter as a glyph of its own: "Ag¨ueros", "Le F`evre".
    refs = ["Ag\u00a8ueros, M. A., and Le F`evre, O. 2009, Fran\u00b8cois and Pavlovi\u00b4c, ApJ, 182, 543.",
            "Smith, J. 2010, don`t panic, MNRAS, 401, 1.",
            # an accent set after its word, past the comma: its letter is lost, the name is not split
            "Nitzan, M., and Brbic,\u00b4 M. 2025, Gruttemeier,\u00a8 N., and Hal Daume\u00b4 III, Nat. Biotech., 4, 1."]
    lines = BODY_LINES + ["References"] + [f"[{i}] {text}" for i, text in enumerate(refs, start=1)]
    result = extract_references(hand_pdf(_page(lines), size=8))
    assert [r.raw_text for r in result.references] == [
        "Agüeros, M. A., and Le Fèvre, O. 2009, François and Pavlović, ApJ, 182, 543.",
        "Smith, J. 2010, don`t panic, MNRAS, 401, 1.",
        "Nitzan, M., and Brbic, M. 2025, Gruttemeier, N., and Hal Daume III, Nat. Biotech., 4, 1."]


def test_an_accent_over_texs_dotless_i_is_the_accented_i():
    # TeX sets an accent on an i over its dotless i: the text layer says "Garc´ıa" (the byte '@'
    # of this PDF's font stands for the dotless i, which Helvetica's encoding lacks).
    refs = ["Garc\u00b4@a-Portugu\u00e9s, E., and Mart\u00b4@-G\u00f3mez, C. 2017, Stat. Comput., 27, 1."]
    lines = BODY_LINES + ["References"] + [f"[{i}] {text}" for i, text in enumerate(refs, start=1)]
    result = extract_references(hand_pdf(_page(lines), size=8, astral="\u0131"))
    assert [r.raw_text for r in result.references] == [
        "García-Portugués, E., and Martí-Gómez, C. 2017, Stat. Comput., 27, 1."]


def test_a_hanging_indent_list_is_read_with_a_figures_labels_after_it():
    refs = [(f"Author{i}, A., Writer, B., & Scribe, C. 2015, The Astrophysical Journal Supplement Series and",
             f"its companion letters, {i}82, {i}43") for i in range(1, 12)]
    lines = []
    for first, second in refs:
        lines += [(72, first), (107, second)]
    placed = [(72, 740 - 14 * k, text) for k, text in enumerate(BODY_LINES[:4])]
    placed.append((72, 740 - 14 * 4, "REFERENCES"))
    y = 740 - 14 * 5
    placed += [(x, y - 14 * k, text) for k, (x, text) in enumerate(lines)]
    y -= 14 * len(lines) + 20
    placed += [(x, y - 9 * k, label) for k, (x, label) in enumerate(
        [(230, "0.5"), (255, "ABC Posteriors"), (210, "0.4"), (300, "Leauthaud+(2012)"), (205, "0.3"),
         (320, "More+(2011)"), (215, "0.2"), (260, "Tinker+(2013)"), (330, "0 2 4 6 tduty [Gyr]")])]
    result = extract_references(hand_pdf(placed, size=8))
    assert [r.raw_text for r in result.references] == [f"{a} {b}" for a, b in refs]


def test_line_numbers_every_fifth_line_are_dropped():
    lines = BODY_LINES + BODY_LINES[:5] + ["References"] + [f"[{i}] {text}" for i, text in enumerate(LIST, start=1)]
    placed = [(72, 740 - 14 * row, text) for row, text in enumerate(lines)]
    placed += [(62 - _width(str(n), 8), 740 - 14 * (n - 1), str(n)) for n in range(5, len(lines) + 1, 5)]
    result = extract_references(hand_pdf(placed, size=8))
    assert [r.raw_text for r in result.references] == LIST


def test_line_numbers_in_the_gutter_of_a_two_column_list_are_dropped():
    # A one-column preprint (aastex's preprint with line numbers) sets its reference list in two
    # columns and numbers each column's lines on its left: the right column's numbers stand in
    # the gutter, in the middle of a row across the page, and were read as the entries' text.
    entries = [(f"Author{i}, A., & Writer, B. {2000 + i}, ApJ, {100 + i},", f"{i}01, doi: 10.1000/x.{i}")
               for i in range(1, 9)]
    lines = [part for entry in entries for part in entry]
    placed = [(72, 740 - 12 * k, text) for k, text in enumerate(BODY_LINES[:6])]
    placed.append((260, 740 - 12 * 6, "References"))
    top = 740 - 12 * 8
    for column, (number_edge, text_x) in enumerate(((62, 72), (310, 320))):
        for k, text in enumerate(lines[8 * column:8 * column + 8]):
            y = top - 12 * k
            placed.append((text_x + (0 if k % 2 == 0 else 10), y, text))
    number = 1
    for row in range(7):
        placed.append((62 - _width(str(number), 5), 740 - 12 * row, str(number), 5))
        number += 1
    for column, edge in enumerate((62, 310)):
        for k in range(8):
            placed.append((edge - _width(str(number), 5), top - 12 * k, str(number), 5))
            number += 1
    result = extract_references(hand_pdf(placed, size=8))
    assert [r.raw_text for r in result.references] == [f"{a} {b}" for a, b in entries]


# --- where a column's references start -------------------------------------------------------------

# A figure's caption set wider than the text (or a running header in the margin) starts left of
# the column's lines, and the column's edge found for the page moves out to it.
WIDE_CAPTION = (60, 760, "Figure 1: Loss curves of every run over training, for the three optimisers compared.")
AUTHOR_YEAR_LINES = [
    ("Author1, A.; Writer, B.; and Scribe, C. 2019. A study of the first case seen", "in practice. Journal of Things 1."),
    ("OpenGroup. 2021. A report on the second case seen in practice, with its data", "and code. Technical report."),
    ("Author3, A.; and Writer, B. 2020. A study of the third case seen in practice", "and after. Journal of Things 3."),
    ("Author4, A. 2018. A study of the fourth case seen in practice, with its proofs", "in full. Journal of Things 4."),
    ("Kimi Group. 2022. A model of the fifth case seen in practice, and its code", "released. Technical report."),
]


def test_a_flush_left_list_set_apart_by_a_small_gap_beside_a_wide_caption():
    # AAAI: references flush left, a fifth of a line between them, in a column whose edge a
    # caption moved out; no line of the list is indented from where the list's lines start.
    placed = [WIDE_CAPTION] + [(72, 740 - 11 * k, text) for k, text in enumerate(BODY_LINES[:4])]
    placed.append((72, 740 - 11 * 4, "References"))
    y = 740 - 11 * 5
    for first, second in AUTHOR_YEAR_LINES:
        placed += [(72, y, first), (72, y - 11, second)]
        y -= 11 + 13.2
    result = extract_references(hand_pdf(placed, size=8))
    assert [r.raw_text for r in result.references] == [f"{a} {b}" for a, b in AUTHOR_YEAR_LINES]


def test_a_hanging_indent_is_seen_beside_a_wide_caption():
    # The list's first lines start at the column's text, its other lines an indent in from it; the
    # caption further left made them all look indented, the list one reference.
    placed = [WIDE_CAPTION] + [(72, 740 - 11 * k, text) for k, text in enumerate(BODY_LINES[:4])]
    placed.append((72, 740 - 11 * 4, "References"))
    y = 740 - 11 * 5
    for first, second in AUTHOR_YEAR_LINES:
        placed += [(72, y, first), (84, y - 11, second), (84, y - 22, "Second edition.")]
        y -= 33
    result = extract_references(hand_pdf(placed, size=8))
    assert [r.raw_text for r in result.references] == [f"{a} {b} Second edition." for a, b in AUTHOR_YEAR_LINES]


# --- the list's end and start in a thesis: chapter titles and running heads ----------------------


def _book(pages: list[list[tuple]]) -> bytes:
    """A PDF of several pages, each a list of (x, y, text, size) in Helvetica."""
    from reportlab.pdfgen import canvas

    out = io.BytesIO()
    pdf = canvas.Canvas(out, pagesize=(612, 792))
    for page in pages:
        for x, y, text, size in page:
            pdf.setFont("Helvetica", size)
            pdf.drawString(x, y, text)
        pdf.showPage()
    pdf.save()
    return out.getvalue()


def _chapter_page(title: str, head: str | None, lines: list[str]) -> list[tuple]:
    """A book's page: its running head (the chapter's name and the page's number) at the top, or
    on a chapter's first page its title in large type, then lines of text."""
    page = [(72, 740, head, 10)] if head else [(72, 700, title, 20)]
    top = 722 if head else 670
    return page + [(72, top - 14 * k, text, 10) for k, text in enumerate(lines)]


BOOK_TEXT = [f"Line {k} of a chapter of the thesis goes on about the method and its proof here." for k in range(30)]


def test_a_running_head_naming_the_bibliography_is_not_its_heading():
    # The book class heads each page with its chapter's name and the page's number: on the
    # bibliography's second page "BIBLIOGRAPHY 12" is no heading, the list began a page before.
    refs = [f"[{i}] {text}" for i, text in enumerate(LIST, start=1)]
    pages = [_chapter_page("Introduction", None, BOOK_TEXT)]
    pages += [_chapter_page("", f"INTRODUCTION {n + 8}", BOOK_TEXT) for n in range(1, 3)]
    pages += [_chapter_page("Method", None, BOOK_TEXT), _chapter_page("", "METHOD 12", BOOK_TEXT)]
    pages += [_chapter_page("Bibliography", None, refs[:3]), _chapter_page("", "BIBLIOGRAPHY 14", refs[3:])]
    result = extract_references(_book(pages))
    assert result.heading == "Bibliography"
    assert [r.raw_text for r in result.references] == LIST


CHAPTER_AUTHORS = [(f"Author{i}, A., Writer, B., and Scribe, C. 2019. A study of case {i} and of what",
                    f"it shows. Journal of Things {i}: {i}1-{i}9.") for i in range(1, 6)]


def _author_year_list_then(title: list[tuple], title_height: float) -> list[tuple]:
    """An author-year list with hanging indents, then the title lines (x, dy below the list, text,
    size) and, title_height below the list, a chapter's text."""
    placed = _page(BODY_LINES + ["References"])
    y = placed[-1][1]
    for first, second in CHAPTER_AUTHORS:
        placed += [(72, y - 14, first), (90, y - 28, second)]
        y -= 28
    placed += [(x, y - dy, text, size) for x, dy, text, size in title]
    y -= title_height
    placed += [(72, y - 20 - 14 * k, f"Proof {k}. The process is bounded, so it converges by the theorem {k}.")
               for k in range(4)]
    return placed


def test_a_chapter_title_after_the_list_ends_it_whatever_its_words():
    # A thesis's appendix chapters follow its bibliography titled by their subject, not "Appendix A";
    # an author-year list has no labels to say where it stops.
    result = extract_references(hand_pdf(_author_year_list_then([(72, 30, "Martingale Proofs", 16)], 30), size=8))
    assert [r.raw_text for r in result.references] == [f"{a} {b}" for a, b in CHAPTER_AUTHORS]


def test_a_title_of_two_lines_whose_first_runs_to_the_edge_ends_the_list():
    # A title hyphenated over two lines runs its first line to the column's edge, as a justified
    # line of the list does; the line under it, in the title's large type, says it is a title.
    right = 72 + max(_width(text, 8) for text in BODY_LINES + [first for first, _ in CHAPTER_AUTHORS])
    words = "Proofs of the Bounds for Fam-"
    title = [(right - _width(words, 16), 30, words, 16), (72, 50, "ilies of Problems", 16)]
    result = extract_references(hand_pdf(_author_year_list_then(title, 50), size=8))
    assert [r.raw_text for r in result.references] == [f"{a} {b}" for a, b in CHAPTER_AUTHORS]


ALPHA = [("BM11", "S. Boldo and G. Melquiond. Flocq: a unified library. In ARITH, pages 243-252, 2011."),
         ("Dem97", "J. W. Demmel. Applied Numerical Linear Algebra. SIAM, 1997."),
         ("dMU21", "L. de Moura and S. Ullrich. The Lean 4 theorem prover. In CADE, pages 625-635, 2021."),
         ("GMS+20", "F. Gloeckle, A. Rammal, and T. Arnal. Automatic textbook formalization, 2020."),
         ("Hig02", "N. J. Higham. Accuracy and Stability of Numerical Algorithms. SIAM, 2002.")]


def test_a_list_labelled_in_the_alpha_style_under_an_unknown_heading_is_read():
    # A heading in a language the names of reference sections do not hold ("Kaynakça"): the
    # alpha style's labels say the list is a bibliography.
    lines = BODY_LINES + ["Kaynak\u00e7a"] + [f"[{label}] {text}" for label, text in ALPHA]
    result = extract_references(hand_pdf(_page(lines), size=8))
    assert [r.raw_text for r in result.references] == [text for _, text in ALPHA]


@pytest.mark.parametrize("heading", ["\u0392\u03b9\u03b2\u03bb\u03b9\u03bf\u03b3\u03c1\u03b1\u03c6\u03af\u03b1",
                                     "\u0391\u039d\u0391\u03a6\u039f\u03a1\u0395\u03a3"])
def test_greek_names_of_the_references_are_headings(heading):
    from citations.extraction.pdf.section import _is_references_heading

    assert _is_references_heading(heading)


# --- where the list's lines start: the first blocks after the heading ------------------------------


def _pages_pdf(pages: list[list[tuple[float, float, str]]], size: float = 9) -> bytes:
    """A PDF of Helvetica lines (x, y, text), a list of them a page."""
    from reportlab.pdfgen.canvas import Canvas

    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(612, 792))
    for lines in pages:
        for x, y, text in lines:
            canvas.setFont("Helvetica", size)
            canvas.drawString(x, y, text)
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


NUMBERED = [(f"A. Author{i}, B. Writer, and C. Scribe. A study of the case numbered {i} and of what",
             "it shows about the cases before it. In Proceedings of the Conference on Studies of",
             f"Cases, pages {i}1-{i}9, 2019.") for i in range(1, 15)]


def _labelled_lines(first: int, last: int, top: float, label: str = "{}.") -> list[tuple[float, float, str]]:
    """References first..last with right-aligned labels and a hanging indent from top down:
    the labels from 10 on start a digit further out than 1 to 9."""
    placed = []
    for i in range(first, last + 1):
        text = label.format(i)
        line1, *others = NUMBERED[i - 1]
        y = top - 11 * len(NUMBERED[0]) * (i - first)
        placed += [(96 - _width(text + " ", 9), y, f"{text} {line1}")]
        placed += [(108, y - 11 * (k + 1), line) for k, line in enumerate(others)]
    return placed


def test_one_reference_under_the_heading_at_a_pages_foot_does_not_decide_the_lists_indent():
    # Springer's llncs: the heading and reference 1, of two lines, end a page; the next page opens
    # with a running header set lower than a tenth of the page's height, then references 2 to 14.
    first = [(72, 740 - 14 * k, text) for k, text in enumerate(BODY_LINES * 4)] + [(72, 140, "References")]
    first += _labelled_lines(1, 1, 120)[:1] + [(108, 109, "Journal of Studies, 1(2):11-19, 2019.")]
    header = [(72, 700, "A STUDY OF CASES, AND WHAT THEY SHOW")]
    second = header + _labelled_lines(2, 14, 670)
    result = extract_references(_pages_pdf([first, second]))
    assert [r.raw_text for r in result.references][1:] == [" ".join(lines) for lines in NUMBERED[1:]]


def test_a_table_continued_between_the_heading_and_the_list_does_not_decide_the_lists_indent():
    # A table continued from the page before comes after the heading in reading order; the list
    # under it runs on to the next page, where labels [10] and up start further out.
    body = [(72, 740 - 14 * k, text) for k, text in enumerate(BODY_LINES * 2)]
    table = [(72, 440, "References")] + [(250, 420 - 13 * k, f"0.{k}5 0.{k}1-0.{k}9 0.7{k} Author{k} 201{k}")
                                          for k in range(8)]
    first = body + table + _labelled_lines(1, 3, 300, "[{}]")
    second = _labelled_lines(4, 14, 740, "[{}]")
    result = extract_references(_pages_pdf([first, second]))
    assert [r.raw_text for r in result.references] == [" ".join(lines) for lines in NUMBERED]


def test_a_running_head_a_little_inside_the_outer_tenth_is_no_part_of_a_reference():
    # Springer's llncs printed on letter paper: the running head stands 0.87 of the page's height up.
    def head(page: int) -> list[tuple[float, float, str]]:
        return [(72, 690, f"{page} A STUDY OF CASES, AND WHAT THEY SHOW" if page % 2 else f"A. AUTHOR ET AL. {page}")]

    result = extract_references(_pages_pdf(_numbered_list_under(head, 660)))
    assert [r.raw_text for r in result.references] == [" ".join(lines) for lines in NUMBERED]


def _numbered_list_under(head, top: float) -> list[list[tuple[float, float, str]]]:
    """Four pages, each under head(page): body text from top, then the heading and the NUMBERED list."""
    first = head(1) + [(72, top - 14 * k, text) for k, text in enumerate(BODY_LINES * 2)]
    first += [(72, top - 300, "References")] + _labelled_lines(1, 5, top - 320)
    return [first] + [head(page) + _labelled_lines(a, b, top) for page, (a, b) in enumerate(
        [(6, 8), (9, 11), (12, 14)], start=2)]


def test_a_hanging_indent_follows_the_list_where_its_lower_part_shifts_left():
    # Partway down the page the PDF sets the list's lines an indent further left, edge and indent
    # together: measured from the lower part's edge, the upper part's first lines looked indented
    # and its references were glued into one.
    placed = [(72, 740 - 11 * k, text) for k, text in enumerate(BODY_LINES[:4])]
    placed.append((72, 740 - 11 * 4, "References"))
    y = 740 - 11 * 5
    for k, (first, second) in enumerate(AUTHOR_YEAR_LINES):
        edge = 72 if k < 3 else 60
        placed += [(edge, y, first), (edge + 12, y - 11, second), (edge + 12, y - 22, "Second edition.")]
        y -= 33
    result = extract_references(hand_pdf(placed, size=8))
    assert [r.raw_text for r in result.references] == [f"{a} {b} Second edition." for a, b in AUTHOR_YEAR_LINES]


# --- floats on the pages of the list: captions and table notes -----------------------------------


def test_an_appendix_figures_caption_among_the_references_is_left_out_whatever_its_lines_begin_with():
    # "Figure C1." numbers a figure of appendix C; the caption's first line runs to the edge, so
    # its next line goes on the caption even though it begins "1. (b)" as a labelled line might.
    caption = [(72, 0, "Figure C1. Results of the second experiment for the first band of the survey. (a) The "
                       "detection shown in Figure"),
               (72, 0, "1. (b) Panel (a) after filtering and binning. (c) An example of a filtered stack.")]
    placed = _page(BODY_LINES + ["References"] + [f"[{i}] {text}" for i, text in enumerate(LIST[:3], start=1)])
    y = placed[-1][1] - 30
    placed += [(x, y - 12 * k, text) for k, (x, _, text) in enumerate(caption)]
    y -= 12 + 30
    placed += [(72, y - 14 * k, f"[{i}] {text}") for k, (i, text) in enumerate(enumerate(LIST[3:], start=4))]
    result = extract_references(hand_pdf(placed, size=8))
    assert [r.raw_text for r in result.references] == LIST


AUTHOR_YEAR = [(f"Author{i}, A., Writer, B., Scribe, C., Reader, D., & Others, E. 20{10 + i},", f"Journal of Things, {i}, {i}01,",
                f"doi: 10.1000/things.{i}") for i in range(1, 17)]


def _author_year_columns(first: int, last: int, top: float) -> list[tuple[float, float, str]]:
    """References first..last (1-based) in two columns from top down, a hanging indent, half a column."""
    placed, half = [], (last - first + 2) // 2
    for k, i in enumerate(range(first, last + 1)):
        x, row = (72, k) if k < half else (320, k - half)
        y = top - 3 * 11 * row
        placed += [(x + (10 if n else 0), y - 11 * n, line) for n, line in enumerate(AUTHOR_YEAR[i - 1])]
    return placed


def test_a_caption_across_the_page_over_a_two_column_list_is_left_out():
    # A word of the caption covers the gutter of the columns below with the next word a space away:
    # the line runs across the page, it is no overfull line of the left column; its last line, short,
    # stands in the left column under it.
    first = [(72, 740 - 14 * k, text) for k, text in enumerate(BODY_LINES)] + [(72, 580, "References")]
    first += [(72 + (10 if n else 0), 560 - 33 * k - 11 * n, line)
              for k in range(8) for n, line in enumerate(AUTHOR_YEAR[k])]
    lead = "Figure C2. Results of the false positive rate test for the "
    x = 295 - _width(lead, 8)
    caption = [(x, 760, lead + "experimentally hardest band. See the caption of Figure C1 for a"),
               (x, 750, "description.")]
    second = caption + _author_year_columns(9, 16, 720)
    result = extract_references(_pages_pdf([first, second], size=8))
    assert [r.raw_text for r in result.references] == [" ".join(lines) for lines in AUTHOR_YEAR]


def test_a_tables_note_on_a_float_page_among_the_references_is_left_out():
    # AASTeX sets a table's notes under it as "Note—...", at the left edge the list's entries start at.
    first = [(72, 740 - 14 * k, text) for k, text in enumerate(BODY_LINES)] + [(72, 580, "References")]
    first += [(72 + (10 if n else 0), 560 - 33 * k - 11 * n, line)
              for k in range(8) for n, line in enumerate(AUTHOR_YEAR[k])]
    table = [(72, 700, "Table 5. Input parameters")]
    table += [(72 + 150 * c, 680 - 13 * k, cell) for k in range(6)
              for c, cell in enumerate((f"parameter {k}", f"{k}.5 +- 0.{k}", f"Author{k} et al. (2019)"))]
    table += [(72, 590, "Note-Every value is from the literature; the sources are in the text.".replace("-", "\u2014"))]
    third = _author_year_columns(9, 16, 720)
    result = extract_references(_pages_pdf([first, table, third], size=8))
    assert [r.raw_text for r in result.references] == [" ".join(lines) for lines in AUTHOR_YEAR]


def test_a_running_head_below_a_drafts_crop_marks_is_dropped():
    # A draft class sets a page smaller than the paper, its crop marks and a stamp above it: the
    # marks take the top rows, and the running head stands further in than the outer 14%.
    def top(page: int) -> list[tuple[float, float, str]]:
        return [(200, 770, f"main -- 2021/2/15 -- page {page}"), (20, 745, "+"), (580, 745, "+"),
                (72, 670, f"{page}  A. Author et al." if page % 2 == 0 else f"A study of cases  {page}")]

    result = extract_references(_pages_pdf(_numbered_list_under(top, 640)))
    assert [r.raw_text for r in result.references] == [" ".join(lines) for lines in NUMBERED]


# --- a float's caption over a two-column author-year list (MNRAS) --------------------------------

# MNRAS: "Surname I.," without a comma between name and initials, no full stop at the end; a
# hanging indent. A second line may begin with initials, a full line end on a page number.
MNRAS_ENTRIES = [entry for i in range(1, 7) for entry in (
    (f"Author{i} A., Writer B., 201{i}, MNRAS, 40{i}, 101",),
    (f"Author{i} B., Writer B., Scribe C., Reader D., Teller E.,", f"F. G., 201{i}, A&A, 50{i}, A72"),
    (f"Author{i} C., Writer B., Reader D., 2014, MNRAS, 487, 69{i}",),
    (f"Author{i} C., Writer B., Scribe C., 2015, MNRAS, 508, 361{i}",),
    (f"Author{i} D., Writer B., Scribe C., Reader D., 2016, ApJ,", f"955, L1{i}"),
    (f"Author{i} E., 2017, Royal Society Open Sci., 4, 17011{i}",),
)]


def _mnras_column(x: float, top: float, entries) -> list[tuple[float, float, str]]:
    placed, y = [], top
    for entry in entries:
        for n, line in enumerate(entry):
            placed.append((x + (10 if n else 0), y, line))
            y -= 10
    return placed


def _caption_line(words: list[str], y: float, boundary: float, lead: int) -> list[tuple[float, float, str]]:
    """A caption's line across the page whose first `lead` words end at boundary (in the gutter),
    the next word a space after it: no word covers the gutter."""
    first, rest = " ".join(words[:lead]), " ".join(words[lead:])
    x = boundary - _width(first, 8)
    return [(x, y, first), (boundary + _width(" ", 8), y, rest)]


CAPTION_WORDS = ("Figure 5. Mass accretion rate as a function of time for the old prescription (panel a) "
                 "and the critical radius criteria (panel b).").split()
CAPTION_WORDS_2 = ("The corner plots show the distribution in accretion rate and disc age, and the "
                   "difference as a gray shadow region.").split()


def _mnras_page(icon: bool = True) -> bytes:
    def lead(words):        # the words that fit left of the gutter, from about the column's edge
        return max(k for k in range(1, len(words)) if _width(" ".join(words[:k]), 8) < 296 - 72)

    placed = _caption_line(CAPTION_WORDS, 740, 296, lead(CAPTION_WORDS))
    placed += _caption_line(CAPTION_WORDS_2, 730, 296, lead(CAPTION_WORDS_2))
    placed.append((72, 720, "et al. 2022) are overplotted as box plots."))
    if icon:
        placed.append((545, 720, "a"))          # a link's icon at the page's edge, beyond the text
    placed += [(72, 690 - 10 * k, text) for k, text in enumerate(
        ["We thank the referee for comments that improved", "the paper, and the funders for their support.",
         "The data underlying this article will be shared", "on request to the corresponding author."] * 2)]
    placed.append((72, 600, "REFERENCES"))
    placed += _mnras_column(72, 585, MNRAS_ENTRIES[:18])
    placed += _mnras_column(310, 690, MNRAS_ENTRIES[18:])
    return hand_pdf(placed, size=8)


def _mnras_expected() -> list[str]:
    return [" ".join(entry) for entry in MNRAS_ENTRIES]


def test_a_caption_across_the_page_crossing_the_gutter_between_two_words_is_no_reference():
    # No word of the caption covers the gutter: it crosses between two words a space apart. Its
    # halves were read as lines of the two columns; the right ones glued to the last reference
    # of the left column.
    texts = [r.raw_text for r in extract_references(_mnras_page(icon=False)).references]
    assert not any("panel" in text or "shadow" in text for text in texts)
    assert texts == _mnras_expected()


def test_an_icon_beyond_the_right_columns_text_is_no_part_of_a_reference():
    # A glyph at the page's edge, right of where every line of the column ends (a caption's link
    # icon), was glued to the reference before it in reading order.
    texts = [r.raw_text for r in extract_references(_mnras_page(icon=True)).references]
    assert texts == _mnras_expected()


@pytest.mark.parametrize("colophon", ["This paper has been typeset from a TEX/LATEX file prepared by the author.",
                                      "Set in the journal's own class from the files the authors sent."])
def test_a_colophon_set_off_below_the_list_is_no_reference(colophon):
    # MNRAS closes the paper with a line two lines' space under the list: no year, short of the edge.
    placed = _page(BODY_LINES + ["REFERENCES"])
    placed += _mnras_column(72, placed[-1][1] - 14, MNRAS_ENTRIES[:8])
    placed.append((72, placed[-1][1] - 25, colophon))
    texts = [r.raw_text for r in extract_references(hand_pdf(placed, size=8)).references]
    assert texts == _mnras_expected()[:8]


def test_a_last_reference_set_off_below_the_list_stays_a_reference():
    # A gap before the last entry (a column balanced by stretching) does not make it a colophon:
    # it has a year.
    placed = _page(BODY_LINES + ["REFERENCES"])
    placed += _mnras_column(72, placed[-1][1] - 14, MNRAS_ENTRIES[:7])
    placed += _mnras_column(72, placed[-1][1] - 25, MNRAS_ENTRIES[7:8])
    texts = [r.raw_text for r in extract_references(hand_pdf(placed, size=8)).references]
    assert texts == _mnras_expected()[:8]
