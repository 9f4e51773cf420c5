"""The tagger's labels corrected where a reference style's conventions decide what the model could
not: each rule names the convention, and `relabel` applies them all, in order, before the labels
become fields (fields.py)."""
import re

from citations.parsing.labels import IDENTIFIER_LABELS, OTHER
from citations.parsing.tokens import Token

YEAR = re.compile(r"(?<![0-9])(1[5-9][0-9][0-9]|20[0-9][0-9])(?![0-9])")


def relabel(tokens: list[Token], labels: list[str]) -> list[str]:
    """The labels with every convention below applied (a new list where any changes)."""
    for rule in (_named_document_title, _lettered_year_opening_a_title, _year_inside_a_titles_opening,
                 _family_name_opening_a_title, _title_read_as_the_last_author, _book_before_a_journal, _title_edges,
                 _year_read_as_a_number):
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


def _family_name_opening_a_title(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "Z. Guo, N. Ohta, and S. Tsujikawa Realizing scale-invariant...": in a list whose names put
    the initials first, a last name of initials alone is missing its family name, and the capitalised
    word after it is that, though no comma parts it from the title ("Murakami K. Endoscopic..." and
    "Green, B. Renovation..." put the family name first, and are left alone)."""
    found = _title_run(labels)
    if found is None:
        return labels
    i, j = found
    if j - i < 3 or i < 2 or not (tokens[i].text[:1].isupper() and tokens[i].text.isalpha()):
        return labels
    stop = i - 1 if tokens[i - 1].text == "." and labels[i - 1] == OTHER else i    # the last initial's
    k = stop - 1
    if labels[k] != "author":
        return labels
    initials = 0
    while k >= 0 and labels[k] == "author" and tokens[k].text not in (",", ";", "&", "and"):
        word = tokens[k].text
        if word == "." or word == "-":
            pass
        elif len(word) == 1 and word.isupper():
            initials += 1
        else:
            return labels
        k -= 1
    if not initials or not _initials_first(tokens, labels):     # not "Green, B.", whose family comes first
        return labels
    return labels[:stop] + ["author"] * (i + 1 - stop) + labels[i + 1:]


def _initials_first(tokens: list[Token], labels: list[str]) -> bool:
    """Whether the author list puts each name's initials first ("Z. Guo, ..."), not its family name."""
    first = labels.index("author") if "author" in labels else None
    return (first is not None and len(tokens[first].text) == 1 and tokens[first].text.isupper()
            and first + 1 < len(tokens) and tokens[first + 1].text == ".")


def _title_read_as_the_last_author(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "J. Feder, Fractals, Plenum Press" and "H. Kim, Vortices and Vermas, arXiv:...": with no title
    labelled, in a list whose names put their initials first, the comma-parted piece of the authors
    after the last one with an initial is no name but the title, and what follows it no author
    ("P. Baudis, CMA-ES/pycma on Github, Zenodo, DOI:...")."""
    if "title" in labels or not _initials_first(tokens, labels):
        return labels
    first = labels.index("author")
    end = first
    while end < len(labels) and labels[end] == "author":
        end += 1
    commas = [k for k in range(first, end) if tokens[k].text == ","]
    pieces = [(a + 1, b) for a, b in zip([first - 1] + commas, commas + [end]) if b > a + 1]
    named = [k for k, (a, b) in enumerate(pieces) if any(_is_initial(tokens, m) for m in range(a, b))]
    if not named or named[-1] + 1 >= len(pieces):
        return labels
    a, b = pieces[named[-1] + 1]
    words = [t.text for t in tokens[a:b]]
    if (any(w in (".", "et", "al", "&") for w in words) or words[0] == "and" or not words[0][:1].isupper()
            or len(words) == 2 or (b < len(tokens) and tokens[b].text == ".")):
        return labels              # an abbreviated journal ("Phys."), "et al.", or a given and family name
    return labels[:a - 1] + [OTHER] + ["title"] * (b - a) + [OTHER] * (end - b) + labels[end:]


def _is_initial(tokens: list[Token], k: int) -> bool:
    return len(tokens[k].text) == 1 and tokens[k].text.isupper()


def _book_before_a_journal(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "... Panangaden. Metrics for labelled Markov processes. Theoretical Computer Science, 318(3)":
    with no title labelled, a run read as a book's title before the journal, with no "In" or editors
    before it, is the title: an article in a journal is in no book."""
    if "title" in labels or "booktitle" not in labels or "journal" not in labels:
        return labels
    i = labels.index("booktitle")
    if i > labels.index("journal") or "editor" in labels[:i] or any(t.text.lower() == "in" for t in tokens[:i]):
        return labels              # "In: Pogorelov, N.V. (eds.) Numerical Modeling...": a book after all
    j = i
    while j < len(labels) and labels[j] == "booktitle":
        j += 1
    return labels[:i] + ["title"] * (j - i) + labels[j:]


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
    elif (j + 4 <= n and text[j] == "," and YEAR.fullmatch(text[j + 1]) and text[j + 2] in _RANGE_DASHES
            and YEAR.fullmatch(text[j + 3]) and (j + 4 == n or text[j + 4] in (".", ","))
            and any(label == "date" for k, label in enumerate(labels) if not j < k < j + 4)):
        labels[j:j + 4] = ["title"] * 4
    if i and text[i - 1] == "In" and text[i][:1].islower() and labels[i - 1] == OTHER:
        labels[i - 1] = "title"
    return labels
