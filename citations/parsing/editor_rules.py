"""Label rules for editors (see relabelling.py): who edited the book a reference cites is named as
such ("eds.", "(editors)", "edited by", "Hrsg."); names read as editors where the string names no
editor are the authors' or a venue's."""
from citations.parsing.cues import CUES
from citations.parsing.label_runs import first_run
from citations.parsing.labels import OTHER
from citations.parsing.names import PARTICLES
from citations.parsing.rule_needs import needs
from citations.parsing.tokens import Token

# Words that say a name edited a work, beside cues.py's "eds" group: Italian, Latin, French and German
# forms the labelled sets print. They are not cues, which are model features: adding one there would
# change what the shipped model was trained to see.
_EDITOR_WORDS = {"edd", "hgg", "hrg", "éd", "éds", "editores", "éditeur", "éditeurs", "herausgegeben", "cura", "coord"}


def names_an_editor(tokens: list[Token]) -> bool:
    """Whether a string says anyone edited anything: an editor word ("eds.", "editors", "Hrsg."), or
    "ed" as an abbreviation ("ed.", "(ed)"); a capitalised "Ed" before a name is a given name ("Ed Chi")."""
    for k, token in enumerate(tokens):
        word = token.text.lower()
        if word == "ed":
            if token.text == "ed" or (k + 1 < len(tokens) and tokens[k + 1].text in (".", ")", ",", ":")) \
                    or (k and tokens[k - 1].text in ("(", "[")):
                return True
        elif CUES.get(word) == "eds" or word in _EDITOR_WORDS:
            return True
    return False


@needs("author", absent=("editor",))
def editors_read_as_authors(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "Bird, Jon, Barry Curtis, and Lisa Tickner, eds. Mapping the Futures: ..." and "M. C. Ferris and
    J.-S. Pang (editors). Complementarity ...": with no editor labelled, the names opening a reference
    that "eds." or "(editors)" follows edited the book cited; they are its editors, not its authors.
    A capitalised "Ed." alone is a given name as often ("Vitagliano, Ed. 2011"), and is left alone."""
    found = first_run(labels, "author") if "editor" not in labels else None
    if found is None:
        return labels
    a, e = found
    n = len(tokens)
    k = e
    while k < n and (tokens[k].text in (",", "(", "[") or tokens[k].text == "." and tokens[k - 1].text == "al"):
        k += 1                 # "G. Apollinari et al. (eds.)"
    if k >= n or CUES.get(tokens[k].text.lower()) != "eds" or tokens[k].text.lower() == "edited":
        return labels
    word, bracketed = tokens[k].text, tokens[k - 1].text in ("(", "[")
    if word == "Ed" and not bracketed:
        return labels
    if e > a and tokens[e - 1].text in (",", "(") and labels[e - 1] == "author":
        e -= 1                 # the comma before "eds" is no part of the names
    end = k + 1
    while end < n and tokens[end].text in (".", ")", "]") and end - k <= 2:
        end += 1
    return labels[:a] + ["editor"] * (e - a) + [OTHER] * (end - e) + labels[end:]


_NAME_PUNCTUATION = {",", ".", "-", "’", "'", "&"}


@needs("editor", "title", "author")
def authors_read_as_editors(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "Yinhan Liu, Myle Ott, Naman Goyal, Jingfei Du, Mandar Joshi, Danqi Chen, ..., and Veselin
    Stoyanov. RoBERTa: ...": a list of names longer than most in the labelled sets, read as authors and
    then as editors (or a place), where nothing in the string names an editor, is one author list up to
    the stop before the title."""
    if "editor" not in labels or "title" not in labels:
        return labels
    found = first_run(labels, "author")
    if found is None:
        return labels
    a, e = found
    stop = labels.index("title") - 1
    if stop <= e or tokens[stop].text != "." or labels[stop] != OTHER or "editor" not in labels[e:stop]:
        return labels
    for k in range(e, stop):
        text = tokens[k].text
        if labels[k] not in ("author", "editor", "place", OTHER) or not (
                text in _NAME_PUNCTUATION or text[0].isupper() or text.lower() in PARTICLES or text == "and"):
            return labels
    if names_an_editor(tokens):
        return labels
    return labels[:a] + ["author"] * (stop - a) + labels[stop:]


@needs("editor", absent=("booktitle", "journal"))
def venue_read_as_an_editor(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "In NeurIPS, 2018." and "In: EMNLP": an acronym after "In", read as an editor, where nothing in
    the string names an editor, is the proceedings the work appeared in. A name after "In" is left alone
    ("In Méloche 2012, p. 182", "In Glotfelty and Fromm, 196"): an acronym holds two capitals or more."""
    found = first_run(labels, "editor")
    if found is None or "booktitle" in labels or "journal" in labels:
        return labels
    i, j = found
    before = i - 1 - (i > 1 and tokens[i - 1].text == ":")
    if before < 0 or tokens[before].text.lower() != "in" or j - i > 2:
        return labels
    if any(not t.text.isalpha() or sum(c.isupper() for c in t.text) < 2 for t in tokens[i:j]):
        return labels
    if j < len(tokens) and tokens[j].text not in (",", ".", ")") and labels[j] != "date":
        return labels
    if names_an_editor(tokens):
        return labels
    return labels[:i] + ["booktitle"] * (j - i) + labels[j:]
