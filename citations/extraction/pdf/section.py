"""Where the reference list is among the lines: its heading, and where it ends."""
import re
import statistics

from citations.extraction.pdf.entries import ALPHA_LABEL, ALPHA_LABEL_MAYBE_YEARLESS, list_leading
from citations.extraction.pdf.layout import past_the_text
from citations.extraction.pdf.model import Line

_SECTION_NAMES = (
    r"references|bibliography|literature|literature\s+cited|works\s+cited|literatur|literaturverzeichnis|"
    r"quellen|quellenverzeichnis|bibliographie|"
    r"r[ée]f[ée]rences(?:\s+bibliographiques)?|referencias(?:\s+bibliogr[áa]ficas)?|bibliograf[íi]a|"
    r"refer[êe]ncias(?:\s+bibliogr[áa]ficas)?|refer[èe]ncies|riferimenti(?:\s+bibliografici)?|"
    r"literatuur|referenties|bibliografie|referin[țţ]e|referenser|referencer|referanser|litteratur|k[äa]llor|"
    r"kilder|l[äa]hteet|kirjallisuus|literatura|pi[śs]miennictwo|seznam\s+(?:pou[žz]it[ée]\s+)?literatury|"
    r"irodalomjegyz[ée]k|irodalom|felhaszn[áa]lt\s+irodalom|hivatkoz[áa]sok|kaynaklar|kaynak[çc]a|"
    r"daftar\s+pustaka|t[àa]i\s+li[ệe]u\s+tham\s+kh[ảa]o|참\s*고\s*문\s*헌|"
    r"список\s+литературы|литература|література|список\s+використаних\s+джерел|"
    r"references\s+and\s+notes|notes\s+and\s+references|参考文献|参\s*考\s*文\s*献|引用文献|"
    r"βιβλιογραφ[ίι]α|αναφορ[έε]ς|المراجع|مراجع|منابع"
)
_NAMES_THE_LITERATURE = re.compile(rf"(?<!\w)(?:{_SECTION_NAMES})(?!\w)", re.IGNORECASE)
_NUMBERING = r"(?:(?:\d{1,2}|[IVXLC]{1,5}|[A-Z])\.?\s*)"
_REFERENCES_HEADING = re.compile(rf"^{_NUMBERING}?(?:{_SECTION_NAMES})(?:\s+\d{{1,2}})?\s*[.:]?$", re.IGNORECASE)
LIST_SAMPLE = 5
# A section's or chapter's title is set well above the text's size (LaTeX's \Large and up); a line
# of a list that an OCR text layer sizes by its box (brackets, descenders) comes out only a little larger.
TITLE_SIZE = 1.25
_WORD = re.compile(r"[^\W\d_]{3,}")
LIST_SAMPLE_LINES = 6
_APPENDIX_WORD = re.compile(
    r"^(?:appendix|appendices|supplementary|supplemental)\b"
    r"(?:\s+(?:[A-Z0-9]{1,3}|materials?|information))?\s*[.:]?$", re.IGNORECASE)
_APPENDIX_HEADING = re.compile(
    r"^(?:(?:appendix|appendices|supplementary\s+(?:materials?|information)|supplemental\s+materials?|anhang|"
    r"annexe)\b|[A-Z](?:\.\d+)*\.?\s+(?:[A-Z][a-z]|附录|付録)|附录|付録)", re.IGNORECASE)


def _is_references_heading(text: str) -> bool:
    text = " ".join(text.split())
    # "literature." alone on a line ends a sentence wrapped there; a heading begins with a capital.
    if text[:1].islower():
        return False
    # Small capitals come out letter-spaced: "R EFERENCES".
    return bool(_REFERENCES_HEADING.match(text) or _REFERENCES_HEADING.match(text.replace(" ", "")))


def reference_region(lines: list[Line]) -> tuple[str | None, list[Line]]:
    """The last references heading and the lines after it up to an appendix heading.

    Without a heading (a letter's numbered notes and references after the text, as in Physical
    Review Letters), the last run of lines labelled [1], [2], ... (or 1., 2., ...) counting up
    from 1 is the list, or else the last run labelled in the alpha style ([Knu84]), or else the
    last run of author-year entries ("Surname, A., ... 2013." with a hanging indent; an empty
    section such as "Acknowledgements" may stand above it); the heading returned is then None and
    the region not empty.
    """
    start = next((i for i in range(len(lines) - 1, -1, -1) if _heads_the_list(lines, i)), None)
    if start is None:
        first = _unheaded_list_start(lines)
        if first is None:
            first = _alpha_labelled_list_start(lines)
        if first is None:
            first = _unheaded_author_year_start(lines)
        if first is None:
            return None, []
        # A references heading after the list heads nothing and ends it.
        end = next((k for k in range(first, len(lines)) if _is_references_heading(lines[k].text)), len(lines))
        return None, _without_colophon(_until_appendix(lines[first:end]))
    region = lines[start + 1:]
    if not region:
        return lines[start].text.strip(), []
    return " ".join(lines[start].text.split()), _without_colophon(_until_appendix(region))


class PossibleListLines:
    """A document's lines, added a page at a time, without those the reference list cannot follow.

    The list follows the LAST references heading: once a heading is known not to be a line of a
    table of contents (the two lines after it have come), the lines before it can matter no more
    and are let go, but for the two that say it is no table of contents' line. Until a heading
    comes every line is kept, for a list without one.
    """

    def __init__(self):
        self.lines: list[Line] = []
        self._checked = 0              # lines before it are known to be no such heading, or the kept one

    def add(self, lines: list[Line]) -> None:
        self.lines.extend(lines)
        last = None
        for i in range(self._checked, len(self.lines) - 2):
            if _heads_the_list(self.lines, i):
                last = i
        self._checked = max(self._checked, len(self.lines) - 2)
        if last is not None and last > 2:
            del self.lines[:last - 2]
            self._checked -= last - 2


def _heads_the_list(lines: list[Line], i: int) -> bool:
    """Whether line i is a references heading that a list follows: not a table of contents' line,
    nor a heading over an empty section, which another section's heading follows at once
    ("REFERENCES AND NOTES" printed after the list it names, then "ACKNOWLEDGMENTS")."""
    if not _is_references_heading(lines[i].text) or _in_contents(lines, i):
        return False
    following = " ".join(lines[i + 1].text.split()) if i + 1 < len(lines) else ""
    return not (following.isupper() and len(following) < 60 and not _NOT_IN_A_HEADING.search(following))


# A heading in capitals has none of these; a reference's line in capitals ("SMITH, J. 2001") has.
_NOT_IN_A_HEADING = re.compile(r"[\d,.\[\]()]")
_PAGE_AT_END = re.compile(r"\s\d{1,4}$")


def _in_contents(lines: list[Line], i: int) -> bool:
    """Whether "References 6" is an entry of a table of contents: its neighbours end with pages."""
    if not _PAGE_AT_END.search(lines[i].text.rstrip()):
        return False
    return sum(1 for j in (i - 2, i - 1, i + 1, i + 2)
               if 0 <= j < len(lines) and _PAGE_AT_END.search(lines[j].text.rstrip())) >= 2


def _until_appendix(region: list[Line]) -> list[Line]:
    region = _without_footnotes(_without_captions(_without_margin_marks(region)))
    kept = _without_foreign_blocks(region)
    if not kept:
        return kept
    # The list's own type, from its first lines: an appendix of many pages after it, in larger
    # type, would otherwise set the median and its heading would not stand out.
    usual = statistics.median(ln.size for ln in kept[:LIST_SAMPLE])
    # An appendix whose first lines are display math does not start its lines where the list's
    # lines start, and goes out as a foreign block with its heading: the heading is looked for
    # among all the lines.
    back_matter = next((k for k, line in enumerate(region) if _is_back_matter_heading(line, usual)), None)
    if back_matter is not None:
        before = {id(ln) for ln in region[:back_matter]}
        kept = [ln for ln in kept if id(ln) in before]
    for i, line in enumerate(kept):
        text = line.text.strip()
        # A chapter or section title set far larger than the list ends it whatever its words: a
        # thesis's appendix chapters are titled "Martingale Proofs", not "Appendix A". A title
        # starts in its column and is made of words; a draft's stamp in the margin ("✐ main") is not.
        # A title of two lines may run its first line to the edge (hyphenated): its next line,
        # just below, is in the title's type too.
        first_of_title = i + 1 < len(kept) and _title_goes_on(line, kept[i + 1])
        title = (_stands_out(line, usual) or first_of_title and not text.endswith((".", ","))) \
            and line.size > TITLE_SIZE * usual and line.x0 > line.left - line.size and bool(_WORD.search(text))
        if title:
            return kept[:i]
    return kept


def _stands_out(line: Line, usual: float) -> bool:
    """Whether a line is set as a heading among a list in type of size usual.

    A line "A  Proof of ..." may as well begin a reference ("A. Smith"): a heading stands out,
    neither ends as a reference's line does nor runs to the column's edge as a justified line
    does. An OCR text layer sizes each line by its box, which brackets and descenders make
    taller: "J. Fluid Mech. 517, 199 (2004)." or "V. Nolte, et al., 2014 Massive habitat-"
    can come out larger than the list."""
    return (line.bold or line.size > 1.05 * usual) and not line.text.strip().endswith((".", ",")) \
        and line.x1 < line.right - line.size


# What a paper may print after its list under a heading of its own: the authors' addresses (the
# Journal of Statistical Software's "Affiliation:"), their biographies, thanks.
_BACK_MATTER_HEADING = re.compile(
    r"^(?:affiliations?|addresses|authors?['’]?s?\s+(?:address(?:es)?|information|affiliations?|biograph(?:y|ies))|"
    r"about\s+the\s+authors?|biograph(?:y|ies)|acknowledge?ments?)\s*[.:]?$", re.IGNORECASE)


def _is_back_matter_heading(line: Line, usual: float) -> bool:
    """Whether a line heads what follows the list: an appendix, or the authors' addresses."""
    text = line.text.strip()
    return bool(_APPENDIX_WORD.match(text) or (_stands_out(line, usual)
                                               and (_APPENDIX_HEADING.match(text) or _BACK_MATTER_HEADING.match(text))))


COLOPHON_LINES = 2


def _without_colophon(region: list[Line]) -> list[Line]:
    """The region without a colophon after the list ("This paper has been typeset from a TeX/LaTeX
    file prepared by the author."): a line or two at its end, set off from the last reference in
    the same column by a gap of more than two of the list's lines, short of the column's right
    edge, and without a year, as a reference has."""
    if len(region) < 2 * COLOPHON_LINES:
        return region
    spacing = list_leading(region)
    for cut in range(len(region) - 1, len(region) - COLOPHON_LINES - 1, -1):
        above, below = region[cut - 1], region[cut]
        if (above.page, above.column) != (below.page, below.column):
            continue
        if above.bottom - below.bottom > 2.2 * spacing:
            tail = region[cut:]
            if _YEAR.search(" ".join(ln.text for ln in tail)) or _runs_on(tail[-1]):
                return region
            return region[:cut]
    return region


def _title_goes_on(line: Line, following: Line) -> bool:
    """Whether following is the next line of a title in line's type: the same size, a line below."""
    return following.page == line.page and abs(following.size - line.size) < 0.05 * line.size \
        and 0 < line.bottom - following.bottom < 2 * line.size


_YEAR = re.compile(r"\b(?:1[6-9]|20)\d\d[a-z]?\b")
_FIRST_LABEL = re.compile(r"^\s*(?:\[1\]|1\.(?=\s|[A-Z]))\s*\S")
_ANY_LABEL = re.compile(r"^\s*(?:\[(\d{1,4})\]|(\d{1,4})\.(?=\s|[A-Z]))")


def _unheaded_list_start(lines: list[Line]) -> int | None:
    """Where the last list labelled 1, 2, 3, ... (at least 3, at one left edge) starts, or None."""
    for i in range(len(lines) - 1, -1, -1):
        if not _FIRST_LABEL.match(lines[i].text):
            continue
        bracketed = lines[i].text.lstrip().startswith("[")
        expected, labelled = 2, [i]
        for k in range(i + 1, len(lines)):
            match = _ANY_LABEL.match(lines[k].text)
            if match and bool(match.group(1)) == bracketed and int(match.group(1) or match.group(2)) == expected \
                    and abs(lines[k].x0 - lines[i].x0) < 3 * lines[k].size:
                expected += 1
                labelled.append(k)
        found = len(labelled)
        # "1." also numbers a list in the text: the list must be longer, in the latter half, and
        # most of its items dated, as references are and the points of an argument are not.
        ends = [min(end, k + 4) for k, end in zip(labelled, labelled[1:] + [len(lines)])]
        dated = sum(1 for k, end in zip(labelled, ends) if _YEAR.search(" ".join(ln.text for ln in lines[k:end])))
        if found >= 3 if bracketed else (found >= 5 and i > len(lines) // 2 and dated >= 0.5 * found):
            # Under another section's heading ("Further reading", "Data availability") a numbered
            # list is that section's; a heading that names the literature in more words ("3.1. A
            # tanulmányozott irodalom jegyzéke": the list of the literature studied) is the list's.
            other = i and _is_heading(lines[i - 1], lines[i]) and not _NAMES_THE_LITERATURE.search(lines[i - 1].text)
            return None if other else i
    return None


MAX_ENTRY_LINES = 8


def _alpha_labelled_list_start(lines: list[Line]) -> int | None:
    """Where the last list labelled in the alpha style ("[Knu84]", "[GMS+20]"; at least three
    labels at one left edge, each entry's later lines indented under its label) starts, or None.

    Such labels are a bibliography's and nothing else's: whatever heading stands above the list (in
    a language the heading's names do not hold), the list is the references.
    """
    found, i = None, 0
    while i < len(lines):
        if not ALPHA_LABEL.match(lines[i].text):
            i += 1
            continue
        edge, entries, j = lines[i].x0, 1, i + 1
        while j < len(lines):
            k = j
            # An entry's later lines hang under its label, right of the labels' edge.
            while k < len(lines) and k - j < MAX_ENTRY_LINES and lines[k].x0 - edge > lines[k].size \
                    and not ALPHA_LABEL.match(lines[k].text):
                k += 1
            # A label without a year (the entry has none) goes on a list that labels with years began.
            if k < len(lines) and ALPHA_LABEL_MAYBE_YEARLESS.match(lines[k].text) \
                    and abs(lines[k].x0 - edge) < lines[k].size:
                entries, j = entries + 1, k + 1
            else:
                break
        if entries >= MIN_UNHEADED_ENTRIES:
            found = i
        i = max(j, i + 1)
    return found


# How an author-year entry begins: "Curtin, R. R.,", "Foreman-Mackey, D.,", "van der Berg, A.".
_SURNAME_FIRST = re.compile(
    r"^(?:(?:van|von|de|der|den|da|di|du|del|le|la)\s+)*[A-Z\u00c0-\u024f][\w'’\u00c0-\u024f-]+"
    r"(?:\s+[A-Z][\w'’-]+)?,\s+[A-Z\u00c0-\u024f]\.")
# An organisation's or a site's name opening an entry: a few words, then a comma.
_NAME_FIRST = re.compile(r"^[^\W\d_][^,.]{0,40},")
MIN_UNHEADED_ENTRIES = 3


def _unheaded_author_year_start(lines: list[Line]) -> int | None:
    """Where the last run of author-year entries without a heading starts (at least three, in the
    latter half of the document), or None.

    An entry is a line at its column's left edge that begins "Surname, A." and the lines of the
    same type size indented under it (a hanging indent), a year among them; body text has no such
    run: its paragraphs do not begin with a name and a comma, nor hang.
    """
    def at_edge(line: Line) -> bool:
        return line.x0 - line.left < 0.5 * line.size

    def starts(line: Line) -> bool:
        return at_edge(line) and bool(_SURNAME_FIRST.match(line.text.strip()))

    def goes_on(line: Line) -> bool:
        return at_edge(line) and bool(_NAME_FIRST.match(line.text.strip()))      # "Surname, A." too

    def hangs(line: Line, first: Line) -> bool:
        return 0.5 * first.size < line.x0 - line.left < 4 * first.size and abs(line.size - first.size) < 0.15 * first.size

    found, i = None, 0
    while i < len(lines):
        if not starts(lines[i]):
            i += 1
            continue
        run_start, entries, j = i, 0, i
        # Once begun, the run goes on through an entry by an organisation or a web site ("Wikipedia,
        # . Generative adversarial network, 2025a."), which begins with its name and a comma too.
        while j < len(lines) and (starts(lines[j]) or entries >= MIN_UNHEADED_ENTRIES and goes_on(lines[j])):
            k = j + 1
            while k < len(lines) and hangs(lines[k], lines[j]):
                k += 1
            if not _YEAR.search(" ".join(ln.text for ln in lines[j:k])):
                break
            entries, j = entries + 1, k
        if entries >= MIN_UNHEADED_ENTRIES:
            found = run_start
        i = max(j, i + 1)
    return found if found is not None and found > len(lines) // 2 else None


def _is_heading(line: Line, following: Line) -> bool:
    text = line.text.strip()
    # A line of running text above a list in smaller type is no heading: it runs to its column's
    # edge (justified) or carries on a word or sentence in lower case.
    if text[:1].islower() or line.x1 >= line.right - 0.5 * line.size:
        return False
    return len(text) < 60 and not text.endswith((".", ",")) and (line.bold or line.size > 1.1 * following.size)


# "Figure 3.", "Fig 6.", "Table 2:", "S1 Fig.", "Supplementary Table 4", "TABLE II", and in an
# appendix or a chapter "Figure C1.", "Table A.2", "Figure 3.1".
_CAPTION = re.compile(r"^(?:S\d+\s+|supplementary\s+)?(?:fig(?:ure)?|table|tab)\.?\s*"
                      r"(?:(?:[A-Z]\.?)?\d+(?:\.\d+)*|[IVX]+)\b\s*[.:|]?", re.IGNORECASE)
# A table's notes under it: "Note—" (AASTeX), "Notes. (a) ..." (A&A), "Note: ...".
_FLOAT_NOTE = re.compile(r"^(?:Notes?|NOTES?)\s*(?:[—–]|[.:](?:\s|[—–]))")
_LABELLED = re.compile(r"^\s*(?:\[\d{1,4}\]|\d{1,4}\.\s)")


def _without_captions(region: list[Line]) -> list[Line]:
    """The region without the captions of floats set among or after the references, and the notes
    under their tables: a caption line and the lines that follow it closely, up to a gap or a
    labelled reference.

    A caption's line that runs to its edge goes on in the next line, whatever that begins with
    ("1. (b) Panel ..." after "... shown in Figure"). A caption across the page over a list in two
    columns is read before the columns: its last line, short, may stand in the left column."""
    kept, in_caption, previous = [], False, None
    for line in region:
        text = line.text.strip()
        if (_CAPTION.match(text) or _FLOAT_NOTE.match(text)) and not _LABELLED.match(text):
            in_caption = True
        elif in_caption and (not _closely_below(previous, line) or (_LABELLED.match(text) and not _runs_on(previous))):
            in_caption = False
        if not in_caption:
            kept.append(line)
        previous = line
    return kept


def _closely_below(previous: Line, line: Line) -> bool:
    """Whether line is the next line of the same text block as previous: on the same page, a line
    space below it, in its column or (below a line across the page) within its width."""
    if previous.page != line.page or not 0 < previous.bottom - line.bottom < 1.6 * max(line.size, previous.size):
        return False
    under = previous.column == -1 and line.x0 >= previous.x0 - line.size and line.x1 <= previous.x1 + line.size
    return previous.column == line.column or under


def _runs_on(line: Line) -> bool:
    """Whether a line of running text runs to its column's right edge: the paragraph goes on."""
    return line.x1 > line.right - line.size


def _without_foreign_blocks(region: list[Line]) -> list[Line]:
    """The region without blocks whose lines do not start where the list's lines do.

    A list's lines start at the column's edge or at its indent (a hanging indent, the text after
    a label); a table's rows start at its cells, centred or in columns. The region is cut into
    blocks at each change of page or column and at each wide vertical gap; the list's first
    blocks (see _list_sample) say where its lines start, and another block where fewer than 40%
    of the lines start there, or half the lines have a table's wide gaps between cells, or most
    lines are short (a figure's labels), or all its lines (three or more) are in type smaller than
    the list's, is left out: a table or figure set among the references or on the pages after them.
    """
    blocks: list[list[Line]] = []
    for line in region:
        if blocks:
            last = blocks[-1][-1]
            same = (last.page, last.column) == (line.page, line.column) \
                and 0 < last.bottom - line.bottom < 2.5 * max(line.size, last.size)
            if same:
                blocks[-1].append(line)
                continue
        blocks.append([line])
    if len(blocks) < 2:
        return region

    def offsets(block: list[Line]) -> list[float]:
        edge = min(ln.x0 for ln in block)
        return [ln.x0 - edge for ln in block]

    def is_table(block: list[Line]) -> bool:
        return sum(1 for ln in block if ln.wide_gaps) >= 0.5 * len(block)

    sample = _list_sample(blocks, is_table)
    known = [blocks[k] for k in sample]
    starts = [round(x) for block in known for x in offsets(block)]
    common = {x for x in set(starts) if starts.count(x) >= max(2, 0.15 * len(starts))} or set(starts)
    width = max(ln.x1 for block in known for ln in block) - min(ln.x0 for block in known for ln in block)
    list_size = statistics.median(ln.size for block in known for ln in block)
    kept = []
    for k, block in enumerate(blocks):
        if k in sample:
            kept.extend(block)
            continue
        # Labels [10] and up start a digit further out or in than [1] to [9].
        fitting = sum(1 for ln, offset in zip(block, offsets(block))
                      if any(abs(offset - x) <= 1.5 * ln.size for x in common))
        # A figure's labels: a block of short scattered lines.
        short = sum(1 for ln in block if ln.x1 - ln.x0 < 0.35 * width)
        figure = len(block) >= 3 and short >= 0.7 * len(block)
        # A float's rows in type smaller than the list's (IEEE sets a table in 7 points under a list
        # in 8): its cells start at a column of their own, which the block's own edge hides.
        smaller = len(block) >= 3 and all(ln.size < 0.9 * list_size for ln in block)
        if fitting >= 0.4 * len(block) and not is_table(block) and not figure and not smaller:
            kept.extend(block)
    return kept


def _list_sample(blocks: list[list[Line]], is_table) -> range:
    """Which blocks show where the list's lines start: the block the list begins in and the
    blocks after it until they hold LIST_SAMPLE_LINES lines, short of a table.

    A labelled list begins in the block whose first line bears its first label: a float's rows
    (a table continued from the page before) may come between the heading and the list in
    reading order, on the heading's page; a "1." further on begins a list of another section.
    One reference left at a page's foot under the heading shows its label and one indent, and a
    line more (a running header in the page's top margin) does not show the others: the labels
    a digit wider (10. under 9.) start further out.
    """
    first = next((k for k, block in enumerate(blocks)
                  if block[0].page == blocks[0][0].page and _FIRST_LABEL.match(block[0].text)), 0)
    end, lines = first + 1, len(blocks[first])
    while end < len(blocks) and lines < LIST_SAMPLE_LINES and not is_table(blocks[end]):
        lines += len(blocks[end])
        end += 1
    return range(first, end)


def _without_margin_marks(region: list[Line]) -> list[Line]:
    """The region without the marks standing in a margin beside a column of the list, right of
    where all its other lines end (an icon a float's caption sets at the page's edge)."""
    columns: dict[tuple[int, int], list[Line]] = {}
    for line in region:
        if line.column >= 0:
            columns.setdefault((line.page, line.column), []).append(line)
    marks = {id(ln) for lines in columns.values() for ln in past_the_text(lines)}
    return [ln for ln in region if id(ln) not in marks] if marks else region


def _without_footnotes(region: list[Line]) -> list[Line]:
    """The region without the footnotes at the foot of its pages and columns: lines in other type
    than the list, the first of them smaller, after a gap (a footnote of the text that runs on
    beside the list would otherwise end the reference above it)."""
    if len(region) < 3:
        return region
    usual = statistics.median(ln.size for ln in region)
    dropped = set()
    for i in range(len(region)):
        place = (region[i].page, region[i].column)
        if i + 1 < len(region) and (region[i + 1].page, region[i + 1].column) == place:
            continue
        j = i
        # A footnote's text may be larger than a list in small type (A&A: 9 points under 8); its
        # first line, or the marker before it, is smaller: an appendix heading is not.
        while j > 0 and (region[j].page, region[j].column) == place and abs(region[j].size - usual) > 0.1 * usual:
            j -= 1
        # region[j] is the list's last line in the column; j+1..i the lines below it in other type.
        if j < i and (region[j].page, region[j].column) == place and region[j + 1].size < 0.9 * usual \
                and region[j].bottom - region[j + 1].bottom > 1.5 * usual:
            dropped.update(range(j + 1, i + 1))
    return [ln for k, ln in enumerate(region) if k not in dropped]
