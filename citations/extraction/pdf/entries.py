"""The reference list's lines split into references."""
import dataclasses
import re
import statistics

from citations.extraction.pdf.joining import Vocabulary, join_lines
from citations.extraction.pdf.model import Line

# "[12]", "(12)", "12." and "12" before a capital; "12.Wang" when the label's box touches the
# name and no space is drawn between them.
_LABEL = re.compile(r"^\s*(?:\[(\d{1,4})\]|\((\d{1,4})\)|(\d{1,4})\.(?=\s|$|[A-Z\u00c0-\u024f])|"
                    r"(\d{1,4})(?=\s+[A-Z]))\s*")
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
        groups = _split_by_indent(region) or _split_flush_left(region)
        groups = [(n, lines) for n, lines in enumerate(groups, start=1)]
    return [(index, join_lines([ln.text for ln in lines], vocabulary), lines[0].page) for index, lines in groups]


def _split_by_labels(region: list[Line]) -> list[tuple[int, list[Line]]] | None:
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
    number, last = groups[-1]
    groups[-1] = (number, _last_entry(last, _leading(region)))
    return groups


def _leading(region: list[Line]) -> float:
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
    offsets = [ln.x0 - ln.left for ln in region]
    indented = [o for o in offsets if o > 2.0]
    # Lists of mostly one-line references have few indented lines; flush-left lists have none.
    if len(indented) < max(2, 0.02 * len(region)):
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


def _split_flush_left(region: list[Line]) -> list[list[Line]]:
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
