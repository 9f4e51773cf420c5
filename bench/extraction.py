"""Benchmark: reference lists out of PDFs, Pith's extractor next to refextract.

    python bench/extraction.py [--papers N] [--libraries] [--no-refextract] [--keep DIR] [--failures]

The shared data holds no PDFs, so the PDFs are BUILT here, with reportlab, from real reference
lists: the papers of /work/shared/data/unarxive-sample/arXiv_src_2212_086.jsonl (each paper's
bib_entry_raw strings, in order; 44 of the 49 papers have any, the other 5 are left out), each
typeset four ways: one-column and two-column, numbered ("[n]", "n." or "(n)", labels right-
aligned before a hanging text) and author-year (hanging indent, or flush left with a little
space between entries). Before the references come a title and about two pages of the paper's
own body text (formulas written as their LaTeX source, citations as "[1]"); every page but the
first has a running header, every page a page number at its foot. Text is justified and long
words are hyphenated at line ends ("Va-"/"sudevan"); words with a hyphen break only at it
("Multi-"/"Head"), URLs after "/" or "." without a hyphen, as TeX does. From paper to paper
(seeded, so every run builds the same PDFs) the page size (A4, Letter), margins, gutter (10-24
pt), type sizes, line spacing, hanging indent and space between entries vary, and some papers
get an appendix after the references, a heading "7 References" or "REFERENCES", or a decoy: an
earlier line "References" alone in the body. The gold string of a reference is exactly what
was typeset: bib_entry_raw with formulas replaced by their LaTeX source and the few characters
the embedded font (Bitstream Vera, shipped with reportlab) lacks folded to their base letter.
These PDFs are kinder than real ones in ways that matter: one font, no ligatures, no math, no
figures or tables, no rotated arXiv stamp, one space width; the extractor was also developed
against them. Figures on real PDFs will be lower.

Printed, over papers x {one-column, two-column} x {numbered, author-year}:
  exact         PDFs whose number of references found equals the gold count (%)
  recovered     gold references matched by a found one (rapidfuzz fuzz.ratio >= 90 on
                whitespace-normalised strings, each found string used once) / gold references
  spurious      found references matching no gold one / references found
  pages/s       pages of the built PDFs / wall time of extraction (one process, this machine)
  refused       PDFs for which no list came back (counted with no references found)
and the same for refextract (extract_references_from_file, which runs poppler's pdftotext, GPL,
installed with apt only for this comparison; its strings are its "raw_ref" fields with the
line marker taken off). --libraries also runs Pith's layout and splitting code on the words of
each text library: pypdfium2 (what the module uses), pdfminer.six and pypdf (positions of shown
strings only; widths guessed from the type size).
Goals: count exact on >= 90% of papers, >= 95% of references recovered, < 1% spurious, more
accurate than refextract and >= 5x faster.
"""
import argparse
import io
import json
import os
import re
import shutil
import sys
import tempfile
import time
import unicodedata
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DATA = Path(os.environ.get("PITH_SHARED_DATA", "/work/shared/data"))
UNARXIVE = DATA / "unarxive-sample" / "arXiv_src_2212_086.jsonl"

LAYOUTS = ("one-column", "two-column")
STYLES = ("numbered", "author-year")
MATCH_RATIO = 90.0
BODY_CHARS = 6000              # about two one-column pages of body text before the references

# --- real reference lists ------------------------------------------------------------------------

_FORMULA = re.compile(r"\{\{formula:([0-9a-f-]+)\}\}")
_CITE = re.compile(r"\{\{cite:[0-9a-f]+\}\}")
_OTHER_PLACEHOLDER = re.compile(r"\{\{[a-z]+:[^}]*\}\}")


@dataclass(frozen=True)
class Paper:
    paper_id: str
    title: str
    references: tuple[str, ...]
    body: tuple[tuple[str, str], ...]        # (section heading, paragraph text)


def load_papers(path: Path = UNARXIVE) -> list[Paper]:
    """The sample's papers that have references, their strings as they will be typeset."""
    papers = []
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            paper = json.loads(line)
            formulas = {key: entry.get("latex", "") for key, entry in paper.get("ref_entries", {}).items()}
            references = tuple(
                text for entry in paper["bib_entries"].values()
                if (text := typeset_form(entry["bib_entry_raw"], formulas))
            )
            if not references:
                continue
            body = tuple(
                (f"{p.get('sec_number') or ''} {p.get('section') or ''}".strip(), text)
                for p in paper["body_text"]
                if p.get("content_type") == "paragraph"
                and (text := typeset_form(_CITE.sub("[1]", p["text"]), formulas))
            )
            papers.append(Paper(paper["paper_id"], " ".join(paper["metadata"]["title"].split()), references, body))
    return papers


def typeset_form(text: str, formulas: dict[str, str]) -> str:
    """The text as the built PDF shows it: formulas as LaTeX source, glyphs the font lacks folded."""
    text = _FORMULA.sub(lambda m: " " + _plain_latex(formulas.get(m.group(1), "x")) + " ", text)
    text = _OTHER_PLACEHOLDER.sub(" ", text)
    return " ".join(_fold_missing_glyphs(text).split())


def _plain_latex(latex: str) -> str:
    plain = re.sub(r"\\[A-Za-z]+|[\\{}$^_~]", " ", latex)
    return " ".join(plain.split())[:40] or "x"


# --- building PDFs ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Geometry:
    """Page and type sizes of a built PDF (points); the benchmark varies them from paper to paper."""
    page: tuple[float, float] = (595.0, 842.0)     # A4; (612, 792) is US Letter
    margin: float = 64.0
    top: float = 78.0                              # from the top edge to the text block
    bottom: float = 70.0
    gutter: float = 16.0
    body_size: float | None = None                 # None: 10 (one column), 9 (two columns)
    ref_size: float | None = None                  # None: 9 (one column), 8 (two columns)
    leading: float = 1.2                           # line spacing as a multiple of the type size
    hanging: float = 1.5                           # hanging indent in ems
    entry_space: float = 1.5                       # extra space between references


BODY_FONT, BOLD_FONT = "Vera", "VeraBd"
_fonts_registered = False


def _register_fonts():
    global _fonts_registered
    if _fonts_registered:
        return
    import reportlab
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    folder = Path(reportlab.__file__).parent / "fonts"
    pdfmetrics.registerFont(TTFont(BODY_FONT, str(folder / "Vera.ttf")))
    pdfmetrics.registerFont(TTFont(BOLD_FONT, str(folder / "VeraBd.ttf")))
    _fonts_registered = True


_glyphs: set[int] | None = None


def _fold_missing_glyphs(text: str) -> str:
    global _glyphs
    if text.isascii():
        return text
    if _glyphs is None:
        _register_fonts()
        from reportlab.pdfbase import pdfmetrics
        _glyphs = set(pdfmetrics.getFont(BODY_FONT).face.charToGlyph)
    out = []
    for ch in text:
        if ord(ch) in _glyphs or ch.isspace():
            out.append(ch)
        elif ch in "\u2010\u2011":
            out.append("-")
        else:
            base = "".join(c for c in unicodedata.normalize("NFKD", ch)
                           if ord(c) in _glyphs and not unicodedata.combining(c))
            out.append(base or "?")
    return "".join(out)


def _width(text: str, font: str, size: float) -> float:
    from reportlab.pdfbase.pdfmetrics import stringWidth
    return stringWidth(text, font, size)


_URLISH = re.compile(r"^(?:https?://|www\.|doi:|arxiv\.org|\S*\.(?:org|com|edu|net)/)", re.I)
_BREAKABLE_WORD = re.compile(r"^([^\W\d_]+)([^\w]*)$")


def _break_word(word: str, room: float, font: str, size: float) -> tuple[str, str] | None:
    """Split word so that its first part fits in room, as TeX would, or None.

    A word with a hyphen or en dash breaks only after it; a URL after "/" or "." with no hyphen
    added; a plain word of 6 letters or more anywhere between two lower-case letters, leaving at
    least 2 letters before and 3 after, with a hyphen added.
    """
    if _URLISH.match(word):
        cuts = [i + 1 for i, ch in enumerate(word[:-1]) if ch in "/."]
        suffix = ""
    elif any(ch in word[:-1] for ch in "-–"):
        cuts = [i + 1 for i, ch in enumerate(word[:-1]) if ch in "-–"]
        suffix = ""
    else:
        match = _BREAKABLE_WORD.match(word)
        letters = match.group(1) if match else ""
        if len(letters) < 6 or letters.isupper():
            return None
        cuts = [i for i in range(2, len(letters) - 2) if letters[i].islower() and letters[i - 1].islower()]
        suffix = "-"
    for cut in reversed(cuts):
        head = word[:cut] + suffix
        if _width(head, font, size) <= room:
            return head, word[cut:]
    return None


def wrap_text(text: str, widths: tuple[float, float], font: str = BODY_FONT, size: float = 10.0) -> list[list[str]]:
    """Greedy line breaking of text into lines of words (first line width, then the others)."""
    space = _width(" ", font, size)
    lines, line, used = [], [], 0.0
    words = text.split()
    i = 0
    while i < len(words):
        word = words[i]
        width = widths[0] if not lines else widths[1]
        needed = _width(word, font, size) + (space if line else 0.0)
        if used + needed <= width:
            line.append(word)
            used += needed
            i += 1
            continue
        room = width - used - (space if line else 0.0)
        broken = _break_word(word, room, font, size) if room > 2 * space else None
        if broken:
            line.append(broken[0])
            words[i] = broken[1]
        elif not line:                      # a word longer than the line: it overflows
            line.append(word)
            i += 1
        lines.append(line)
        line, used = [], 0.0
    if line:
        lines.append(line)
    return lines


@dataclass
class _Block:
    text: str
    font: str = BODY_FONT
    size: float = 10.0
    leading: float = 12.0
    first_indent: float = 0.0
    rest_indent: float = 0.0
    label: str | None = None
    label_width: float = 0.0
    space_before: float = 0.0
    keep_with_next: bool = False


class _Typesetter:
    """Flows blocks down columns and pages, drawing the running header and page numbers."""

    def __init__(self, canvas, *, columns: int, header: str, title: str, geometry: Geometry):
        self.canvas = canvas
        self.columns = columns
        self.header = header
        self.g = geometry
        self.width, self.height = geometry.page
        self.page = 1
        self.column = 0
        self.column_width = (self.width - 2 * geometry.margin - (columns - 1) * geometry.gutter) / columns
        self.column_top = self._draw_title(title)
        self.y = self.column_top

    def _draw_title(self, title: str) -> float:
        y = self.height - self.g.top
        for line in wrap_text(title, (self.width - 2 * self.g.margin,) * 2, BOLD_FONT, 15):
            self.canvas.setFont(BOLD_FONT, 15)
            self.canvas.drawCentredString(self.width / 2, y - 15, " ".join(line))
            y -= 19
        return y - 14

    def _decorate(self):
        self.canvas.setFont(BODY_FONT, 8)
        if self.page > 1:
            self.canvas.drawString(self.g.margin, self.height - self.g.top + 30, self.header)
        self.canvas.drawCentredString(self.width / 2, self.g.bottom - 30, str(self.page))

    def _next_column(self):
        if self.column + 1 < self.columns:
            self.column += 1
        else:
            self._decorate()
            self.canvas.showPage()
            self.page += 1
            self.column = 0
            self.column_top = self.height - self.g.top
        self.y = self.column_top

    def add(self, block: _Block):
        x = self.g.margin + self.column * (self.column_width + self.g.gutter)
        widths = (self.column_width - block.first_indent, self.column_width - block.rest_indent)
        lines = wrap_text(block.text, widths, block.font, block.size)
        room_needed = block.leading * (3 if block.keep_with_next else 1)
        if self.y != self.column_top:
            if self.y - block.space_before - room_needed < self.g.bottom:
                self._next_column()
            else:
                self.y -= block.space_before
        for number, words in enumerate(lines):
            if self.y - block.leading < self.g.bottom:
                self._next_column()
            x = self.g.margin + self.column * (self.column_width + self.g.gutter)
            self.y -= block.leading
            if number == 0 and block.label:
                self.canvas.setFont(block.font, block.size)
                self.canvas.drawRightString(x + block.label_width - 4, self.y, block.label)
            indent = block.first_indent if number == 0 else block.rest_indent
            last = number == len(lines) - 1
            self._draw_line(words, x + indent, widths[0 if number == 0 else 1], block, justify=not last)

    def _draw_line(self, words: list[str], x: float, width: float, block: _Block, *, justify: bool):
        self.canvas.setFont(block.font, block.size)
        space = _width(" ", block.font, block.size)
        word_widths = [_width(w, block.font, block.size) for w in words]
        gap = space
        if justify and len(words) > 1:
            gap = min((width - sum(word_widths)) / (len(words) - 1), 3 * space)
        for word, word_width in zip(words, word_widths):
            self.canvas.drawString(x, self.y, word)
            x += word_width + gap

    def finish(self):
        self._decorate()
        self.canvas.showPage()


def build_pdf(references, *, layout: str = "one-column", style: str = "numbered", title: str = "A paper",
              body=(), header: str | None = None, heading: str = "References", label: str = "[n]",
              hanging: bool = True, appendix: bool = False, decoy: bool = False, encrypt: str | None = None,
              geometry: Geometry = Geometry()) -> bytes:
    """A PDF of a paper whose reference list is references, typeset in layout and style.

    body is a sequence of (section heading, paragraph) before the references; decoy adds an earlier
    body line "References" alone; appendix adds an appendix after the references; label is
    "[n]", "n." or "(n)" for numbered lists; hanging=False sets author-year entries flush left.
    """
    from reportlab.pdfgen.canvas import Canvas

    _register_fonts()
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=geometry.page, encrypt=encrypt, invariant=1)
    columns = 2 if layout == "two-column" else 1
    body_size = geometry.body_size or (9.0 if columns == 2 else 10.0)
    ref_size = geometry.ref_size or (8.0 if columns == 2 else 9.0)
    body_leading, ref_leading = body_size * geometry.leading, ref_size * geometry.leading
    typesetter = _Typesetter(canvas, columns=columns, header=header or f"Preprint: {title[:60]}", title=title,
                             geometry=geometry)

    def heading_block(text):
        return _Block(text, BOLD_FONT, body_size + 2, body_size + 5, space_before=8, keep_with_next=True)

    section = None
    for number, (section_heading, paragraph) in enumerate(body):
        if section_heading != section:
            section = section_heading
            typesetter.add(heading_block(section_heading or "Introduction"))
        typesetter.add(_Block(paragraph, size=body_size, leading=body_leading, first_indent=body_size))
        if decoy and number == 0:
            typesetter.add(heading_block("References"))
            typesetter.add(_Block("References to earlier work are collected at the end; this short part "
                                  "only says how they are cited.", size=body_size, leading=body_leading))
    typesetter.add(heading_block(heading))
    labels = [label.replace("n", str(n)) for n in range(1, len(references) + 1)]
    label_width = _width(labels[-1], BODY_FONT, ref_size) + 6 if labels else 0.0
    for text, printed in zip(references, labels):
        if style == "numbered":
            block = _Block(text, size=ref_size, leading=ref_leading, first_indent=label_width, rest_indent=label_width,
                           label=printed, label_width=label_width, space_before=geometry.entry_space)
        elif hanging:
            block = _Block(text, size=ref_size, leading=ref_leading, rest_indent=ref_size * geometry.hanging,
                           space_before=geometry.entry_space)
        else:
            block = _Block(text, size=ref_size, leading=ref_leading, space_before=max(geometry.entry_space, 3.0))
        typesetter.add(block)
    if appendix:
        typesetter.add(heading_block("A  Proof of the main result"))
        for _, paragraph in list(body)[:2] or [("", "The proof follows the argument of the main text.")]:
            typesetter.add(_Block(paragraph, size=body_size, leading=body_leading, first_indent=body_size))
    typesetter.finish()
    canvas.save()
    return buffer.getvalue()


def paper_body(paper: Paper, limit: int = BODY_CHARS) -> list[tuple[str, str]]:
    """The paper's first paragraphs, up to about limit characters."""
    body, used = [], 0
    for section, text in paper.body:
        if used >= limit:
            break
        body.append((section, text[: limit - used + 200]))
        used += len(text)
    return body


def build_paper_pdf(paper: Paper, number: int, layout: str, style: str) -> bytes:
    """The benchmark's PDF of one paper; number varies the geometry, heading, labels, appendix, decoy."""
    import random

    rng = random.Random(number)                  # the same PDFs on every run
    two = layout == "two-column"
    geometry = Geometry(
        page=rng.choice([(595.0, 842.0), (612.0, 792.0)]), margin=rng.uniform(54, 80),
        top=rng.uniform(66, 90), bottom=rng.uniform(60, 80), gutter=rng.uniform(10, 24),
        body_size=rng.uniform(8.5, 10) if two else rng.uniform(9.5, 11),
        ref_size=rng.uniform(7.5, 9) if two else rng.uniform(8.5, 10),
        leading=rng.uniform(1.1, 1.25), hanging=rng.uniform(1.0, 2.0), entry_space=rng.uniform(0, 3),
    )
    heading = "7 References" if number % 5 == 1 else ("REFERENCES" if number % 5 == 3 else "References")
    return build_pdf(
        paper.references, layout=layout, style=style, title=paper.title, body=paper_body(paper),
        header=f"arXiv:{paper.paper_id}  {paper.title[:50]}", heading=heading,
        label=("[n]", "n.", "(n)")[number % 3] if number % 4 != 2 else "n.", hanging=number % 4 != 3,
        appendix=number % 3 == 0, decoy=number % 7 == 4, geometry=geometry,
    )


# --- text libraries, for the comparison -----------------------------------------------------------


def pdfium_words(data: bytes):
    """Words and page sizes through pypdfium2: what citations.extraction uses."""
    from citations.extraction.pdf_references import read_words
    return read_words(data)


def pdfminer_words(data: bytes):
    """Words and page sizes through pdfminer.six's layout analysis (LTChar boxes)."""
    from pdfminer.high_level import extract_pages
    from pdfminer.layout import LAParams, LTChar, LTTextContainer, LTTextLine

    from citations.extraction.pdf_references import PageSize, TextWord

    words, sizes = [], []
    for number, page in enumerate(extract_pages(io.BytesIO(data), laparams=LAParams()), start=1):
        sizes.append(PageSize(page.width, page.height))
        for box in page:
            if not isinstance(box, LTTextContainer):
                continue
            for line in box:
                if not isinstance(line, LTTextLine):
                    continue
                run = []
                for item in list(line) + [None]:
                    if isinstance(item, LTChar) and not item.get_text().isspace() and \
                            not (run and item.x0 - run[-1].x1 > 0.18 * item.size):
                        run.append(item)
                        continue
                    if run:
                        words.append(TextWord(number, run[0].x0, run[-1].x1, min(c.y0 for c in run),
                                              max(c.y1 for c in run), "".join(c.get_text() for c in run),
                                              run[0].size, "Bold" in run[0].fontname))
                    run = [item] if isinstance(item, LTChar) and not item.get_text().isspace() else []
    return words, sizes


def pypdf_words(data: bytes):
    """Words and page sizes through pypdf's text visitor: positions of shown strings, widths guessed."""
    from pypdf import PdfReader

    from citations.extraction.pdf_references import PageSize, TextWord

    words, sizes = [], []
    reader = PdfReader(io.BytesIO(data))
    for number, page in enumerate(reader.pages, start=1):
        box = page.mediabox
        sizes.append(PageSize(float(box.width), float(box.height)))

        def visit(text, cm, tm, font, font_size, number=number):
            if not text.strip():
                return
            x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
            y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
            size = font_size * abs(tm[3]) * abs(cm[3]) or font_size
            bold = "Bold" in str((font or {}).get("/BaseFont", ""))
            for part in re.finditer(r"\S+", text):       # no font metrics here: half an em a character
                x0 = x + part.start() * 0.5 * size
                words.append(TextWord(number, x0, x0 + len(part.group()) * 0.5 * size, y - 0.25 * size,
                                      y + 0.9 * size, part.group(), size, bold))

        page.extract_text(visitor_text=visit)
    return words, sizes


LIBRARIES = {"pypdfium2": pdfium_words, "pdfminer.six": pdfminer_words, "pypdf": pypdf_words}


# --- scoring -----------------------------------------------------------------------------------


def squash(text: str) -> str:
    return " ".join(text.split())


def score(found: list[str], gold: list[str]) -> tuple[int, int]:
    """(gold references recovered, found references that match none), each found string used once."""
    from rapidfuzz import fuzz

    gold = [squash(g) for g in gold]
    used = [False] * len(gold)
    recovered = 0
    for text in found:
        text = squash(text)
        best, best_ratio = None, MATCH_RATIO
        for i, candidate in enumerate(gold):
            if used[i] or abs(len(candidate) - len(text)) > 0.2 * max(len(candidate), len(text)) + 5:
                continue
            ratio = fuzz.ratio(text, candidate)
            if ratio >= best_ratio:
                best, best_ratio = i, ratio
                if ratio == 100:
                    break
        if best is not None:
            used[best] = True
            recovered += 1
    return recovered, len(found) - recovered


@dataclass
class Tally:
    pdfs: int = 0
    exact: int = 0
    gold: int = 0
    found: int = 0
    recovered: int = 0
    spurious: int = 0
    refused: int = 0
    pages: int = 0
    seconds: float = 0.0

    def add(self, found: list[str], gold: list[str], pages: int, seconds: float):
        recovered, spurious = score(found, gold)
        self.pdfs += 1
        self.exact += len(found) == len(gold)
        self.gold += len(gold)
        self.found += len(found)
        self.recovered += recovered
        self.spurious += spurious
        self.pages += pages
        self.seconds += seconds

    def row(self, name: str) -> str:
        return (f"{name:<28} {100 * self.exact / max(self.pdfs, 1):6.1f}% "
                f"{100 * self.recovered / max(self.gold, 1):9.1f}% "
                f"{100 * self.spurious / max(self.found, 1):8.2f}% {self.pages / max(self.seconds, 1e-9):9.1f} "
                f"{self.refused:7d}")


HEADER = f"{'':<28} {'exact':>7} {'recovered':>10} {'spurious':>9} {'pages/s':>9} {'refused':>7}"


def refextract_strings(path: str) -> list[str]:
    """refextract's references of a PDF file: each raw_ref with its line marker taken off."""
    from refextract import extract_references_from_file

    strings = []
    for reference in extract_references_from_file(path):
        for raw in reference.get("raw_ref") or []:
            for marker in reference.get("linemarker") or []:
                raw = re.sub(rf"^\s*[\[(]?{re.escape(marker)}[\].)]?\s*", "", raw, count=1)
            strings.append(raw)
    return strings


def build_all(papers: list[Paper], folder: Path) -> list[tuple[Path, Paper, str, str]]:
    """Every benchmark PDF written to folder: (path, paper, layout, style)."""
    built = []
    for number, paper in enumerate(papers):
        for layout in LAYOUTS:
            for style in STYLES:
                path = folder / f"{paper.paper_id}_{layout}_{style}.pdf"
                path.write_bytes(build_paper_pdf(paper, number, layout, style))
                built.append((path, paper, layout, style))
    return built


def run_pith(built, words_of=pdfium_words, *, failures: list | None = None) -> dict[str, Tally]:
    """Tallies of Pith's extractor over the built PDFs, overall and by layout and style."""
    from citations.extraction.pdf_references import PdfRefused, references_from_words

    tallies = {"all": Tally()} | {f"{layout} {style}": Tally() for layout in LAYOUTS for style in STYLES}
    for path, paper, layout, style in built:
        data = path.read_bytes()
        started = time.perf_counter()
        try:
            words, sizes = words_of(data)
            found = [r.raw_text for r in references_from_words(words, sizes).references]
            pages = len(sizes)
        except PdfRefused:
            found, pages = [], 0
            for tally in (tallies["all"], tallies[f"{layout} {style}"]):
                tally.refused += 1
        seconds = time.perf_counter() - started
        for tally in (tallies["all"], tallies[f"{layout} {style}"]):
            tally.add(found, list(paper.references), pages, seconds)
        if failures is not None and len(found) != len(paper.references):
            failures.append((path.name, len(paper.references), len(found)))
    return tallies


def run_refextract(built) -> Tally:
    """refextract's tally over the built PDFs (warmed up on the first one)."""
    import logging
    logging.disable(logging.WARNING)
    refextract_strings(str(built[0][0]))
    tally = Tally()
    for path, paper, _, _ in built:
        started = time.perf_counter()
        try:
            found = refextract_strings(str(path))
        except Exception:              # refextract raises what pdftotext or its parser raises
            found = []
            tally.refused += 1
        seconds = time.perf_counter() - started
        from pypdf import PdfReader
        tally.add(found, list(paper.references), len(PdfReader(path).pages), seconds)
    return tally


def main():
    from pypdf import PdfReader

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--papers", type=int, default=0, help="only the first N papers (0: all)")
    parser.add_argument("--libraries", action="store_true", help="also compare text libraries")
    parser.add_argument("--no-refextract", action="store_true")
    parser.add_argument("--keep", help="write the PDFs to this folder and keep them")
    parser.add_argument("--failures", action="store_true", help="list PDFs whose count is off")
    args = parser.parse_args()

    papers = load_papers()
    if args.papers:
        papers = papers[: args.papers]
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(args.keep or scratch)
        folder.mkdir(parents=True, exist_ok=True)
        built = build_all(papers, folder)
        gold = sum(len(p.references) for p in papers)
        pages = sum(len(PdfReader(path).pages) for path, *_ in built)
        print(f"{len(built)} PDFs ({pages} pages) built from {len(papers)} papers, {gold * 4} gold references")
        pdfium_words(built[0][0].read_bytes())                   # warm up
        failures = []
        tallies = run_pith(built, failures=failures if args.failures else None)
        print(HEADER)
        for name, tally in tallies.items():
            print(tally.row(f"pith {name}"))
        if args.no_refextract:
            pass
        elif shutil.which("pdftotext") is None:
            print("refextract: not run, it needs poppler's pdftotext (apt-get install poppler-utils)")
        else:
            print(run_refextract(built).row("refextract"))
        if args.libraries:
            print("\ntext libraries under the same layout and splitting code")
            print(HEADER)
            for name, words_of in LIBRARIES.items():
                words_of(built[0][0].read_bytes())
                print(run_pith(built, words_of)["all"].row(name))
        for failure in failures:
            print("count off:", *failure)


if __name__ == "__main__":
    main()
