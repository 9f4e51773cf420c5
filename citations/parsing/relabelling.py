"""The tagger's labels corrected where a reference style's conventions decide what the model could
not: each rule names the convention, and `relabel` applies them all, in order, before the labels
become fields (fields.py). The rules about the authors' end are in author_rules.py (an
organisation's in organisation_rules.py, editors' in editor_rules.py), those about the title's
container in container_rules.py, a title cut short in title_rules.py, those about a journal's numbers
in locator_rules.py, a book's imprint in imprint_rules.py, those about pages and software cited by
their names in software_rules.py, those about the date in date_rules.py, the series a proceedings'
name is printed with in series_rules.py; the rules about a title's own edges are here."""
import re

from citations.parsing.author_rules import (
    abbreviation_opening_a_title,
    author_list_tail_opening_a_title,
    collaboration_in_brackets,
    collaboration_named_in_brackets,
    family_first_names_opening_a_title,
    family_name_opening_a_title,
    name_before_a_colon_opening_a_title,
    names_opening_a_title,
    package_read_as_an_author,
    title_opening_read_into_family_first_names,
    title_read_as_the_last_author,
)
from citations.parsing.container_rules import (
    book_after_in,
    book_before_a_journal,
    book_read_as_a_journal,
    book_read_as_a_second_title,
    book_read_into_the_title,
    identifier_cue_closing_the_container,
    journal_abbreviation_closing_the_title,
    journal_cut_at_a_stop,
    journal_opening_inside_a_word,
    journal_read_as_the_title,
    journal_read_before_its_series,
    journal_read_into_the_title,
    number_closing_the_title,
    proceedings_read_into_the_title,
    quoted_title,
    title_before_the_imprint,
    title_read_as_a_container,
    volume_inside_a_title,
    year_opening_the_proceedings,
)
from citations.parsing.cues import CUES, UNNAMED
from citations.parsing.date_rules import (
    bracketed_year_closing_the_title,
    lettered_year_opening_a_title,
    months_closing_the_title,
    year_closing_the_title,
    year_inside_a_titles_opening,
    year_read_as_a_number,
)
from citations.parsing.editor_rules import authors_read_as_editors, editors_read_as_authors, venue_read_as_an_editor
from citations.parsing.imprint_rules import (
    journal_read_as_a_publisher,
    publisher_read_as_a_journal,
    publisher_read_as_a_title,
    publisher_read_as_the_place,
    publisher_read_into_the_proceedings,
    publisher_read_into_the_title,
)
from citations.parsing.label_runs import PART_NUMERAL, YEAR, ends_a_sentence, first_run, sentence_start
from citations.parsing.labels import OTHER
from citations.parsing.locator_rules import (
    RANGE_DASHES,
    article_letters_read_as_no_fields,
    chapter_read_as_a_journal,
    issue_read_as_the_volume,
    issue_read_into_the_volume,
    journal_acronym_before_its_numbers,
    journal_read_as_a_note,
    number_read_as_the_date,
    of_read_into_the_series,
    page_count_read_into_the_pages,
    page_cue_read_into_the_pages,
    page_letter_read_as_the_volume,
    page_read_as_a_title,
    page_read_as_a_volume,
    part_numeral_read_as_a_volume,
    series_before_its_volume_and_book,
    series_letter_read_as_the_volume,
    series_read_as_a_journal,
    volume_read_into_the_journal,
)
from citations.parsing.organisation_rules import (
    organisation_before_a_comma_opening_a_title,
    organisation_before_a_quoted_title,
    organisation_opening_a_title,
    organisation_read_as_a_note,
    title_read_into_an_organisation,
)
from citations.parsing.rule_needs import needs
from citations.parsing.series_rules import series_closing_the_proceedings
from citations.parsing.software_rules import (
    kind_of_work_closing_the_title,
    page_named_before_its_access_date,
    page_named_before_its_link,
    software_before_empty_pieces,
    software_release_title,
)
from citations.parsing.title_rules import (
    date_after_a_semicolon_closing_the_title,
    list_closing_the_title,
    lower_case_words_closing_the_title,
    number_opening_the_title,
    title_opening_after_et_al,
    title_read_into_the_journal,
    title_read_on_past_in,
)
from citations.parsing.tokens import Token


def relabel(tokens: list[Token], labels: list[str]) -> list[str]:
    """The labels with every convention below applied (a new list where any changes), in the order
    of _ORDER at the end of this module. A rule is called only where the labels and the words are as
    it needs (rule_needs.py): elsewhere it would return the labels as they are."""
    present, words = set(labels), {t.text for t in tokens}
    for rule, needed, excluded, needed_words, one_of in _ORDER:
        if (needed <= present and present.isdisjoint(excluded) and needed_words <= words
                and (not one_of or not one_of.isdisjoint(words))):
            relabelled = rule(tokens, labels)
            if relabelled is not labels:
                labels = relabelled
                present = set(labels)
    return labels


# The last words of a document named after what it describes ("GPT-4 technical report",
# "Claude 3 model card", "ALICE Inner Tracking System (ITS): Technical Design Report", "3458A Multimeter
# User Guide"): the whole sentence is its title, though alone "Technical report" is a note.
_NAMED_DOCUMENTS = {("technical", "report"), ("model", "card"), ("system", "card"), ("white", "paper"),
                    ("design", "report"), ("instruction", "manual"), ("reference", "manual"), ("user", "manual"),
                    ("user", "guide")}


@needs(absent=("title",))
def _named_document_title(tokens: list[Token], labels: list[str]) -> list[str]:
    """With no title labelled, a sentence ending in "<name> technical report" (or model card...)
    is the title; a short sentence before it with no author labelled is its author (an organisation).
    Where commas part the pieces, or an author-year date's bracket closes before it, the title is
    the piece ("..., F. Huang, et al., Qwen technical report, arXiv preprint", "DeepSeek-AI (2024)
    Deepseek-v3 technical report.")."""
    if "title" in labels:
        return labels
    lower = [t.text.lower() for t in tokens]
    for k in range(1, len(tokens) - 1):
        if (lower[k], lower[k + 1]) in _NAMED_DOCUMENTS:
            start = sentence_start(tokens, k)
            start = next((m + 1 for m in range(k - 1, start - 1, -1)
                          if tokens[m].text == "," or (tokens[m].text == ")" and labels[m - 1] == "date")), start)
            if start == k or start == 0 or (k + 2 < len(tokens) and tokens[k + 2].text.isalnum()):
                return labels      # "Arcetri Technical Report N. 2/98": a series of reports, numbered
            labels = labels[:start] + ["title"] * (k + 2 - start) + labels[k + 2:]
            if "author" not in labels[:start] and start <= 7 and not any(t.text.isdigit() for t in tokens[:start]):
                labels[:start - 1] = ["author"] * (start - 1)
            return labels
    return labels


# Cue groups (cues.py) of words that open no title: what follows the title, or says where it is ("Preprint"
# is of the "arxiv" group); nor do cues.UNNAMED's words, which say what a thing is without naming it.
_AFTER_THE_TITLE = {"in", "access", "arxiv", "web", "doi", "isbn", "thesis", "report", "submitted", "eds", "pp", "vol",
                    "no", "month", "edition"}


@needs("date", absent=("title",))
def _title_read_as_a_note(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "Steven Bird, ..., and Edward Loper. 2009. Natural Language Processing with Python (1st ed.).
    O'Reilly Media" and "Pires, T. P.; ...; and Setiawan, H. 2023. One Wide Feedforward Is All You Need.
    arXiv preprint arXiv:2309.01826": with no title labelled, the sentence after the names and the year
    closing their sentence ("Authors. 2009." or "Authors (2009).") is the title, where it was read as a
    note or as nothing, up to its stop, a bracket or a comma before a cue ("PageRank, Retrieved ...")."""
    found = first_run(labels, "date") if "title" not in labels else None
    if found is None:
        return labels
    named = found[0] - 1
    while named >= 0 and tokens[named].text in ("(", ".", ","):
        named -= 1
    if named < 0 or labels[named] not in ("author", "editor"):
        return labels          # the year closes no names' sentence ("... Henry Holt, 1996. Print.")
    n = len(tokens)
    s = found[1] + (found[1] < n and tokens[found[1]].text == ")")
    if s + 1 >= n or tokens[s].text != "." or labels[s + 1] not in ("note", OTHER):
        return labels
    s += 1
    first = tokens[s].text
    if (not (first[:1].isupper() or first[:1].isdigit()) or CUES.get(first.lower()) in _AFTER_THE_TITLE
            or first.lower() in UNNAMED):
        return labels
    k = s
    # a bracket after the title holds a note on it ("(2nd ed.)", "(D. F. Krell, Trans.)")
    while k < n and labels[k] == labels[s] and not ends_a_sentence(tokens, k) and tokens[k].text != "(" and not (
            tokens[k].text == "," and k + 1 < n and CUES.get(tokens[k + 1].text.lower()) in _AFTER_THE_TITLE):
        k += 1
    if k == s or (k < n and tokens[k].text not in (".", ")", ",", "(")):
        return labels
    return labels[:s] + ["title"] * (k - s) + [OTHER] * (k < n) + labels[k + 1:]


@needs("title")
def _title_edges(tokens: list[Token], labels: list[str]) -> list[str]:
    """Words at a title's edges that its style prints as part of it, where the tagger left them out:
    a part's numeral ("Fourier integral operators. II. Acta Math."), a span of years closing a
    history's title when the reference's date is printed elsewhere ("Banking reform and the Federal
    Reserve, 1863-1923. Cornell"), a capitalised "In" before a title the tagger started at "the" ("In
    the Wake of Chaos"), the rest of a number cut at its dot ("Introducing GPT-5.4") and a designation's
    number cut at its hyphen ("... through GWTC-3. 2021"). And a year closing the title after a comma,
    where no date is labelled, is the date ("Sticky PDMP samplers for sparse and local inference
    problems, 2021. arXiv:...")."""
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
    if (j + 1 < n and text[j] == "-" and text[j + 1].isdigit() and text[j - 1].isalpha()
            and tokens[j - 1].end == tokens[j].start and tokens[j].end == tokens[j + 1].start
            and (j + 2 == n or text[j + 2] in (".", ",", ";", ":"))):
        labels[j:j + 2] = ["title", "title"]       # a designation keeps its number ("GWTC-3", "HIV-1")
        j += 2
    if (j + 2 <= n and text[j] == "." and PART_NUMERAL.fullmatch(text[j + 1])
            and (j + 2 == n or text[j + 2] in (".", ",", ";"))):
        labels[j:j + 2] = ["title", "title"]
    elif (j + 4 <= n and text[j] == "," and YEAR.fullmatch(text[j + 1]) and text[j + 2] in RANGE_DASHES
            and YEAR.fullmatch(text[j + 3]) and (j + 4 == n or text[j + 4] in (".", ","))
            and any(label == "date" for k, label in enumerate(labels) if not j < k < j + 4)):
        labels[j:j + 4] = ["title"] * 4
    if j - i > 3 and text[j - 2] == "," and YEAR.fullmatch(text[j - 1]) and "date" not in labels:
        labels[j - 2:j] = [OTHER, "date"]
    if i and text[i - 1] == "In" and text[i][:1].islower() and labels[i - 1] == OTHER:
        labels[i - 1] = "title"
    return labels


# An edition's word in the languages the labelled sets cite ("2nd edn", "(1 éd.)", "2. vyd.", "3. Aufl."),
# and the letters an ordinal number takes ("4th", "5.a", "2e").
_EDITION_WORDS = {"ed", "edn", "edition", "éd", "édition", "aufl", "vyd", "izd", "edição", "edición"}
_ORDINAL_ENDINGS = {"st", "nd", "rd", "th", "a", "e", "er", "o"}


@needs("title")
def _edition_closing_the_title(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "Como elaborar projetos de pesquisa (5. Ed.)", "L'écriture et la différence (1 éd.)",
    "Ekonómia v novej ekonomike. 2. vyd." and "The Iliad, Books XXIII–XXIV. 4th.": an edition printed
    after a title, in brackets or after its stop, is a note on the edition, not the title's end."""
    found = first_run(labels, "title")
    if found is None:
        return labels
    i, j = found
    n = len(tokens)
    for k in range(j - 1, i, -1):
        if tokens[k].text not in ("(", ".", ",") or k + 1 >= n or not tokens[k + 1].text.isdigit():
            continue
        m = k + 2
        m += m + 1 < n and tokens[m].text == "." and tokens[m + 1].text.lower() in _ORDINAL_ENDINGS     # "5.a"
        ordinal = m < n and tokens[m].text.lower() in _ORDINAL_ENDINGS and tokens[m].start == tokens[m - 1].end
        m += ordinal
        m += m < n and tokens[m].text == "."
        edition = m < n and tokens[m].text.lower() in _EDITION_WORDS
        m += edition
        m += m < n and tokens[m].text == "."
        if tokens[k].text == "(":
            if not (m < n and tokens[m].text == ")"):
                return labels
            m += 1
        closed = tokens[m - 1].text in (".", ")") or m == n or tokens[m].text in (".", ",", ";")
        if not (ordinal or edition) or not closed or m < j \
                or any(labels[x] not in ("title", OTHER, "note") for x in range(j, m)):
            return labels
        return labels[:k] + [OTHER] + ["note"] * (m - k - 1) + labels[m:]
    return labels


@needs(absent=("title", "author"))
def _title_before_its_editors(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "Topical Issue on Nuclear Symmetry Energy, edited by Li B. A. et al., Eur. Phys. J. A 50 (2014)":
    with no author and no title labelled, the piece a reference opens with, read as a note, straight
    before "edited by" names the issue or book that the editors edited: its title."""
    if "title" in labels or "author" in labels:
        return labels
    text = [t.text.lower() for t in tokens]
    k = next((k for k in range(1, len(text) - 2) if text[k] == "," and text[k + 1] == "edited" and text[k + 2] == "by"),
             None)
    if k is None or any(label not in ("note", OTHER) for label in labels[:k]) or not tokens[0].text[:1].isupper():
        return labels
    return ["title"] * k + labels[k:]


# What ADS's and arXiv's exports print where a journal's name would be: no work's title.
_PREPRINT_SERVERS = {"arxiveprints", "eprints", "arxivpreprint", "arxiv", "arxivpreprints"}


@needs("title")
def _preprint_server_read_as_a_title(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "Arzoumanian, Z., et al. 2015, ArXiv e-prints, arXiv:1505.07540": "arXiv e-prints" (however PDF
    text spaces it) says where the work was posted, as a note, not what it is called."""
    found = first_run(labels, "title")
    if found is None:
        return labels
    i, j = found
    if "".join(t.text for t in tokens[i:j] if t.text.isalnum()).lower() not in _PREPRINT_SERVERS:
        return labels
    return labels[:i] + ["note"] * (j - i) + labels[j:]


@needs("title", words=("-",))
def _report_number_closing_the_title(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "High Luminosity Large Hadron Collider (HL-LHC): Preliminary Design Report, CERN-2015-005 (CERN,
    Geneva, 2015)" and "..., SLAC-PUB-5678": a laboratory's report number after the title's last comma
    (an acronym, then numbers and codes joined by hyphens) numbers the report; it is no part of its title."""
    found = first_run(labels, "title")
    if found is None:
        return labels
    i, j = found
    text = [t.text for t in tokens]
    comma = next((k for k in range(j - 1, i + 1, -1) if text[k] == ","), None)
    if comma is None:
        return labels
    number = text[comma + 1:j]
    if (len(number) < 3 or not (number[0].isupper() and number[0].isalpha() and len(number[0]) > 1)
            or "-" not in number or not any(w.isdigit() for w in number)
            or any(not (w == "-" or w.isdigit() or w.isupper()) for w in number)):
        return labels
    return labels[:comma] + [OTHER] + ["idno"] * (j - comma - 1) + labels[j:]


_REVISION_CODE = re.compile(r"[A-Za-z]?[0-9]+[A-Za-z]?|[A-Z]")


@needs("title")
def _revision_closing_the_title(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "Fluke Corporation, 752A Reference Divider Instruction Manual, Revision 1, 1984." and "3458A
    Multimeter User's Guide, Revision: B.01": a manual's revision printed after its title's comma or
    stop is a note on the edition, not the title's end."""
    found = first_run(labels, "title")
    if found is None:
        return labels
    i, j = found
    text = [t.text for t in tokens]
    for k in range(i + 2, j):
        if text[k - 1] not in (",", ".") or text[k].lower() not in ("revision", "rev"):
            continue
        m = k + 1
        m += m < j and text[m] in (".", ":")
        code = m
        while m < j and (_REVISION_CODE.fullmatch(text[m]) or text[m] == "."
                         and m + 1 < j and tokens[m + 1].start == tokens[m].end):
            m += 1
        if m == code or m < j:
            return labels
        return labels[:k - 1] + [OTHER] + ["note"] * (j - k) + labels[j:]
    return labels


# Words opening a note on who translated, edited or reprinted a work, and the word after each.
_TRANSLATION_CUES = {"translated": {"by"}, "trans": {"."}, "transl": {"."}, "tr": {"."},
                     "übersetzt": {"von"}, "ubersetzt": {"von"}, "traduit": {"par"}, "trad": {".", "fr", "par"},
                     "edited": {"by"}, "reprint": {",", "."}, "revised": {"and", "by"}}


@needs("title")
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


# Every rule in the order relabel applies it, with the labels it needs present and absent, the words it
# needs and those it needs one of (unmarked: none).
_NEEDS = ("present", "absent", "words", "one_of")
_ORDER = tuple((rule, *(getattr(rule, need, frozenset()) for need in _NEEDS)) for rule in (
    journal_cut_at_a_stop, _named_document_title, page_named_before_its_link,
    page_named_before_its_access_date, software_before_empty_pieces, software_release_title,
    # who wrote it
    organisation_opening_a_title, organisation_before_a_quoted_title, organisation_read_as_a_note,
    organisation_before_a_comma_opening_a_title, title_read_into_an_organisation,
    lettered_year_opening_a_title, year_inside_a_titles_opening, collaboration_in_brackets,
    collaboration_named_in_brackets, family_name_opening_a_title, names_opening_a_title,
    author_list_tail_opening_a_title, title_read_as_the_last_author, package_read_as_an_author,
    abbreviation_opening_a_title,
    title_opening_read_into_family_first_names, family_first_names_opening_a_title,
    editors_read_as_authors, authors_read_as_editors,
    # the title and where it appeared
    _title_read_as_a_note, book_before_a_journal, title_read_as_a_container, title_read_into_the_journal,
    book_read_as_a_journal,
    journal_read_as_the_title,
    title_before_the_imprint, name_before_a_colon_opening_a_title, quoted_title, _title_edges,
    kind_of_work_closing_the_title, list_closing_the_title, lower_case_words_closing_the_title,
    title_opening_after_et_al, title_read_on_past_in,
    number_opening_the_title,
    date_after_a_semicolon_closing_the_title,
    book_read_into_the_title, journal_read_into_the_title, proceedings_read_into_the_title,
    journal_opening_inside_a_word, identifier_cue_closing_the_container,
    journal_abbreviation_closing_the_title, number_closing_the_title,
    journal_read_before_its_series, volume_inside_a_title, _translation_closing_the_title,
    _edition_closing_the_title, _revision_closing_the_title, _report_number_closing_the_title,
    _preprint_server_read_as_a_title, _title_before_its_editors, venue_read_as_an_editor, book_after_in,
    book_read_as_a_second_title, year_opening_the_proceedings, series_closing_the_proceedings,
    # dates and numbers
    year_closing_the_title, months_closing_the_title, year_read_as_a_number, bracketed_year_closing_the_title,
    journal_acronym_before_its_numbers,
    number_read_as_the_date,
    issue_read_as_the_volume, issue_read_into_the_volume, volume_read_into_the_journal,
    series_letter_read_as_the_volume,
    part_numeral_read_as_a_volume,
    of_read_into_the_series, series_read_as_a_journal, series_before_its_volume_and_book,
    page_read_as_a_volume, page_letter_read_as_the_volume, page_read_as_a_title,
    page_count_read_into_the_pages, page_cue_read_into_the_pages, article_letters_read_as_no_fields,
    chapter_read_as_a_journal, journal_read_as_a_note,
    # the imprint
    publisher_read_as_the_place, publisher_read_as_a_journal, publisher_read_as_a_title,
    journal_read_as_a_publisher, publisher_read_into_the_proceedings, publisher_read_into_the_title))
