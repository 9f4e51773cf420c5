"""Label rules for a title's extent where the tagger cut it short: at a comma, a list that closes the
title, the lower-case words closing a title in sentence case and the title's opening words after "et
al.,"; at an "in" inside the title's sentence; and where it read on past it: Vancouver's semicolon and
date; and a title read as the first sentence of a journal's name. `relabel` (relabelling.py) applies
them, in its order."""
from citations.parsing.cues import CUES, UNNAMED
from citations.parsing.label_runs import YEAR, cut_short, ends_a_sentence, first_run
from citations.parsing.labels import OTHER
from citations.parsing.lexicon import shipped as shipped_lexicon
from citations.parsing.rule_needs import needs
from citations.parsing.tokens import Token

# What a list inside a title may have been read as; a date, a journal's numbers or an identifier in it
# say it is no part of the title.
_READ_AS = {OTHER, "note", "journal", "booktitle"}
_LIST_ITEM_WORDS = 5


@needs("title")
def list_closing_the_title(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "Gated Attention for Large Language Models: Non-Linearity, Sparsity, and Attention-Sink-Free.
    arXiv preprint ..." and "...: Testing the Impact of Galaxy Mass, Star Formation Indicator, and
    Neighbour Colours": a title that closes with a list of three or more, which the tagger cut at the
    list's first comma, or later ("... for Data with Temporal, Spatial, Hierarchical, or Phylogenetic
    Structure"). The items after the cut, up to the sentence's end, are the title's where the last is
    joined by "and", "&" or "or", each is a few capitalised words, and none holds a word that announces a
    field ("In", "Proc.", "pp.", "eds.")."""
    found = first_run(labels, "title")
    if found is None or found[1] - found[0] < 3:
        return labels
    j = found[1]
    n = len(tokens)
    if j + 1 >= n or tokens[j].text != "," or labels[j] != OTHER:
        return labels
    end = j + 1
    while end < n and not ends_a_sentence(tokens, end) and tokens[end].text not in ("(", ";", "["):
        end += 1
    if end < n and not ends_a_sentence(tokens, end):
        return labels                  # a bracket or a semicolon: more than the title's list
    if "title" in labels[end:] or any(labels[k] not in _READ_AS for k in range(j + 1, end)):
        return labels
    items = _items(tokens, j + 1, end)
    # the list may have begun inside the title ("... with Temporal, Spatial, Hierarchical, | or Phylogenetic
    # Structure"): its items there count towards the three
    begun = _items(tokens, found[0], j)[1:]
    if not all(map(_list_item, begun)):
        begun = []
    if len(items) + len(begun) < 2 or not items[-1] or items[-1][0].lower() not in _JOINING:
        return labels
    if not all(map(_list_item, items)):
        return labels
    return labels[:j] + ["title"] * (end - j) + labels[end:]


_JOINING = ("and", "&", "or")


def _list_item(item: list[str]) -> bool:
    """Whether a list's item is a few capitalised words, none announcing a field."""
    words = [w for w in item if w.lower() not in _JOINING]
    return bool(words) and len(words) <= _LIST_ITEM_WORDS and words[0][:1].isupper() \
        and all(CUES.get(w.lower()) in (None, "and") for w in words)


# Lower-case words that say what state a work is in, not what it is called ("to appear").
_STATES = UNNAMED | {"appear", "draft", "communication"}


@needs("title", "date", words=(",",))
def lower_case_words_closing_the_title(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "M. Tanaskovic, L. Fagiano, and V. Gligorovski. Adaptive model predictive control for constrained,
    linear time varying systems, 2017." and "Keith Conrad, The 15 puzzle, group theory, and permutations,
    2017, Expository note.": a title in sentence case that the tagger cut at a comma inside it, reading
    the lower-case words after it as a note or as nothing. The words from that comma up to the comma
    before the date are the title's where the first is in lower case, none announces a field or says
    what state the work is in ("in", "preprint", "unpublished", "to appear"), and the date comes next,
    with nothing after it but notes: a work cited with its venue, its place or its publisher after the
    date ("Manstyle : men + fashion, exhibition catalogue, 11 March-27 November, National Gallery of
    Victoria") is of a style that names the kind of work after its title."""
    found = first_run(labels, "title")
    if found is None or found[1] - found[0] < 3:
        return labels
    i, j = found
    n = len(tokens)
    if j + 3 >= n or tokens[j].text != "," or labels[j] != OTHER or not tokens[j + 1].text.islower():
        return labels
    end = j + 1
    while end < n and tokens[end].text not in (",", ".", "(", ";", ":", "["):
        end += 1
    if end + 1 >= n or tokens[end].text != "," or labels[end + 1] != "date" \
            or any(labels[k] not in ("note", OTHER) for k in range(j + 1, end)):
        return labels
    words = [t.text.lower() for t in tokens[j + 1:end] if t.text.isalpha()]
    if any(CUES.get(w) not in (None, "and") or w in _STATES for w in words) \
            or not _in_sentence_case([t.text for t in tokens[i + 1:j]]) \
            or not {labels[k] for k in range(end + 1, n)} <= {"date", "note", OTHER}:
        return labels
    return labels[:j] + ["title"] * (end - j) + labels[end:]


def _in_sentence_case(texts: list[str]) -> bool:
    """Whether the words after a title's first are mostly in lower case (short words and names aside:
    only words of four letters or more count, and one in lower case at least)."""
    words = [t for t in texts if t.isalpha() and len(t) > 3]
    lower = sum(w[0].islower() for w in words)
    return lower > 0 and lower > len(words) - lower


def _items(tokens: list[Token], start: int, end: int) -> list[list[str]]:
    """The words of tokens start..end in the pieces the commas part ("-" glued inside a word is no
    word of its own)."""
    items: list[list[str]] = [[]]
    for k in range(start, end):
        text = tokens[k].text
        if text == ",":
            items.append([])
        elif text.isalnum() or text == "&":
            glued = k > start and tokens[k - 1].end == tokens[k].start and tokens[k - 1].text == "-"
            if glued and items[-1]:
                items[-1][-1] += "-" + text
            else:
                items[-1].append(text)
    return items


@needs("title", "author", words=("al",))
def title_opening_after_et_al(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "A. Dosovitskiy, L. Beyer, ..., S. Gelly, et al., An image is worth 16x16 words: Transformers for
    image recognition at scale, arXiv preprint ...": after an author list closed by "et al.," the tagger
    read the title's first words as no field's (or a number in them as an issue); the words between the
    list's end and the title, capitalised first and none announcing a field, are the title's."""
    found = first_run(labels, "title")
    if found is None or found[0] < 3:
        return labels
    i = found[0]
    start = i
    while start > 0 and labels[start - 1] in (OTHER, "issue", "volume") and tokens[start - 1].text not in (",", "."):
        start -= 1
    if start == i or start < 3 or [t.text for t in tokens[start - 3:start]] != ["al", ".", ","] \
            or labels[start - 3] != "author":
        return labels
    words = [t.text for t in tokens[start:i]]
    if not words[0][:1].isupper() or any(CUES.get(w.lower()) for w in words):
        return labels
    return labels[:start] + ["title"] * (i - start) + labels[i:]


@needs("title", words=("in",))
def title_read_on_past_in(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "Multi-Parameter Analysis of Finding Minors and Subgraphs in Edge Periodic Temporal Graphs, 2022."
    and "Impermanent loss in uniswap v3, 2021.": an "in" inside the title's sentence, with no comma or
    stop before it, is the title's word, though the tagger read it as introducing where the work
    appeared; what follows it up to the comma or stop before the date is the title's too, where no
    word of it announces a field ("Proceedings", "Journal") and nothing but the date follows."""
    found = first_run(labels, "title")
    if found is None:
        return labels
    j, n = found[1], len(tokens)
    if j + 1 >= n or tokens[j].text != "in" or labels[j] != OTHER or not tokens[j - 1].text.isalnum():
        return labels
    end = j + 1
    while end < n and tokens[end].text not in (",", ".", "(", ";", ":") and labels[end] not in ("date", "title"):
        end += 1
    if end == j + 1 or any(labels[k] not in _READ_AS for k in range(j + 1, end)) \
            or any(CUES.get(t.text.lower()) for t in tokens[j + 1:end]):
        return labels
    rest = [labels[k] for k in range(end, n) if labels[k] != OTHER]
    if rest and set(rest) != {"date"}:
        return labels
    return labels[:j] + ["title"] * (end - j) + labels[end:]


@needs("title", words=(",",))
def number_opening_the_title(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "SQuAD: 100,000+ questions for machine comprehension of text" and "Cosqa: 20,000+ web queries
    ...": a title that the tagger began inside a number written with a thousands' comma ("100,000",
    the comma glued to the digits on both sides), the number and the name before it read as a volume
    or as nothing. The title begins after the sentence before it ends: the authors' stop, or their
    colon."""
    found = first_run(labels, "title")
    if found is None or found[0] < 2:
        return labels
    i = found[0]
    number, comma, group = tokens[i - 2], tokens[i - 1], tokens[i]
    if not (comma.text == "," and len(group.text) == 3 and group.text.isdigit() and number.text.isdigit()
            and number.end == comma.start and comma.end == group.start):
        return labels
    start = i - 2
    while start > 0 and labels[start - 1] in _BEFORE_A_NUMBER and tokens[start - 1].text != "." \
            and not (tokens[start - 1].text == ":" and labels[start - 2] in ("author", OTHER) and start - 2 >= 0
                     and tokens[start - 2].text == "."):
        start -= 1
    return labels[:start] + ["title"] * (i - start) + labels[i:]


# What the words before such a number were read as: a volume, a title's name read apart, or nothing.
_BEFORE_A_NUMBER = {"volume", "issue", "pages", OTHER, "note"}


@needs("title", absent=("date",), words=(";",))
def date_after_a_semicolon_closing_the_title(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "nCov2019: An R package with real-time data and historical data and Shiny app; 2020. Accessed:
    ...": Vancouver prints a web page's or a report's date after its title and a semicolon, where the
    tagger read the two into the title. A title that closes with a semicolon and a year, with its
    sentence ending there, closes before the semicolon, and the year is the date."""
    found = first_run(labels, "title")
    if found is None or found[1] - found[0] < 3:
        return labels
    j, n = found[1], len(tokens)
    semicolon, year = j - 2, j - 1
    if tokens[semicolon].text != ";" or not YEAR.fullmatch(tokens[year].text) \
            or (j < n and tokens[j].text != "."):
        return labels
    return labels[:semicolon] + [OTHER, "date"] + labels[j:]



# What a journal's name is followed by: its numbers.
_JOURNALS_NUMBERS = {"volume", "issue", "pages"}


@needs("author", "journal", absent=("title",), words=(".",))
def title_read_into_the_journal(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "Gérard Berry and Gérard Boudol. 1992. The Chemical Abstract Machine. Theoretical Computer Science
    96, 1 (1992)" and "Berners-Lee, T., Hendler, J., Lassila, O.: The Semantic Web. Scientific American
    284(5)": with no title labelled, a journal's name that opens the first piece after the authors and the
    date and holds a sentence's end, its numbers after it, is a title and the journal: a journal's name
    holds stops after its abbreviations ("Phys. Rev. Lett."), not after a whole word, and a title holds
    no word cut short ("Engng Mater. Struct."; a word alone before the stop is too often an abbreviation
    that is an English word too: "Front. Phys."), unless the words before the stop name a journal
    themselves ("The Lancet. Digital Health", as PubMed prints journals), or all of them are a journal's
    abbreviated name ("Laser Part. Beams")."""
    if "title" in labels or "author" not in labels:
        return labels
    n = len(labels)
    i = next((k for k in range(n) if labels[k] not in ("author", "date", OTHER)), None)
    if i is None or labels[i] != "journal" or "author" not in labels[:i]:
        return labels
    j = first_run(labels[i:], "journal")[1] + i
    after = next((k for k in range(j, n) if labels[k] != OTHER), None)
    if after is None or labels[after] not in _JOURNALS_NUMBERS:
        return labels
    stop = next((k for k in range(i + 1, j - 1) if tokens[k].text == "."), None)
    if stop is None or not ends_a_sentence(tokens, stop) or CUES.get(tokens[stop - 1].text.lower()) == "journal":
        return labels              # "Annual Rev. Genet": the stop of an abbreviation
    words = [tokens[k].text for k in range(i, stop) if tokens[k].text.isalnum()]
    title = [w.lower() for w in words]
    journal = [tokens[k].text.lower() for k in range(stop + 1, j) if tokens[k].text.isalnum()]
    if len(title) < 2 or not journal or any(map(cut_short, words)) or _a_journals_name(title) \
            or _a_journals_name(title + journal):
        return labels              # "Plant Mol. Biol.", "Front. Phys.", "The Lancet. Oncology", "Laser Part. Beams"
    return labels[:i] + ["title"] * (stop - i) + [OTHER] + labels[stop + 1:]


def _a_journals_name(words: list[str]) -> bool:
    """Whether words (lower case) are a journal's name the lexicon knows whole, "the" before it or not."""
    start = 1 if words[0] == "the" else 0
    return any(a == start and b == len(words) and "journal" in names
               for a, b, names in shipped_lexicon().phrase_matches(words))
