"""Words with their boxes out of a PDF's text layer (pypdfium2)."""
import ctypes
import os
import re
import stat
import threading
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from citations.extraction.pdf.model import PageSize, PdfRefused, TextWord

MAX_PAGES = 500
MAX_BYTES = 64 * 1024 * 1024
MAX_PAGE_CHARACTERS = 100_000
# A long document is opened afresh every so many pages, so that what PDFium holds does not grow
# with the page count; reopening costs a parse of the file's cross-reference table.
PAGES_PER_OPENING = 25

_CHUNK = 1024 * 1024

_pdfium_lock = threading.Lock()


def read_bytes(pdf: bytes | str | Path, max_bytes: int = MAX_BYTES) -> bytes:
    if isinstance(pdf, (str, Path)):
        # At most one byte past the limit, whatever stat() says: a device (/dev/zero), a pipe or a
        # file still growing has no honest size.
        with open(pdf, "rb") as file:
            data = file.read(max_bytes + 1)
    else:
        data = bytes(pdf)
    _check(data[:1024], data[-2048:], len(data), max_bytes)
    return data


@dataclass(frozen=True)
class PdfFile:
    """An open regular file whose first `length` bytes are a checked PDF."""
    file: BinaryIO
    length: int


@contextmanager
def checked(pdf: bytes | str | Path, max_bytes: int = MAX_BYTES) -> Iterator[bytes | PdfFile]:
    """The PDF checked as read_bytes checks it: a path to a regular file as the open file (read
    through once to check it, never held: the reader reads it from the file system, so that
    neither process holds a long document's bytes), anything else as its bytes."""
    if isinstance(pdf, (str, Path)):
        with open(pdf, "rb") as file:
            if stat.S_ISREG(os.fstat(file.fileno()).st_mode):
                head, tail, length = b"", b"", 0
                while length <= max_bytes and (chunk := file.read(min(_CHUNK, max_bytes + 1 - length))):
                    head = head if length else chunk[:1024]
                    tail = (tail + chunk)[-2048:]
                    length += len(chunk)
                _check(head, tail, length, max_bytes)
                yield PdfFile(file, length)
                return
    yield read_bytes(pdf, max_bytes)


def _check(head: bytes, tail: bytes, length: int, max_bytes: int) -> None:
    if length > max_bytes:
        raise PdfRefused(f"the file is larger than the {max_bytes:,} bytes that are read")
    # The format allows bytes before the header; readers look in the first kilobyte.
    if b"%PDF-" not in head:
        raise PdfRefused("this is not a PDF: it does not start with %PDF-")
    # PDFium rebuilds a truncated file's index and silently returns the pages it could recover,
    # which would lose the reference list at the end without a word; the end marker says whether
    # the file arrived whole.
    if b"%%EOF" not in tail:
        raise PdfRefused("the PDF is truncated: its end marker (%%EOF) is missing")


def read_words(data: bytes, max_pages: int = MAX_PAGES,
               max_page_characters: int = MAX_PAGE_CHARACTERS) -> tuple[list[TextWord], list[PageSize]]:
    """Every word of the PDF's text layer with its box, font size and weight, and the page sizes.

    In this process and without a bound on memory or time: callers go through
    citations.extraction.pdf.isolated, which runs read_pages in a child process that has both."""
    words, sizes = [], []
    for size, page_words in read_pages(data, max_pages, max_page_characters):
        sizes.append(size)
        words.extend(page_words)
    return words, sizes


def read_pages(data: bytes | BinaryIO, max_pages: int = MAX_PAGES,
               max_page_characters: int = MAX_PAGE_CHARACTERS) -> Iterator[tuple[PageSize, list[TextWord]]]:
    """Each page's size and words in turn, so that a reader need hold only one page's words."""
    import pypdfium2 as pdfium
    from pypdfium2 import raw

    any_words = False
    with _pdfium_lock:
        document = _open(data)
        try:
            page_count = len(document)
            if page_count == 0:
                raise PdfRefused("the PDF has no pages")
            if page_count > max_pages:
                raise PdfRefused(f"the PDF has {page_count} pages; at most {max_pages} are read")
            box = raw.FS_RECTF()
            for number in range(page_count):
                if number and number % PAGES_PER_OPENING == 0:
                    # PDFium keeps what it parsed (fonts, resources) until the document is closed.
                    document.close()
                    document = _open(data)
                page = document[number]
                width, height = page.get_size()
                textpage = page.get_textpage()
                try:
                    page_words = _page_words(number + 1, textpage, raw, box, max_page_characters)
                finally:
                    textpage.close()
                    page.close()
                any_words = any_words or bool(page_words)
                yield PageSize(width, height), page_words
        except pdfium.PdfiumError as error:
            raise PdfRefused(f"the PDF is damaged and cannot be read ({error})") from error
        finally:
            document.close()
    if not any_words:
        raise PdfRefused("the PDF has no text layer (a scanned document?): no characters can be read from it")


def _open(data: bytes | BinaryIO):
    import pypdfium2 as pdfium
    from pypdfium2 import raw

    try:
        return pdfium.PdfDocument(data)
    except pdfium.PdfiumError as error:
        if getattr(error, "err_code", None) == raw.FPDF_ERR_PASSWORD:
            raise PdfRefused("the PDF is encrypted and needs a password to be read") from error
        raise PdfRefused(f"the PDF is damaged and cannot be read ({error})") from error


# A character box narrower than this (in points) has no width.
_NO_WIDTH = 0.01


def _page_words(page: int, textpage, raw, box, max_characters: int) -> list[TextWord]:
    """A page's characters grouped into words: a word ends at a space, a line break or a gap."""
    count = textpage.count_chars()
    if count > max_characters:
        # Ten times the densest page of small type: a page built to exhaust the reader's memory and time.
        raise PdfRefused(f"page {page} has {count:,} characters; at most {max_characters:,} a page are read")
    characters, text = _characters(textpage, raw, count)
    words = []
    run: list[str] = []
    first = 0
    x0 = x1 = bottom = top = 0.0

    def flush():
        height = top - bottom
        size = raw.FPDFText_GetFontSize(textpage, first)
        if not 3.0 <= size <= 72.0:          # a font set at size 1 and scaled by a matrix
            size = height / 1.2
        bold = raw.FPDFText_GetFontWeight(textpage, first) >= 600
        # PDFium marks a hyphen that ends a line as U+FFFE; it is a plain hyphen here, and
        # whether it is a word break is decided when lines are joined.
        word = _compose_accents("".join(run).replace("\ufffe", "-").replace("\x02", "-"))
        if word:                             # not an accent alone
            words.append(TextWord(page, x0, x1, bottom, top, word, size, bold))
        run.clear()

    tex_codes = _tex_codes(textpage, raw, characters) if _TEX_CODE.search(text) else {}
    previous = None
    for i, ch in characters:
        ch = tex_codes.get(i, ch)
        if ch.isspace():
            if run:
                flush()
            previous = None
            continue
        # The loose box spans the font's ascent and descent: one bottom for a whole line.
        raw.FPDFText_GetLooseCharBox(textpage, i, box)
        left, right, low, high = box.left, box.right, box.bottom, box.top
        if right - left < _NO_WIDTH and i + 1 < count and not chr(raw.FPDFText_GetUnicode(textpage, i + 1)).isspace():
            # A glyph the font gives no width (a line's first letter, somewhere left of its column in
            # some generators' PDFs) is set where the next one starts: it is that word's first letter.
            raw.FPDFText_GetLooseCharBox(textpage, i + 1, box)
            if box.right - box.left >= _NO_WIDTH:
                left = right = box.left
                low, high = box.bottom, box.top
        if previous is not None:
            p_left, p_right, p_low, p_high = previous
            height = max(p_high - p_low, 1.0)
            if left - p_right > 0.18 * height or left < p_left - 0.5 * height \
                    or (abs(low - p_low) > 0.6 * height and abs(high - p_high) > 0.6 * height):
                flush()
        if not run:
            first, x0, x1, bottom, top = i, left, right, low, high
        else:
            x0, x1, bottom, top = min(x0, left), max(x1, right), min(bottom, low), max(top, high)
        run.append(ch)
        previous = (left, right, low, high)
    if run:
        flush()
    return words


# TeX's accents in its older fonts (OT1) are glyphs of their own set over the letter: the text
# layer says "Ag¨ueros", "F`evre", "Pavlovi´c", and the cedilla follows its letter ("c¸"). An
# accent on an i or j is set over TeX's dotless one ("Garc´ıa"), which no accented letter has.
_DOTLESS = {"ı": "i", "ȷ": "j"}
_SPACING_ACCENTS = {"¨": "\u0308", "´": "\u0301", "`": "\u0300", "ˆ": "\u0302", "˜": "\u0303",
                    "ˇ": "\u030c", "˘": "\u0306", "˙": "\u0307", "˚": "\u030a", "¯": "\u0304", "˝": "\u030b"}
_ACCENT_BEFORE = re.compile("([" + "".join(_SPACING_ACCENTS) + "])([^\\W\\d_])")
_CEDILLA = re.compile("([cCsStT])\u00b8|\u00b8([cCsStT])")


_ANY_ACCENT = re.compile("[" + "".join(_SPACING_ACCENTS) + "\u00b8]")
# An accent no letter follows was set after its letter's word, past the comma ("Brbic,´ M.",
# "Gruttemeier,¨ N."): which letter it sits on is lost, and alone it would split the name it is in.
# The grave is also a quote ("``"), so it stays.
_STRAY_ACCENT = re.compile("[" + "".join(a for a in _SPACING_ACCENTS if a != "`") + "](?![^\\W\\d_])")


def _compose_accents(word: str) -> str:
    if not _ANY_ACCENT.search(word):
        return word

    def composed(letter: str, mark: str, whole: str) -> str:
        # Only where the pair is one letter of its own ("`t" is a quote, not an accent).
        joined = unicodedata.normalize("NFC", _DOTLESS.get(letter, letter) + mark)
        return joined if len(joined) == 1 else whole

    word = _ACCENT_BEFORE.sub(lambda m: composed(m.group(2), _SPACING_ACCENTS[m.group(1)], m.group(0)), word)
    word = _CEDILLA.sub(lambda m: composed(m.group(1) or m.group(2), "\u0327", m.group(0)), word)
    return _STRAY_ACCENT.sub("", word)


# TeX's text fonts hold their ligatures at codes 11-15 (OT1) and 27-31 (T1), ff fi fl ffi ffl in
# both, and T1 its dashes at 21 and 22. A font that names its glyphs by number (/a12: a bitmap,
# Type 3, font of dvips or pdfTeX) or maps them to no letter gives the text layer the code itself,
# a control character: "signi\x0ccance", "1457\x151493"; \x0c, \x0b and \x1c-\x1f count as
# spaces, which cut the word in two.
_LIGATURES = "ff", "fi", "fl", "ffi", "ffl"
_TEX_CODES = dict(zip("\x0b\x0c\x0d\x0e\x0f", _LIGATURES)) | dict(zip("\x1b\x1c\x1d\x1e\x1f", _LIGATURES)) | {
    "\x15": "\u2013", "\x16": "\u2014"}
_TEX_CODE = re.compile("[" + "".join(_TEX_CODES) + "]")


def _tex_codes(textpage, raw, characters: list[tuple[int, str]]) -> dict[int, str]:
    """PDFium's index -> what a TeX text font's code stands for, for each such code the page drew.

    Only a code drawn (not PDFium's line break, \\r\\n, which it does not always mark as made up)
    in the same font as a letter or digit next to it: the same codes of TeX's math and symbol fonts
    (cmmi's alpha and lambda, cmsy's solar circle after "M") are set in a font of their own."""
    found = {}
    for k, (i, ch) in enumerate(characters):
        after = characters[k + 1:k + 2]
        if ch not in _TEX_CODES or (ch == "\r" and after and after[0][1] == "\n") \
                or raw.FPDFText_IsGenerated(textpage, i):
            continue
        font = _font(textpage, raw, i)
        if font and any(c.isalnum() and _font(textpage, raw, j) == font
                        for j, c in characters[max(k - 1, 0):k] + after):
            found[i] = _TEX_CODES[ch]
    return found


def _font(textpage, raw, index: int) -> int | None:
    """The address of the font a character was drawn in (one object for the whole document)."""
    text_object = raw.FPDFText_GetTextObject(textpage, index)
    if not text_object:
        return None
    return ctypes.cast(raw.FPDFTextObj_GetFont(text_object), ctypes.c_void_p).value


def _characters(textpage, raw, count: int) -> tuple[list[tuple[int, str]], str]:
    """(PDFium's index, character) for each character of the page, one a character as printed, and
    those characters as one string.

    A character outside the Basic Multilingual Plane (math italic 𝐴, 𝛽) comes in one of two ways:
    a ToUnicode map that gives it makes two indices, its UTF-16 surrogates, both with its box,
    which the page's text string (FPDFText_GetText) holds once; a glyph named for it (newtx's
    /u1D463, no ToUnicode) makes one index, which the string leaves out. Counting the string's
    characters as indices gave every later character of the page its neighbour's box, and words
    came apart ("Reference" / "s [1] Morto"). The string is read where it accounts for every index
    (the first way only, or neither), and each index one by one where it does not (a call a
    character: slower)."""
    text = textpage.get_text_range(0, count) if count else ""
    if len(text) + len(_ASTRAL.findall(text)) == count:
        return (list(_indexed(text, count)) if _ASTRAL.search(text) else list(enumerate(text))), text
    characters = []
    high = None
    for i in range(count):
        code = raw.FPDFText_GetUnicode(textpage, i)
        if 0xD800 <= code < 0xDC00:
            high = (i, code)
            continue
        if 0xDC00 <= code < 0xE000:
            if high is not None and high[0] == i - 1:
                characters.append((high[0], chr(0x10000 + ((high[1] - 0xD800) << 10) + code - 0xDC00)))
            high = None
            continue
        high = None
        characters.append((i, chr(code)))
    return characters, "".join(ch for _, ch in characters)


_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


def _indexed(text: str, count: int):
    """(PDFium's index, character) for each character of a text string whose characters outside
    the Basic Multilingual Plane take two indices each."""
    i = 0
    for ch in text:
        if i >= count:
            return
        yield i, ch
        i += 2 if ord(ch) > 0xFFFF else 1
