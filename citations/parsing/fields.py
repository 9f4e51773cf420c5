"""Labelled tokens to a ParsedReference: the runs of each label become fields, tidied."""
import re

from citations.parsing.cues import MONTHS
from citations.parsing.identifiers import Identifier
from citations.parsing.label_runs import YEAR, book_cited_whole
from citations.parsing.labels import IDENTIFIER_LABELS, OTHER
from citations.parsing.names import split_names
from citations.parsing.parser import ParsedReference
from citations.parsing.relabelling import relabel
from citations.parsing.tokens import Token

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
    written = _text(text, tokens, spans[label][0])
    return _closing_quote_kept(written, written.strip(_EDGE)) or None


def tidy_title(title: str | None) -> str | None:
    """A title without TeX leftovers, surrounding quotes or punctuation."""
    if not title:
        return None
    written = " ".join(_TEX.sub(" ", title).split())
    title = written.strip(_EDGE)
    without_edition = _EDITION.sub("", title)
    if len(without_edition) >= 0.5 * len(title):
        title = without_edition.strip(_EDGE)
    title = _closing_quote_kept(written, _DESCRIPTION.sub("", title).strip(_EDGE))
    return title if len(title) >= 2 else None


def _closing_quote_kept(written: str, title: str) -> str:
    """A field (a title) with the closing quote its edges lost where the quote opens inside it
    ("Package ‘rjags’."): quotes around the whole field go, a quote in it stays whole."""
    for opening, closing in (("‘", "’"), ("“", "”")):
        if title.count(opening) > title.count(closing) and closing in written[written.rfind(opening):]:
            return title + closing
    return title


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
        found = YEAR.search(written)
        if found and bracketed is None and span[0] and tokens[span[0] - 1].text in "([":
            bracketed = int(found.group(1))
        if year is None and found:
            year = int(found.group(1))
        if month is None:
            month = next((MONTHS[w.lower()] for w in _MONTH.findall(written) if w.lower() in MONTHS), None)
    if year is None and guess and "date" not in spans:
        taken = {k for label in IDENTIFIER_LABELS | {"pages", "volume"} for a, b in spans.get(label, [])
                 for k in range(a, b)}
        year = next((int(t.text) for k, t in enumerate(tokens) if k not in taken and YEAR.fullmatch(t.text)), None)
    return bracketed or year, month


def build(raw: str, text: str, tokens: list[Token], labels: list[str], identifiers: list[Identifier],
          parser: str | None = None, gold: bool = False) -> ParsedReference:
    """The ParsedReference that labelled tokens describe. The tagger's labels are corrected by the
    label rules (relabelling.py) and, with no date labelled, a year-like number elsewhere is taken;
    gold labels (gold=True) are read as they are: a rule applied to the gold too would hide its own
    mistakes from the scores."""
    labels = labels if gold else relabel(tokens, labels)
    spans = runs(tokens, labels)
    _bracketed_group(tokens, spans)
    _journal_abbreviation_in_authors(tokens, spans)
    names = _people(text, tokens, spans, "author")
    editors = _people(text, tokens, spans, "editor")
    year, month = _year_and_month(text, tokens, spans, guess=not gold)
    title = _field(text, tokens, spans, "title")
    if title is None and book_cited_whole(tokens, labels):
        # A book or proceedings cited whole is its own title, as the training labels have it.
        title = _field(text, tokens, spans, "booktitle")
        del spans["booktitle"]
    container = next((_field(text, tokens, spans, c) for c in ("journal", "booktitle", "series") if c in spans), None)
    pages = _field(text, tokens, spans, "pages")
    # in ASCII text, where ignoring case is lowering it, no ISBN without "isbn" in lower case
    isbn = _ISBN.search(text) if not text.isascii() or "isbn" in text.lower() else None
    return ParsedReference(
        raw=raw, title=tidy_title(title), year=year,
        authors=tuple(n.text for n in names), venue=container, identifiers=tuple(identifiers),
        names=tuple(names), editors=tuple(editors), container=container,
        volume=_field(text, tokens, spans, "volume"), issue=_field(text, tokens, spans, "issue"),
        pages=pages, month=month, publisher=_field(text, tokens, spans, "publisher"),
        place=_field(text, tokens, spans, "place"), note=_field(text, tokens, spans, "note"),
        isbn=re.sub(r"[\s-]", "", isbn.group(1)).upper() if isbn else None, parser=parser)
