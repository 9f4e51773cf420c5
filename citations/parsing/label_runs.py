"""What the label rules (relabelling.py, author_rules.py), fields.py and the training data's reader
ask of labelled tokens: a year, where a label's first run is, whether an author list puts each
name's initials first, whether a word is cut short, and whether a book is cited whole or "in"
introduces it."""
import re

from citations.parsing.labels import OTHER
from citations.parsing.lexicon import shipped as shipped_lexicon
from citations.parsing.tokens import Token

YEAR = re.compile(r"(?<![0-9])(1[5-9][0-9][0-9]|20[0-9][0-9])(?![0-9])")
# A part's or a volume's Roman numeral ("II", "XIV").
PART_NUMERAL = re.compile(r"[IVX]{1,4}")


def cut_short(word: str) -> bool:
    """Whether a word before a stop reads as an abbreviation ("Phys.", "Clim.", "Publ."): short,
    capitalised (not an acronym: "AA.") and no English word."""
    return (len(word) <= 5 and word[:1].isupper() and word[1:].islower()
            and word.lower() not in shipped_lexicon().words["english"])


def first_run(labels: list[str], label: str) -> tuple[int, int] | None:
    """[start, end) of the first run of tokens with this label, or None."""
    if label not in labels:
        return None
    i = labels.index(label)
    for j in range(i + 1, len(labels)):       # a for loop: fewer steps a token than a while loop's
        if labels[j] != label:
            return i, j
    return i, len(labels)


def initials_first(tokens: list[Token], labels: list[str]) -> bool:
    """Whether the author list puts each name's initials first ("Z. Guo, ..."), not its family name."""
    first = labels.index("author") if "author" in labels else None
    return (first is not None and len(tokens[first].text) == 1 and tokens[first].text.isupper()
            and first + 1 < len(tokens) and tokens[first + 1].text == ".")


def is_initial(tokens: list[Token], k: int) -> bool:
    """Whether token k is a single capital letter, a name's initial."""
    return len(tokens[k].text) == 1 and tokens[k].text.isupper()


def holds_a_persons_initial(tokens: list[Token], labels: list[str], i: int, j: int) -> bool:
    """Whether tokens i..j hold a person's initial: a single capital with its stop ("J. Smith"), or one
    read as an author's ("Smith J"); a capital in a name such as "ALICE O2" is neither."""
    return any(is_initial(tokens, k) and ((k + 1 < len(tokens) and tokens[k + 1].text == ".") or labels[k] == "author")
               for k in range(i, j))


def printed_words(tokens: list[Token], i: int, j: int) -> list[str]:
    """The words of tokens i..j as printed: a word broken at a line's end whose hyphen PDF text kept,
    glued to both halves ("Commu-nicationsin Mathematical Physics"), is one word, so that it reads as
    capitalised or not by its first half."""
    words: list[str] = []
    for k in range(i, j):
        text = tokens[k].text
        glued = bool(words) and tokens[k].start == tokens[k - 1].end
        second_half = glued and text[:1].isalpha() and words[-1][-1:] == "-" and words[-1][:1].isalpha()
        hyphen = (glued and text == "-" and words[-1][-1:].isalpha() and k + 1 < j
                  and tokens[k + 1].start == tokens[k].end and tokens[k + 1].text[:1].islower())
        if second_half or hyphen:
            words[-1] += text
        else:
            words.append(text)
    return words


def ends_a_sentence(tokens: list[Token], i: int) -> bool:
    """Whether token i is a full stop that ends a sentence: glued to a word of more than one letter (an
    initial's stop ends no sentence), to a digit, or to a letter glued to a number ("Mistral 7B.",
    "Dual Process Theory 2.0."), and followed by a space, or by nothing."""
    return (tokens[i].text == "." and i > 0 and tokens[i - 1].end == tokens[i].start
            and (len(tokens[i - 1].text) > 1 or _closes_a_number(tokens, i - 1))
            and (i + 1 >= len(tokens) or tokens[i + 1].start > tokens[i].end))


def _closes_a_number(tokens: list[Token], k: int) -> bool:
    """Whether token k (one character) is a digit, or a letter glued to a number before it, as a model's
    size or a version's letter is ("7B", "4V"): no initial is."""
    return tokens[k].text.isdigit() or (k > 0 and tokens[k - 1].end == tokens[k].start
                                        and tokens[k - 1].text[-1:].isdigit())


def sentence_start(tokens: list[Token], k: int) -> int:
    """The first token of the sentence token k is in: after the last full stop that ends one."""
    for i in range(k - 1, 0, -1):
        if ends_a_sentence(tokens, i):
            return i + 1
    return 0


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


def book_cited_whole(tokens: list[Token], labels: list[str]) -> bool:
    """Whether the book title read is the cited work's own (a book or proceedings cited whole): no
    journal is named, and no "in" introduces it as where an untitled part of it appeared ("M. Luban,
    in Phase Transitions and Critical Phenomena, Vol. 5A")."""
    found = first_run(labels, "booktitle")
    return found is not None and "journal" not in labels and introducing_in(tokens, labels, found[0]) is None
