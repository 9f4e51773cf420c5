"""Label rules for a book's imprint, its publisher and place, where the tagger read one for the other,
a journal the tagger read as a publisher, and a publisher read into the proceedings' name or the title.
`relabel` (relabelling.py) applies them, in its order."""
from citations.parsing.cues import CUES
from citations.parsing.label_runs import cut_short, ends_a_sentence, first_run
from citations.parsing.labels import OTHER
from citations.parsing.rule_needs import needs
from citations.parsing.tokens import Token


@needs("place", absent=("publisher", "journal"))
def publisher_read_as_the_place(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "Molecular Quantum Electrodynamics (Dover, Mineola, NY, 1998)", "Mathematical Foundations of
    Quantum Mechanics (Princeton University Press, USA, 1955)" and "Handbook of Mathematical Functions,
    Dover (New York 1965)": with no publisher labelled, a place read on from a first piece to a second
    inside brackets, or into them, names the publisher first, as REVTeX's and Elsevier's physics styles
    print a book's imprint, its year last; the first piece is the publisher."""
    if ("publisher" in labels or "place" not in labels or "journal" in labels
            or any(CUES.get(t.text.lower()) == "proc" for t in tokens)):
        return labels              # a conference's city and country: "Proc. ..., Sydney, Australia"
    i, j = first_run(labels, "place")
    if i == 0 or tokens[i - 1].text not in ("(", ",") or not tokens[i].text[:1].isupper():
        return labels
    # in brackets, or before them: after a comma with none, the pieces are as often a city and its
    # country ("Vienna, Austria (2017)", "Salt Lake City, Utah, 1979")
    cut = next((k for k in range(i + 1, j - 1) if tokens[k].text == "(" or tokens[k].text == ","
                and tokens[i - 1].text == "("), None)
    if cut is None or not tokens[cut + 1].text[:1].isupper() or any(t.text in (":", ";") for t in tokens[i:j]):
        return labels
    if cut + 2 == j and len(tokens[cut + 1].text) == 2 and tokens[cut + 1].text.isupper():
        return labels              # "(Cambridge, MA, 1990)": a city and its state
    date = next((k for k in range(j, len(labels)) if labels[k] != OTHER), None)
    if date is None or labels[date] != "date" or CUES.get(tokens[date].text.lower()) == "month" \
            or any(tokens[k].text.lower() == "in" and labels[k] == OTHER for k in range(i)):
        return labels              # an imprint ends in its year; "In Oceans'96, Fort Lauderdale, Florida, September 1996"
                                   # is a conference's city
    return labels[:i] + ["publisher"] * (cut - i) + [OTHER] + labels[cut + 1:]


_NUMBERS = {"volume", "issue", "pages"}
_NAME_WORDS = 6            # a publisher's name is short ("Schloss Dagstuhl-Leibniz-Zentrum für Informatik")


@needs("place", "journal", absent=("publisher", "volume", "issue", "pages"))
def publisher_read_as_a_journal(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "The Casimir Effect and its Applications. Clarendon, Oxford (1997)": with no publisher and none
    of a journal's numbers labelled, a "journal" of a few words and none of a journal's, straight before
    the place, after a comma, is the book's publisher: a journal is cited by its volume and pages, a book
    by its imprint."""
    if "publisher" in labels or "place" not in labels or _NUMBERS & set(labels):
        return labels
    found = first_run(labels, "journal")
    if found is None:
        return labels
    i, j = found
    if j + 1 >= len(labels) or tokens[j].text != "," or labels[j + 1] != "place" or "journal" in labels[j:]:
        return labels
    words = [t.text.lower() for t in tokens[i:j] if t.text.isalnum()]
    if len(words) > 3 or any(CUES.get(w) in ("journal", "proc") for w in words):
        return labels              # "Sitzungsberichte der Königlich Preussischen Akademie ..., Berlin (1916)"
    return labels[:i] + ["publisher"] * (j - i) + labels[j:]


@needs("title", "place", absent=("publisher",), words=(":",))
def publisher_read_as_a_title(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "Bohr A and Mottelson B R 1975 Nuclear Structure vol II (Reading, MA: Benjamin) ch 4": a "title"
    after the place's colon, the book named before it, is the publisher up to the bracket or comma that
    closes the imprint; what follows it is a note ("ch 4")."""
    found = first_run(labels, "title")
    if found is None:
        return labels
    i, j = found
    if (i < 2 or tokens[i - 1].text != ":" or labels[i - 2] != "place" or "publisher" in labels
            or not {"booktitle", "title"} & set(labels[:i])):
        return labels
    end = next((k for k in range(i + 1, j) if tokens[k].text in (")", ",")), j)
    return labels[:i] + ["publisher"] * (end - i) + [OTHER] * (end < j) + ["note"] * max(0, j - end - 1) + labels[j:]


# A publisher's and a university's words ("press" is also a cue of "in press", CUES' "submitted").
_PUBLISHERS_WORDS = {word for word, group in CUES.items() if group in ("press", "univ")} | {"press"}


@needs("publisher", "title", absent=("journal", "booktitle", "series", "place"))
def journal_read_as_a_publisher(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "P. A. Zyla et al. Review of Particle Physics. PTEP, 2020 (8): 083C01, 2020." and "... of LLMs.
    Transactions of the Association for Computational Linguistics, 2025.": with no container labelled, a
    "publisher" after the title is the journal where a journal's numbers follow it, printed as a
    journal's are (two of volume, issue and pages, or pages after a colon), or where a journal's word
    opens it ("Transactions of ...", "Physical Review Letters") and no publisher's word is in it ("Press",
    "Springer"). A publisher is cited with a place or a year, and a book's pages with their cue ("Dover
    Publications, 112–116")."""
    if "publisher" not in labels or set(labels) & {"journal", "booktitle", "series", "place"}:
        return labels              # "Baltimore: Williams and Wilkins, 1994:651–666": a book's imprint
    found = first_run(labels, "publisher")
    if found is None or "title" not in labels[:found[0]]:
        return labels
    i, j = found
    words = [t.text.lower() for t in tokens[i:j] if t.text.isalnum()]
    if any(w in _PUBLISHERS_WORDS for w in words):
        return labels
    cues = [CUES.get(w) for w in words]
    # the journal's word opens its name: "Academy of Political Science" is a publisher
    if "journal" in cues[:2] or _numbered_as_a_journal(tokens, labels, j):
        return labels[:i] + ["journal"] * (j - i) + labels[j:]
    return labels


def _numbered_as_a_journal(tokens: list[Token], labels: list[str], j: int) -> bool:
    """Whether the numbers after token j are a journal's: two of volume, issue and pages, or pages
    after a colon ("2020 (8): 083C01")."""
    kinds = []
    for k in range(j, len(labels)):
        if labels[k] in (OTHER, "date"):
            continue
        if labels[k] not in _NUMBERS:
            break
        if not kinds or kinds[-1][0] != labels[k]:
            kinds.append((labels[k], k))
    return len(kinds) >= 2 or bool(kinds) and kinds[0][0] == "pages" and tokens[kinds[0][1] - 1].text == ":"


@needs("booktitle", absent=("publisher",))
def publisher_read_into_the_proceedings(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "In Conference on Algebra and Coalgebra in Computer Science (CALCO). Schloss Dagstuhl-Leibniz-Zentrum
    für Informatik, 2021." and "In Proceedings of the 24th USENIX Conference on Security Symposium. USENIX
    Association, 547–562.": the sentence after the proceedings' name, up to the comma or stop before the
    date or pages, is its publisher (ACM's and LIPIcs' styles print it so), though the tagger read the
    two as one name. A name printed with stops throughout ("Proc. Intl. Joint Conf. Art. Intell.") is
    abbreviated, not two sentences, and what follows the stop is no publisher when it holds a number
    ("..., 2006. ICRA 2006.", "NBER Working Paper No. W7653") or announces a field."""
    found = first_run(labels, "booktitle")
    if found is None or "publisher" in labels:
        return labels
    i, j = found
    stops = [k for k in range(i + 1, j - 1) if tokens[k].text == "." and tokens[k - 1].end == tokens[k].start]
    if len(stops) != 1 or not tokens[stops[0] + 1].text[:1].isupper():
        return labels
    stop = stops[0]
    remainder = [t.text for t in tokens[stop + 1:j] if t.text.isalnum()]
    after = next((labels[k] for k in range(j, len(labels)) if labels[k] != OTHER), None)
    if (not remainder or len(remainder) > _NAME_WORDS or after not in (None, "date", "pages")
            or not all(w.isalpha() for w in remainder) or cut_short(tokens[stop - 1].text)
            or any(CUES.get(w.lower()) not in (None, "and") for w in remainder if w.lower() not in _PUBLISHERS_WORDS)):
        return labels
    return labels[:stop] + [OTHER] + ["publisher"] * (j - stop - 1) + labels[j:]


# The lower-case words a publisher's name holds ("Farrar, Straus and Giroux", "Society for ...").
_NAMES_JOINING_WORDS = {"and", "&", "of", "for", "the", "de", "und", "et"}
_PUBLISHERS_NAME_WORDS = 6


@needs("title", "place", absent=("publisher", "journal", "booktitle"), words=(".",))
def publisher_read_into_the_title(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "Daniel Kahneman. Thinking, Fast and Slow. Farrar, Straus and Giroux, New York, 2011." and "Wim De
    Neys, editor. Dual Process Theory 2.0. Routledge, London, 2017.": a book's title that the tagger read
    on past its stop into the publisher's name, the place after that name. Where the title's last
    sentence is a name (a few capitalised words) and the imprint after it is printed as natbib's styles
    print a book's, "Publisher, Place, Year.", that sentence is the publisher; a place and a year with no
    comma between them ("Homer's World. Fiction, Tradition, Reality, Bergen 1995.") close a title whose
    last sentence is its subtitle."""
    found = first_run(labels, "title")
    if found is None or "publisher" in labels:
        return labels
    i, j = found
    n = len(tokens)
    if j + 1 >= n or tokens[j].text != "," or labels[j + 1] != "place":
        return labels
    place_end = first_run(labels[j + 1:], "place")[1] + j + 1
    if place_end + 1 >= n or tokens[place_end].text != "," or labels[place_end + 1] != "date":
        return labels
    stop = next((k for k in range(j - 2, i, -1) if ends_a_sentence(tokens, k)), None)
    if stop is None or cut_short(tokens[stop - 1].text):
        return labels              # "Proc. Int. ARENA2008 Workshop, Rome, 2008": an abbreviation's stop
    words = [t.text for t in tokens[stop + 1:j] if t.text.isalpha()]
    if not words or len(words) > _PUBLISHERS_NAME_WORDS or not words[0][0].isupper() \
            or any(not w[0].isupper() and w not in _NAMES_JOINING_WORDS for w in words) \
            or any(CUES.get(w.lower()) not in (None, "and", "press", "univ") for w in words):
        return labels
    return labels[:stop] + [OTHER] + ["publisher"] * (j - stop - 1) + labels[j:]
