"""What the label rules (relabelling.py, author_rules.py) ask of labelled tokens: a year, where a
label's first run is, and whether an author list puts each name's initials first."""
import re

from citations.parsing.tokens import Token

YEAR = re.compile(r"(?<![0-9])(1[5-9][0-9][0-9]|20[0-9][0-9])(?![0-9])")


def first_run(labels: list[str], label: str) -> tuple[int, int] | None:
    """[start, end) of the first run of tokens with this label, or None."""
    if label not in labels:
        return None
    i = labels.index(label)
    j = i
    while j < len(labels) and labels[j] == label:
        j += 1
    return i, j


def initials_first(tokens: list[Token], labels: list[str]) -> bool:
    """Whether the author list puts each name's initials first ("Z. Guo, ..."), not its family name."""
    first = labels.index("author") if "author" in labels else None
    return (first is not None and len(tokens[first].text) == 1 and tokens[first].text.isupper()
            and first + 1 < len(tokens) and tokens[first + 1].text == ".")


def is_initial(tokens: list[Token], k: int) -> bool:
    """Whether token k is a single capital letter, a name's initial."""
    return len(tokens[k].text) == 1 and tokens[k].text.isupper()
