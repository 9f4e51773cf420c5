"""The tagger's labels corrected where a reference style's conventions decide what the model could
not: each rule names the convention, and `relabel` applies them all, in order, before the labels
become fields (fields.py)."""
import re

from citations.parsing.cues import CUES
from citations.parsing.labels import IDENTIFIER_LABELS, OTHER
from citations.parsing.lexicon import shipped as shipped_lexicon
from citations.parsing.tokens import Token

YEAR = re.compile(r"(?<![0-9])(1[5-9][0-9][0-9]|20[0-9][0-9])(?![0-9])")


def relabel(tokens: list[Token], labels: list[str]) -> list[str]:
    """The labels with every convention below applied (a new list where any changes)."""
    for rule in (_named_document_title, _organisation_opening_a_title, _lettered_year_opening_a_title,
                 _year_inside_a_titles_opening, _collaboration_in_brackets, _names_opening_a_title,
                 _author_list_tail_opening_a_title, _family_name_opening_a_title, _title_read_as_the_last_author,
                 _book_before_a_journal, _book_read_as_a_journal, _name_before_a_colon_opening_a_title,
                 _quoted_title, _title_edges, _book_after_in, _year_read_as_a_number):
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
    Reserve, 1863-1923. Cornell"), a capitalised "In" before a title the tagger started at "the" ("In
    the Wake of Chaos") and the rest of a number cut at its dot ("Introducing GPT-5.4"). And a year
    closing the title after a comma, where no date is labelled, is the date ("Sticky PDMP samplers for
    sparse and local inference problems, 2021. arXiv:...")."""
    found = _title_run(labels)
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


def _quoted_title(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "“5G evolution: A view on ... release 15,” IEEE access": a title its style prints in quotes is
    all of the quoted text, numbers and dates in it included, less the punctuation closing it."""
    found = _title_run(labels)
    if found is None:
        return labels
    i, j = found
    text = [t.text for t in tokens]
    opening = next((k for k in range(i - 1, max(i - 4, -1), -1) if text[k] in _OPENING_QUOTES), None)
    if opening is None:
        return labels
    closing = next((k for k in range(j - 1, len(text)) if text[k] == _OPENING_QUOTES[text[opening]]), None)
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


def _collaboration_in_brackets(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "G. Aad et al. (ATLAS), Phys. Rev. D 101" and "M. Robotkova (STAR), SciPost": a name in brackets
    right after the authors is their collaboration, not the title."""
    found = _title_run(labels)
    if found is None:
        return labels
    i = found[0]
    text = [t.text for t in tokens]
    if i < 2 or text[i - 1] != "(" or not (labels[i - 2] == "author" or text[i - 3:i - 1] == ["al", "."]):
        return labels
    closing = next((k for k in range(i, min(i + 5, len(text))) if text[k] == ")"), None)
    if (closing is None or not all(w[:1].isupper() or w in ("-", "/") for w in text[i:closing])
            or (closing + 1 < len(text) and text[closing + 1] not in (",", ".", ";", ":"))):
        return labels              # "신체 자각(Body Awareness)을 토대로...": the bracket is inside the title
    labels = list(labels)
    labels[i:closing] = ["author"] * (closing - i)
    labels[closing] = OTHER
    return labels


_NAME_PIECE_WORDS = {".", "-", "and", "&"}


def _names_opening_a_title(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "B. Blok, Yu. Dokshitser, L. Frankfurt and M. Strikman, pQCD physics...": in a list whose names
    put the initials first, a title does not open with more such names ending at a comma: they are
    the last authors."""
    found = _title_run(labels)
    if found is None or not _initials_first(tokens, labels):
        return labels
    i, j = found
    if i == 0 or labels[i - 1] not in ("author", OTHER) or "author" not in labels[:i]:
        return labels
    text = [t.text for t in tokens]
    comma = next((k for k in range(i, j) if text[k] == ","), None)
    if comma is None or comma - i < 3:
        return labels
    words = text[i:comma]
    initials = sum(1 for k in range(i, comma - 1) if text[k + 1] == "." and len(text[k]) <= 2 and text[k][:1].isupper())
    if (not initials or not (len(words[0]) <= 2 and words[0][:1].isupper() and words[1] == ".")
            or any(not (w in _NAME_PIECE_WORDS or w[:1].isupper()) for w in words)):
        return labels
    labels = list(labels)
    labels[i:comma] = ["author"] * (comma - i)
    labels[comma] = OTHER
    return labels


# Lower-case words inside personal names ("Frank van der Meulen"), and the words closing a list.
_NAME_PARTICLES = {"van", "von", "der", "den", "de", "del", "della", "da", "di", "du", "dos", "das", "la", "le",
                   "ten", "ter", "bin", "ibn", "al", "y"}
_LIST_ENDINGS = {"and", "&", "others", "other", "contributors", "et", "al"}


def _author_list_tail_opening_a_title(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "Joris Bierkens, Sebastiano Grazzi, Frank van der Meulen, and Moritz Schauer. Sticky PDMP
    samplers...": in a list of given names first, which ends at a full stop, the authors do not stop at
    a comma: names from there to the first full stop, closed by "and" or "et al.", are the last authors
    (a particle such as "van der" is where the tagger tends to stop)."""
    found = _title_run(labels)
    if found is None or "author" not in labels:
        return labels
    i, j = found
    text = [t.text for t in tokens]
    first = labels.index("author")
    if (i < 2 or text[i - 1] != "," or labels[i - 2] != "author" or first + 1 >= len(text)
            or not text[first][:1].isupper() or len(text[first]) < 2 or not text[first + 1][:1].isupper()):
        return labels              # not "..., Name, Title": or a list of family names first ("Cai, T. T.")
    stop = next((k for k in range(i + 1, j) if text[k] == "." and len(text[k - 1]) > 1
                 and (k + 1 == len(text) or tokens[k + 1].start > tokens[k].end)), None)
    if stop is None or j - stop < 3:
        return labels
    names, name, closed = [], [], False
    for word in text[i:stop] + [","]:
        if word in (",", "and", "&"):
            if name:
                names.append(name)
            name = []
            closed = closed or word != ","
        elif word in _LIST_ENDINGS:
            closed = True
            name.append(word)
        elif word[:1].isupper() or word in _NAME_PARTICLES or word in (".", "-"):
            name.append(word)
        else:
            return labels
    plain = [n for n in names if not set(n) & _LIST_ENDINGS]
    if not closed or not plain or any(not 2 <= len([w for w in n if w not in (".", "-")]) <= 5 for n in plain):
        return labels
    return labels[:i] + ["author"] * (stop - i) + [OTHER] + labels[stop + 1:]


_NAME_CONNECTORS = {"of", "for", "and", "on", "the", "de", "&", "/", "-"}


def _organisation_opening_a_title(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "Python Software Foundation. asyncio: Asynchronous I/O in CPython." and "The Cancer Genome Atlas
    Research Network. Comprehensive molecular characterization...": with no author labelled, a short
    sentence of capitalised words opening the reference, read as the title with more title after it,
    is the organisation that wrote it (styles print the authors first, a title never opens with a
    sentence of its own before more title)."""
    if "author" in labels or "title" not in labels:
        return labels
    start = labels.index("title")
    text = [t.text for t in tokens]
    if any(t[:1].isalnum() for t in text[:start]) or not text[start][:1].isupper():
        return labels
    stop = next((k for k in range(start + 1, min(start + 10, len(text)))
                 if text[k] == "." and len(text[k - 1]) > 1 and text[k - 1].lower() not in CUES
                 and (k + 1 == len(text) or tokens[k + 1].start > tokens[k].end)), None)
    if stop is None or stop + 2 >= len(text) or "title" not in labels[stop + 1:stop + 3]:
        return labels
    words = text[start:stop]
    if any(labels[k] not in ("title", OTHER) for k in range(start, stop)) or not all(
            (w[:1].isupper() or w[:1].isdigit() or w in _NAME_CONNECTORS) and not YEAR.fullmatch(w) for w in words):
        return labels              # "Programa Sectorial de Salud 2007-2012. Secretaría de Salud.": a dated title
    return labels[:start] + ["author"] * (stop - start) + [OTHER] + labels[stop + 1:]


_HEAD_LABELS = {"author", "volume", "note", OTHER}


def _name_before_a_colon_opening_a_title(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "..., and Luke Zettlemoyer. LLM.int8(): 8-bit matrix multiplication..." and "J. Tang, GLM: General
    language model pretraining...": the name of a method, program or model before a colon opens the
    title, though the tagger read it as the last author or a volume (a name is never cut from its
    given names or initials by a colon: "Tang, J.: Title" keeps its initials)."""
    found = _title_run(labels)
    if found is None:
        return labels
    i = found[0]
    text = [t.text for t in tokens]
    if i < 2 or text[i - 1] != ":" or labels[i - 1] != OTHER:
        return labels
    head = i - 1
    while head > 0 and not (text[head - 1] in (",", ";") or (
            text[head - 1] == "." and head < len(tokens) and tokens[head].start > tokens[head - 1].end)):
        head -= 1
    if head >= 2 and text[head - 1] == "." and _is_initial(tokens, head - 2) and _initials_first(tokens, labels):
        head += 1                  # "D. Durr & S. Teufel Bohmian Mechanics: ...": the initial's family name
    words = [w for w in text[head:i - 1] if w.isalpha()]
    lexicon = shipped_lexicon()
    one_word = all(tokens[k].end == tokens[k + 1].start for k in range(head, i - 2))
    if (("author" not in labels[:head] and not one_word)
            or (head and text[head - 1] in (",", ";") and _looks_like_the_name_before(text, head))):
        return labels              # "Topol EJ: TARGET..." ("AOP-Wiki: Adverse..." is one word), "Sprent J: ..."
    if (not words or i - 1 - head > 6 or any(labels[k] not in _HEAD_LABELS for k in range(head, i - 1))
            or any(w.lower() in _LIST_ENDINGS for w in words)
            or all(len(w) == 1 for w in words)                       # initials: "Tang, J.: Title"
            or all(w.lower() in lexicon.words["first"] or w.lower() in lexicon.words["family"]
                   for w in words if len(w) > 1)):
        return labels
    labels = list(labels)
    labels[head:i - 1] = ["title"] * (i - 1 - head)
    labels[i - 1] = "title"
    return labels


def _shape_of_name(words: list[str]) -> str:
    """A name's words by kind: I an initial or initials ("J", "JL"), X a capitalised word, x lower case."""
    shape, joined = "", False
    for word in words:
        if word.isalpha() and not joined:          # "Sanchez-Margalet" is one word
            shape += "I" if len(word) <= 3 and word.isupper() else "X" if word[0].isupper() else "x"
        elif word == "(":
            break
        joined = word == "-"
    return shape[:2]


def _looks_like_the_name_before(text: list[str], head: int) -> bool:
    """Whether the words from head to the colon are written as the name before them is ("Nelson MC,
    Juguilon H:"; "J. Tang, GLM:" is not)."""
    colon = text.index(":", head)
    start = head - 1
    while start > 0 and text[start - 1] not in (",", ";"):
        start -= 1
    return _shape_of_name(text[head:colon]) == _shape_of_name(text[start:head - 1])


def _book_read_as_a_journal(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "P. S. de Laplace, Théorie analytique des probabilités, Vol. 7 (Courcier, 1820)": with no title
    labelled, a "journal" its publisher follows, with no pages, is a book cited whole, and its title the
    work's: journals are cited by pages, books by publisher."""
    if "title" in labels or "journal" not in labels or "pages" in labels:
        return labels
    i = labels.index("journal")
    j = i
    while j < len(labels) and labels[j] == "journal":
        j += 1
    if "journal" in labels[j:] or "publisher" not in labels[j:]:
        return labels
    return labels[:i] + ["title"] * (j - i) + labels[j:]


_INSIDE_A_BOOKS_NAMING = {OTHER, "editor", "series", "booktitle", "volume", "date", "place", "publisher"}


def introducing_in(tokens: list[Token], labels: list[str], start: int) -> int | None:
    """The place of the "in" that introduces the run at start as where the work appeared, directly
    ("In Proc. ...", "in: ...") or across the editors, series and volume naming the book before its
    title ("in Usuda T., eds, AIP Conference Series Vol. 1158, Exoplanets ..."); None if none does."""
    for k in range(start - 1, -1, -1):
        if tokens[k].text.lower() == "in":
            return k
        if labels[k] not in _INSIDE_A_BOOKS_NAMING:
            return None
    return None


def _book_after_in(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "Mamajek E. E., 2009, in Usuda T., Tamura M., Ishii M., eds, American Institute of Physics
    Conference Series Vol. 1158, Exoplanets and Disks: Their Formation and Diversity. pp 3-10": with no
    title before "in", what follows "in" names where the work appeared, the book or proceedings, and
    the title read there is that book's: the style prints no title of the work itself. A capitalised
    "In" straight before the title may be the title's own first word ("In Search of Lost Time")."""
    found = _title_run(labels)
    if found is None:
        return labels
    i, j = found
    k = introducing_in(tokens, labels, i)
    if k is None or "author" not in labels[:k]:
        return labels
    if k == i - 1 and (tokens[k].text == "In" or not tokens[i].text[:1].isupper()):
        return labels
    return labels[:i] + ["booktitle"] * (j - i) + labels[j:]
