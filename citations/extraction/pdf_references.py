"""A PDF's reference list as plain strings, each with its index and the page it starts on.

    extract_references(pdf) -> PdfReferences(references=[PdfReference(index, raw_text, page)], pages, heading)

Steps: words with their boxes from the PDF's text layer; per page, columns found from an empty
vertical strip near the middle (left column read before the right); running headers, footers and
page numbers dropped (lines repeated at the same height on several pages, bare numbers at the top
or foot); the LAST heading "References" (or Bibliography, Literatur, Références, ...) taken as the
start and the first appendix heading after it as the end; the lines split into references by
printed labels ([1], 1., (1)) counted up in order, else by hanging indent, else (flush-left
author-year lists) by a short line followed by a line that begins like an author name or by a
vertical gap; the lines of a reference joined, undoing hyphenation at line ends.
raw_text is the reference without its printed label; index is the printed number when the list
is numbered, else the 1-based position.

Text library: pypdfium2 (Apache-2.0 / BSD-3-Clause; PDFium, Chromium's PDF engine). Compared by
bench/extraction.py --libraries on the same 176 built PDFs (579 pages), the same layout and
splitting code above each library; this machine, 2 cores, another benchmark running:
                   count exact   recovered   spurious   pages/s
    pypdfium2          98.9%       99.9%      0.03%       70.6
    pdfminer.six       98.9%       99.9%      0.03%       10.0
    pypdf              97.2%       99.2%      1.87%       16.4   (no glyph widths: guessed)
pdfminer.six is as accurate but 7x slower; pypdf gives only where each string starts. pypdfium2
gives every character's box, font size and weight, and is maintained. PyMuPDF (AGPL) and
poppler (GPL) were not considered.

PDFium is not safe to call from two threads at once, so one lock serialises extraction in a
process (Celery's prefork workers are separate processes and do not wait on each other).
"""
import dataclasses
import re
import statistics
import threading
from dataclasses import dataclass
from pathlib import Path

MAX_PAGES = 500
MAX_BYTES = 64 * 1024 * 1024

_pdfium_lock = threading.Lock()


class PdfRefused(ValueError):
    """The PDF cannot give a reference list; the message says why in plain words."""


@dataclass(frozen=True)
class PdfReference:
    index: int
    raw_text: str
    page: int


@dataclass(frozen=True)
class PdfReferences:
    references: list[PdfReference]
    pages: int
    heading: str | None


@dataclass(frozen=True)
class TextWord:
    """A run of characters without a space, in PDF user space (y grows upwards), pages from 1."""
    page: int
    x0: float
    x1: float
    bottom: float
    top: float
    text: str
    size: float
    bold: bool = False


@dataclass(frozen=True)
class PageSize:
    width: float
    height: float


def extract_references(pdf: bytes | str | Path) -> PdfReferences:
    """The reference list of a PDF given as bytes or a path; PdfRefused says why there is none."""
    data = _read_bytes(pdf)
    words, sizes = read_words(data)
    return references_from_words(words, sizes)


def _read_bytes(pdf: bytes | str | Path) -> bytes:
    size = Path(pdf).stat().st_size if isinstance(pdf, (str, Path)) else len(pdf)
    if size > MAX_BYTES:
        raise PdfRefused(f"the file is larger than the {MAX_BYTES:,} bytes that are read ({size:,} bytes)")
    data = Path(pdf).read_bytes() if isinstance(pdf, (str, Path)) else bytes(pdf)
    # The format allows bytes before the header; readers look in the first kilobyte.
    if b"%PDF-" not in data[:1024]:
        raise PdfRefused("this is not a PDF: it does not start with %PDF-")
    # PDFium rebuilds a truncated file's index and silently returns the pages it could recover,
    # which would lose the reference list at the end without a word; the end marker says whether
    # the file arrived whole.
    if b"%%EOF" not in data[-2048:]:
        raise PdfRefused("the PDF is truncated: its end marker (%%EOF) is missing")
    return data


# --- words from the text layer ---------------------------------------------------------------------


def read_words(data: bytes) -> tuple[list[TextWord], list[PageSize]]:
    """Every word of the PDF's text layer with its box, font size and weight, and the page sizes."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    with _pdfium_lock:
        try:
            document = pdfium.PdfDocument(data)
        except pdfium.PdfiumError as error:
            if getattr(error, "err_code", None) == raw.FPDF_ERR_PASSWORD:
                raise PdfRefused("the PDF is encrypted and needs a password to be read") from error
            raise PdfRefused(f"the PDF is damaged and cannot be read ({error})") from error
        try:
            page_count = len(document)
            if page_count == 0:
                raise PdfRefused("the PDF has no pages")
            if page_count > MAX_PAGES:
                raise PdfRefused(f"the PDF has {page_count} pages; at most {MAX_PAGES} are read")
            words, sizes = [], []
            box = raw.FS_RECTF()
            for number in range(page_count):
                page = document[number]
                width, height = page.get_size()
                sizes.append(PageSize(width, height))
                textpage = page.get_textpage()
                try:
                    words.extend(_page_words(number + 1, textpage, raw, box))
                finally:
                    textpage.close()
                    page.close()
        except pdfium.PdfiumError as error:
            raise PdfRefused(f"the PDF is damaged and cannot be read ({error})") from error
        finally:
            document.close()
    if not words:
        raise PdfRefused("the PDF has no text layer (a scanned document?): no characters can be read from it")
    return words, sizes


def _page_words(page: int, textpage, raw, box) -> list[TextWord]:
    """A page's characters grouped into words: a word ends at a space, a line break or a gap."""
    count = textpage.count_chars()
    text = textpage.get_text_range(0, count) if count else ""
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
        word = "".join(run).replace("\ufffe", "-").replace("\x02", "-")
        words.append(TextWord(page, x0, x1, bottom, top, word, size, bold))
        run.clear()

    previous = None
    for i, ch in enumerate(text[:count]):
        if ch.isspace():
            if run:
                flush()
            previous = None
            continue
        # The loose box spans the font's ascent and descent: one bottom for a whole line.
        raw.FPDFText_GetLooseCharBox(textpage, i, box)
        left, right, low, high = box.left, box.right, box.bottom, box.top
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


# --- lines in reading order ------------------------------------------------------------------------


@dataclass
class _Line:
    page: int
    column: int              # 0 left (or the only column), 1 right, -1 across both columns
    x0: float
    x1: float
    bottom: float
    size: float
    bold: bool
    text: str
    left: float = 0.0        # the column's left edge and right edge on this page
    right: float = 0.0


def references_from_words(words: list[TextWord], sizes: list[PageSize]) -> PdfReferences:
    """The reference list found in the words of a document (any text library can supply them)."""
    lines = _reading_order(words, sizes)
    heading, region = _reference_region(lines)
    if heading is None:
        raise PdfRefused("no reference section found: no heading such as 'References' or 'Bibliography'")
    references = [
        PdfReference(index, text, page)
        for index, text, page in _split_references(region, Vocabulary.of([ln.text for ln in lines]))
        if text
    ]
    if not references:
        raise PdfRefused(f"the heading '{heading}' is followed by no references")
    return PdfReferences(references=references, pages=len(sizes), heading=heading)


def _reading_order(words: list[TextWord], sizes: list[PageSize]) -> list[_Line]:
    by_page: dict[int, list[TextWord]] = {}
    for word in words:
        by_page.setdefault(word.page, []).append(word)
    by_page = _drop_running_words(by_page, sizes)
    lines = []
    for page in sorted(by_page):
        if by_page[page]:
            lines.extend(_page_lines(by_page[page], sizes[page - 1]))
    # A page of one-line references may have no line reaching the column's right edge, and a
    # last page of one or two lines says nothing of its left edge: the same column on the
    # other pages says where they are.
    edges: dict[int, dict[int, tuple[float, float, int]]] = {}
    for line in lines:
        left, right, count = edges.setdefault(line.column, {}).get(line.page, (line.left, line.right, 0))
        edges[line.column][line.page] = (left, right, count + 1)
    usual = {}
    for column, pages in edges.items():
        telling = [e for e in pages.values() if e[2] >= 3] or list(pages.values())
        usual[column] = (statistics.median(e[0] for e in telling), statistics.median(e[1] for e in telling))
    for line in lines:
        usual_left, usual_right = usual[line.column]
        line.right = max(line.right, usual_right)
        if edges[line.column][line.page][2] < 3:
            line.left = usual_left
    return lines


def _page_lines(words: list[TextWord], size: PageSize) -> list[_Line]:
    """A page's lines, the left column before the right one, lines across both in their place."""
    gutter = _find_gutter(words, size)
    if gutter is None:
        lines = _group_lines(words, 0)
        _set_column_edges(lines)
        return sorted(lines, key=lambda line: -line.bottom)
    start, end = gutter
    # The strip may hold a few short words (a right column's labels "[10]" start in it): a word
    # is on the side it leaves the strip to, across when it leaves to both.
    left, right, across = [], [], []
    for w in words:
        leaves_left, leaves_right = w.x0 < start, w.x1 > end
        if leaves_left and leaves_right:
            across.append(w)
        elif leaves_left or (not leaves_right and w.x0 + w.x1 < start + end):
            left.append(w)
        else:
            right.append(w)
    # A word running over the gutter with right-column text beside it is an overfull line of the
    # left column (a long URL), not a line across the page.
    overfull = [w for w in across if any(abs(r.bottom - w.bottom) < 0.4 * w.size and r.x0 > w.x1 for r in right)]
    left += overfull
    across = [w for w in across if w not in overfull]
    # A baseline that has a word across the gutter is one line across the page (a title, a header).
    spanning = _group_lines(across, -1)
    taken = set()
    for line in spanning:
        for w in left + right:
            if abs(w.bottom - line.bottom) < 0.4 * max(line.size, 1.0):
                taken.add(id(w))
    if taken:
        spanning = _group_lines(across + [w for w in left + right if id(w) in taken], -1)
    columns = [_group_lines([w for w in part if id(w) not in taken], column)
               for column, part in ((0, left), (1, right))]
    _set_column_edges(columns[0], right_limit=start)
    _set_column_edges(columns[1])
    _set_column_edges(spanning)
    ordered, above = [], float("inf")
    for separator in sorted(spanning, key=lambda line: -line.bottom) + [None]:
        below = separator.bottom if separator else float("-inf")
        for column in columns:
            ordered.extend(sorted((ln for ln in column if below < ln.bottom < above), key=lambda ln: -ln.bottom))
        if separator:
            ordered.append(separator)
            above = separator.bottom
    return ordered


def _find_gutter(words: list[TextWord], size: PageSize) -> tuple[float, float] | None:
    """The widest empty vertical strip near the page's middle with text on both sides, or None."""
    width = int(size.width) + 1
    coverage = [0] * (width + 1)
    for word in words:
        for x in range(max(int(word.x0), 0), min(int(word.x1) + 1, width)):
            coverage[x] += 1
    baselines = len({round(w.bottom) for w in words})
    # Titles and headers cross the gutter; a column of running text covers it on most lines.
    allowed = baselines // 20
    runs = _runs(coverage, int(size.width * 0.3), int(size.width * 0.7), lambda c: c <= allowed)
    if not runs:
        return None
    best = max(runs, key=lambda run: run[1] - run[0])
    # A right column of a line or two (a last page) lets the strip run on into it: its emptiest
    # part is the gutter.
    lowest = min(coverage[best[0]:best[1] + 1])
    emptiest = max(_runs(coverage, best[0], best[1], lambda c: c == lowest), key=lambda run: run[1] - run[0])
    # Spaces of justified lines can line up over a few lines by chance; a gutter is wider than
    # a word space (an em or so, 10 points at least in LaTeX's classes).
    needed = max(6.0, 0.9 * statistics.median(w.size for w in words))
    if emptiest[1] - emptiest[0] + 1 >= needed:
        best = emptiest
    if best[1] - best[0] + 1 < needed:
        return None
    middle = (best[0] + best[1]) / 2
    # A last page may hold a line or two in its right column: the strip's emptiness and width
    # have said enough.
    left = {round(w.bottom) for w in words if w.x1 <= middle}
    right = {round(w.bottom) for w in words if w.x0 >= middle}
    if not left or not right or len(left) + len(right) < 4:
        return None
    return float(best[0]), float(best[1] + 1)


def _runs(values: list[int], start: int, end: int, keep) -> list[tuple[int, int]]:
    """The runs (first, last) of positions start..end whose value keep() accepts."""
    runs, first = [], None
    for x in range(start, end + 1):
        if keep(values[x]):
            first = x if first is None else first
        elif first is not None:
            runs.append((first, x - 1))
            first = None
    if first is not None:
        runs.append((first, end))
    return runs


def _group_lines(words: list[TextWord], column: int, *, keep_words: bool = False) -> list:
    """Words on one baseline joined into a line, left to right, top line first."""
    rows, current = [], []
    for word in sorted(words, key=lambda w: (-w.bottom, w.x0)):
        if current and abs(word.bottom - current[0].bottom) > 0.4 * max(current[0].size, 1.0):
            rows.append(current)
            current = []
        current.append(word)
    if current:
        rows.append(current)
    return rows if keep_words else [_line_of(row, column) for row in rows]


def _line_of(words: list[TextWord], column: int) -> _Line:
    words = sorted(words, key=lambda w: w.x0)
    parts = [words[0].text]
    for previous, word in zip(words, words[1:]):
        # Pieces of one word drawn apart (a font change inside it) touch; words leave a gap, if
        # only a small one where a letter's box overhangs ("words for" in a tight line).
        parts.append(("" if word.x0 - previous.x1 < 0.05 * word.size else " ") + word.text)
    sizes = sorted(w.size for w in words)
    return _Line(page=words[0].page, column=column, x0=words[0].x0, x1=max(w.x1 for w in words),
                 bottom=statistics.median(w.bottom for w in words), size=sizes[len(sizes) // 2],
                 bold=all(w.bold for w in words), text="".join(parts))


def _set_column_edges(lines: list[_Line], right_limit: float = float("inf")):
    """The column's edges: where its lines of the usual size start and end at the outermost (a
    title line in larger type that strays into the gutter does not move them), short of the gutter."""
    if not lines:
        return
    usual = statistics.median(ln.size for ln in lines)
    text = [ln for ln in lines if ln.size <= 1.15 * usual]
    left = min(ln.x0 for ln in text)
    right = min(max(ln.x1 for ln in text), right_limit)
    for line in lines:
        line.left, line.right = left, right


_BARE_PAGE_NUMBER = re.compile(r"^(?:page\s*)?[-–—\s]*\d{1,4}(?:\s*(?:of|/)\s*\d{1,4})?[-–—\s]*$", re.I)


def _drop_running_words(by_page: dict[int, list[TextWord]], sizes: list[PageSize]) -> dict[int, list[TextWord]]:
    """Pages without running headers, footers and page numbers.

    Looked at before columns are found, as rows across the whole page: a header over both columns
    would otherwise be cut in two at the gutter. Only the two top-most and two bottom-most rows of
    a page inside its outer tenth are candidates: there a row whose text (digits aside) recurs at
    the same height on a quarter of the pages (at least two) is a header or footer, and a bare
    number is a page number.
    """
    candidates, apart, text_top, text_bottom = [], {}, {}, {}
    for page, words in by_page.items():
        height = sizes[page - 1].height
        rows = _group_lines(words, -1, keep_words=True)
        for row in rows[:2] + rows[-2:]:
            if row[0].bottom > 0.9 * height or row[0].bottom < 0.1 * height:
                candidates.append((page, row))
        # A header on one page only (or a footer on the first) cannot repeat. It stands apart
        # from the text by more than two lines, and above (below) where other pages' text
        # begins (ends); the last line of a reference list followed by a gap does not.
        text_top[page], text_bottom[page] = rows[0][0].bottom, rows[-1][0].bottom
        for outer, inner, end in ((rows[0], rows[1:2], "top"), (rows[-1], rows[-2:-1], "bottom")):
            in_band = outer[0].bottom > 0.9 * height or outer[0].bottom < 0.1 * height
            size = max(w.size for w in outer)
            if in_band and inner and abs(outer[0].bottom - inner[0][0].bottom) > 2.5 * size:
                apart[id(outer[0])] = (page, end, size)
                (text_top if end == "top" else text_bottom)[page] = inner[0][0].bottom

    def header_alone(row) -> bool:
        if id(row[0]) not in apart:
            return False
        page, end, size = apart[id(row[0])]
        others = (text_top if end == "top" else text_bottom)
        y = row[0].bottom
        return any(y > v + size if end == "top" else y < v - size for p, v in others.items() if p != page)

    def key(row) -> tuple[int, str]:
        return round(row[0].bottom / 3), re.sub(r"\d+", "#", _line_of(row, -1).text.lower())

    pages_with: dict[tuple, set[int]] = {}
    for page, row in candidates:
        pages_with.setdefault(key(row), set()).add(page)
    repeated = max(2, len(sizes) // 4)
    dropped = set()
    for page, row in candidates:
        if len(pages_with[key(row)]) >= repeated or header_alone(row) \
                or _BARE_PAGE_NUMBER.match(_line_of(row, -1).text):
            dropped.update(id(w) for w in row)
    return {page: [w for w in words if id(w) not in dropped] for page, words in by_page.items()}


# --- the reference section -----------------------------------------------------------------------

_SECTION_NAMES = (
    r"references|bibliography|literature|literature\s+cited|works\s+cited|literatur|literaturverzeichnis|"
    r"r[ée]f[ée]rences(?:\s+bibliographiques)?|referencias|bibliograf[íi]a|riferimenti(?:\s+bibliografici)?|"
    r"список\s+литературы"
)
_NUMBERING = r"(?:(?:\d{1,2}|[IVXLC]{1,5}|[A-Z])\.?\s*)"
_REFERENCES_HEADING = re.compile(rf"^{_NUMBERING}?(?:{_SECTION_NAMES})(?:\s+\d{{1,2}})?\s*[.:]?$", re.I)
_APPENDIX_WORD = re.compile(
    r"^(?:appendix|appendices|supplementary|supplemental)\b"
    r"(?:\s+(?:[A-Z0-9]{1,3}|materials?|information))?\s*[.:]?$", re.I)
_APPENDIX_HEADING = re.compile(
    r"^(?:(?:appendix|appendices|supplementary\s+(?:materials?|information)|supplemental\s+materials?)\b|"
    r"[A-Z](?:\.\d+)*\.?\s+[A-Z][a-z])", re.I)


def _is_references_heading(text: str) -> bool:
    text = " ".join(text.split())
    # Small capitals come out letter-spaced: "R EFERENCES".
    return bool(_REFERENCES_HEADING.match(text) or _REFERENCES_HEADING.match(text.replace(" ", "")))


def _reference_region(lines: list[_Line]) -> tuple[str | None, list[_Line]]:
    """The last references heading and the lines after it up to an appendix heading."""
    start = next((i for i in range(len(lines) - 1, -1, -1) if _is_references_heading(lines[i].text)), None)
    if start is None:
        return None, []
    region = lines[start + 1:]
    if not region:
        return lines[start].text.strip(), []
    usual = statistics.median(ln.size for ln in region)
    for i, line in enumerate(region):
        text = line.text.strip()
        # A line "A  Proof of ..." may as well begin a reference ("A. Smith"): a heading stands out.
        stands_out = line.bold or line.size > 1.1 * usual
        if _APPENDIX_WORD.match(text) or (stands_out and _APPENDIX_HEADING.match(text)):
            region = region[:i]
            break
    return " ".join(lines[start].text.split()), region


# --- splitting into references -------------------------------------------------------------------

_LABEL = re.compile(r"^\s*(?:\[(\d{1,4})\]|\((\d{1,4})\)|(\d{1,4})\.(?=\s|$)|(\d{1,4})(?=\s+[A-Z]))\s*")
_PARTICLES = r"(?:(?:van|von|de|der|den|da|di|du|del|della|le|la|al|el|ten|ter)\s+)*"
# How a reference's first line begins: "Smith, J.", "Smith J", "Smith and", "J. Smith", "J.-L.
# de Smith", "—." (the same authors again), an all-capital name or collaboration.
_NAME_START = re.compile(
    rf"^(?:[—–-]{{1,3}}[.,]?|[A-Z]\.(?:\s?-?[A-Z]\.)*\s*{_PARTICLES}[A-Z]|"
    rf"{_PARTICLES}[A-Z\u00c0-\u024f][\w'’`\u00c0-\u024f-]*(?:\s+[A-Z][\w'’`-]*)?,?\s+"
    r"(?:[A-Z]\.|[A-Z][a-z]+|and\b|&|et\b)|"
    r"[A-Z][A-Z]+\b)"
)
# The stricter form, trusted without a short line before it: "Smith, J." or "J. Smith".
_AUTHOR_START = re.compile(
    r"^(?:[A-Z][\w'’-]+,\s+(?:[A-Z]\.|[A-Z][a-z]+\s+[A-Z]\.)|[A-Z]\.(?:\s?-?[A-Z]\.)*\s+[A-Z][a-z])")


def _split_references(region: list[_Line], vocabulary: "Vocabulary") -> list[tuple[int, str, int]]:
    if not region:
        return []
    groups = _split_by_labels(region)
    if groups is None:
        groups = _split_by_indent(region) or _split_flush_left(region)
        groups = [(n, lines) for n, lines in enumerate(groups, start=1)]
    return [(index, join_lines([ln.text for ln in lines], vocabulary), lines[0].page) for index, lines in groups]


def _split_by_labels(region: list[_Line]) -> list[tuple[int, list[_Line]]] | None:
    """References started by printed labels counting up (a missed label is allowed), or None."""
    candidates = []
    for i, line in enumerate(region):
        match = _LABEL.match(line.text)
        if match:
            candidates.append((i, int(next(g for g in match.groups() if g)), line.x0 - line.left, line.size))
    if not candidates:
        return None
    # Labels stand left of the text's indent (right-aligned ones a digit or two in from the
    # edge); a line going on with "(9) (2013) ..." stands at the indent.
    edge = min(offset for _, _, offset, _ in candidates)
    labelled = {i for i, *_ in candidates}
    others = [ln.x0 - ln.left for i, ln in enumerate(region) if i not in labelled]
    indent = statistics.median(others) if others else edge
    if indent > edge + 0.5 * region[0].size:
        labels = [(i, number) for i, number, offset, size in candidates if offset < indent - 0.3 * size]
    else:
        labels = [(i, number) for i, number, offset, size in candidates if offset <= edge + 1.2 * size]
    chain, expected = [], None
    for i, number in labels:
        if expected is None or number in (expected, expected + 1):
            chain.append((i, number))
            expected = number + 1
    # One label is a list only when it opens the section (a list of one reference).
    if len(chain) < 2 and (chain[0][0] != 0 or len(candidates) > 1):
        return None
    # Years and page numbers at a line start look like labels but do not count up from 1 or so.
    if chain[0][1] > 5 or len(chain) < 0.5 * len(labels):
        return None
    groups = []
    for (start, number), following in zip(chain, chain[1:] + [(len(region), None)]):
        lines = list(region[start:following[0]])
        lines[0] = dataclasses.replace(lines[0], text=_LABEL.sub("", lines[0].text, count=1))
        groups.append((number, lines))
    return groups


def _split_by_indent(region: list[_Line]) -> list[list[_Line]] | None:
    """References with a hanging indent: each starts at the column's edge, its other lines indented."""
    offsets = [ln.x0 - ln.left for ln in region]
    indented = [o for o in offsets if o > 2.0]
    # Lists of mostly one-line references have few indented lines; flush-left lists have none.
    if len(indented) < max(2, 0.02 * len(region)):
        return None
    indent = statistics.median(indented)
    # Most indented lines share one indent: a hanging indent, not centred or ragged lines.
    if sum(1 for o in indented if abs(o - indent) < 2.0) < 0.8 * len(indented):
        return None
    groups = []
    for line, offset in zip(region, offsets):
        if offset < indent / 2 or not groups:
            groups.append([line])
        else:
            groups[-1].append(line)
    return groups


def _split_flush_left(region: list[_Line]) -> list[list[_Line]]:
    """References set flush left: one starts after a vertical gap, or after a short line ending
    a reference when the next line begins like an author name."""
    gaps = sorted(prev.bottom - line.bottom for prev, line in zip(region, region[1:])
                  if prev.page == line.page and prev.column == line.column and prev.bottom > line.bottom)
    # The line spacing inside a reference: the smaller gaps (most references may be one line).
    leading = gaps[len(gaps) // 5] if gaps else 0.0
    groups = [[region[0]]]
    for prev, line in zip(region, region[1:]):
        same_column = prev.page == line.page and prev.column == line.column and prev.bottom > line.bottom
        gap = same_column and prev.bottom - line.bottom > 1.25 * leading
        # Justified text leaves only a paragraph's last line short; a list of authors goes on
        # after a comma, "and" or an initial even when the line is short (ragged right).
        short = prev.x1 < prev.right - 1.5 * prev.size
        ended = short and not re.search(r"(?:[,;:&-]|\band|(?:^|[\s.-])[A-Z]\.)$", prev.text.strip())
        # A full last line: then only a year or page number and a full stop ("1965.", "(2010).",
        # not "J. Phys." nor "ed.") before a name written "Surname, A." or "A. Surname".
        full_stop = re.search(r"[\d)]\.$", prev.text.rstrip()) and _AUTHOR_START.match(line.text.strip())
        if gap or full_stop or (ended and _NAME_START.match(line.text.strip())):
            groups.append([line])
        else:
            groups[-1].append(line)
    return groups


# --- joining the lines of a reference ------------------------------------------------------------

# First parts of compounds more often written with their hyphen than run into one word in the
# unarXive sample's references and body text ("two-", "self-", "non-", "high-"): a hyphen after
# them at a line end is kept unless the document itself writes the word joined.
_HYPHEN_PREFIXES = frozenset("self non multi cross semi well one two three four single spin high low large long "
                             "state time zero few fine closed hep cond".split())
_URL = re.compile(r"(?:https?:/|www\.|doi:|\b10\.\d{4,9}/|arxiv\.org/)", re.I)
_TRAILING_LETTERS = re.compile(r"([^\W\d_]+)$")
_LEADING_LETTERS = re.compile(r"^([^\W\d_]+)")
_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")


@dataclass(frozen=True)
class Vocabulary:
    """Words the document writes inside its lines (not at a line break): how it spells compounds."""
    joined: frozenset[str] = frozenset()
    hyphenated: frozenset[str] = frozenset()

    @classmethod
    def of(cls, lines: list[str]) -> "Vocabulary":
        joined, hyphenated = set(), set()
        for line in lines:
            words = _WORD.findall(line)
            for word in words[1:-1]:          # the first and last may be parts of broken words
                (hyphenated if "-" in word else joined).add(word.lower())
        return cls(frozenset(joined), frozenset(hyphenated))


def join_lines(lines: list[str], vocabulary: Vocabulary = Vocabulary()) -> str:
    """The lines of one reference as one string: broken words, URLs and DOIs put back together."""
    text = ""
    for line in lines:
        line = " ".join(line.split())
        if not line:
            continue
        text = _join_pair(text, line, vocabulary) if text else line
    return text


def _join_pair(left: str, right: str, vocabulary: Vocabulary) -> str:
    last = left.rsplit(" ", 1)[-1]
    first = right.split(" ", 1)[0]
    if _URL.search(last) and _url_continues(last, first):
        return left + right
    if len(last) > 1 and last[-1] in "-–—":
        if last[-1] == "-" and is_word_break(last[:-1], first, vocabulary):
            return left[:-1] + right
        return left + right               # a compound or a range: "Multi-Head", "1022–1030"
    return f"{left} {right}"


def _url_continues(last: str, first: str) -> bool:
    # TeX breaks a URL after punctuation without adding a hyphen; a full stop may also end the
    # sentence, and "doi:" alone is a label followed by a space.
    if last.lower() in ("doi:", "url:"):
        return False
    if last[-1] in "/-_=&?#~:":
        return True
    return last[-1] == "." and (first[:1].islower() or first[:1].isdigit())


def is_word_break(before: str, after: str, vocabulary: Vocabulary = Vocabulary()) -> bool:
    """Whether "before-" at a line end and "after" on the next line are one word broken by hyphenation.

    TeX hyphenates lower-case letters only, leaving at least 2 letters before the break and 3
    after it, and breaks a word that has a hyphen only at that hyphen. So the hyphen is real
    when the next part starts with a capital or a digit ("Multi-Head", "GPT-3", "Jean-Pierre"),
    when either part has another hyphen ("state-of-the-art"), digits, "/" or ":" inside
    (identifiers such as "hep-ex/0307021"), when a part is too short to be a hyphenated piece
    ("e-print", "hep-ph"), or when the part before is an acronym ("BERT-based"). Otherwise the
    document decides where it writes the word elsewhere ("real-world" or "realworld"), and
    failing that a few first parts of compounds keep their hyphen ("self-attention").
    """
    tail = _TRAILING_LETTERS.search(before)
    head = _LEADING_LETTERS.match(after)
    if not tail or not head or not after[0].islower():
        return False
    inner = after.rstrip(".,;:)]}\"'”’")
    if "-" in before or "-" in inner:
        return False
    if any(ch.isdigit() or ch in "/:" for ch in before + inner):
        return False
    piece_before, piece_after = tail.group(1), head.group(1)
    if len(piece_before) < 2 or len(piece_after) < 3 or piece_before.isupper():
        return False
    joined = (piece_before + piece_after).lower()
    if joined in vocabulary.joined:
        return True
    if f"{piece_before}-{piece_after}".lower() in vocabulary.hyphenated:
        return False
    return piece_before.lower() not in _HYPHEN_PREFIXES
