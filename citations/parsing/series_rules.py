"""Label rules for the series a proceedings' name is printed with, where the tagger read it into the
name: ACM's "(WWW '15)" after it and IEEE's ", ser. CHI '18". `relabel` (relabelling.py) applies them, in
its order."""
import re

from citations.parsing.label_runs import first_run
from citations.parsing.labels import OTHER
from citations.parsing.rule_needs import needs
from citations.parsing.tokens import Token

_APOSTROPHES = ("'", "’")
_YEAR = re.compile("[0-9]{2}")             # a year's last two digits
_SER = [",", "ser", "."]


@needs("booktitle")
def series_closing_the_proceedings(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "In Proceedings of the 24th International Conference on World Wide Web (WWW '15). ACM, New York" and
    "in Proceedings of the 2018 CHI Conference on Human Factors in Computing Systems, ser. CHI '18": the
    series a style prints after the proceedings' name, its acronym and the year's last two digits in
    brackets (ACM) or after "ser." (IEEE), is the series, not the name's: the name is the book's title
    as its BibTeX entry gives it, and the series a field of its own."""
    found = first_run(labels, "booktitle")
    if found is None:
        return labels
    i, j = found
    cue = next((k for k in range(i + 1, j - 3) if [t.text.lower() for t in tokens[k:k + 3]] == _SER), None)
    if cue is not None:
        return labels[:cue] + [OTHER] * 3 + ["series"] * (j - cue - 3) + labels[j:]
    if tokens[j - 1].text != ")":
        return labels
    opening = next((k for k in range(j - 2, i, -1) if tokens[k].text == "("), None)
    if opening is None or tokens[j - 3].text not in _APOSTROPHES or not _YEAR.fullmatch(tokens[j - 2].text):
        return labels
    return labels[:opening] + [OTHER] + ["series"] * (j - opening - 2) + [OTHER] + labels[j:]
