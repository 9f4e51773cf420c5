"""Label rules for a book's imprint, its publisher and place, where the tagger read one for the other.
`relabel` (relabelling.py) applies them, in its order."""
from citations.parsing.cues import CUES
from citations.parsing.label_runs import first_run
from citations.parsing.labels import OTHER
from citations.parsing.tokens import Token


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

