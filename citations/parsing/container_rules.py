"""Label rules that move the boundary between the title and where the work appeared (a journal, a
book, proceedings) where the tagger put it in the wrong place: a title read as a journal or a note,
a journal or a book read as the title, a title read on into its container, a quoted title.
`relabel` (relabelling.py) applies them, in its order."""
import re

from citations.parsing.cues import CUES
from citations.parsing.label_runs import (
    PART_NUMERAL,
    YEAR,
    cut_short,
    first_run,
    introducing_in,
    printed_words,
    sentence_start,
)
from citations.parsing.labels import IDENTIFIER_LABELS, OTHER
from citations.parsing.lexicon import shipped as shipped_lexicon
from citations.parsing.rule_needs import needs
from citations.parsing.tokens import Token

_CONTAINERS = {"journal", "booktitle", "series"}


_LOWER_IN_A_NAME = {"of", "and", "the", "for", "in", "on", "de", "du", "des", "la", "le", "der", "für", "und", "&"}


def _title_case(words: list[str]) -> bool:
    """Whether words are written as a name is: capitalised but for the short words joining them."""
    return all(w[:1].isupper() or w in _LOWER_IN_A_NAME for w in words)


def _abbreviated(tokens: list[Token], i: int, j: int) -> bool:
    """Whether most words of tokens i..j are cut short with a stop, as journals' names are printed
    ("J. Physics Condens.", "Astron. Papers Am."), and titles' and books' are not."""
    words = [k for k in range(i, j) if tokens[k].text.isalnum()]
    cut = sum(1 for k in words if k + 1 < len(tokens) and tokens[k + 1].text == ".")
    return 2 * cut > len(words)


@needs("booktitle", "journal", absent=("title",))
def book_before_a_journal(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "... Panangaden. Metrics for labelled Markov processes. Theoretical Computer Science, 318(3)":
    with no title labelled, a run read as a book's title before the journal, with no "In" or editors
    before it, is the title: an article in a journal is in no book."""
    if "title" in labels or "booktitle" not in labels or "journal" not in labels:
        return labels
    i, j = first_run(labels, "booktitle")
    if i > labels.index("journal") or "editor" in labels[:i] or any(t.text.lower() == "in" for t in tokens[:i]):
        return labels              # "In: Pogorelov, N.V. (eds.) Numerical Modeling...": a book after all
    return labels[:i] + ["title"] * (j - i) + labels[j:]


# Words of a note that says where a work stands, not what it is called ("Submitted to", "in press").
_STATUS_WORDS = {"appear", "preprint", "erratum", "published", "review", "see", "also", "private", "communication",
                 "unpublished"}


def _states_where_it_stands(word: str) -> bool:
    """Whether a word (lower case) belongs to a note of where a work stands ("Submitted to", "in press",
    "to appear", "private communication"): the cue group of such notes, and the words it leaves out."""
    return CUES.get(word) == "submitted" or word in _STATUS_WORDS


@needs("author", "journal", absent=("title",))
def title_read_as_a_container(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "Cai, T. T. and Hall, P. (2006). Prediction in Functional Linear Regression. The Annals of
    Statistics 34" and "X. Cheng, ..., Drop Impact Dynamics: Impact Force and Stress Distributions,
    Annu. Rev. Fluid Mech. 54, 57": with no title labelled, the first piece after the authors and the
    date, read as a journal or a note with a journal straight after it (or after a date: "ALICE
    collaboration, The ALICE experiment at the CERN LHC, 2008 JINST 3 S08002"), is the title: a work
    appears in one journal, and its title comes before it."""
    if "title" in labels or "author" not in labels:
        return labels
    n = len(labels)
    i = next((k for k in range(n) if labels[k] not in ("author", "date", OTHER)), None)
    if i is None or labels[i] not in ("journal", "note") or "author" not in labels[:i]:
        return labels
    j = first_run(labels[i:], labels[i])[1] + i
    after = next((k for k in range(j, n) if labels[k] not in (OTHER, "date")), None)
    if after is None or labels[after] != "journal":
        return labels
    if i and tokens[i - 1].text in ("(", "["):
        return labels              # "J. J. Aubert et al. [E598], Phys. Rev. Lett.": a collaboration's name
    words = [k for k in range(i, j) if tokens[k].text.isalnum()]
    lower = [tokens[k].text.lower() for k in words]
    if len(words) < 2 or _abbreviated(tokens, i, j) or any(_states_where_it_stands(w) for w in lower):
        return labels
    if words[-1] + 1 < n and tokens[words[-1] + 1].text == "." and cut_short(tokens[words[-1]].text):
        return labels              # "Acta Phys. | Polonica B": a journal's name, split after a word cut short
    if [(a, b) for a, b, names in shipped_lexicon().phrase_matches(lower) if {"journal", "collaboration"} & set(names)] \
            == [(0, len(lower))]:
        return labels              # a known journal, or a collaboration ("C. Amsler et al., Particle Data Group")
    return labels[:i] + ["title"] * (j - i) + labels[j:]


@needs("journal", absent=("title", "pages"))
def book_read_as_a_journal(tokens: list[Token], labels: list[str]) -> list[str]:
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


@needs("place", "publisher", "author", absent=("title", "booktitle"), words=(":",))
def title_before_the_imprint(tokens: list[Token], labels: list[str]) -> list[str]:
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
    place = sentence_start(tokens, colon - 1)
    if place < 2 or tokens[place - 1].text != "." or "place" not in labels[place:colon]:
        return labels
    start = sentence_start(tokens, place - 2)
    if (start == 0 or "author" not in labels[:start]
            or any(labels[k] not in _READ_FOR_A_BOOKS_TITLE for k in range(start, place - 1))):
        return labels
    return labels[:start] + ["title"] * (place - 1 - start) + labels[place - 1:]


@needs("title", absent=("journal",))
def journal_read_as_the_title(tokens: list[Token], labels: list[str]) -> list[str]:
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
            or not _title_case(words)
            or labels[volume] != "volume" or CUES.get(tokens[volume - 1].text.lower()) == "vol"
            or (volume >= 2 and CUES.get(tokens[volume - 2].text.lower()) == "vol")):
        return False
    end = volume
    while end < len(labels) and labels[end] == "volume":
        end += 1
    return next((label for label in labels[end:] if label not in (OTHER, "issue")), None) == "pages"


_OPENING_QUOTES = {"“": "”", "\"": "\"", "‘": "’"}
_INSIDE_A_QUOTED_TITLE = {"title", OTHER, "date", "volume", "pages", "issue"}


def _container_after_the_quotes(labels: list[str], start: int, end: int) -> list[str]:
    """ "“χ(2) effects in waveguides,” Quantum and Semiclassical Optics: Journal of ...": title read on
    past the closing quote, into the container named after it, is the container's."""
    after = next((label for label in labels[end:] if label != OTHER), None)
    if after not in _CONTAINERS:
        return labels
    return labels[:start] + [after if label == "title" else label for label in labels[start:end]] + labels[end:]


@needs("title", one_of=tuple(_OPENING_QUOTES))
def quoted_title(tokens: list[Token], labels: list[str]) -> list[str]:
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


@needs("title", words=("In",))
def book_read_into_the_title(tokens: list[Token], labels: list[str]) -> list[str]:
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


@needs("title")
def proceedings_read_into_the_title(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "O. Kirstein et al., Neutron Position Sensitive Detectors for the ESS, Proceedings of Science
    (Vertex 2014) 029": a title read on past a comma into "Proceedings" or "Proc." names the proceedings
    the work appeared in after it, however PDF text broke the word ("Pro-ceedingsof Science")."""
    found = first_run(labels, "title")
    if found is None:
        return labels
    i, j = found
    text = [t.text for t in tokens]
    for k in range(i + 2, j - 1):
        if text[k] != "," or not text[k + 1][:1].isupper():
            continue
        word = printed_words(tokens, k + 1, j)[0].replace("-", "").lower()
        if word.startswith("proceedings") or word == "proc" and text[k + 2] == ".":
            return labels[:k] + [OTHER] + ["booktitle"] * (j - k - 1) + labels[j:]
    return labels


@needs("title", words=("-",))
def journal_opening_inside_a_word(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "... using the cluster-formation model J. Phys. G 40 79601" as PDF text gives it ("cluster
    -formationmodel J .Phys .G"), and "... asymptotically flat space-timeProc. R. Soc. A": a journal or
    book does not open inside a word; the half of a hyphenated word the tagger gave the container, glued
    to the hyphen the title ends in, is the title's."""
    found = first_run(labels, "title")
    if found is None:
        return labels
    i, j = found
    if (j + 1 >= len(tokens) or labels[j] not in _CONTAINERS or tokens[j - 1].text != "-"
            or tokens[j].start != tokens[j - 1].end or not tokens[j].text[:1].islower() or j - 1 == i):
        return labels
    return labels[:j] + ["title"] + labels[j + 1:]


@needs("title", "journal")
def journal_abbreviation_closing_the_title(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "... cluster-formation model; a new approach Rom .Rep .Phys .65 1281 -300", as PDF text of a style
    that puts no stop between a title and its journal gives it, each abbreviation's stop set apart
    from its word and glued to the next: the journal's first word cut short ("Rom .") read as the title's
    last is the journal's. A stop glued to its word may end the title ("... with KamLAND-Zen. Phys. Rev.
    Lett.", "... in Na3Bi. Phys. Rev. B") and is left alone."""
    found = first_run(labels, "title")
    if found is None:
        return labels
    i, j = found
    if (j + 2 >= len(tokens) or j - i < 3 or tokens[j].text != "." or labels[j + 1] != "journal"
            or not cut_short(tokens[j - 1].text)
            or not (tokens[j - 1].end < tokens[j].start and tokens[j + 1].start == tokens[j].end)
            or tokens[j - 2].text in (".", ",", ":", ";")):
        return labels
    journal = first_run(labels[j + 1:], "journal")
    if not _abbreviated(tokens, j + 1, j + 1 + journal[1]):
        return labels              # "... Na3Bi. Science 350", "... to the Golgi. EMBO J": the title's own word
    return labels[:j - 1] + ["journal", "journal"] + labels[j + 1:]


@needs("title", "journal", "pages")
def number_closing_the_title(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "... heavy nuclei near magic numbers 82 and 126 Eur. Phys. J. A 51 1-12": a number read as pages
    between the title and its journal, where the pages follow the journal's volume, is the title's."""
    found = first_run(labels, "title")
    if found is None:
        return labels
    j = found[1]
    k = j
    while k < len(labels) and labels[k] == "pages" and tokens[k].text.isdigit():
        k += 1
    if k == j or k >= len(labels) or labels[k] != "journal" or "pages" not in labels[k:] \
            or tokens[j - 1].text in (".", ",", ":", ";", ")"):
        return labels
    return labels[:j] + ["title"] * (k - j) + labels[k:]


_SERIES = re.compile(r"(?:Series|Ser)[A-Z]?")


@needs("title", "journal")
def journal_read_before_its_series(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "E. C. Stoner, Proceedings of the Royal Society of London. Series A - Mathematical and Physical
    Sciences 152, 672 (1935)": a "title" that opens with a journal's or proceedings' word, straight
    before a journal that opens with its series ("Series A", "Ser. B"), is the journal's name."""
    found = first_run(labels, "title")
    if found is None:
        return labels
    i, j = found
    k = j + (j < len(tokens) and tokens[j].text == ".")
    if (k >= len(tokens) or labels[k] != "journal" or not _SERIES.fullmatch(tokens[k].text)
            or CUES.get(tokens[i].text.lower()) not in ("journal", "proc") or labels[j:k] not in ([], [OTHER])):
        return labels
    return labels[:i] + ["journal"] * (k - i) + labels[k:]


_TITLE_PIECES = {"title", "journal", "booktitle"}


@needs("volume", words=(":",))
def volume_inside_a_title(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "String theory. Vol. 1: An introduction to the bosonic string", "Fluid Mechanics – Volume 6:
    Course of Theoretical Physics", "The Medieval French Roman d'Alexandre. Volume VI: Version of
    Alexandre de Paris" and "Mathematical Population Genetics 1: Theoretical Introduction": a volume's
    number (or numeral)
    before a colon, with the volume's title after it, is part of the title of a work in volumes, and so
    is the name before it, however the tagger read the two pieces."""
    n = len(tokens)
    for k in range(2, n - 2):
        if labels[k] != "volume" or not (tokens[k].text.isdigit() or PART_NUMERAL.fullmatch(tokens[k].text)) \
                or tokens[k + 1].text != ":" \
                or labels[k + 2] not in ("title", "booktitle") or not tokens[k + 2].text[:1].isupper():
            continue
        start = k
        while start > 0 and (labels[start - 1] == OTHER and tokens[start - 1].text in (".", "–", "-", ",")
                             or CUES.get(tokens[start - 1].text.lower()) == "vol"):
            start -= 1
        if start == 0 or labels[start - 1] not in _TITLE_PIECES or start < k and not (
                CUES.get(tokens[start].text.lower()) == "vol" or tokens[start].text in ("–", "-")
                or tokens[start].text == "." and k - start >= 2):
            continue
        first = start - 1
        while first > 0 and labels[first - 1] == labels[start - 1]:
            first -= 1
        end = k + 2
        while end < n and labels[end] == labels[k + 2]:
            end += 1
        if "title" in labels[:first] or "title" in labels[end:]:
            continue
        return labels[:first] + ["title"] * (end - first) + labels[end:]
    return labels


# What follows a journal's name: its numbers, its date, a link to the work, or nothing.
_AFTER_A_JOURNAL = IDENTIFIER_LABELS | {"volume", "issue", "pages", "date"}


@needs("title", absent=("journal", "booktitle", "series", "publisher"))
def journal_read_into_the_title(tokens: list[Token], labels: list[str]) -> list[str]:
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
              and text[k - 1].isalnum() and not cut_short(text[k - 1]) and tokens[k + 1].start > tokens[k].end),
             None)
    if k is None:
        return labels
    after = next((m for m in range(j, n) if labels[m] != OTHER), None)
    if after is not None and labels[after] not in _AFTER_A_JOURNAL:
        return labels
    words = [w for w in printed_words(tokens, k + 1, j) if w[:1].isalpha()]
    if (not words or len(words) > 8 or any(w in (":", "?", "!") for w in text[k + 1:j])
            or not _title_case(words)
            or (len(words) == 1 and len(words[0]) < 4)):
        return labels
    return labels[:k] + [OTHER] + ["journal"] * (j - k - 1) + labels[j:]


@needs("title", "author")
def book_after_in(tokens: list[Token], labels: list[str]) -> list[str]:
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


_IDENTIFIER_CUES = {"doi", "arxiv", "isbn", "issn", "pmid", "url"}


def identifier_cue_closing_the_container(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "Journal of Chemometrics Doi:10.1002/cem.70017." and "Remote Sensing ISSN: 2072-4292": the word that
    announces an identifier is not the journal's last word, though no stop parts the two."""
    for c in _CONTAINERS:
        found = first_run(labels, c)
        if found is None or found[1] - found[0] < 2:
            continue
        k = found[1] - 1
        if tokens[k].text.lower() in _IDENTIFIER_CUES and k + 1 < len(tokens) \
                and (tokens[k + 1].text == ":" or labels[k + 1] in IDENTIFIER_LABELS):
            return labels[:k] + [OTHER] + labels[k + 1:]
    return labels


@needs("date")
def year_opening_the_proceedings(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "In 2014 36th Annual International Conference of the IEEE Engineering in Medicine and Biology
    Society, pages 4793–4796, 2014." and "in: 2024 IEEE Workshop on Energy Data Visualization": a year
    straight after "In", opening the proceedings' name, is that name's first word (IEEE names its
    conferences so), though the tagger read it as the date; with no other date, the year is still read
    from it (fields.py). Nature's styles print no "In": a year straight after the title's stop opens the
    name where a word of it says it is a conference's ("Isolation Forest. 2008 Eighth IEEE International
    Conference on Data Mining, pp. 413–422.")."""
    if "date" not in labels:
        return labels
    for k in [k for k, label in enumerate(labels[:-1]) if label == "date" and k]:
        if labels[k + 1] not in ("booktitle", "journal") or not YEAR.fullmatch(tokens[k].text):
            continue
        before = k - 1 - (tokens[k - 1].text == ":")
        after_in = before >= 0 and tokens[before].text.lower() == "in"
        name_end = first_run(labels[k + 1:], labels[k + 1])[1] + k + 1
        after_title = (before > 0 and tokens[before].text == "." and labels[before - 1] == "title"
                       and any(CUES.get(t.text.lower()) == "proc" for t in tokens[k + 1:name_end]))
        if (after_in or after_title) and labels[before] == labels[k - 1] == OTHER and tokens[k + 1].text[:1].isalnum():
            return labels[:k] + [labels[k + 1]] + labels[k + 1:]
    return labels


@needs("title")
def book_read_as_a_second_title(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "Auray, N. (2012), Online communities and governance mechanisms, in E. Brousseau, M. Marzouki &
    C. Méadel (eds.), Governance, Regulation and Powers on the Internet. Cambridge ...": a second
    title that "in" introduces, across the editors, after the work's own title, is the book's."""
    found = first_run(labels, "title")
    if found is None:
        return labels
    second = first_run(labels[found[1]:], "title")
    if second is None:
        return labels
    i, j = second[0] + found[1], second[1] + found[1]
    k = introducing_in(tokens, labels, i)
    if k is None or k < found[1] or "title" in labels[j:]:
        return labels
    return labels[:i] + ["booktitle"] * (j - i) + labels[j:]


@needs("journal")
def journal_cut_at_a_stop(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "Phys. Rev. D 66": an abbreviation's stop inside a journal's name, read as no field's, does not
    cut the name in two (the field would keep only "Phys. Rev"). A stop after an English word ends a
    sentence: "The Journal Club. Postgrad Med J" is a title and a journal."""
    cuts = [k for k in range(1, len(tokens) - 1) if tokens[k].text == "." and labels[k] == OTHER
            and labels[k - 1] == labels[k + 1] == "journal" and tokens[k].start == tokens[k - 1].end]
    if not cuts:
        return labels
    english = shipped_lexicon().words["english"]
    cuts = [k for k in cuts if tokens[k - 1].text.lower() not in english
            or _abbreviated(tokens, first_run(labels[:k], "journal")[0], k + 1)]
    if not cuts:
        return labels
    labels = list(labels)
    for k in cuts:
        labels[k] = "journal"
    return labels
