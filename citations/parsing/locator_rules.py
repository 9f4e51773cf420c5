"""Label rules for the numbers a journal is cited by: a page read as the volume, the issue, a note,
an identifier or a second date; a page's letters read as the volume's; a year-like volume or issue
read as the date; an issue for the volume or read into it, a volume read into the journal's name, a series letter
read into the volume, a journal's part read as a volume, the "of" after a volume read into its series,
a series read as the container before its volume and book, a journal's acronym read as no field's, an
article's page count or the pages' cue read into its pages, an article number's letters left out of
them, a chapter's cue read as a journal, and a journal read as a note before its volume. `relabel`
(relabelling.py) applies them, in its order."""
import re

from citations.parsing.cues import CUES
from citations.parsing.label_runs import PART_NUMERAL, first_run
from citations.parsing.labels import IDENTIFIER_LABELS, OTHER
from citations.parsing.locators import PAGE
from citations.parsing.rule_needs import needs
from citations.parsing.tokens import Token

RANGE_DASHES = {"-", "–", "—"}
_A_PAGE = re.compile(PAGE)
_NOT_A_RANGES_END = IDENTIFIER_LABELS | {"date"}
_NUMBERS = ("volume", "issue")
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


def _page_read_as(labels: list[str], k: int, after_a_date: bool) -> bool:
    """Whether the label at k is one a page printed after the volume is misread as: another of the
    journal's numbers, a note or an identifier, or a date where the reference's date is printed in
    brackets before it ("J. Math. Phys. 16 (1975), 2029")."""
    return labels[k] in _NUMBERS or labels[k] in ("note", "idno") or (labels[k] == "date" and after_a_date)


@needs("pages")
def page_count_read_into_the_pages(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "Phys. Rev. D 79 (2009), no. 2, 025002, 8 pp.": the count of an article's pages after its number,
    as MathSciNet's and AMS's styles print it, is a note, not the end of its pages."""
    found = first_run(labels, "pages")
    if found is None:
        return labels
    i, j = found
    k = next((k for k in range(i + 1, j - 2) if tokens[k].text == "," and tokens[k + 1].text.isdigit()
              and tokens[k + 2].text.lower() == "pp"), None)
    if k is None or j > k + 3 + (k + 3 < len(tokens) and tokens[k + 3].text == "."):
        return labels
    return labels[:k] + [OTHER] + ["note"] * (j - k - 1) + labels[j:]


_CHAPTER = {"chap", "chapter", "ch"}


@needs("journal")
def chapter_read_as_a_journal(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "... (Elsevier, 2015) 2nd ed., Chap. 11.05, pp. 139–174": a chapter's number, its cue read as
    a journal's name, locates the part cited in its book; it is a note, and the book stays the
    container."""
    found = first_run(labels, "journal")
    if found is None or "journal" in labels[found[1]:]:
        return labels
    i, j = found
    words = [t.text.lower() for t in tokens[i:j] if t.text.isalnum()]
    if len(words) != 1 or words[0] not in _CHAPTER:
        return labels
    end = j + (j < len(tokens) and tokens[j].text == ".")
    while end < len(tokens) and (tokens[end].text.isdigit() or tokens[end].text == "." and end + 1 < len(tokens)
                                 and tokens[end + 1].text.isdigit() and tokens[end + 1].start == tokens[end].end):
        end += 1
    return labels[:i] + ["note"] * (end - i) + labels[end:]


# A journal's acronym as astronomy's and physics' author-year styles print it: "ApJ", "ApJL", "MNRAS", "JCAP".
_ACRONYM = re.compile(r"[A-Z][A-Za-z]{1,5}")
_BEFORE_AN_ACRONYM = {"date", OTHER}
_ACRONYM_READ_AS = {OTHER, "idno", "title", "note", "pages", "volume"}


@needs(absent=("journal", "booktitle"))
def journal_acronym_before_its_numbers(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "Ishigaki M N et al 2014 ApJL 792 L32", "Smith J 2014 MNRAS 441 1234" and "2009 A&A 500 L1":
    with no journal or book labelled, a journal's acronym (two capitals or more in a word of six letters
    at most) after the date or a stop, straight before two numbers, the second a page, is the journal,
    the first number its volume (its issue where it opens with a zero: JCAP's and JHEP's month, "JCAP
    09 012") and the second its page; the model read the acronym as no field's."""
    if "journal" in labels or "booktitle" in labels:
        return labels
    n = len(tokens)
    for k in range(1, n - 2):
        end = k + 1
        if tokens[k].text == "A" and end + 1 < n and tokens[end].text == "&" and tokens[end + 1].text == "A":
            end += 2                                       # "A&A"
        elif not (_ACRONYM.fullmatch(tokens[k].text) and sum(c.isupper() for c in tokens[k].text) >= 2):
            continue
        if (end + 1 >= n or labels[k - 1] not in _BEFORE_AN_ACRONYM and tokens[k - 1].text not in (".", ",")
                or any(label not in _ACRONYM_READ_AS for label in labels[k:end])
                or not tokens[end].text.isdigit() or tokens[end].start == tokens[end - 1].end):
            continue
        page = end + 1 + (tokens[end + 1].text == ",")
        last = page + (page < n and tokens[page].text.isalpha() and len(tokens[page].text) == 1)
        if (last >= n or not tokens[last].text.isdigit() or tokens[page].start == tokens[end].end
                or last > page and tokens[last].start != tokens[page].end
                or last + 1 < n and tokens[last + 1].start == tokens[last].end and tokens[last + 1].text.isalnum()):
            continue
        if "title" in labels[k:end] and "title" in labels[last + 1:]:
            continue                                       # the acronym is inside the title
        volume = "issue" if len(tokens[end].text) == 2 and tokens[end].text.startswith("0") else "volume"
        return (labels[:k] + ["journal"] * (end - k) + [volume] + [OTHER] * (page - end - 1)
                + ["pages"] * (last + 1 - page) + labels[last + 1:])
    return labels


@needs("volume", absent=("pages",))
def page_read_as_a_volume(tokens: list[Token], labels: list[str]) -> list[str]:
    """With no pages labelled, a number printed straight after a journal's volume is its page or
    article number, whatever the model called it: "Mon. Not. R. Astron. Soc. 20, 13 (1859)",
    "Contemp. Phys. 46 277", "ApJL 792 L32", "Rev. Mod. Phys. 75 (2003) 716 and references therein",
    "Rev. Geophys. 42, RG4002 (2004)". Styles print an issue in brackets or after its cue ("no. 3"),
    not bare after the volume."""
    found = first_run(labels, "volume") if "pages" not in labels else None
    if found is None:
        return labels
    i, j = found
    items = _printed_items(tokens, i, j)
    if not items or not any(t.text.isdigit() for t in tokens[items[0][0]:items[0][1]]):
        return labels          # a "volume" of commas alone: the model's labels are any sequence
    if len(items) == 2 and _page_shaped(tokens, items[1]):
        a, b = items[1]
    elif len(items) == 1:
        start = j + (j < len(tokens) and tokens[j].text == ",")
        a = _after_the_date(tokens, labels, start)
        if a >= len(tokens) or not _page_read_as(labels, a, after_a_date=a > start):
            return labels
        b = a
        while b < len(tokens) and labels[b] == labels[a] and (b == a or tokens[b].start == tokens[b - 1].end):
            b += 1
        if ((b < len(tokens) and labels[b] == labels[a] and labels[a] in _NUMBERS)
                or not _page_shaped(tokens, (a, b))):
            return labels
        if (b + 1 < len(tokens) and tokens[b].text in RANGE_DASHES and _A_PAGE.fullmatch(tokens[b + 1].text)
                and labels[b + 1] not in _NOT_A_RANGES_END):
            b += 2            # the range's end, whatever the model made of it ("25-45")
    else:
        return labels
    return labels[:a] + ["pages"] * (b - a) + labels[b:]


@needs("volume", "journal")
def series_letter_read_as_the_volume(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "Int. J. Mod. Phys. D 15, 1753 (2006)": a capital letter after the journal's name, read as the
    start of the volume it is printed before, names the journal's series ("Phys. Rev. D"), as the
    labelled sets mostly write it."""
    found = first_run(labels, "volume")
    if found is None:
        return labels
    k = found[0]
    before = k - 1 - (k >= 2 and tokens[k - 1].text == "." and labels[k - 1] == OTHER)
    if (before < 0 or labels[before] != "journal" or len(tokens[k].text) != 1 or not tokens[k].text.isupper()
            or found[1] == k + 1 or not tokens[k + 1].text.isdigit() or tokens[k + 1].start == tokens[k].end
            or "journal" in labels[k:]):
        return labels
    return labels[:before + 1] + ["journal"] * (k - before) + labels[k + 1:]


@needs("volume", "journal")
def part_numeral_read_as_a_volume(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "Deep-Sea Research II, 58 (17-18): 1837–1847" and "Deep-Sea Research Part II, 58(17–18)": a Roman
    numeral straight after the journal's name, the volume's number after it, is the journal's part (a
    part of an Elsevier journal is a journal of its own), though the tagger read it as a first volume."""
    found = first_run(labels, "volume")
    if found is None:
        return labels
    k, end = found
    part = k - 1 if k >= 2 and tokens[k - 1].text == "Part" else k
    if end != k + 1 or not PART_NUMERAL.fullmatch(tokens[k].text) or part < 1 or labels[part - 1] != "journal":
        return labels
    second = first_run(labels[end:], "volume")
    if (second is None or not tokens[end + second[0]].text.isdigit()
            or any(labels[q] != OTHER or tokens[q].text != "," for q in range(end, end + second[0]))):
        return labels
    return labels[:part] + ["journal"] * (end - part) + labels[end:]


_NAMED_AFTER_A_VOLUME = {"series", "journal", "booktitle"}


@needs("volume", words=("of",))
def of_read_into_the_series(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "Algebraic topology, volume 3 of Graduate Texts in Mathematics.": the "of" between a volume and
    the series it is a volume of joins the two and is neither's, though the tagger read it as the
    series' first word."""
    if "volume" not in labels:
        return labels
    for k in range(labels.index("volume") + 1, len(tokens) - 1):
        if (tokens[k].text == "of" and labels[k] in _NAMED_AFTER_A_VOLUME and labels[k + 1] == labels[k]
                and labels[k - 1] == "volume"):
            return labels[:k] + [OTHER] + labels[k + 1:]
    return labels


@needs("journal", "booktitle", "volume", absent=("series",), words=("of",))
def series_read_as_a_journal(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "In TACAS, volume 7214 of LNCS, pages 362–376.": what a book's volume is a volume "of" is the
    series the book appeared in, not a journal, though the tagger read it as one; the book is where
    the work appeared."""
    found = first_run(labels, "journal")
    if found is None or "booktitle" not in labels[:found[0]] or "series" in labels:
        return labels
    i, j = found
    if i < 2 or tokens[i - 1].text != "of" or labels[i - 2] != "volume" or "journal" in labels[j:]:
        return labels
    return labels[:i] + ["series"] * (j - i) + labels[j:]


@needs("volume", "booktitle", absent=("series",))
def series_before_its_volume_and_book(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "in Astronomical Society of the Pacific Conference Series, Vol. 448, 16th Cambridge Workshop on Cool
    Stars, ..., ed. C. Johns-Krull" and "in ESA Special Publication, Vol. 235, Future Missions in Solar ...,
    ed. E. Rolfe": astronomy's styles print a proceedings volume's series and number before the book's
    title, and the tagger read the series as the container; the book after the number is where the work
    appeared. The series is known by its name ("Series", "Lecture Notes") or by the book's editors after
    it."""
    if "series" in labels or "volume" not in labels:
        return labels
    starts = [labels.index(c) for c in ("journal", "booktitle") if c in labels]
    if not starts:
        return labels
    i, j = first_run(labels, labels[min(starts)])
    k = j
    while k < len(tokens) and k - j < 3 and labels[k] == OTHER and (tokens[k].text in (",", ".")
                                                                   or CUES.get(tokens[k].text.lower()) == "vol"):
        k += 1
    volume = first_run(labels[k:], "volume")
    if volume is None or volume[0] != 0:
        return labels
    m = k + volume[1]
    m += m < len(tokens) and tokens[m].text == "," and labels[m] == OTHER
    book = first_run(labels[m:], "booktitle") if m < len(labels) else None
    if book is None or book[0] != 0:
        return labels
    n = m + book[1]
    named = any(CUES.get(t.text.lower()) == "series" for t in tokens[i:j])
    edited = any(labels[q] == "editor" or CUES.get(tokens[q].text.lower()) == "eds"
                 for q in range(n, min(n + 3, len(labels))))
    if not (named or edited):
        return labels
    return labels[:i] + ["series"] * (j - i) + labels[j:]


@needs("pages")
def page_cue_read_into_the_pages(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "Proceedings of ... ISSAC '21, page 11–14, New York" and "Molecular biology and evolution, page
    mst221, 2013": the word that announces the pages is not theirs, though the tagger read it so. A
    letter printed on the number ("S245", "p.12" aside) is the page's own."""
    found = first_run(labels, "pages")
    if found is None:
        return labels
    i, j = found
    k = i
    while k < j - 1 and CUES.get(tokens[k].text.lower()) == "pp":
        if tokens[k + 1].text == ".":
            k += 2                 # "p. 245"
        elif tokens[k].end < tokens[k + 1].start:
            k += 1                 # "page 11–14"
        else:
            break                  # "S245": the page's letter
    return labels if k == i or k >= j else labels[:i] + [OTHER] * (k - i) + labels[k:]


@needs("pages")
def article_letters_read_as_no_fields(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "Science Advances 10, eadk1189 (2024)", "Geophysical Research Letters 50, e2023GL106088" and
    "PLOS ONE 19 (2024) e0297445": the lower-case letters an article number is printed with are the
    number's, though the tagger left them out of the pages; a cue glued to its number ("p245") is not."""
    found = first_run(labels, "pages")
    if found is None or found[0] < 2:
        return labels
    i = k = found[0]
    while k > 1 and labels[k - 1] == OTHER and tokens[k - 1].text.isalnum() and tokens[k - 1].end == tokens[k].start:
        k -= 1                     # back over the pieces glued to the number: "e" "2023" "GL" "106088"
    letters = tokens[k].text
    if (k == i or not letters.isalpha() or not letters.islower() or len(letters) > 4 or CUES.get(letters) == "pp"
            or tokens[k - 1].end == tokens[k].start):
        return labels
    return labels[:k] + ["pages"] * (i - k) + labels[i:]


@needs("pages", "volume")
def page_letter_read_as_the_volume(tokens: list[Token], labels: list[str]) -> list[str]:
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


@needs("title", "volume", absent=("pages",))
def page_read_as_a_title(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "B. Q. Li and K. T. Chao, Phys. Rev. D 79 (2009), 094004 doi:...": with no pages labelled, a
    "title" that is one number after the journal's volume is its page or article number."""
    found = first_run(labels, "title") if "pages" not in labels and "volume" in labels else None
    if found is None or found[1] - found[0] != 1 or labels.index("volume") > found[0]:
        return labels
    k = found[0]
    if not tokens[k].text.isdigit() or "title" in labels[k + 1:]:
        return labels
    return labels[:k] + ["pages"] + labels[k + 1:]


@needs("date", words=("(",))
def number_read_as_the_date(tokens: list[Token], labels: list[str]) -> list[str]:
    """A year-like volume or issue the model read as the date, where the reference's date is
    printed after its pages: a number straight after the journal is its volume where a bracketed
    issue follows it ("AIP Conf. Proc., 1894 (1): 020027, 2017") or the date after the pages is
    bracketed ("JCAP 1509, 008 (2015)"; "Nano Lett. 2010, 10, 1979" prints the year first); one
    bracketed after the volume and before a colon is the issue ("Philosophical Transactions of the
    Royal Society B, 371(1708):20160007, 2016"; "6 (1988), 193-211" brackets the year)."""
    n = len(tokens)
    volume, issue = "volume" in labels, "issue" in labels
    for k in range(1, n - 2):
        if labels[k] != "date" or labels[k - 1] == "date" or labels[k + 1] == "date" or not tokens[k].text.isdigit():
            continue
        if not volume and _after_the_journal(tokens, labels, k):
            bracketed = (k + 3 < n and tokens[k + 1].text == "(" and labels[k + 2] == "issue"
                         and tokens[k + 3].text == ")")
            date = _date_after_the_pages(labels, k + 4 if bracketed else k + 1)
            if date is not None and (bracketed or tokens[date - 1].text == "("):
                return labels[:k] + ["volume"] + labels[k + 1:]
        if (k > 1 and not issue and tokens[k - 1].text == "(" and labels[k - 2] == "volume"
                and tokens[k + 1].text == ")" and k + 2 < n and tokens[k + 2].text == ":"):
            date = _date_after_the_pages(labels, k + 2)
            if date is not None and tokens[date].text != tokens[k].text:
                return labels[:k] + ["issue"] + labels[k + 1:]
    return labels


@needs("volume", words=("(", ")"))
def issue_read_into_the_volume(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "Mathematical programming, 45(1-3):503–528" and "STTT, 15(5-6):519–539": the issue in brackets
    after the volume's number is the issue, a range of issues too, though the tagger read it into the
    volume."""
    found = first_run(labels, "volume")
    if found is None:
        return labels
    i, j = found
    if j - i < 4 or not tokens[i].text.isdigit() or tokens[i + 1].text != "(" or tokens[j - 1].text != ")" \
            or "(" in [t.text for t in tokens[i + 2:j - 1]] or not tokens[i + 2].text.isalnum():
        return labels
    return labels[:i + 1] + [OTHER] + ["issue"] * (j - i - 3) + [OTHER] + labels[j:]


@needs("issue", "journal", "pages", absent=("volume",))
def issue_read_as_the_volume(tokens: list[Token], labels: list[str]) -> list[str]:
    """With no volume labelled, a bare number between commas after the journal, with the pages
    after it, is the volume, not the issue ("Adv. Theor. Math. Phys., 2, 253-291"): styles print an
    issue in brackets or after its cue ("no. 3"). JHEP's "06 (2010) 043" is left as the model read it."""
    found = first_run(labels, "issue") if "volume" not in labels else None
    if found is None or found[1] - found[0] != 1 or not tokens[found[0]].text.isdigit():
        return labels
    k = found[0]
    if (not _after_the_journal(tokens, labels, k) or tokens[k - 1].text != "," or k + 2 >= len(tokens)
            or tokens[k + 1].text != "," or labels[k + 2] != "pages"):
        return labels
    return labels[:k] + ["volume"] + labels[k + 1:]


def _after_the_journal(tokens: list[Token], labels: list[str], k: int) -> bool:
    """Whether the journal's name is printed straight before k, punctuation aside (no cue: "no. 3")."""
    j = k - 1
    while j >= 0 and labels[j] == OTHER and not tokens[j].text.isalnum():
        j -= 1
    return j >= 0 and labels[j] == "journal"


def _date_after_the_pages(labels: list[str], k: int) -> int | None:
    """Where the date starts, if the pages follow k and the date follows them, punctuation aside."""
    for wanted in ("pages", "date"):
        while k < len(labels) and labels[k] == OTHER:
            k += 1
        if k == len(labels) or labels[k] != wanted:
            return None
        start = k
        while k < len(labels) and labels[k] == wanted:
            k += 1
    return start


@needs("journal", "volume", absent=("pages",))
def volume_read_into_the_journal(tokens: list[Token], labels: list[str]) -> list[str]:
    """With no pages labelled, a number closing the journal's name before a comma and the
    "volume" is the volume, and that number its page ("Optica 3, 118 (2016)")."""
    found = first_run(labels, "journal") if "pages" not in labels else None
    if found is None or found[1] - found[0] < 2 or found[1] + 2 >= len(tokens):
        return labels
    k = found[1] - 1
    after = first_run(labels, "volume")
    if (not tokens[k].text.isdigit() or tokens[k - 1].end == tokens[k].start or tokens[k + 1].text != ","
            or after != (k + 2, k + 3) or not tokens[k + 2].text.isdigit()):
        return labels
    return labels[:k] + ["volume", OTHER, "pages"] + labels[k + 3:]


@needs("note", "volume", absent=("journal", "booktitle"))
def journal_read_as_a_note(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "Lee, S. et al. (2020). Fluent genomics with plyranges and tximeta. F1000Research, 9.": with no
    container labelled, a note that opens a sentence, a volume straight after it, is the journal the volume
    is of: a note has no volume. Not one that a cue opens or holds ("Technical report", "Accessed", "arXiv
    preprint")."""
    if "journal" in labels or "booktitle" in labels:
        return labels
    found = first_run(labels, "note")
    if found is None or found[0] == 0 or tokens[found[0] - 1].text != ".":
        return labels
    i, j = found
    after = j + (j < len(tokens) and tokens[j].text == ",")          # "F1000Research, 9" or "F1000Research 9"
    if (after >= len(labels) or labels[after] != "volume"
            or any(CUES.get(t.text.lower()) not in (None, "journal", "and") for t in tokens[i:j])):
        return labels
    return labels[:i] + ["journal"] * (j - i) + labels[j:]
