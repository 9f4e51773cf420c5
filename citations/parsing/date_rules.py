"""Label rules about the reference's date (see relabelling.py for their order): a year closing the
title is the title's own, and so are the months a title names before its stop; a year read as pages or
a volume is the date, and so is a year with an author-year style's letter, one among a title's first
words after names, or one in brackets closing an undated title."""
from citations.parsing.cues import CUES
from citations.parsing.label_runs import YEAR, first_run
from citations.parsing.labels import IDENTIFIER_LABELS, OTHER
from citations.parsing.locator_rules import RANGE_DASHES
from citations.parsing.rule_needs import needs
from citations.parsing.tokens import Token


@needs("title", "date")
def year_closing_the_title(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "The evolution of the Atlantic Meridional Overturning Circulation since 1980. Nature Reviews
    Earth & Environment 5, 59–75 (2024).": a year straight after the title's last word, a word in lower
    case the year goes on from ("since", "during", "in"), and before the title's stop, is the title's
    own where the reference is dated elsewhere; so is a range of years ("... at 34.5°S during
    2009-2017. Geophysical Research Letters, 45: 4180–4188, 2018."), read as the date or as pages."""
    found = first_run(labels, "title")
    if found is None:
        return labels
    j, n = found[1], len(tokens)
    end = j + 1
    if (end + 1 < n and tokens[end].text in ("-", "–") and YEAR.fullmatch(tokens[end + 1].text)
            and labels[end] == labels[end + 1] == labels[j]):
        end += 2
    if (end + 1 >= n or labels[j] not in ("date", "pages") or (labels[j] == "pages" and end == j + 1)
            or not YEAR.fullmatch(tokens[j].text) or tokens[end].text != "."
            or not tokens[j - 1].text.isalpha() or not tokens[j - 1].text.islower()
            or "date" not in labels[end:] + labels[:found[0]]):
        return labels
    return labels[:j] + ["title"] * (end - j) + labels[end:]


@needs("title", "date", words=(",",))
def months_closing_the_title(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "Pattern of early human-to-human transmission of Wuhan 2019 novel coronavirus (2019-nCoV), December
    2019 to January 2020. Eurosurveillance. 2020;25(4).": months named after the comma where the tagger
    ended the title, up to the title's stop, are the title's own where the reference is dated again
    after them (not only accessed after them); the tagger read them as the date."""
    found = first_run(labels, "title")
    if found is None:
        return labels
    comma, n = found[1], len(tokens)
    date = first_run(labels, "date")
    if comma + 1 >= n or tokens[comma].text != "," or date is None or date[0] != comma + 1:
        return labels
    end = date[1]
    later = next((k for k in range(end, n) if labels[k] == "date"), None)
    if end >= n or tokens[end].text != "." or later is None or _accessed(tokens, later) \
            or not any(CUES.get(t.text.lower()) == "month" for t in tokens[comma + 1:end]):
        return labels
    return labels[:comma] + ["title"] * (end - comma) + labels[end:]


def _accessed(tokens: list[Token], k: int) -> bool:
    """Whether the date at token k is when a page was accessed ("(accessed June 7, 2015)"), which
    dates no reference."""
    return any(CUES.get(t.text.lower()) == "access" for t in tokens[max(0, k - 3):k])


_OPEN_ENDS = {"now", "present", "today"}


@needs(absent=("date",))
def year_read_as_a_number(tokens: list[Token], labels: list[str]) -> list[str]:
    """With no date labelled, a year the model read as pages or volume is the date where it can
    only be one: before ";volume" (Vancouver's "2013;14(12):827") or alone as the reference's last
    number ("Systems, 34, 2021.", "155007, 2021. doi:..."), with a numeric month before it after
    the pages ("99–127, 08 2019"), or as the start of a span of years where no journal is named
    ("http://basilisk.fr, 2013–now")."""
    if "date" in labels:
        return labels
    n = len(tokens)
    k = next((k for k in range(n - 1, -1, -1)
              if labels[k] in ("pages", "volume") and YEAR.fullmatch(tokens[k].text)), None)
    if k is None:
        return labels
    label = labels[k]
    first, last_of_run = k, k + 1
    month = (k > 2 and label == "pages" and labels[k - 1] == label and _month_number(tokens[k - 1].text)
             and tokens[k - 2].text == "," and label in labels[:k - 2])
    if month:
        first = k - 1
    elif not any(x in labels for x in ("journal", "booktitle", "series")):
        if (k + 2 < n and tokens[k + 1].text in RANGE_DASHES and labels[k + 2] == label
                and tokens[k + 2].text.lower() in _OPEN_ENDS):
            last_of_run = k + 3
        elif (k > 1 and tokens[k - 1].text in RANGE_DASHES and labels[k - 2] == labels[k - 1] == label
              and YEAR.fullmatch(tokens[k - 2].text) and tokens[k - 2].text <= tokens[k].text):
            first = k - 2
    vancouver = k + 2 < n and tokens[k + 1].text == ";" and tokens[k + 2].text.isdigit()
    alone = (first == 0 or month or labels[first - 1] != label) and (last_of_run == n or labels[last_of_run] != label)
    last = not any(tokens[j].text[0].isdigit() and labels[j] not in IDENTIFIER_LABELS for j in range(last_of_run, n))
    if not (vancouver or (alone and last)):
        return labels
    labels = labels[:first] + ["date"] * (last_of_run - first) + labels[last_of_run:]
    if month:
        labels[first - 1] = OTHER       # the comma after the pages, read on into them
    if vancouver:
        labels[k + 1] = OTHER
    return labels


def _month_number(text: str) -> bool:
    return text.isdigit() and len(text) <= 2 and 1 <= int(text) <= 12


@needs("title")
def lettered_year_opening_a_title(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "Ahmed S M S et al 2013a Alpha-cluster preformation...": a year with the letter an author-year
    style adds to tell one author's works of a year apart is the date, never the title's first words."""
    k = labels.index("title") if "title" in labels else None
    if (k is None or k + 1 >= len(tokens) or not YEAR.fullmatch(tokens[k].text)
            or not (len(tokens[k + 1].text) == 1 and tokens[k + 1].text.islower())
            or tokens[k + 1].start != tokens[k].end):
        return labels
    return labels[:k] + ["date", "date"] + labels[k + 2:]


_TITLE_OPENINGS = {"the", "a", "an", "on", "in", "of", "from", "to", "towards", "toward", "for", "and", "at"}


@needs("title", absent=("date",))
def year_inside_a_titles_opening(tokens: list[Token], labels: list[str]) -> list[str]:
    """With no date labelled, a year among a title's first words after nothing but names ("Roughton F
    (1957) Relative importance...", "Fukuda & Yata 1991 A new species...", "1871 Monographie de...")
    is the reference's date, and the names before it are its authors: a title does not open with
    who wrote it and when."""
    found = first_run(labels, "title") if "date" not in labels else None
    if found is None:
        return labels
    i, j = found
    text = [t.text for t in tokens]
    k = next((k for k in range(i, min(i + 8, j - 3)) if YEAR.fullmatch(text[k])), None)
    if k is None:
        return labels
    before = text[i:k]
    if any(w[:1].islower() or w.lower() in _TITLE_OPENINGS or w[:1].isdigit() for w in before):
        return labels
    after = k + 1 + (text[k + 1] in (")", ".", ":"))
    if not text[after][:1].isupper():
        return labels
    opened = k > i and text[k - 1] == "("
    labels = list(labels)
    labels[i:k - opened] = ["author"] * (k - opened - i)
    labels[k - opened:after] = [OTHER] * (after - k + opened)
    labels[k] = "date"
    return labels


@needs("title", absent=("date",), words=("(", ")"))
def bracketed_year_closing_the_title(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "Shen, J. Quantum kernels and the cross-section of stock returns: Anatomy of a vanishing advantage
    (2026). URL https://arxiv.org/abs/2607.20168.": with no date labelled, a year in brackets closing the
    title is the reference's date (Springer Nature's styles print a preprint's year so), not the title's."""
    found = first_run(labels, "title") if "date" not in labels else None
    if found is None:
        return labels
    j = found[1]
    if j < 4 or [t.text for t in tokens[j - 3:j:2]] != ["(", ")"] or not YEAR.fullmatch(tokens[j - 2].text):
        return labels
    return labels[:j - 3] + [OTHER, "date", OTHER] + labels[j:]
