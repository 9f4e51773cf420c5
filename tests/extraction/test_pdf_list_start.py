"""Where the reference list starts, on classes of real PDFs that a fresh set of papers (bench/real_pdfs/
manifest-4.json) showed the extractor missing, each on a small PDF built here."""
import pytest

from citations.extraction.pdf.section import _is_references_heading
from citations.extraction.pdf_references import extract_references
from tests.extraction.test_pdf_layouts import LIST, hand_pdf

REFS = [f"A. Author{i}, Phys. Rev. {i}, {i}1 (2019)." for i in range(1, 7)]


def test_a_list_below_a_body_balanced_over_both_columns_is_read_after_all_the_body():
    # revtex balances the text's last page over both columns and sets the list below it, smaller,
    # in two columns of its own: the right column's text comes before the list, not inside its
    # third reference.
    body = [f"Body text line {k} of the balanced page, words." for k in range(12)]
    placed = [(72, 700 - 12 * k, body[k], 10) for k in range(6)]
    placed += [(320, 700 - 12 * k, body[6 + k], 10) for k in range(6)]
    top = 700 - 12 * 5 - 48
    placed += [(72, top - 11 * k, f"[{k + 1}] {REFS[k]}", 9) for k in range(3)]
    placed += [(320, top - 11 * k, f"[{k + 4}] {REFS[k + 3]}", 9) for k in range(3)]
    result = extract_references(hand_pdf(placed))
    assert [r.raw_text for r in result.references] == REFS


def test_two_columns_stopping_together_in_the_same_type_are_read_column_by_column():
    # Floats side by side leave a gap across both columns too, with the same type above and below:
    # each column still runs on from above the gap to below it.
    refs = [f"A. Author{i}, Phys. Rev. {i}, {i}1 (2019)." for i in range(1, 8)]
    left = [f"Left column line {k} of the text, words go on." for k in range(4)] + ["References"] + [
        f"[{i}] {refs[i - 1]}" for i in range(1, 4)]
    right = [f"[{i}] {refs[i - 1]}" for i in range(4, 8)]
    placed = [(72, 700 - 12 * k - (60 if k >= 4 else 0), text, 10) for k, text in enumerate(left)]
    placed += [(320, 700 - 12 * k - (84 if k >= 2 else 0), text, 10) for k, text in enumerate(right)]
    result = extract_references(hand_pdf(placed))
    assert result.heading == "References"
    assert [r.raw_text for r in result.references] == refs


def test_a_justified_line_of_text_above_a_smaller_list_is_no_heading():
    # A line of running text that ends without a stop, set larger than the list under it, is not
    # the heading of another section that would own the list: it runs to the column's edge.
    body = [f"Sentence {k} of the body says what the study found and why" for k in range(8)]
    placed = [(72, 740 - 14 * k, text, 11) for k, text in enumerate(body)]
    placed += [(72, 740 - 14 * 8 - 10 * k, f"[{i}] {text}", 7) for k, (i, text) in enumerate(enumerate(LIST, 1))]
    result = extract_references(hand_pdf(placed))
    assert result.heading is None
    assert [r.raw_text for r in result.references] == LIST


def test_a_references_heading_printed_after_its_list_heads_nothing():
    # Science's template can print "REFERENCES AND NOTES" after the list it names, another
    # section's heading at once under it: the list is the one before it, and ends there.
    body = [f"Sentence {k} of the body says what the study found and why it matters." for k in range(8)]
    placed = [(72, 740 - 14 * k, text, 10) for k, text in enumerate(body)]
    y = 740 - 14 * 8
    placed += [(72, y - 12 * k, f"[{i}] {text}", 8) for k, (i, text) in enumerate(enumerate(LIST, 1))]
    y -= 12 * len(LIST) + 20
    placed += [(250, y, "REFERENCES AND NOTES", 10), (260, y - 14, "ACKNOWLEDGMENTS", 10),
               (72, y - 28, "We thank the centre for its support of this study.", 10)]
    result = extract_references(hand_pdf(placed))
    assert [r.raw_text for r in result.references] == LIST


def test_an_unheaded_author_year_list_goes_on_through_an_entry_by_a_site():
    # A thesis's list with no heading in its text layer: "Wikipedia, . Generative adversarial
    # network, 2025a." opens with no initials, yet the list does not stop there.
    entries = [(f"Author{i}, A., and Writer, B. A study of case {i} and what it shows about the",
                f"field. Journal of Things {i}: {i}1-{i}9, 2019.") for i in range(1, 5)]
    entries.append(("Wikipedia, . Generative adversarial network, 2025a. An entry of the online",
                    "encyclopedia, read in June 2025."))
    entries += [(f"Scribe{i}, C. Another study of case {i} and of what it shows about the field",
                 f"at large. Journal of Things {i}: {i}2-{i}8, 2020.") for i in range(1, 4)]
    placed = [(72, 740 - 14 * k, f"Sentence {k} of the body says what the study found and why it matters.")
              for k in range(20)]
    y = 740 - 14 * 20
    for first, second in entries:
        placed += [(72, y - 14, first), (90, y - 28, second)]
        y -= 28
    result = extract_references(hand_pdf(placed, size=8))
    assert [r.raw_text for r in result.references] == [f"{a} {b}" for a, b in entries]


@pytest.mark.parametrize("heading", ["Irodalomjegyzék", "Referências Bibliográficas", "Literatuur", "Referenser",
                                     "Daftar Pustaka", "Литература", "Bibliographie", "Kaynakça", "Lähteet"])
def test_names_of_the_references_in_more_languages_are_headings(heading):
    assert _is_references_heading(heading)


@pytest.mark.parametrize("line", ["Literature review", "irodalom", "Sources of the data"])
def test_lines_that_only_mention_the_literature_are_no_headings(line):
    assert not _is_references_heading(line)


class _Box:
    left = right = bottom = top = 0.0


class _TextLayer:
    """A page's text layer as PDFium's calls give it (its names): characters with loose boxes (left, right)."""

    def __init__(self, chars: list[tuple[str, float, float]]):
        self.chars = chars

    def count_chars(self):
        return len(self.chars)

    def get_text_range(self, start, count):
        return "".join(c for c, _, _ in self.chars[start:start + count])

    def FPDFText_GetLooseCharBox(self, textpage, i, box):    
        _, box.left, box.right = self.chars[i]
        box.bottom, box.top = 700.0, 712.0

    def FPDFText_GetUnicode(self, textpage, i):
        return ord(self.chars[i][0])

    def FPDFText_GetFontSize(self, textpage, i):
        return 10.0

    def FPDFText_GetFontWeight(self, textpage, i):
        return 400


def test_a_glyph_of_no_width_set_apart_is_its_words_first_letter():
    # Some generators' PDFs give a line's first letter no width, left of its column: "R EFERENCES"
    # and "[ 1] D. P. Kingma" were cut, the heading and the first label lost.
    from citations.extraction.pdf.words import _page_words

    chars = [("R", 300.0, 300.0)] + [(c, 312.0 + 6 * k, 318.0 + 6 * k) for k, c in enumerate("EFERENCES")]
    layer = _TextLayer(chars)
    words = _page_words(1, layer, layer, _Box(), 1000)
    assert [(w.text, w.x0) for w in words] == [("REFERENCES", 312.0)]


def test_a_numbered_list_under_a_heading_naming_the_literature_in_more_words_is_the_list():
    # "3.1. A tanulmányozott irodalom jegyzéke" (the list of the literature studied): not one of the
    # names a references heading has alone, yet no other section's either.
    body = [f"Sentence {k} of the body says what the study found and why it matters." for k in range(8)]
    placed = [(72, 740 - 14 * k, text, 10) for k, text in enumerate(body)]
    placed.append((72, 740 - 14 * 8 - 6, "3.1. A tanulmányozott irodalom jegyzéke", 12))
    placed += [(72, 740 - 14 * 10 - 12 * k, f"[{i}] {text}", 8) for k, (i, text) in enumerate(enumerate(LIST, 1))]
    result = extract_references(hand_pdf(placed))
    assert [r.raw_text for r in result.references] == LIST
