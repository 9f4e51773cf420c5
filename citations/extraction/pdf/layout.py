"""A page's words as lines in reading order: columns found, running headers and footers dropped."""
import statistics
from collections.abc import Iterable, Iterator
from itertools import pairwise

from citations.extraction.pdf.bands import split_bands
from citations.extraction.pdf.margins import MarginWords
from citations.extraction.pdf.model import Line, PageSize, TextWord
from citations.extraction.pdf.pages import Page
from citations.extraction.pdf.rows import group_lines as _group_lines


def page_lines(pages: Iterable[Page], margins: MarginWords | None = None) -> Iterator[list[Line]]:
    """Each page's lines in reading order, their column edges those of the page (ColumnEdges
    gives them the document's). What the margins hold is known only once every page is seen:
    margins, if given, has seen them as they came; else pages is read twice, one page's words at
    a time."""
    if margins is None:
        margins = MarginWords()
        for page in pages:
            margins.add(page)
    for _, size, words in _without(pages, margins.drops()):
        if words:
            yield _page_lines(words, size)


class ColumnEdges:
    """Where each column's edges are on most pages, gathered a page's lines at a time.

    A page of one-line references may have no line reaching the column's right edge, and a last
    page of one or two lines says nothing of its left edge: the same column on the other pages
    says where they are.
    """

    def __init__(self):
        self._pages: dict[int, dict[int, tuple[float, float, int]]] = {}

    def add(self, lines: list[Line]) -> None:
        for line in lines:
            left, right, count = self._pages.setdefault(line.column, {}).get(line.page, (line.left, line.right, 0))
            self._pages[line.column][line.page] = (left, right, count + 1)

    def apply(self, lines: list[Line]) -> list[Line]:
        """lines (any of those added) with the edges their column usually has."""
        usual = {}
        for column, pages in self._pages.items():
            telling = [e for e in pages.values() if e[2] >= 3] or list(pages.values())
            usual[column] = (statistics.median(e[0] for e in telling), statistics.median(e[1] for e in telling))
        for line in lines:
            usual_left, usual_right = usual[line.column]
            line.right = max(line.right, usual_right)
            if self._pages[line.column][line.page][2] < 3:
                line.left = usual_left
        return lines


def _without(pages: Iterable[Page], dropped: dict[int, set[int]]) -> Iterator[Page]:
    for page, size, words in pages:
        gone = dropped.get(page)
        yield page, size, [w for i, w in enumerate(words) if i not in gone] if gone else words


def _page_lines(words: list[TextWord], size: PageSize) -> list[Line]:
    """A page's lines, the left column before the right one, lines across both in their place.

    The gutter is looked for on the whole page first; when a figure, table or passage across
    both columns covers it, the page is cut into bands (regions one above the other, each with
    its own columns or none) and each band is read in turn.
    """
    gutter = _find_gutter(words, size)
    if gutter is not None:
        return _columns_lines(words, gutter)
    bands = split_bands(words, size)
    if len(bands) == 1 and bands[0][1] is None:
        return _one_column(words)
    lines = []
    for band, band_gutter in bands:
        lines.extend(_columns_lines(band, band_gutter) if band_gutter else _one_column(band))
    return lines


def _one_column(words: list[TextWord]) -> list[Line]:
    lines = _group_lines(words, 0)
    _set_column_edges(lines)
    return sorted(lines, key=lambda line: -line.bottom)


def _columns_lines(words: list[TextWord], gutter: tuple[float, float]) -> list[Line]:
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
    # left column (a long URL), not a line across the page; but one followed by the next word a
    # space away is a word of a line across the page (a float's caption) that happens to cover
    # the gutter.
    overfull = [w for w in across if any(abs(r.bottom - w.bottom) < 0.4 * w.size and r.x0 > w.x1 for r in right)
                and not _next_word_a_space_away(w, right)]
    left += overfull
    across = [w for w in across if w not in overfull]
    # A line across the page may also cross the strip between two words, a space apart, the one
    # ending in it or the next starting in it (a float's caption over the columns, whose text
    # covers the strip on a few rows only): the two columns' words stand a gutter apart.
    bridging = [w for w in left if _next_word_a_space_away(w, right)
                and (w.x1 > start or _next_word_x0(w, right) < end)]
    if bridging:
        across += bridging
        left = [w for w in left if w not in bridging]
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
    # A line across the page runs between the outer edges of the two columns, whatever the few
    # such lines (a centred caption) have set themselves.
    for line in spanning:
        if columns[0]:
            line.left = min(line.left, columns[0][0].left)
        if columns[1]:
            line.right = max(line.right, columns[1][0].right)
    # Each band between separators (a line across the page, or a break both columns make together)
    # is read left column first, then right.
    separators = [(line.bottom, line) for line in spanning] + [(height, None) for height in _common_breaks(columns)]
    ordered, above = [], float("inf")
    for below, separator in sorted(separators, key=lambda item: -item[0]) + [(float("-inf"), None)]:
        for column in columns:
            ordered.extend(sorted((ln for ln in column if below < ln.bottom < above), key=lambda ln: -ln.bottom))
        if separator:
            ordered.append(separator)
        above = below
    return ordered


# A gap in a column is a break when it is this many of the column's usual steps from line to line.
BREAK_STEPS = 3


def _common_breaks(columns: list[list[Line]]) -> list[float]:
    """Heights where both columns stop together and start again in another type, below a gap that
    is empty across the page: a body balanced over the two columns above a list set smaller
    (revtex's bibliography after the text's last page), whose columns the text above does not run
    into. Two floats side by side leave such a gap too, but the same type above and below it."""
    left, right = (_breaks(column) for column in columns)
    heights, i, j = [], 0, 0
    # Each column's gaps come top first and do not overlap: one walk down both pairs them.
    while i < len(left) and j < len(right):
        (top, bottom, change), (other_top, other_bottom, other_change) = left[i], right[j]
        common = min(top, other_top) - max(bottom, other_bottom)
        if common > 0.5 * min(top - bottom, other_top - other_bottom) and change * other_change > 0:
            heights.append((min(top, other_top) + max(bottom, other_bottom)) / 2)
        if bottom > other_bottom:
            i += 1
        else:
            j += 1
    return heights


def _breaks(column: list[Line]) -> list[tuple[float, float, int]]:
    """A column's gaps of BREAK_STEPS usual steps or more with the type changing across them:
    (the baseline above, the baseline below, +1 if the type grows, -1 if it shrinks)."""
    lines = sorted(column, key=lambda ln: -ln.bottom)
    if len(lines) < 3:
        return []
    usual = statistics.median(a.bottom - b.bottom for a, b in pairwise(lines))
    found = []
    for a, b in pairwise(lines):
        if a.bottom - b.bottom >= BREAK_STEPS * usual and abs(a.size - b.size) > 0.05 * a.size:
            found.append((a.bottom, b.bottom, 1 if b.size > a.size else -1))
    return found


def _next_word_a_space_away(word: TextWord, others: list[TextWord]) -> bool:
    beside = [w.x0 - word.x1 for w in others if abs(w.bottom - word.bottom) < 0.4 * word.size and w.x0 > word.x1]
    return bool(beside) and min(beside) < 0.5 * word.size


def _next_word_x0(word: TextWord, others: list[TextWord]) -> float:
    """Where the next word on word's baseline, right of it, starts (infinity if none)."""
    return min((w.x0 for w in others if abs(w.bottom - word.bottom) < 0.4 * word.size and w.x0 > word.x1),
               default=float("inf"))


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
    # Each side holds lines of text a fifth of the page wide, not only equation numbers, a
    # figure's labels or a table's last column beside one column of text.
    wide = [0, 0]
    for row in _group_lines(words, -1, keep_words=True):
        for side, part in enumerate(([w for w in row if w.x1 <= middle], [w for w in row if w.x0 >= middle])):
            if part and max(w.x1 for w in part) - min(w.x0 for w in part) > 0.2 * size.width:
                wide[side] += 1
    if wide[0] < 1 or wide[1] < 1 or wide[0] + wide[1] < 3:
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



def past_the_text(lines: list[Line]) -> list[Line]:
    """The lines of one column (of a page) that start right of where all its other lines end: a
    mark in the margin beside the text (a float's icon, a margin note), no line of the column.
    At least three other lines say where the text ends."""
    if len(lines) < 4:
        return []
    ends = sorted((ln.x1, k) for k, ln in enumerate(lines))
    (second, _), (last, last_k) = ends[-2], ends[-1]
    marks = [ln for k, ln in enumerate(lines) if ln.x0 > (second if k == last_k else last)]
    return marks if len(marks) < len(lines) / 2 else []


def _set_column_edges(lines: list[Line], right_limit: float = float("inf")):
    """The column's edges: where its lines of the usual size start and end at the outermost (a
    title line in larger type that strays into the gutter, a mark in the margin beside the text
    do not move them), short of the gutter."""
    if not lines:
        return
    usual = statistics.median(ln.size for ln in lines)
    marks = {id(ln) for ln in past_the_text(lines)}
    text = [ln for ln in lines if ln.size <= 1.15 * usual and id(ln) not in marks]
    left = min(ln.x0 for ln in text)
    right = min(max(ln.x1 for ln in text), right_limit)
    for line in lines:
        line.left, line.right = left, right
