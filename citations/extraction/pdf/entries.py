"""The reference list's lines split into references."""
import dataclasses
import re
import statistics

from citations.extraction.pdf.joining import Vocabulary, join_lines
from citations.extraction.pdf.model import Line

# "[12]", "(12)", "12." and "12" before a capital; "12.Wang" when the label's box touches the
# name and no space is drawn between them. OCR misreads a label's brackets ("(12]", "{12]",
# "[12|") and a digit as the letter it looks like ("[I2]", "[1O]"): in brackets, those are read too.
_LABEL = re.compile(r"^\s*(?:[\[({]([\dIlO]{0,3}\d[\dIlO]{0,3}|[\dIlO]{1,4}(?=\]))[\])}|]|\((\d{1,4})\)|"
                    r"(\d{1,4})\.(?=\s|$|[A-Z\u00c0-\u024f])|(\d{1,4})(?=\s+[A-Z]))\s*")
_OCR_DIGITS = str.maketrans("IlO", "110")
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


def split_references(region: list[Line], vocabulary: Vocabulary) -> list[tuple[int, str, int]]:
    if not region:
        return []
    groups = _split_by_labels(region)
    if groups is None:
        groups = _split_by_alpha_labels(region)
    if groups is None:
        groups = _split_by_indent(region) or _split_flush_left(region)
        groups = [(n, lines) for n, lines in enumerate(groups, start=1)]
    return [(index, join_lines([ln.text for ln in lines], vocabulary), lines[0].page) for index, lines in groups]


def _split_by_labels(region: list[Line]) -> list[tuple[int, list[Line]]] | None:
    """References started by printed labels counting up (a missed label is allowed), or None."""
    candidates = []
    for i, line in enumerate(region):
        match = _LABEL.match(line.text)
        if match:
            number = int(next(g for g in match.groups() if g).translate(_OCR_DIGITS))
            candidates.append((i, number, line.x0 - line.left, line.size))
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
        # Labels count up; OCR loses some of them (a column of labels read as a block of its own),
        # so a label may skip as many numbers as there are lines since the last one.
        if expected is None or expected <= number <= expected + i - chain[-1][0] - 1:
            chain.append((i, number))
            expected = number + 1
    # One label is a list only when it opens the section (a list of one reference).
    if len(chain) < 2 and (chain[0][0] != 0 or len(candidates) > 1):
        return None
    # Years and page numbers at a line start look like labels but do not count up from 1 or so.
    if chain[0][1] > 5 or len(chain) < 0.5 * len(labels):
        return None
    leading = list_leading(region)
    skipped = any(b - a > 1 for (_, a), (_, b) in zip(chain, chain[1:]))
    groups = []
    for (start, number), following in zip(chain, chain[1:] + [(len(region), None)]):
        lines = list(region[start:following[0]])
        lines[0] = dataclasses.replace(lines[0], text=_LABEL.sub("", lines[0].text, count=1))
        if following[1] is not None:
            # The references whose labels were lost are between this label and the next.
            pieces = _split_in(lines, following[1] - number, leading)
        elif skipped:
            # Labels were lost in this list, so the last label may be followed by unlabelled ones.
            pieces = _split_unlabelled(lines, leading)
            pieces[-1] = _last_entry(pieces[-1], leading)
        else:
            pieces = [_last_entry(lines, leading)]
        groups.extend((number + k, piece) for k, piece in enumerate(pieces))
    return groups


# The alpha style's labels and their kin: "[Knu84]", "[GMS+20]", "[dMU21]", "[The20a]".
ALPHA_LABEL = re.compile(r"^\s*\[[A-Za-z][A-Za-z'+\-]{0,7}\d{2}[a-z]?\]\s*(?=\S)")
# An entry without a year has its names only ("[Bog]", "[B+]"): such a label says little alone
# ("[Online]" begins an IEEE entry's later line), so it is one only among labels with years.
ALPHA_LABEL_MAYBE_YEARLESS = re.compile(r"^\s*\[[A-Za-z][A-Za-z'+\-]{0,7}(?:\d{2}[a-z]?)?\]\s*(?=\S)")


def _split_by_alpha_labels(region: list[Line]) -> list[tuple[int, list[Line]]] | None:
    """References started by labels made of names and a year ("[Knu84]"; names only where the
    entry has no year) at the labels' edge, without their labels (which count nothing up, unlike
    numbers), or None: fewer than two with a year, or the first line not labelled."""
    if sum(1 for line in region if ALPHA_LABEL.match(line.text)) < 2:
        return None
    labelled = [i for i, line in enumerate(region) if ALPHA_LABEL_MAYBE_YEARLESS.match(line.text)]
    if labelled[0] != 0:
        return None
    edge = min(region[i].x0 - region[i].left for i in labelled)
    starts = [i for i in labelled if region[i].x0 - region[i].left <= edge + region[i].size]
    leading = list_leading(region)
    groups = []
    for number, (start, end) in enumerate(zip(starts, starts[1:] + [len(region)]), start=1):
        lines = list(region[start:end])
        lines[0] = dataclasses.replace(lines[0], text=ALPHA_LABEL_MAYBE_YEARLESS.sub("", lines[0].text, count=1))
        groups.append((number, lines if end < len(region) else _last_entry(lines, leading)))
    return groups


def _start_score(previous: Line, line: Line, leading: float) -> float:
    """How surely a line starts a reference of an unlabelled (or flush-left) list: 2 and more is sure.

    A vertical gap (a small one counts half); a short line ended (not by a comma, "and" or an
    initial) before one that begins like an author name; a full last line ending on a year or page
    number before "Surname, A."."""
    score = 0.0
    same_column = previous.page == line.page and previous.column == line.column and previous.bottom > line.bottom
    gap = previous.bottom - line.bottom
    if same_column and gap > 1.25 * leading:
        score += 2
    elif same_column and gap > 1.1 * leading:
        # Some lists set their references apart by a fraction of a line only (AAAI's): the lines of
        # one reference are evenly spaced to far less, so with a short line ended before it is sure.
        score += 1
    text = line.text.strip()
    # Justified text leaves only a paragraph's last line short; a list of authors goes on after
    # a comma, "and" or an initial even when the line is short (ragged right).
    short = previous.x1 < previous.right - 1.5 * previous.size
    ended = short and not re.search(r"(?:[,;:&-]|\band|(?:^|[\s.-])[A-Z]\.)$", previous.text.strip())
    if ended and _NAME_START.match(text):
        score += 2
    elif ended:
        score += 1
    # A full last line: then only a year or page number and a full stop ("1965.", "(2010).",
    # not "J. Phys." nor "ed.") before a name written "Surname, A." or "A. Surname".
    if re.search(r"[\d)]\.$", previous.text.rstrip()) and _AUTHOR_START.match(text):
        score += 2
    elif _NAME_START.match(text):
        score += 0.5
    return score


def _split_unlabelled(lines: list[Line], leading: float) -> list[list[Line]]:
    """Lines split where a reference surely starts (see _start_score)."""
    groups = [[lines[0]]]
    for previous, line in zip(lines, lines[1:]):
        if _start_score(previous, line, leading) >= 2:
            groups.append([line])
        else:
            groups[-1].append(line)
    return groups


def _split_in(lines: list[Line], count: int, leading: float) -> list[list[Line]]:
    """Lines split into at most count references, where references most likely start."""
    if count <= 1 or len(lines) == 1:
        return [lines]
    scores = [(_start_score(previous, line, leading), k) for k, (previous, line) in enumerate(zip(lines, lines[1:]), 1)]
    starts = sorted(k for score, k in sorted(scores, key=lambda p: -p[0])[:count - 1] if score >= 1)
    return [lines[a:b] for a, b in zip([0] + starts, starts + [len(lines)])]


def list_leading(region: list[Line]) -> float:
    """The usual distance between the baselines of two lines of the list."""
    gaps = sorted(a.bottom - b.bottom for a, b in zip(region, region[1:])
                  if a.page == b.page and a.column == b.column and a.bottom > b.bottom)
    return gaps[len(gaps) // 4] if gaps else 12.0


def _last_entry(lines: list[Line], leading: float) -> list[Line]:
    """The last labelled reference without what follows the list: it ends at a wide gap, or
    where it would go on past the next page or column."""
    kept = lines[:1]
    for previous, line in zip(lines, lines[1:]):
        if previous.page == line.page and previous.column == line.column:
            if previous.bottom - line.bottom > 2.2 * leading or line.bottom > previous.bottom:
                break
        elif len(kept) > 1 and line.page != previous.page:
            break                 # a reference runs on over one page or column break, not two
        kept.append(line)
    return kept


def _split_by_indent(region: list[Line]) -> list[list[Line]] | None:
    """References with a hanging indent: each starts at the column's edge, its other lines indented."""
    # Lists of mostly one-line references have few lines in from the edge; flush-left lists have none.
    if sum(1 for ln in region if ln.x0 - ln.left > 2.0) < max(2, 0.02 * len(region)):
        return None
    offsets, shown = _offsets(region)
    # The indent is read where a column shows it, beside lines that start at its edge.
    indented = [o for o, own in zip(offsets, shown) if own and o > 2.0]
    if not indented:
        return None
    # The indent most lines share (a figure's labels left among the lines have others).
    indent = max(indented, key=lambda o: sum(1 for p in indented if abs(p - o) < 2.0))
    # Half the indented lines share it: a hanging indent, not centred or ragged lines.
    if sum(1 for o in indented if abs(o - indent) < 2.0) < 0.5 * len(indented):
        return None
    groups = []
    for line, offset in zip(region, offsets):
        if offset < indent / 2 or not groups:
            groups.append([line])
        else:
            groups[-1].append(line)
    return groups


def _offsets(region: list[Line]) -> tuple[list[float], list[bool]]:
    """How far each line starts right of where its column's references start, and whether its
    column's lines showed that place themselves.

    The column's edge found for the whole page is moved out by any line standing further left (a
    figure's wide caption, a running header in the margin): then every line of a flush-left list
    would seem indented under nothing. So where the references start is read off the list's own
    lines, a run of lines in one column at a time, when they start at two places or more. A run
    that starts at one place only (the tail of a reference carried over to the next column, or
    one-line references) cannot tell its edge from its indent: it is measured from the column's
    edge. Where a block of the run moves sideways as a whole, edge and indent together, each
    block is measured from its own edge.
    """
    usual = statistics.median(ln.size for ln in region)
    offsets = [ln.x0 - ln.left for ln in region]
    shown = [False] * len(region)
    for column_run in _column_runs(region):
        # In the list's type: a page number or a running header in another size says nothing.
        starts = [region[k].x0 if abs(region[k].size - usual) <= 0.1 * usual else None for k in column_run]
        for run, run_starts in _shifted_blocks(column_run, starts):
            known = [x for x in run_starts if x is not None]
            if known and max(known) - min(known) > 2.0:
                for k in run:
                    offsets[k], shown[k] = region[k].x0 - min(known), True
    return offsets, shown


def _shifted_blocks(run: list[int], starts: list[float | None]) -> list[tuple[list[int], list[float | None]]]:
    """The run cut where its lines, edge and indent together, start further left or right from
    one line on (a page whose lower part the PDF sets in another margin): the indent measured
    across the cut would read the lines of one block as indented under the other's edge.
    """
    blocks, begin = [], 0
    while (cut := _first_shift(starts[begin:])) is not None:
        blocks.append((run[begin:begin + cut], starts[begin:begin + cut]))
        begin += cut
    return [*blocks, (run[begin:], starts[begin:])]


def _first_shift(starts: list[float | None]) -> int | None:
    """The first line from which the starts, edge and indent together, move by more than 2 points,
    both sides starting at two places; one pass over running minima and maxima from each end."""
    def spans(values):
        low, high, out = None, None, []
        for x in values:
            if x is not None:
                low, high = (x, x) if low is None else (min(low, x), max(high, x))
            out.append((low, high))
        return out

    above = spans(starts)
    below = spans(reversed(starts))[::-1]
    for cut in range(1, len(starts)):
        (low_a, high_a), (low_b, high_b) = above[cut - 1], below[cut]
        if low_a is None or low_b is None or high_a - low_a <= 2.0 or high_b - low_b <= 2.0:
            continue
        edge_shift, indent_shift = low_b - low_a, high_b - high_a
        if abs(edge_shift) > 2.0 and abs(indent_shift - edge_shift) <= 2.0:
            return cut
    return None


def _column_runs(region: list[Line]) -> list[list[int]]:
    """The indices of the region's lines in runs of consecutive lines on one page and column."""
    runs: list[list[int]] = []
    for k, line in enumerate(region):
        previous = region[runs[-1][-1]] if runs else None
        if previous is not None and (previous.page, previous.column) == (line.page, line.column):
            runs[-1].append(k)
        else:
            runs.append([k])
    return runs


def _split_flush_left(region: list[Line]) -> list[list[Line]]:
    """References set flush left: one starts where a reference surely starts (see _start_score)."""
    gaps = sorted(prev.bottom - line.bottom for prev, line in zip(region, region[1:])
                  if prev.page == line.page and prev.column == line.column and prev.bottom > line.bottom)
    # The line spacing inside a reference: the smaller gaps (most references may be one line).
    return _split_unlabelled(region, gaps[len(gaps) // 5] if gaps else 0.0)
