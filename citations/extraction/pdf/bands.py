"""A page cut into bands one above the other, each with its own gutter or none.

A two-column page may hold a figure, a table or a passage across both columns (a float placed
at the top, a one-column abstract above two-column text): no empty strip then runs from the
page's top to its foot, yet above and below it the columns are plain. Rows (baselines) are
taken from the top; a band goes on while the rows so far share an empty strip at least a
gutter wide near the page's middle. A band of at least three rows with text on both sides of
its strip is read as two columns; other rows are read across the page.
"""
import statistics

from citations.extraction.pdf.model import PageSize, TextWord
from citations.extraction.pdf.rows import group_lines

MIN_ROWS = 3


def split_bands(words: list[TextWord], size: PageSize) -> list[tuple[list[TextWord], tuple[float, float] | None]]:
    """[(words of a band, its gutter (start, end) or None)], top band first."""
    lo, hi = int(size.width * 0.3), int(size.width * 0.7)
    full = (1 << (hi - lo + 1)) - 1
    # A gutter is 0.9 em wide at least; on the grid of whole points a word covers every point it
    # touches, so an empty strip of g points leaves only g - 1 of them free whatever its offset.
    needed = max(6, round(0.9 * statistics.median(w.size for w in words))) - 1
    rows = group_lines(words, -1, keep_words=True)

    def free(row) -> int:
        covered = 0
        for w in row:
            a, b = max(int(w.x0), lo), min(int(w.x1), hi)
            if a <= b:
                covered |= ((1 << (b - a + 1)) - 1) << (a - lo)
        return full & ~covered

    bands: list[tuple[list, int | None]] = []          # (rows, shared free strip or None)
    current, shared = [], None
    for row in rows:
        mask = free(row)
        if current and shared is not None and _has_run(shared & mask, needed):
            current.append(row)
            shared &= mask
            continue
        if current:
            bands.append((current, shared))
        current, shared = [row], (mask if _has_run(mask, needed) else None)
    if current:
        bands.append((current, shared))
    out: list[tuple[list[TextWord], tuple[float, float] | None]] = []
    for band_rows, strip in bands:
        gutter = _gutter(band_rows, strip, lo, needed, size.width) if strip is not None else None
        band_words = [w for row in band_rows for w in row]
        if gutter is None and out and out[-1][1] is None:
            out[-1][0].extend(band_words)       # rows across the page run on together
        else:
            out.append((band_words, gutter))
    return _joined(out)


def _joined(bands: list) -> list:
    """Bands that are one pair of columns cut by a formula or a word reaching into the gutter
    joined again: a band without a gutter takes its neighbour's when most of its rows leave
    that strip empty, and neighbours whose gutters overlap become one band."""
    for i, (band_words, gutter) in enumerate(bands):
        if gutter is not None:
            continue
        for j in (i - 1, i + 1):
            if 0 <= j < len(bands) and bands[j][1] is not None:
                start, end = bands[j][1]
                rows = group_lines(band_words, -1, keep_words=True)
                clear = sum(1 for row in rows if not any(w.x0 < end - 1 and w.x1 > start + 1 for w in row))
                if clear >= 0.7 * len(rows):
                    bands[i] = (band_words, bands[j][1])
                    break
    joined: list = []
    for band_words, gutter in bands:
        if joined and gutter and joined[-1][1] and gutter[0] < joined[-1][1][1] and joined[-1][1][0] < gutter[1]:
            previous_words, previous = joined[-1]
            joined[-1] = (previous_words + band_words, (max(gutter[0], previous[0]), min(gutter[1], previous[1])))
        else:
            joined.append((list(band_words), gutter))
    return joined


def _gutter(rows: list, strip: int, lo: int, needed: int, width: float) -> tuple[float, float] | None:
    """The widest run of the band's shared empty strip, if the band is two columns of text:
    at least three rows run on both sides of it over a fifth of the page each (a formula, a
    figure's labels or a short last line leave a strip empty too, but not like that)."""
    if len(rows) < MIN_ROWS:
        return None
    start, end = _widest_run(strip)
    if end - start + 1 < needed:
        return None
    left_x, right_x = lo + start, lo + end + 1
    starts = []
    for row in rows:
        left = [w for w in row if w.x1 <= left_x]
        right = [w for w in row if w.x0 >= right_x]
        if left and right and max(w.x1 for w in left) - min(w.x0 for w in left) > 0.2 * width \
                and max(w.x1 for w in right) - min(w.x0 for w in right) > 0.2 * width:
            starts.append(min(w.x0 for w in right))
    if len(starts) < MIN_ROWS:
        return None
    # A right column's lines start at its edge (or at an indent); the gaps of a few lines that
    # TeX could not justify, with words spread across one column, line up by chance and leave
    # the words after them starting anywhere.
    shared = max(sum(1 for other in starts if abs(other - x) < 1.0) for x in starts)
    if shared < 2 or shared < 0.3 * len(starts):
        return None
    return float(left_x), float(right_x)


def _has_run(mask: int, length: int) -> bool:
    """Whether mask has `length` consecutive set bits."""
    run = mask
    shift = 1
    remaining = length - 1
    while remaining > 0 and run:
        step = min(shift, remaining)
        run &= run >> step
        remaining -= step
        shift *= 2
    return bool(run)


def _widest_run(mask: int) -> tuple[int, int]:
    best, first, x = (0, -1), None, 0
    while mask >> x:
        if (mask >> x) & 1:
            first = x if first is None else first
        elif first is not None:
            if x - first > best[1] - best[0] + 1:
                best = (first, x - 1)
            first = None
        x += 1
    if first is not None and x - first > best[1] - best[0] + 1:
        best = (first, x - 1)
    return best
