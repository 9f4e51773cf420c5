"""Words on one baseline joined into a line (used by layout and margins)."""
import re
import statistics

from citations.extraction.pdf.model import Line, TextWord


def group_lines(words: list[TextWord], column: int, *, keep_words: bool = False) -> list:
    """Words on one baseline joined into a line, left to right, top line first."""
    rows, current = [], []
    for word in sorted(words, key=lambda w: (-w.bottom, w.x0)):
        if current and abs(word.bottom - current[0].bottom) > 0.4 * max(current[0].size, 1.0):
            rows.append(current)
            current = []
        current.append(word)
    if current:
        rows.append(current)
    return rows if keep_words else [line_of(row, column) for row in rows]


def line_of(words: list[TextWord], column: int) -> Line:
    words = sorted(words, key=lambda w: w.x0)
    parts = [words[0].text]
    for previous, word in zip(words, words[1:]):
        # Pieces of one word drawn apart (a font change inside it) touch; words leave a gap, if
        # only a small one where a letter's box overhangs ("words for" in a tight line).
        parts.append(("" if word.x0 - previous.x1 < 0.05 * word.size else " ") + word.text)
    sizes = sorted(w.size for w in words)
    size = sizes[len(sizes) // 2]
    # Gaps of two ems and more between words part a table's cells (not the one after a label).
    cells = sum(1 for i, (previous, word) in enumerate(zip(words, words[1:]))
                if word.x0 - previous.x1 > 2 * size and not (i == 0 and _LABEL.match(previous.text)))
    return Line(page=words[0].page, column=column, x0=words[0].x0, x1=max(w.x1 for w in words),
                bottom=statistics.median(w.bottom for w in words), size=size,
                bold=all(w.bold for w in words), text="".join(parts), wide_gaps=cells)


_LABEL = re.compile(r"^[\[(]?\d{1,4}[\].)]?$")
