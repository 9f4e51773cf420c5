"""A second reading for references whose author list is far longer than the labelled sets' lists.

Physics and astronomy print a collaboration's whole author list: a title after two hundred names
sits where the model learnt to expect editors and notes, and it reads none ("..., H. Zhan, and for
the LSST Collaboration. LSST: from Science Drivers to ..."). Such a string, when the first reading
found no title, is read again with the middle of its name run left out, as a reference of a few
authors; the names left out stay names, and the rest takes the second reading's labels. The text
after the name run is the same in both readings, token for token, so its labels carry over as they
are."""
from collections.abc import Callable

from citations.parsing.identifier_repair import read_identifiers
from citations.parsing.tokens import Token, tokenise

NAME_LABELS = frozenset({"author", "editor"})
# A name run this long (tokens) is past any the labelled sets hold but for a handful.
LONG_RUN = 80
# Separators kept before the cut: three names whether printed "Family, I." or "I. Family".
SEPARATORS_KEPT = 6

Labeller = Callable[[list[tuple[str, list[Token], list]]], list[list[str]]]


def name_run_end(labels: list[str]) -> int:
    """Where the leading run of names ends: after its last name token, the run being the tokens
    from the first labelled as names or as text between fields."""
    end = 0
    for i, label in enumerate(labels):
        if label in NAME_LABELS:
            end = i + 1
        elif label != "other":
            break
    return end


def _cut(tokens: list[Token], run_end: int) -> tuple[int, int] | None:
    """The tokens [start, end) of the run to leave out: after its first names, up to its last name."""
    separators = [i for i in range(run_end) if tokens[i].text in (",", ";")]
    if len(separators) <= SEPARATORS_KEPT:
        return None
    start = separators[SEPARATORS_KEPT - 1] + 1
    last = max(i for i in range(start, run_end) if tokens[i].text in (",", ";", "and", "&")) + 1
    return (start, last) if last - start > 0 and last < run_end else None


def read_long_author_lists(strings: list[tuple[str, list[Token], list]], labels: list[list[str]],
                           label: Labeller) -> list[list[str]]:
    """The labels, with each titleless string of a long name run read again as described above."""
    again, shortened = [], []
    for n, ((text, tokens, _), found) in enumerate(zip(strings, labels)):
        if "title" in found:
            continue
        run_end = name_run_end(found)
        cut = _cut(tokens, run_end) if run_end >= LONG_RUN else None
        if cut is None:
            continue
        start, end = cut
        short = text[:tokens[start].start] + text[tokens[end].start:]
        short_tokens = tokenise(short)
        if len(short_tokens) != len(tokens) - (end - start):
            continue
        again.append((n, start, end))
        shortened.append((short, short_tokens, read_identifiers(short)))
    if not again:
        return labels
    labels = list(labels)
    for (n, start, end), second in zip(again, label(shortened)):
        if "title" in second:
            labels[n] = second[:start] + ["author"] * (end - start) + second[start:]
    return labels
