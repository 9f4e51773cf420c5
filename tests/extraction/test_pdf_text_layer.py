"""What the text layer says a page's characters are, on classes of real PDFs that a fresh set of
papers (bench/real_pdfs/manifest-5.json) showed the extractor misreading, each on a small PDF built here."""
from itertools import pairwise

from citations.extraction.pdf_references import extract_references, read_words
from tests.extraction.test_pdf_layouts import hand_pdf


def test_words_after_a_glyph_named_for_an_astral_character_keep_their_boxes():
    # newtx's math italic names its glyphs for their code points (/u1D463) and has no ToUnicode:
    # PDFium gives such a character one index, which the page's text string leaves out, so that
    # every later character took the box of the one after it and words came apart.
    line = "Let @ be a matrix and the references follow in order here"
    words, _ = read_words(hand_pdf([(72, 700, line)], glyph_name="u1D434"))
    assert [w.text for w in words] == line.replace("@", "\U0001D434").split()
    assert all(a.x1 < b.x0 for a, b in pairwise(words))


def test_a_list_after_glyphs_named_for_astral_characters_is_read():
    body = [(72, 740 - 14 * i, f"The value @ = {i} holds for every case we tried in the study.") for i in range(8)]
    refs = [(72, 600, "References")] + [
        (72, 580 - 14 * i, f"[{i + 1}] A. Author{i}, A title number {i}, J. Phys. {i} (2020).") for i in range(6)]
    result = extract_references(hand_pdf(body + refs, glyph_name="u1D6FD"))
    assert result.heading == "References"
    assert [r.raw_text for r in result.references] == [
        f"A. Author{i}, A title number {i}, J. Phys. {i} (2020)." for i in range(6)]
