"""Labelled tokens to a ParsedReference: the runs of each label become fields, tidied."""
import re

from citations.parsing.cues import MONTHS
from citations.parsing.identifiers import Identifier
from citations.parsing.labels import OTHER
from citations.parsing.names import split_names
from citations.parsing.parser import ParsedReference
from citations.parsing.tokens import Token

_YEAR = re.compile(r"(?<![0-9])(1[5-9][0-9][0-9]|20[0-9][0-9])(?![0-9])")
_MONTH = re.compile(r"[A-Za-z]+")
_ISBN = re.compile(r"\bISBN(?:-1[03])?\s*:?\s*((?:97[89][\s-]?)?[0-9][0-9\s-]{7,14}[0-9Xx])\b", re.I)
# Typesetting leftovers that are never part of a title: TeX ties, quotes written as `` '', braces.
_TEX = re.compile(r"``|''|\\[a-zA-Z]+\s*|[{}~]")
_EDGE = " .,;:-–—/\"'“”‘’`"
# An edition note closing a book title is not part of it: "(Third Edition)", ", 2nd edn"; nor is a
# bracketed description of what the work is ("[Motion picture]", "[Data set]", "[in Russian]").
_EDITION = re.compile(r"\s*(?:\(\s*\w*\s*(?:edition|edn)\.?\s*\)|,\s*\w+\s+(?:edition|edn|ed)\.?)$", re.I)
_DESCRIPTION = re.compile(r"(?<=\S)\s*\[[^\[\]]{2,40}\]$")
# Labels whose text may hold a colon or comma the model left outside; numbers never join.
_WORDY = {"title", "booktitle", "journal", "series", "author", "editor", "publisher", "note"}
# Labels of identifiers: numbers inside them are no volume, page or year.
_IDENTIFIER_LABELS = frozenset({"doi", "arxiv", "url", "idno"})
_GAP_JOINS = {":", "-", "–", ",", ";", "/", "'", "’", "“", "”"}


def runs(tokens: list[Token], labels: list[str]) -> dict[str, list[tuple[int, int]]]:
    """For each label, its runs as token index ranges [i, j); a run broken by a single joining
    token (a colon the model left outside a title) is one run."""
    found: dict[str, list[tuple[int, int]]] = {}
    i, n = 0, len(labels)
    while i < n:
        label, j = labels[i], i + 1
        while j < n and labels[j] == label:
            j += 1
        if label != OTHER:
            spans = found.setdefault(label, [])
            if spans and spans[-1][1] == i - 1 and tokens[i - 1].text in _GAP_JOINS and label in _WORDY:
                spans[-1] = (spans[-1][0], j)
            else:
                spans.append((i, j))
        i = j
    return found


def _text(text: str, tokens: list[Token], span: tuple[int, int]) -> str:
    return text[tokens[span[0]].start:tokens[span[1] - 1].end]


def _field(text, tokens, spans, label) -> str | None:
    if label not in spans:
        return None
    value = _text(text, tokens, spans[label][0]).strip(_EDGE)
    return value or None


def tidy_title(title: str | None) -> str | None:
    """A title without TeX leftovers, surrounding quotes or punctuation."""
    if not title:
        return None
    title = " ".join(_TEX.sub(" ", title).split()).strip(_EDGE)
    without_edition = _EDITION.sub("", title)
    if len(without_edition) >= 0.5 * len(title):
        title = without_edition.strip(_EDGE)
    title = _DESCRIPTION.sub("", title).strip(_EDGE)
    return title if len(title) >= 2 else None


def _bracketed_group(tokens: list[Token], spans: dict) -> None:
    """ "M. Ackermann et al. (Fermi-LAT), Phys. Rev. ...": a short bracketed name right after the
    authors is their collaboration, not a title."""
    if "title" not in spans or "author" not in spans:
        return
    i, j = spans["title"][0]
    a, b = spans["author"][-1]
    if b + 1 == i and tokens[b].text == "(" and j < len(tokens) and tokens[j].text == ")" and j - i <= 6:
        spans["author"][-1] = (a, j + 1)
        spans["title"].pop(0)
        if not spans["title"]:
            del spans["title"]


def _journal_abbreviation_in_authors(tokens: list[Token], spans: dict) -> None:
    """ "M.E. Fisher, Rep. Prog. Phys. 30": abbreviated words after the last comma of an author list
    that a journal follows are the journal's first words, not a given name (initials are one or
    two letters; "Rep", "Gen", "Compt" are not)."""
    if "author" not in spans or "journal" not in spans:
        return
    a, b = spans["author"][-1]
    j = next((i for i, (c, _) in enumerate(spans["journal"]) if b <= c <= b + 1), None)
    if j is None:
        return
    comma = max((k for k in range(a, b) if tokens[k].text == ","), default=None)
    if comma is None:
        return
    tail = [k for k in range(comma + 1, b + 1) if k < len(tokens) and tokens[k].text != "."]
    if tail and all(tokens[k].text[:1].isupper() and len(tokens[k].text) >= 3 and tokens[k].text.isalpha()
                    and k + 1 < len(tokens) and tokens[k + 1].text == "." for k in tail):
        spans["author"][-1] = (a, comma)
        spans["journal"][j] = (comma + 1, spans["journal"][j][1])


def _people(text, tokens, spans, label):
    if label not in spans:
        return []
    names = []
    for span in spans[label]:
        end = tokens[span[1] - 1].end
        if end < len(text) and text[end] == "." and len(tokens[span[1] - 1].text) == 1:
            end += 1              # the period of a final initial ("Smith, J.") is the name's
        names += split_names(text[tokens[span[0]].start:end])
    return names


def _year_and_month(text, tokens, spans, guess: bool) -> tuple[int | None, int | None]:
    """The year of the date runs (a bracketed one first: "JCAP 1509, 008 (2015)" reads a volume
    like a date), else any year-like number outside identifiers; the month named in a date run."""
    year = month = bracketed = None
    for span in spans.get("date", []):
        written = _text(text, tokens, span)
        found = _YEAR.search(written)
        if found and bracketed is None and span[0] and tokens[span[0] - 1].text in "([":
            bracketed = int(found.group(1))
        if year is None and found:
            year = int(found.group(1))
        if month is None:
            month = next((MONTHS[w.lower()] for w in _MONTH.findall(written) if w.lower() in MONTHS), None)
    if year is None and guess and "date" not in spans:
        taken = {k for label in _IDENTIFIER_LABELS | {"pages", "volume"} for a, b in spans.get(label, [])
                 for k in range(a, b)}
        year = next((int(t.text) for k, t in enumerate(tokens) if k not in taken and _YEAR.fullmatch(t.text)), None)
    return bracketed or year, month


# The last words of a document named after what it describes ("GPT-4 technical report",
# "Claude 3 model card"): the whole sentence is its title, though alone "Technical report" is a note.
_NAMED_DOCUMENTS = {("technical", "report"), ("model", "card"), ("system", "card"), ("white", "paper")}


def _sentence_start(tokens: list[Token], k: int) -> int:
    """The first token of the sentence token k is in: after the last full stop that ends a word of
    more than one letter (an initial's stop ends no sentence) and is followed by a space."""
    for i in range(k - 1, 0, -1):
        if (tokens[i].text == "." and len(tokens[i - 1].text) > 1 and tokens[i - 1].end == tokens[i].start
                and (i + 1 >= len(tokens) or tokens[i + 1].start > tokens[i].end)):
            return i + 1
    return 0


def _named_document_title(tokens: list[Token], labels: list[str]) -> list[str]:
    """With no title labelled, a sentence ending in "<name> technical report" (or model card...)
    is the title; a short sentence before it with no author labelled is its author (an organisation)."""
    if "title" in labels:
        return labels
    lower = [t.text.lower() for t in tokens]
    for k in range(1, len(tokens) - 1):
        if (lower[k], lower[k + 1]) in _NAMED_DOCUMENTS:
            start = _sentence_start(tokens, k)
            if start == k or start == 0:
                return labels
            labels = labels[:start] + ["title"] * (k + 2 - start) + labels[k + 2:]
            if "author" not in labels[:start] and start <= 7 and not any(t.text.isdigit() for t in tokens[:start]):
                labels[:start - 1] = ["author"] * (start - 1)
            return labels
    return labels


def _year_read_as_a_number(tokens: list[Token], labels: list[str]) -> list[str]:
    """With no date labelled, a year the model read as pages or volume is the date where it can
    only be one: before ";volume" (Vancouver's "2013;14(12):827") or alone as the reference's last
    number ("Systems, 34, 2021.", "155007, 2021. doi:...")."""
    if "date" in labels:
        return labels
    n = len(tokens)
    k = next((k for k in range(n - 1, -1, -1)
              if labels[k] in ("pages", "volume") and _YEAR.fullmatch(tokens[k].text)), None)
    if k is None:
        return labels
    label = labels[k]
    vancouver = k + 2 < n and tokens[k + 1].text == ";" and tokens[k + 2].text.isdigit()
    alone = (k == 0 or labels[k - 1] != label) and (k + 1 == n or labels[k + 1] != label)
    last = not any(tokens[j].text[0].isdigit() and labels[j] not in _IDENTIFIER_LABELS for j in range(k + 1, n))
    if not (vancouver or (alone and last)):
        return labels
    labels = labels[:k] + ["date"] + labels[k + 1:]
    if vancouver:
        labels[k + 1] = OTHER
    return labels


def _lettered_year_opening_a_title(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "Ahmed S M S et al 2013a Alpha-cluster preformation...": a year with the letter an author-year
    style adds to tell one author's works of a year apart is the date, never the title's first words."""
    k = labels.index("title") if "title" in labels else None
    if (k is None or k + 1 >= len(tokens) or not _YEAR.fullmatch(tokens[k].text)
            or not (len(tokens[k + 1].text) == 1 and tokens[k + 1].text.islower())
            or tokens[k + 1].start != tokens[k].end):
        return labels
    return labels[:k] + ["date", "date"] + labels[k + 2:]


_PART_NUMERAL = re.compile(r"[IVX]{1,4}")
_RANGE_DASHES = {"-", "–", "—"}


def _title_run(labels: list[str]) -> tuple[int, int] | None:
    if "title" not in labels:
        return None
    i = labels.index("title")
    j = i
    while j < len(labels) and labels[j] == "title":
        j += 1
    return i, j


_TITLE_OPENINGS = {"the", "a", "an", "on", "in", "of", "from", "to", "towards", "toward", "for", "and", "at"}


def _year_inside_a_titles_opening(tokens: list[Token], labels: list[str]) -> list[str]:
    """With no date labelled, a year among a title's first words after nothing but names ("Roughton F
    (1957) Relative importance...", "Fukuda & Yata 1991 A new species...", "1871 Monographie de...")
    is the reference's date, and the names before it are its authors: a title does not open with
    who wrote it and when."""
    found = _title_run(labels) if "date" not in labels else None
    if found is None:
        return labels
    i, j = found
    text = [t.text for t in tokens]
    k = next((k for k in range(i, min(i + 8, j - 3)) if _YEAR.fullmatch(text[k])), None)
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


def _title_edges(tokens: list[Token], labels: list[str]) -> list[str]:
    """Words at a title's edges that its style prints as part of it, where the tagger left them out:
    a part's numeral ("Fourier integral operators. II. Acta Math."), a span of years closing a
    history's title when the reference's date is printed elsewhere ("Banking reform and the Federal
    Reserve, 1863-1923. Cornell"), and a capitalised "In" before a title the tagger started at "the"
    ("In the Wake of Chaos")."""
    found = _title_run(labels)
    if found is None:
        return labels
    i, j = found
    n = len(tokens)
    text = [t.text for t in tokens]
    labels = list(labels)
    if (j + 2 <= n and text[j] == "." and _PART_NUMERAL.fullmatch(text[j + 1])
            and (j + 2 == n or text[j + 2] in (".", ",", ";"))):
        labels[j:j + 2] = ["title", "title"]
    elif (j + 4 <= n and text[j] == "," and _YEAR.fullmatch(text[j + 1]) and text[j + 2] in _RANGE_DASHES
            and _YEAR.fullmatch(text[j + 3]) and (j + 4 == n or text[j + 4] in (".", ","))
            and any(label == "date" for k, label in enumerate(labels) if not j < k < j + 4)):
        labels[j:j + 4] = ["title"] * 4
    if i and text[i - 1] == "In" and text[i][:1].islower() and labels[i - 1] == OTHER:
        labels[i - 1] = "title"
    return labels


def _after_in(tokens: list[Token], span: tuple[int, int]) -> bool:
    """Whether "In" (or "in:") introduces a run: then it is where the work appeared."""
    before = [t.text.lower() for t in tokens[max(0, span[0] - 2):span[0]]]
    return "in" in before


def build(raw: str, text: str, tokens: list[Token], labels: list[str], identifiers: list[Identifier],
          parser: str | None = None, guess_year: bool = True) -> ParsedReference:
    """The ParsedReference that labelled tokens describe (guess_year: with no date labelled, a
    year-like number elsewhere; never for gold labels)."""
    labels = _lettered_year_opening_a_title(tokens, _named_document_title(tokens, labels))
    labels = _title_edges(tokens, _year_inside_a_titles_opening(tokens, labels))
    spans = runs(tokens, _year_read_as_a_number(tokens, labels))
    _bracketed_group(tokens, spans)
    _journal_abbreviation_in_authors(tokens, spans)
    names = _people(text, tokens, spans, "author")
    editors = _people(text, tokens, spans, "editor")
    year, month = _year_and_month(text, tokens, spans, guess_year)
    title = _field(text, tokens, spans, "title")
    if title is None and "booktitle" in spans and "journal" not in spans and not _after_in(tokens, spans["booktitle"][0]):
        # A book or proceedings cited whole is its own title (as the training labels have it).
        title = _field(text, tokens, spans, "booktitle")
        del spans["booktitle"]
    container = next((_field(text, tokens, spans, c) for c in ("journal", "booktitle", "series") if c in spans), None)
    pages = _field(text, tokens, spans, "pages")
    isbn = _ISBN.search(text)
    return ParsedReference(
        raw=raw, title=tidy_title(title), year=year,
        authors=tuple(n.text for n in names), venue=container, identifiers=tuple(identifiers),
        names=tuple(names), editors=tuple(editors), container=container,
        volume=_field(text, tokens, spans, "volume"), issue=_field(text, tokens, spans, "issue"),
        pages=pages, month=month, publisher=_field(text, tokens, spans, "publisher"),
        place=_field(text, tokens, spans, "place"), note=_field(text, tokens, spans, "note"),
        isbn=re.sub(r"[\s-]", "", isbn.group(1)).upper() if isbn else None, parser=parser)
