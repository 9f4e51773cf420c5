"""Failure classes of real PDFs (issue #29), each on a small PDF built here.

bench/real_pdfs.py measures the extractor on real papers that cannot be committed; these tests
keep each class it found fixed, on PDFs typeset in the test (reportlab, or a few hand-written
PDF objects where reportlab cannot say what is needed).
"""
import io
import re

import pytest

from citations.extraction.pdf_references import PdfRefused, extract_references, read_words


def hand_pdf(lines: list[tuple[float, float, str]], *, size: float = 10, astral: str = "") -> bytes:
    """A one-page PDF of Helvetica text lines (x, y, text) written object by object.

    With astral set, the byte '@' is shown as Helvetica's '@' but its ToUnicode mapping says it is
    that character (outside the Basic Multilingual Plane, like a math italic from a TeX font).
    """
    def escape(text: str) -> str:
        return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")

    content = "".join(f"BT /F1 {size} Tf {x:.2f} {y:.2f} Td ({escape(text)}) Tj ET\n" for x, y, text in lines)
    objects = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        "/Resources << /Font << /F1 5 0 R >> >> >>",
        f"<< /Length {len(content.encode('latin-1'))} >>\nstream\n{content}endstream",
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding"
        + (" /ToUnicode 6 0 R" if astral else "") + " >>",
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
