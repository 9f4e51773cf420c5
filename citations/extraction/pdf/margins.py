"""Text in the page margins that is not the document's: running headers and footers, page
numbers, line numbers."""
import re
from dataclasses import dataclass
from itertools import accumulate
from typing import NamedTuple

from citations.extraction.pdf.model import TextWord
from citations.extraction.pdf.pages import Page
from citations.extraction.pdf.rows import group_lines, line_of

_BARE_PAGE_NUMBER = re.compile(r"^(?:page\s*)?[-–—\s]*\d{1,4}(?:\s*(?:of|/)\s*\d{1,4})?[-–—\s]*$", re.IGNORECASE)


class MarginWords:
    """A document's running headers, footers, page numbers and line numbers, gathered a page at a
    time: of each page only the few rows that may hold them are kept until every page is seen.

    Looked at before columns are found, as rows across the whole page: a header over both columns
    would otherwise be cut in two at the gutter. Only the two top-most and two bottom-most rows of
    a page inside the outer 14% of its height are candidates: there a row whose text (digits
    aside) recurs at the same height on a quarter of the pages (at least two) is a header or
    footer, and a bare number is a page number.

    Line numbers (a draft or review copy: lineno, the venues' review modes) are bare numbers at
    the start (or the end) of most rows, aligned on one edge in the margin, counting up by one from
    row to row; the numbers of a list's labels ("1 Smith") count up by entry, not by row, and a
    page of them rarely has every row begin with one. They are looked for among the rows left when
    the running headers and footers are gone (whole rows: the other rows stay as they were).
    Where the page is set in two columns but its numbers stay on the left of each (a two-column
    reference list of a one-column preprint), the right column's numbers stand in the gutter, in
    the middle of a row across the page: a bare number set apart from the word before or after it
    by more than a space is looked at too, and a page may have more than one column of them.
    """

    def __init__(self):
        self._candidates: list[_Row] = []
        self._apart: dict[tuple[int, int], tuple[str, float]] = {}
        self._text_top: dict[int, float] = {}
        self._text_bottom: dict[int, float] = {}
        self._pages = 0
        # page -> (its number of rows, [(a row's first word's position, a bare number at its
        # start or None, one at its end or None, the other bare numbers in it that stand apart from
        # their neighbours)] for the rows that have any)
        self._numbered: dict[int, tuple[int, list[tuple[int, _Number | None, _Number | None, list[_Number]]]]] = {}

    def add(self, page: Page) -> None:
        number, page_size, words = page
        self._pages += 1
        if not words:
            return
        height = page_size.height
        position = {id(w): i for i, w in enumerate(words)}
        rows = group_lines(words, -1, keep_words=True)
        # Not only the outer tenth: Springer's llncs printed on letter paper sets its running
        # head further in, and page numbers may stand there too.
        outer = _outer_rows(rows)
        top, foot = _printed_edges(outer, height)
        for row in outer:
            if _marks_only(row) or row[0].bottom > top - BAND * height or row[0].bottom < foot + BAND * height:
                self._candidates.append(_Row.of(number, row, position))
        # A header on one page only (or a footer on the first) cannot repeat. It stands apart
        # from the text by more than two lines, and above (below) where other pages' text
        # begins (ends); the last line of a reference list followed by a gap does not.
        self._text_top[number], self._text_bottom[number] = rows[0][0].bottom, rows[-1][0].bottom
        for outer, inner, end in ((rows[0], rows[1:2], "top"), (rows[-1], rows[-2:-1], "bottom")):
            in_band = outer[0].bottom > 0.9 * height or outer[0].bottom < 0.1 * height
            size = max(w.size for w in outer)
            if in_band and inner and abs(outer[0].bottom - inner[0][0].bottom) > 2.5 * size:
                self._apart[number, position[id(outer[0])]] = (end, size)
                (self._text_top if end == "top" else self._text_bottom)[number] = inner[0][0].bottom
        numbered = []
        for row in rows:
            first, last = min(row, key=lambda w: w.x0), max(row, key=lambda w: w.x1)
            first_number = _Number.of(first, position) if _NUMBER.match(first.text) else None
            last_number = _Number.of(last, position) if _NUMBER.match(last.text) else None
            inner = [_Number.of(w, position) for w in _numbers_apart(row) if w is not first]
            if first_number or last_number or inner:
                numbered.append((position[id(row[0])], first_number, last_number, inner))
        self._numbered[number] = (len(rows), numbered)

    def drops(self) -> dict[int, set[int]]:
        """For each page, the positions in its list of words of what its margins hold."""
        dropped, rows_dropped = self._running_drops()
        for page, positions in self._line_number_drops(rows_dropped).items():
            dropped.setdefault(page, set()).update(positions)
        return dropped

    def _running_drops(self) -> tuple[dict[int, set[int]], dict[int, set[int]]]:
        """The positions of the running headers, footers and page numbers, and the rows they
        are (by the positions of their first words), page by page."""
        pages_with: dict[tuple, set[int]] = {}
        for row in self._candidates:
            pages_with.setdefault(row.key, set()).add(row.page)
        repeated = max(2, self._pages // 4)
        pages_counted: dict[tuple, set[int]] = {}
        for row in self._candidates:
            for key in row.page_number_keys:
                pages_counted.setdefault(key, set()).add(row.page)
        dropped: dict[int, set[int]] = {}
        rows_dropped: dict[int, set[int]] = {}
        for row in self._candidates:
            counted = any(len(pages_counted[key]) >= repeated for key in row.page_number_keys)
            if len(pages_with[row.key]) >= repeated or counted or self._header_alone(row) \
                    or _BARE_PAGE_NUMBER.match(row.text):
                dropped.setdefault(row.page, set()).update(row.positions)
                rows_dropped.setdefault(row.page, set()).add(row.first)
        return dropped, rows_dropped

    def _line_number_drops(self, rows_dropped: dict[int, set[int]]) -> dict[int, set[int]]:
        edges_of = (lambda n: n.x1, lambda n: n.x0)           # left margin: right-aligned; right margin
        candidates, drop, edges = {}, {}, (set(), set())
        for page, (row_count, numbered) in self._numbered.items():
            gone = rows_dropped.get(page, set())
            rows = row_count - len(gone)
            for side, edge in enumerate(edges_of):
                numbers = [n[1 + side] for n in numbered if n[0] not in gone and n[1 + side]]
                if side == 0:
                    numbers += [i for n in numbered if n[0] not in gone for i in n[3]]
                candidates[page, side] = [(n.position, edge(n)) for n in numbers]
                column = _counting_columns(numbers, edge, rows)
                drop.setdefault(page, set()).update(n.position for n in column)
                edges[side].update(round(edge(n)) for n in column)
        # A page with only a few numbered lines (every fifth line numbered, a short last page) has
        # them at the edge the other pages have theirs.
        for (page, side), numbers in candidates.items():
            drop[page].update(i for i, x in numbers if any(abs(x - e) <= 1.5 for e in edges[side]))
        return drop

    def _header_alone(self, row: "_Row") -> bool:
        if (row.page, row.first) not in self._apart:
            return False
        end, size = self._apart[row.page, row.first]
        others = (self._text_top if end == "top" else self._text_bottom)
        y = row.bottom
        return any(y > v + size if end == "top" else y < v - size for p, v in others.items() if p != row.page)


@dataclass(frozen=True)
class _Row:
    """A candidate row, as much of it as the decision needs once its page's words are gone."""
    page: int
    positions: tuple[int, ...]
    first: int                  # the position of the row's first word: the row's name on its page
    bottom: float
    text: str

    @classmethod
    def of(cls, page: int, row: list[TextWord], position: dict[int, int]) -> "_Row":
        return cls(page, tuple(position[id(w)] for w in row), position[id(row[0])], row[0].bottom,
                   line_of(row, -1).text)

    @property
    def key(self) -> tuple[int, str]:
        return round(self.bottom / 3), re.sub(r"\d+", "#", self.text.lower())

    @property
    def page_number_keys(self) -> list[tuple[int, str, int]]:
        """A book's running head names the chapter beside the page's number ("BIBLIOGRAPHY 66",
        "66 BIBLIOGRAPHY"): its words change from chapter to chapter, but its number runs with the
        page, the same distance from the page's place in the file on every page. A key for each
        end of the row that holds a number: its height, the end, and that distance."""
        words = self.text.split()
        if len(words) < 2:
            return []
        ends = (("start", words[0]), ("end", words[-1]))
        return [(round(self.bottom / 3), end, int(word) - self.page) for end, word in ends if _NUMBER.match(word)]


_NUMBER = re.compile(r"^\d{1,5}$")
OUTER_TEXT_ROWS = 2
BAND = 0.14                     # of the page's height, from its edge as printed


def _outer_rows(rows: list[list[TextWord]]) -> list[list[TextWord]]:
    """The rows at the top and foot of a page that may hold a running header, footer or page
    number: the two top-most and the two bottom-most rows of text, and the rows of marks only
    above or below them, which take no row's place."""
    outer: dict[int, list[TextWord]] = {}
    for ordered in (rows, rows[::-1]):
        text_rows = 0
        for row in ordered:
            if text_rows == OUTER_TEXT_ROWS:
                break
            outer[id(row[0])] = row
            text_rows += not _marks_only(row)
    return list(outer.values())


def _marks_only(row: list[TextWord]) -> bool:
    """A row without a letter or a digit: a draft's crop marks ("✐"), not the document's text."""
    return not any(ch.isalnum() for w in row for ch in w.text)


def _printed_edges(outer: list[list[TextWord]], height: float) -> tuple[float, float]:
    """Where the page as printed has its top and foot edges: a draft class sets the page smaller
    than the paper and marks its corners, and its running head stands an outer band in from the
    marks, not from the paper's edge. Without marks, the paper's edges."""
    top = [row[0].bottom for row in outer if _marks_only(row) and row[0].bottom > height / 2]
    foot = [row[0].bottom for row in outer if _marks_only(row) and row[0].bottom <= height / 2]
    return min(top, default=height), max(foot, default=0.0)


class _Number(NamedTuple):
    """A bare number at a row's start or end, as much of it as the line numbers' search needs."""
    position: int
    bottom: float
    text: str
    x0: float
    x1: float

    @classmethod
    def of(cls, word: TextWord, position: dict[int, int]) -> "_Number":
        return cls(position[id(word)], word.bottom, word.text, word.x0, word.x1)


def _numbers_apart(row: list[TextWord]) -> list[TextWord]:
    """The bare numbers of a row set apart from the word before or after them by more than a
    space: a line number before the text it numbers (lineno leaves about an em) or in a gutter,
    not a number inside a sentence. Or drawn over a word: a review copy's ruler set at a fixed
    place the columns do not leave free (a venue's style under a page geometry it was not made
    for) prints its numbers over the text, which typeset words never overlap."""
    words = sorted(row, key=lambda w: w.x0)
    # how far right the words before each one reach: the one reaching furthest covers it most
    reach = list(accumulate((w.x1 for w in words), max, initial=float("-inf")))
    return [word for k, (before, word, after) in enumerate(zip([None] + words, words, words[1:] + [None]))
            if _NUMBER.match(word.text)
            and (_apart(before, word) or _apart(word, after) or _drawn_over(word, reach[k], after))]


def _apart(left: TextWord | None, right: TextWord | None) -> bool:
    return left is not None and right is not None and right.x0 - left.x1 > 0.6 * max(left.size, right.size)


def _drawn_over(word: TextWord, reach_before: float, after: TextWord | None) -> bool:
    """Whether a word covers a third of an em or more of the word's width: of the words set before it,
    the one reaching furthest right; or the word set next after it. One look each, not one a word of
    the row: a row built of many numbers costs its length, not its square."""
    covered = min(word.x1, reach_before) - word.x0
    if after is not None:
        covered = max(covered, min(word.x1, after.x1) - after.x0)
    return covered > 0.3 * word.size


def _counting_columns(numbers: list, edge, rows: int) -> list:
    """The numbers, in columns of one edge aligned, that count up row after row on a page."""
    by_edge: dict[int, list] = {}
    for word in numbers:
        by_edge.setdefault(round(edge(word) / 3), []).append(word)
    found, seen = [], set()
    for key in sorted(by_edge, key=lambda k: -len(by_edge[k])):
        if key in seen:
            continue
        # Both neighbouring 3-point bins: an edge at 88.9 and 89.1 falls either side.
        near = [k for k in (key - 1, key, key + 1) if k in by_edge and k not in seen]
        seen.update(near)
        found += _counting_column([w for k in near for w in by_edge[k]], rows)
    return found


def _counting_column(column: list, rows: int) -> list:
    """The numbers of one column if they count up row after row, or none."""
    if len(column) < 4:
        return []
    best = sorted(column, key=lambda w: -w.bottom)
    values = [int(w.text) for w in best]
    steps = [b - a for a, b in zip(values, values[1:])]
    # Every line numbered, or every fifth (lineno's modulo); display math and figures have no
    # numbers beside them: a step may skip, never go back.
    step = min((1, 5, 10), key=lambda k: -sum(1 for s in steps if s == k))
    if sum(1 for s in steps if s == step) < 0.6 * len(steps) or sum(1 for s in steps if s <= 0) > 0.1 * len(steps):
        return []
    if len(best) < 0.3 * rows / step:
        return []
    return best
