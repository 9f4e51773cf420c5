"""Label rules for the numbers a journal is cited by: a page read as the volume or the issue, a
page's letters read as the volume's. `relabel` (relabelling.py) applies them, in its order."""
import re

from citations.parsing.label_runs import first_run
from citations.parsing.labels import IDENTIFIER_LABELS
from citations.parsing.locators import PAGE
from citations.parsing.tokens import Token

RANGE_DASHES = {"-", "–", "—"}
_A_PAGE = re.compile(PAGE)
_NOT_A_RANGES_END = IDENTIFIER_LABELS | {"date"}
_PAGES = re.compile(rf"{PAGE}(?:[-–—]{{1,2}}{PAGE})?")


def _printed_items(tokens: list[Token], i: int, j: int) -> list[tuple[int, int]]:
    """Tokens i..j grouped as printed: a space or a comma ends a group ("792 L32" is two, "B262" one)."""
    items: list[tuple[int, int]] = []
    for k in range(i, j):
        if tokens[k].text == ",":
            continue
        if items and items[-1][1] == k and tokens[k].start == tokens[k - 1].end:
            items[-1] = (items[-1][0], k + 1)
        else:
            items.append((k, k + 1))
    return items


def _page_shaped(tokens: list[Token], item: tuple[int, int]) -> bool:
    return bool(_PAGES.fullmatch("".join(t.text for t in tokens[item[0]:item[1]])))


def _after_the_date(tokens: list[Token], labels: list[str], k: int) -> int:
    """Past a bracketed date and the comma after it, if one is at k ("75 (2003) 716", "16 (1975), 2029")."""
    if k + 2 < len(tokens) and tokens[k].text == "(" and labels[k + 1] == "date" and tokens[k + 2].text == ")":
        k += 3
        k += k < len(tokens) and tokens[k].text == ","
    return k


def page_read_as_a_volume(tokens: list[Token], labels: list[str]) -> list[str]:
    """With no pages labelled, a number printed straight after a journal's volume is its page or
    article number, whatever the model called it: "Mon. Not. R. Astron. Soc. 20, 13 (1859)",
    "Contemp. Phys. 46 277", "ApJL 792 L32", "Rev. Mod. Phys. 75 (2003) 716". Styles print an issue
    in brackets or after its cue ("no. 3"), not bare after the volume."""
    found = first_run(labels, "volume") if "pages" not in labels else None
    if found is None:
        return labels
    i, j = found
    items = _printed_items(tokens, i, j)
    if not any(t.text.isdigit() for t in tokens[items[0][0]:items[0][1]]):
        return labels
    if len(items) == 2 and _page_shaped(tokens, items[1]):
        a, b = items[1]
    elif len(items) == 1:
        a = _after_the_date(tokens, labels, j + (j < len(tokens) and tokens[j].text == ","))
        if a >= len(tokens) or labels[a] not in ("volume", "issue"):
            return labels
        b = a
        while b < len(tokens) and labels[b] == labels[a] and (b == a or tokens[b].start == tokens[b - 1].end):
            b += 1
        if (b < len(tokens) and labels[b] == labels[a]) or not _page_shaped(tokens, (a, b)):
            return labels
        if (b + 1 < len(tokens) and tokens[b].text in RANGE_DASHES and _A_PAGE.fullmatch(tokens[b + 1].text)
                and labels[b + 1] not in _NOT_A_RANGES_END):
            b += 2            # the range's end, whatever the model made of it ("25-45")
    else:
        return labels
    return labels[:a] + ["pages"] * (b - a) + labels[b:]


def page_letter_read_as_the_volume(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "JINST 3 S08002": letters printed on a page number are the page's (a supplement's or a
    letter's), not the end of the volume before it, which a space sets apart."""
    found = first_run(labels, "pages")
    if found is None or found[0] < 2:
        return labels
    k = found[0] - 1
    if (labels[k] == "volume" and tokens[k].text.isalpha() and len(tokens[k].text) <= 2
            and tokens[k].end == tokens[k + 1].start and tokens[k - 1].end < tokens[k].start
            and labels[k - 1] == "volume"):
        return labels[:k] + ["pages"] + labels[k + 1:]
    return labels


def page_read_as_a_title(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "B. Q. Li and K. T. Chao, Phys. Rev. D 79 (2009), 094004 doi:...": with no pages labelled, a
    "title" that is one number after the journal's volume is its page or article number."""
    found = first_run(labels, "title") if "pages" not in labels and "volume" in labels else None
    if found is None or found[1] - found[0] != 1 or labels.index("volume") > found[0]:
        return labels
    k = found[0]
    if not tokens[k].text.isdigit() or "title" in labels[k + 1:]:
        return labels
    return labels[:k] + ["pages"] + labels[k + 1:]
