"""The tagger's labels corrected where a reference style's conventions decide what the model could
not: each rule names the convention, and `relabel` applies them all, in order, before the labels
become fields (fields.py)."""
import re

from citations.parsing.author_rules import (
    author_list_tail_opening_a_title,
    collaboration_in_brackets,
    family_name_opening_a_title,
    name_before_a_colon_opening_a_title,
    names_opening_a_title,
    organisation_opening_a_title,
    title_read_as_the_last_author,
)
from citations.parsing.cues import CUES
from citations.parsing.label_runs import YEAR, first_run, introducing_in
from citations.parsing.labels import IDENTIFIER_LABELS, OTHER
from citations.parsing.lexicon import shipped as shipped_lexicon
from citations.parsing.locators import PAGE
from citations.parsing.tokens import Token


def relabel(tokens: list[Token], labels: list[str]) -> list[str]:
    """The labels with every convention below applied (a new list where any changes)."""
    for rule in (_named_document_title, organisation_opening_a_title, _lettered_year_opening_a_title,
                 _year_inside_a_titles_opening, collaboration_in_brackets, names_opening_a_title,
                 author_list_tail_opening_a_title, family_name_opening_a_title, title_read_as_the_last_author,
                 _book_before_a_journal, _title_read_as_a_container, _book_read_as_a_journal,
                 _journal_read_as_the_title,
                 _title_before_the_imprint, name_before_a_colon_opening_a_title, _quoted_title, _title_edges,
                 _book_read_into_the_title, _journal_read_into_the_title, _translation_closing_the_title,
                 _book_after_in, _year_read_as_a_number, _page_read_as_a_volume, _page_letter_read_as_the_volume):
        labels = rule(tokens, labels)
    return labels


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
              if labels[k] in ("pages", "volume") and YEAR.fullmatch(tokens[k].text)), None)
    if k is None:
        return labels
    label = labels[k]
    vancouver = k + 2 < n and tokens[k + 1].text == ";" and tokens[k + 2].text.isdigit()
    alone = (k == 0 or labels[k - 1] != label) and (k + 1 == n or labels[k + 1] != label)
    last = not any(tokens[j].text[0].isdigit() and labels[j] not in IDENTIFIER_LABELS for j in range(k + 1, n))
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
    if (k is None or k + 1 >= len(tokens) or not YEAR.fullmatch(tokens[k].text)
            or not (len(tokens[k + 1].text) == 1 and tokens[k + 1].text.islower())
            or tokens[k + 1].start != tokens[k].end):
        return labels
    return labels[:k] + ["date", "date"] + labels[k + 2:]


_PART_NUMERAL = re.compile(r"[IVX]{1,4}")
_RANGE_DASHES = {"-", "–", "—"}


_TITLE_OPENINGS = {"the", "a", "an", "on", "in", "of", "from", "to", "towards", "toward", "for", "and", "at"}


def _year_inside_a_titles_opening(tokens: list[Token], labels: list[str]) -> list[str]:
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


def _book_before_a_journal(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "... Panangaden. Metrics for labelled Markov processes. Theoretical Computer Science, 318(3)":
    with no title labelled, a run read as a book's title before the journal, with no "In" or editors
    before it, is the title: an article in a journal is in no book."""
    if "title" in labels or "booktitle" not in labels or "journal" not in labels:
        return labels
    i, j = first_run(labels, "booktitle")
    if i > labels.index("journal") or "editor" in labels[:i] or any(t.text.lower() == "in" for t in tokens[:i]):
        return labels              # "In: Pogorelov, N.V. (eds.) Numerical Modeling...": a book after all
    return labels[:i] + ["title"] * (j - i) + labels[j:]


def _title_edges(tokens: list[Token], labels: list[str]) -> list[str]:
    """Words at a title's edges that its style prints as part of it, where the tagger left them out:
    a part's numeral ("Fourier integral operators. II. Acta Math."), a span of years closing a
    history's title when the reference's date is printed elsewhere ("Banking reform and the Federal
    Reserve, 1863-1923. Cornell"), a capitalised "In" before a title the tagger started at "the" ("In
    the Wake of Chaos") and the rest of a number cut at its dot ("Introducing GPT-5.4"). And a year
    closing the title after a comma, where no date is labelled, is the date ("Sticky PDMP samplers for
    sparse and local inference problems, 2021. arXiv:...")."""
    found = first_run(labels, "title")
    if found is None:
        return labels
    i, j = found
    n = len(tokens)
    text = [t.text for t in tokens]
    labels = list(labels)
    while (j + 1 < n and text[j] == "." and text[j - 1].isdigit() and text[j + 1].isdigit()
           and tokens[j - 1].end == tokens[j].start and tokens[j].end == tokens[j + 1].start):
        labels[j:j + 2] = ["title", "title"]       # a version's number is not cut at its dot ("GPT-5.4")
        j += 2
    if (j + 2 <= n and text[j] == "." and _PART_NUMERAL.fullmatch(text[j + 1])
            and (j + 2 == n or text[j + 2] in (".", ",", ";"))):
        labels[j:j + 2] = ["title", "title"]
    elif (j + 4 <= n and text[j] == "," and YEAR.fullmatch(text[j + 1]) and text[j + 2] in _RANGE_DASHES
            and YEAR.fullmatch(text[j + 3]) and (j + 4 == n or text[j + 4] in (".", ","))
            and any(label == "date" for k, label in enumerate(labels) if not j < k < j + 4)):
        labels[j:j + 4] = ["title"] * 4
    if j - i > 3 and text[j - 2] == "," and YEAR.fullmatch(text[j - 1]) and "date" not in labels:
        labels[j - 2:j] = [OTHER, "date"]
    if i and text[i - 1] == "In" and text[i][:1].islower() and labels[i - 1] == OTHER:
        labels[i - 1] = "title"
    return labels


_OPENING_QUOTES = {"“": "”", "\"": "\"", "‘": "’"}
_INSIDE_A_QUOTED_TITLE = {"title", OTHER, "date", "volume", "pages", "issue"}


_CONTAINERS = {"journal", "booktitle", "series"}


def _container_after_the_quotes(labels: list[str], start: int, end: int) -> list[str]:
    """ "“χ(2) effects in waveguides,” Quantum and Semiclassical Optics: Journal of ...": title read on
    past the closing quote, into the container named after it, is the container's."""
    after = next((label for label in labels[end:] if label != OTHER), None)
    if after not in _CONTAINERS:
        return labels
    return labels[:start] + [after if label == "title" else label for label in labels[start:end]] + labels[end:]


def _quoted_title(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "“5G evolution: A view on ... release 15,” IEEE access": a title its style prints in quotes is
    all of the quoted text, numbers and dates in it included, less the punctuation closing it."""
    found = first_run(labels, "title")
    if found is None:
        return labels
    i, j = found
    text = [t.text for t in tokens]
    opening = next((k for k in range(i - 1, max(i - 4, -1), -1) if text[k] in _OPENING_QUOTES), None)
    if opening is None:
        return labels
    quote = _OPENING_QUOTES[text[opening]]
    # The title read on past a quote its closing comma or stop comes before ("...waveguides,” Quantum"),
    # not past one a title goes on after ("“my answer is c”: First-token ...").
    inner = next((k for k in range(i + 1, j - 1) if text[k] == quote and text[k - 1] in (",", ".")), None)
    if inner is not None:
        labels = _container_after_the_quotes(labels, inner + 1, j)
        j = inner + 1
    closing = next((k for k in range(j - 1, len(text)) if text[k] == quote), None)
    if closing is None or closing == opening + 1:
        return labels
    inside = range(opening + 1, closing)
    if any(labels[k] not in _INSIDE_A_QUOTED_TITLE for k in inside):
        return labels
    end = closing
    while end > opening + 1 and text[end - 1] in (",", ".", ";", ":"):
        end -= 1
    labels = list(labels)
    labels[opening + 1:end] = ["title"] * (end - opening - 1)
    return labels


def _cut_short(word: str) -> bool:
    """Whether a word before a stop reads as an abbreviation ("Phys.", "Clim.", "Publ."): short,
    capitalised (not an acronym: "AA.") and no English word."""
    return (len(word) <= 5 and word[:1].isupper() and word[1:].islower()
            and word.lower() not in shipped_lexicon().words["english"])


def _abbreviated(tokens: list[Token], i: int, j: int) -> bool:
    """Whether most words of tokens i..j are cut short with a stop, as journals' names are printed
    ("J. Physics Condens.", "Astron. Papers Am."), and titles' and books' are not."""
    words = [k for k in range(i, j) if tokens[k].text.isalnum()]
    cut = sum(1 for k in words if k + 1 < len(tokens) and tokens[k + 1].text == ".")
    return 2 * cut > len(words)


# Words of a note that says where a work stands, not what it is called ("Submitted to", "in press").
_STATUS_WORDS = {"submitted", "accepted", "press", "appear", "preparation", "preprint", "erratum", "forthcoming",
                 "published", "review", "see", "also", "private", "communication", "unpublished"}


def _title_read_as_a_container(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "Cai, T. T. and Hall, P. (2006). Prediction in Functional Linear Regression. The Annals of
    Statistics 34" and "X. Cheng, ..., Drop Impact Dynamics: Impact Force and Stress Distributions,
    Annu. Rev. Fluid Mech. 54, 57": with no title labelled, the first piece after the authors and the
    date, read as a journal or a note with a journal straight after it, is the title: a work appears
    in one journal, and its title comes before it."""
    if "title" in labels or "author" not in labels:
        return labels
    n = len(labels)
    i = next((k for k in range(n) if labels[k] not in ("author", "date", OTHER)), None)
    if i is None or labels[i] not in ("journal", "note") or "author" not in labels[:i]:
        return labels
    j = first_run(labels[i:], labels[i])[1] + i
    after = next((k for k in range(j, n) if labels[k] != OTHER), None)
    if after is None or labels[after] != "journal":
        return labels
    if i and tokens[i - 1].text in ("(", "["):
        return labels              # "J. J. Aubert et al. [E598], Phys. Rev. Lett.": a collaboration's name
    words = [k for k in range(i, j) if tokens[k].text.isalnum()]
    lower = [tokens[k].text.lower() for k in words]
    if len(words) < 2 or _abbreviated(tokens, i, j) or _STATUS_WORDS & set(lower):
        return labels
    if words[-1] + 1 < n and tokens[words[-1] + 1].text == "." and _cut_short(tokens[words[-1]].text):
        return labels              # "Acta Phys. | Polonica B": a journal's name, split after a word cut short
    if [(a, b) for a, b, names in shipped_lexicon().phrase_matches(lower) if {"journal", "collaboration"} & set(names)] \
            == [(0, len(lower))]:
        return labels              # a known journal, or a collaboration ("C. Amsler et al., Particle Data Group")
    return labels[:i] + ["title"] * (j - i) + labels[j:]


def _book_read_as_a_journal(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "P. S. de Laplace, Théorie analytique des probabilités, Vol. 7 (Courcier, 1820)": with no title
    labelled, a "journal" its publisher (or its place) follows, with no pages, is a book cited whole,
    and its title the work's: journals are cited by pages, books by publisher."""
    if "title" in labels or "journal" not in labels or "pages" in labels:
        return labels
    i, j = first_run(labels, "journal")
    if "journal" in labels[j:] or not {"publisher", "place"} & set(labels[j:]) or _abbreviated(tokens, i, j):
        return labels
    return labels[:i] + ["title"] * (j - i) + labels[j:]


# What a book's title is misread as; an edition, a volume count or a medium ("2nd edition", "14
# vols", "DVD") is read as a note or a volume, and is no title.
_READ_FOR_A_BOOKS_TITLE = {"author", "place", "series", "journal", OTHER}


def _title_before_the_imprint(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "Cortázar, Julio. Rayuela. Buenos Aires: Editorial Sudamericana, 1963.": with no title labelled,
    the sentence before a book's imprint (place: publisher) is its title, where the authors' sentence
    comes before it; the tagger read it as a name, a place or a series."""
    if "title" in labels or "booktitle" in labels:
        return labels
    n = len(tokens)
    colon = next((k for k in range(1, n - 1) if tokens[k].text == ":" and labels[k - 1] == "place"
                  and labels[k + 1] == "publisher"), None)
    if colon is None:
        return labels
    place = _sentence_start(tokens, colon - 1)
    if place < 2 or tokens[place - 1].text != "." or "place" not in labels[place:colon]:
        return labels
    start = _sentence_start(tokens, place - 2)
    if (start == 0 or "author" not in labels[:start]
            or any(labels[k] not in _READ_FOR_A_BOOKS_TITLE for k in range(start, place - 1))):
        return labels
    return labels[:start] + ["title"] * (place - 1 - start) + labels[place - 1:]


def _journal_read_as_the_title(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "Chabrier, G. 2003, Publications of the Astronomical Society of the Pacific, 115, 763" and "J. D.
    Wilson and B. L. Sawford, Boundary-Layer Meteorology, 78, 191-210 (1996)": with no journal labelled,
    a "title" with the volume or pages after it is the journal where it is all of a known journal's
    name, or a name in title case with a bare volume and then pages after it: such styles print no
    title, and a titled work names its journal after it."""
    found = first_run(labels, "title") if "journal" not in labels else None
    if found is None:
        return labels
    i, j = found
    n = len(tokens)
    after = next((k for k in range(j, n) if labels[k] != OTHER), None)
    if after is None or labels[after] not in ("volume", "pages"):
        return labels
    words = [t.text.lower() for t in tokens[i:j] if t.text.isalnum()]
    known = [(start, end) for start, end, names in shipped_lexicon().phrase_matches(words)
             if "journal" in names] == [(0, len(words))]
    if not known and not _journal_shaped(tokens, labels, i, j, after):
        return labels
    return labels[:i] + ["journal"] * (j - i) + labels[j:]


def _journal_shaped(tokens: list[Token], labels: list[str], i: int, j: int, volume: int) -> bool:
    """Whether tokens i..j read as a journal's name before its numbers: a few words in title case and
    one piece, then a volume with no cue before it ("Vol. 1-3" numbers a book's volumes), then pages."""
    words = [t.text for t in tokens[i:j] if t.text[:1].isalpha()]
    if (not 1 <= len(words) <= 6 or any(t.text in (",", ":", ";", "?", "!") for t in tokens[i:j])
            or not all(w[:1].isupper() or w in _LOWER_IN_A_NAME for w in words)
            or labels[volume] != "volume" or CUES.get(tokens[volume - 1].text.lower()) == "vol"
            or (volume >= 2 and CUES.get(tokens[volume - 2].text.lower()) == "vol")):
        return False
    end = volume
    while end < len(labels) and labels[end] == "volume":
        end += 1
    return next((label for label in labels[end:] if label not in (OTHER, "issue")), None) == "pages"


def _book_read_into_the_title(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "Robert Wilson. Equilibrium in bid-ask markets. In Arrow and the ascent of economic theory: Essays
    in honor of Kenneth J. Arrow, pages 375–414.": a title read on past its closing stop into "In" and
    a capitalised name is the work's title, then the book it appeared in."""
    found = first_run(labels, "title")
    if found is None:
        return labels
    i, j = found
    text = [t.text for t in tokens]
    k = next((k for k in range(i + 3, j - 2) if text[k] == "In" and text[k - 1] == "." and len(text[k - 2]) > 1
              and tokens[k].start > tokens[k - 1].end and text[k + 1][:1].isupper()), None)
    if k is None:
        return labels
    end = j
    while end < len(labels) and labels[end] in _CONTAINERS and labels[end] == labels[j]:
        end += 1                   # the book's name read on as a journal ("... Essays in honor | of Kenneth J. Arrow")
    return labels[:k - 1] + [OTHER, OTHER] + ["booktitle"] * (end - k - 1) + labels[end:]


# What follows a journal's name: its numbers, its date, a link to the work, or nothing.
_AFTER_A_JOURNAL = IDENTIFIER_LABELS | {"volume", "issue", "pages", "date"}
_LOWER_IN_A_NAME = {"of", "and", "the", "for", "in", "on", "de", "du", "des", "la", "le", "der", "für", "und", "&"}


def _journal_read_into_the_title(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "Simple imperative polymorphism. Lisp and Symbolic Computation 8, 4 (Dec. 1995), 343-356." and
    "Neuron breakthrough offers hope... The Times. Retrieved from http://...": with no container
    labelled, a title read on past its stop into a name in title case that the volume, the pages,
    the date or a link follows, stops at its stop: that name is the journal's."""
    if _CONTAINERS & set(labels) or "publisher" in labels:
        return labels
    found = first_run(labels, "title")
    if found is None:
        return labels
    i, j = found
    n = len(tokens)
    text = [t.text for t in tokens]
    k = next((k for k in range(j - 2, i + 2, -1) if text[k] == "." and len(text[k - 1]) > 1
              and text[k - 1].isalnum() and not _cut_short(text[k - 1]) and tokens[k + 1].start > tokens[k].end),
             None)
    if k is None:
        return labels
    after = next((m for m in range(j, n) if labels[m] != OTHER), None)
    if after is not None and labels[after] not in _AFTER_A_JOURNAL:
        return labels
    words = [w for w in text[k + 1:j] if w[:1].isalpha()]
    if (not words or len(words) > 8 or any(w in (":", "?", "!") for w in text[k + 1:j])
            or not all(w[:1].isupper() or w in _LOWER_IN_A_NAME for w in words)
            or (len(words) == 1 and len(words[0]) < 4)):
        return labels
    return labels[:k] + [OTHER] + ["journal"] * (j - k - 1) + labels[j:]


# Words opening a note on who translated, edited or reprinted a work, and the word after each.
_TRANSLATION_CUES = {"translated": {"by"}, "trans": {"."}, "transl": {"."}, "tr": {"."},
                     "übersetzt": {"von"}, "ubersetzt": {"von"}, "traduit": {"par"}, "trad": {".", "fr", "par"},
                     "edited": {"by"}, "reprint": {",", "."}, "revised": {"and", "by"}}


def _translation_closing_the_title(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "The Trial. Translated by Willa and Edwin Muir; revised by E. M. Butler. New York: Schocken" and
    "Semiotics and the Philosophy of Language. Reprint, illustrated.": who translated, edited or
    reprinted a work, read on after its title's stop or comma, is a note on the edition, not the title."""
    found = first_run(labels, "title")
    if found is None:
        return labels
    i, j = found
    text = [t.text for t in tokens]
    n = len(text)
    k = next((k for k in range(i + 2, j) if text[k - 1] in (".", ",", "(", ";") and k + 1 < n
              and text[k + 1].lower() in _TRANSLATION_CUES.get(text[k].lower(), ())), None)
    if k is None:
        return labels
    return labels[:k - 1] + [OTHER] + ["note"] * (j - k) + labels[j:]


def _book_after_in(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "Mamajek E. E., 2009, in Usuda T., Tamura M., Ishii M., eds, American Institute of Physics
    Conference Series Vol. 1158, Exoplanets and Disks: Their Formation and Diversity. pp 3-10": with no
    title before "in", what follows "in" names where the work appeared, the book or proceedings, and
    the title read there is that book's: the style prints no title of the work itself. A capitalised
    "In" straight before the title may be the title's own first word ("In Search of Lost Time")."""
    found = first_run(labels, "title")
    if found is None:
        return labels
    i, j = found
    k = introducing_in(tokens, labels, i)
    if k is None or "author" not in labels[:k]:
        return labels
    if k == i - 1 and (tokens[k].text == "In" or not tokens[i].text[:1].isupper()):
        return labels
    return labels[:i] + ["booktitle"] * (j - i) + labels[j:]


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


def _page_read_as_a_volume(tokens: list[Token], labels: list[str]) -> list[str]:
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
        if (b + 1 < len(tokens) and tokens[b].text in _RANGE_DASHES and _A_PAGE.fullmatch(tokens[b + 1].text)
                and labels[b + 1] not in _NOT_A_RANGES_END):
            b += 2            # the range's end, whatever the model made of it ("25-45")
    else:
        return labels
    return labels[:a] + ["pages"] * (b - a) + labels[b:]


def _page_letter_read_as_the_volume(tokens: list[Token], labels: list[str]) -> list[str]:
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
