"""Label rules that move the boundary between the authors and the title where the tagger put it in
the wrong place: a collaboration, the last names of a list, a program's name before a colon (an
organisation's: organisation_rules.py). `relabel` (relabelling.py) applies them, in its order."""
from citations.parsing.cues import CUES
from citations.parsing.label_runs import cut_short, ends_a_sentence, first_run, initials_first, is_initial
from citations.parsing.labels import OTHER
from citations.parsing.lexicon import shipped as shipped_lexicon
from citations.parsing.names import GROUP, PARTICLES
from citations.parsing.rule_needs import needs
from citations.parsing.tokens import Token


@needs("author")
def family_name_opening_a_title(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "Z. Guo, N. Ohta, and S. Tsujikawa Realizing scale-invariant...": in a list whose names put
    the initials first, a last name of initials alone is missing its family name, and the capitalised
    word after it is that, though no comma parts it from the title ("Murakami K. Endoscopic..." and
    "Green, B. Renovation..." put the family name first, and are left alone); "M. O'Hara, Flow
    toxicity ...": the word is whole, its apostrophe or hyphen and what follows included. So for a
    journal after the names, where the style prints no title ("V. P. Gusynin Phys. Rev. D 52 4747"),
    unless the word is the journal's own, cut short or a journal's word ("A. B. Nuovo Cim.")."""
    labels = _family_name_opening(tokens, labels, "title")
    return _family_name_opening(tokens, labels, "journal")


def _family_name_opening(tokens: list[Token], labels: list[str], label: str) -> list[str]:
    found = first_run(labels, label)
    if found is None:
        return labels
    i, j = found
    if j - i < 3 or i < 2 or not (tokens[i].text[:1].isupper() and tokens[i].text.isalpha()):
        return labels
    if label == "journal" and (tokens[i + 1].text == "." or tokens[i].text.lower() in CUES):
        return labels
    stop = i - 1 if tokens[i - 1].text == "." and labels[i - 1] == OTHER else i    # the last initial's
    k = stop - 1
    if labels[k] != "author":
        return labels
    initials = two_letters = 0
    while k >= 0 and labels[k] == "author" and tokens[k].text not in (",", ";", "&", "and"):
        word = tokens[k].text
        if word == "." or word == "-":
            pass
        elif len(word) == 1 and word.isupper():
            initials += 1
        elif word in _TWO_LETTER_INITIALS and tokens[k + 1].text == ".":
            two_letters += 1
        else:
            return labels
        k -= 1
    if not initials or not initials_first(tokens, labels):     # not "Green, B.", whose family comes first
        return labels
    end = i + 1                    # the whole word: "O'Hara", "Smith-Jones"
    while end + 1 < j and tokens[end].start == tokens[end - 1].end and tokens[end].text in _INSIDE_A_NAME \
            and tokens[end + 1].start == tokens[end].end and tokens[end + 1].text[:1].isupper():
        end += 2
    if two_letters and tokens[end].text != ",":
        return labels              # "W. Li. Linearly convergent ...": a family name of two letters ends the name
    if label == "journal" and not (end + 1 < j and cut_short(tokens[end].text) and tokens[end + 1].text == "."):
        return labels              # "Ž. Surface and Coatings Technology": the journal's name goes on, not cut short
    return labels[:stop] + ["author"] * (end - stop) + labels[end:]


_INSIDE_A_NAME = {"'", "’", "-"}
# A transliterated letter's two ("J. Ch. Sublet", "A. Yu. Vaintrob", "E. Kh. Akhmedov"), an initial too, but
# like a family name of two letters ("V. Vu."): a comma after the word that follows says which it is.
_TWO_LETTER_INITIALS = {"Ch", "Kh", "Ph", "Sh", "Th", "Ts", "Ya", "Yu", "Zh"}


@needs("author", absent=("title",))
def title_read_as_the_last_author(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "J. Feder, Fractals, Plenum Press" and "H. Kim, Vortices and Vermas, arXiv:...": with no title
    labelled, in a list whose names put their initials first, the comma-parted piece of the authors
    after the last one with an initial is no name but the title, and what follows it no author
    ("P. Baudis, CMA-ES/pycma on Github, Zenodo, DOI:..."). An initial is a capital and its stop: the
    "Q" of "S. Coleman, Q-balls, Nucl. Phys." is no name's."""
    if "title" in labels or not initials_first(tokens, labels):
        return labels
    first, end = first_run(labels, "author")
    commas = [k for k in range(first, end) if tokens[k].text == ","]
    pieces = [(a + 1, b) for a, b in zip([first - 1] + commas, commas + [end]) if b > a + 1]
    named = [k for k, (a, b) in enumerate(pieces)
             if any(is_initial(tokens, m) and tokens[m + 1].text == "." for m in range(a, min(b, len(tokens) - 1)))]
    if not named or named[-1] + 1 >= len(pieces):
        return labels
    a, b = pieces[named[-1] + 1]
    words = [t.text for t in tokens[a:b]]
    if (any(w in (".", "et", "al", "&") for w in words) or words[0] == "and" or not words[0][:1].isupper()
            or len(words) == 2 or (b < len(tokens) and tokens[b].text == ".")):
        return labels              # an abbreviated journal ("Phys."), "et al.", or a given and family name
    return labels[:a - 1] + [OTHER] + ["title"] * (b - a) + [OTHER] * (end - b) + labels[end:]


# Abbreviations that open a name ("St. John's wort", "St. Louis", "Mt. Wilson"): no initial of a person's.
_NAME_OPENING_ABBREVIATIONS = {"St", "Mt", "Ft"}


@needs("author", "title", one_of=("St", "Mt", "Ft"))
def abbreviation_opening_a_title(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "Siyu Chen, ..., and Yang Yu. St. John's wort exacerbates acetaminophen-induced liver injury ...":
    "St." after the stop that ends the authors' sentence opens the title, though the tagger read it as
    the last author's word; that stop is no name's."""
    found = first_run(labels, "title")
    if found is None or found[0] < 4:
        return labels
    i = found[0]
    if (tokens[i - 1].text != "." or tokens[i - 2].text not in _NAME_OPENING_ABBREVIATIONS
            or labels[i - 2] != "author" or not ends_a_sentence(tokens, i - 3)):
        return labels
    return labels[:i - 3] + [OTHER, "title", "title"] + labels[i:]


@needs("title", words=("(", ")"))
def collaboration_in_brackets(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "G. Aad et al. (ATLAS), Phys. Rev. D 101" and "M. Robotkova (STAR), SciPost": a name in brackets
    right after the authors is their collaboration, not the title."""
    found = first_run(labels, "title")
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
    k = closing + 1
    while k < len(text) and labels[k] == "title" and text[k] in (",", ".", ";", ":"):
        labels[k] = OTHER          # the title read on past the bracket: its punctuation is no field's
        k += 1
    return labels


@needs("author", one_of=("(", "["))
def collaboration_named_in_brackets(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "Abbott, B.P. [LIGO Scientific and Virgo Collaborations], et al.: Observation of ...": a bracket
    straight after a name that names a collaboration is the authors', whatever the tagger read its
    words as (a note, the start of a title)."""
    text = [t.text for t in tokens]
    for k in range(1, len(text) - 2):
        if text[k] not in ("(", "[") or labels[k - 1] not in ("author", OTHER) or "author" not in labels[:k]:
            continue
        closing = next((m for m in range(k + 1, min(k + 14, len(text))) if text[m] == {"(": ")", "[": "]"}[text[k]]),
                       None)
        if closing is None or not GROUP.search(" ".join(text[k + 1:closing])) \
                or any(label not in ("author", "note", OTHER) for label in labels[k + 1:closing]):
            continue
        return labels[:k] + [OTHER] + ["author"] * (closing - k - 1) + [OTHER] + labels[closing + 1:]
    return labels


_NAME_PIECE_WORDS = {".", "-", "and", "&"}


@needs("title", "author")
def names_opening_a_title(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "B. Blok, Yu. Dokshitser, L. Frankfurt and M. Strikman, pQCD physics...": in a list whose names
    put the initials first, a title does not open with more such names ending at a comma, nor with
    "and" and such a name: they are the last authors."""
    found = first_run(labels, "title")
    if found is None or not initials_first(tokens, labels):
        return labels
    i, j = found
    if i == 0 or labels[i - 1] not in ("author", OTHER) or "author" not in labels[:i]:
        return labels
    text = [t.text for t in tokens]
    comma = next((k for k in range(i, j) if text[k] == ","), None)
    if comma is None or comma - i < 3:
        return labels
    words = text[i + (text[i] in ("and", "&")):comma]      # "... L. Frankfurt | and M. Strikman, pQCD ..."
    initials = sum(1 for k in range(i, comma - 1) if text[k + 1] == "." and len(text[k]) <= 2 and text[k][:1].isupper())
    if (not initials or len(words) < 2 or not (len(words[0]) <= 2 and words[0][:1].isupper() and words[1] == ".")
            or any(not (w in _NAME_PIECE_WORDS or w[:1].isupper()) for w in words)):
        return labels
    labels = list(labels)
    labels[i:comma] = ["author"] * (comma - i)
    labels[comma] = OTHER
    return labels


# Lower-case words inside personal names ("Frank van der Meulen", "José Ortega y Gasset": names.py reads a
# lone "y" as joining two names, a list's rule reads it inside one), and the words closing a list.
_NAME_PARTICLES = PARTICLES | {"y"}
_LIST_ENDINGS = {"and", "&", "others", "other", "contributors", "et", "al"}


def _second_word(tokens: list[Token], k: int) -> int:
    """The token after the word at k, past the parts a hyphen joins to it ("Amir-Hossein Karimi")."""
    k += 1
    while k + 1 < len(tokens) and tokens[k].text == "-" and tokens[k].start == tokens[k - 1].end:
        k += 2
    return k


def _title_opens_the_authors_tail(tokens: list[Token], labels: list[str], i: int) -> tuple[int, bool] | None:
    """Where the authors the title at i may go on from end, and whether the title's first word ends
    the last author's name: after the authors' comma or "and" ("..., Manuel Mager, and | Katharina von
    der Wense."), or after the stop of an initial ("Nicholas M. | Boffi, and Eric Vanden-Eijnden.")."""
    text = [t.text for t in tokens]
    k = i - 1
    while k >= 0 and labels[k] == OTHER and text[k] in (",", "and", "&"):
        k -= 1
    if k < i - 1:
        return (k + 1, False) if k >= 0 and labels[k] == "author" else None
    if i >= 2 and text[i - 1] == "." and labels[i - 1] == OTHER and labels[i - 2] == "author" and is_initial(tokens, i - 2):
        return i - 1, True
    return None


@needs("title", "author")
def author_list_tail_opening_a_title(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "Joris Bierkens, Sebastiano Grazzi, Frank van der Meulen, and Moritz Schauer. Sticky PDMP
    samplers...": in a list of given names first, which ends at a full stop, the authors do not stop at
    a comma: names from there to the first full stop, closed by "and" or "et al.", are the last authors
    (a particle such as "van der", an "and" or a middle initial is where the tagger tends to stop;
    "..., Wei Shao, Diane Rock-Kress, and Others. HIV populations..." may be read as two titles)."""
    found = first_run(labels, "title")
    if found is None or "author" not in labels:
        return labels
    i = found[0]
    text = [t.text for t in tokens]
    n = len(text)
    first = labels.index("author")
    second = _second_word(tokens, first)
    opening = _title_opens_the_authors_tail(tokens, labels, i)
    if (opening is None or second >= n or not text[first][:1].isupper() or len(text[first]) < 2
            or not text[second][:1].isupper()):
        return labels              # not "..., Name, Title": or a list of family names first ("Cai, T. T.")
    start, continued = opening
    stop = next((k for k in range(i + 1, n) if text[k] == "." and len(text[k - 1]) > 1
                 and (k + 1 == n or tokens[k + 1].start > tokens[k].end)), None)
    if (stop is None or any(labels[k] not in ("title", OTHER) for k in range(i, stop))
            or sum(labels[k] == "title" for k in range(stop + 1, min(stop + 3, n))) < 2):
        return labels
    names, name, closed = [], [], any(word in ("and", "&") for word in text[start:i])
    for word in text[i:stop] + [","]:
        if word in (",", "and", "&"):
            if name:
                names.append(name)
            name = []
            closed = closed or word != ","
        elif word.lower() in _LIST_ENDINGS:
            closed = True
            name.append(word.lower())
        elif word[:1].isupper() or word in _NAME_PARTICLES or word in (".", "-"):
            name.append(word)
        else:
            return labels
    plain = [n for n in names if not set(n) & _LIST_ENDINGS]
    sizes = [len([w for w in n if w not in (".", "-")]) for n in plain]
    if continued and sizes and sizes[0] == 1:
        sizes = sizes[1:]          # the family name of the name the initial before belongs to
    if not closed or not sizes or any(not 2 <= size <= 5 for size in sizes):
        return labels
    return labels[:start] + ["author"] * (stop - start) + [OTHER] + labels[stop + 1:]


_HEAD_LABELS = {"author", "volume", "note", OTHER}


@needs("title", words=(":",))
def name_before_a_colon_opening_a_title(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "..., and Luke Zettlemoyer. LLM.int8(): 8-bit matrix multiplication..." and "J. Tang, GLM: General
    language model pretraining...": the name of a method, program or model before a colon opens the
    title, though the tagger read it as the last author or a volume (a name is never cut from its
    given names or initials by a colon: "Tang, J.: Title" keeps its initials)."""
    found = first_run(labels, "title")
    if found is None:
        return labels
    text = [t.text for t in tokens]
    i = found[0] + (text[found[0]] == ":")          # the colon read as the title's first token
    if i < 2 or i >= len(text) or text[i - 1] != ":" or labels[i - 1] not in (OTHER, "title"):
        return labels
    head = i - 1
    while head > 0 and not (text[head - 1] in (",", ";") or (
            text[head - 1] == "." and tokens[head].start > tokens[head - 1].end)):
        head -= 1
    if head >= 2 and text[head - 1] == "." and is_initial(tokens, head - 2) and initials_first(tokens, labels):
        head += 1                  # "D. Durr & S. Teufel Bohmian Mechanics: ...": the initial's family name
    words = [w for w in text[head:i - 1] if w.isalpha()]
    lexicon = shipped_lexicon()
    one_word = all(tokens[k].end == tokens[k + 1].start for k in range(head, i - 2))
    if (("author" not in labels[:head] and not one_word)
            or (head and text[head - 1] in (",", ";") and _looks_like_the_name_before(text, head, i - 1))):
        return labels              # "Topol EJ: TARGET..." ("AOP-Wiki: Adverse..." is one word), "Sprent J: ..."
    if (not words or i - 1 - head > 6 or any(labels[k] not in _HEAD_LABELS for k in range(head, i - 1))
            or any(w.lower() in _LIST_ENDINGS for w in words)
            or all(len(w) == 1 for w in words)                       # initials: "Tang, J.: Title"
            or all(w.lower() in lexicon.words["first"] or w.lower() in lexicon.words["family"]
                   for w in words if len(w) > 1)):
        return labels
    return labels[:head] + ["title"] * (i - head) + labels[i:]       # the colon too


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


def _looks_like_the_name_before(text: list[str], head: int, colon: int) -> bool:
    """Whether the words from head to the colon are written as the name before them is ("Nelson MC,
    Juguilon H:"; "J. Tang, GLM:" is not)."""
    start = head - 1
    while start > 0 and text[start - 1] not in (",", ";"):
        start -= 1
    return _shape_of_name(text[head:colon]) == _shape_of_name(text[start:head - 1])


@needs("author", absent=("title",))
def package_read_as_an_author(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "Moritz Schauer. Kalman.jl, [Online]. Available: https://..." and "D3.js": with no title
    labelled, a name glued to a file's extension ("Kalman.jl") is a program's, no person's, and it
    opens the title, up to the comma or stop after it; an initial glued to a particle ("P.de
    Forcrand") is a person's."""
    if "title" in labels or "author" not in labels:
        return labels
    n = len(tokens)
    for k in range(1, n - 2):
        if (labels[k] == "author" and len(tokens[k].text) > 1 and tokens[k + 2].text not in _NAME_PARTICLES
                and tokens[k + 1].text == "." and tokens[k].end == tokens[k + 1].start
                and tokens[k + 1].end == tokens[k + 2].start and tokens[k + 2].text.isalpha()
                and tokens[k + 2].text.islower() and 2 <= len(tokens[k + 2].text) <= 3
                and (k + 3 == n or tokens[k + 3].start > tokens[k + 2].end or not tokens[k + 3].text.isalnum())
                and k > 0 and tokens[k - 1].text in (".", ",")):
            end = next((m for m in range(k + 3, n) if tokens[m].text in (",", ".") and labels[m] != "title"
                        and (m + 1 == n or tokens[m + 1].start > tokens[m].end)), n)
            rest = [OTHER if x == "author" else x for x in labels[end:]]
            return labels[:k - 1] + [OTHER] + ["title"] * (end - k) + rest
    return labels


@needs("author")
def title_opening_read_into_family_first_names(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "Edelman, B., ..., and Farr, B. Ain't No Mountain High Enough: ...", "Griffin, T. G., and
    Sobrinho, J. L. Metarouting. In Proceedings ..." and Vancouver's "Li J, Yen C, Liaw D. PTEN, a
    putative protein ...": in a list that puts each family name before its initials, a name ends at
    its initials' stop, and the capitalised words the model read on into the authors after it open
    the title, which runs to its own stop. The list is such where its first and last names are
    ("Family, I." or "Family IN") and each name's initials are followed by a comma or "and"; not
    "Hashimoto, K. and M. Kano" (only the first name inverted), "Niyti, G. Sawhney, M.K. Sharma" or
    "Agranovich, V. M. & La Rocca, G. C. Sol. State Commn." (a journal's word cut short)."""
    found = first_run(labels, "author")
    if found is None:
        return labels
    a, e = found
    n = len(tokens)
    s = _inverted_list_end(tokens, a, e) or _vancouver_list_end(tokens, a, e)
    if s is None or s >= e:
        return labels
    if (not tokens[s].text[:1].isupper() or tokens[s].start == tokens[s - 1].end
            or any(t.text in (",", ";", "&", "and") or is_initial(tokens, k) for k, t in enumerate(tokens[s:e], s))):
        return labels
    end = next((k for k in range(s + 1, n) if tokens[k].text == "." and len(tokens[k - 1].text) > 1
                and (k + 1 == n or tokens[k + 1].start > tokens[k].end)), n)
    if (cut_short(tokens[end - 1].text) or "title" in labels[end:]
            or any(labels[k] not in ("author", OTHER, "title", "journal", "booktitle") for k in range(s, end))):
        return labels
    return labels[:s - 1] + [OTHER] + ["title"] * (end - s) + labels[end:]


def _inverted_list_end(tokens: list[Token], a: int, e: int) -> int | None:
    """Where the tokens after the last name of an author run a..e start, in a list of "Family, I."
    names whose initials each end at a comma or "and" ("Farr, B. Ain't"); None for another list."""
    if not (e - a >= 4 and _family_then_initials(tokens, a)):
        return None
    stops = [k + 1 for k in range(a, e - 1) if is_initial(tokens, k) and tokens[k + 1].text == "."]
    if not stops:
        return None
    last_initials = stops[-1] - 1
    while last_initials >= 2 and is_initial(tokens, last_initials - 2) and tokens[last_initials - 1].text in ".-":
        last_initials -= 2
    if (not _family_then_initials(tokens, last_initials - 2)
            or any(k + 1 < e and not is_initial(tokens, k + 1) and tokens[k + 1].text not in (",", "and", "&", "-")
                   for k in stops[:-1])):
        return None
    return stops[-1] + 1


def _family_then_initials(tokens: list[Token], k: int) -> bool:
    """Whether a family name, its comma and an initial start at k ("Farr, B.")."""
    return (0 <= k and k + 2 < len(tokens) and len(tokens[k].text) > 1 and tokens[k].text[:1].isupper()
            and tokens[k + 1].text == "," and is_initial(tokens, k + 2))


def _vancouver_list_end(tokens: list[Token], a: int, e: int) -> int | None:
    """Where the tokens after the last name of an author run a..e start, in Vancouver's list of
    "Family IN" names parted by commas and closed by a stop ("Li J, Yen C, Liaw D. PTEN"), two or more
    of them ("Mark C. Suchman" is a given name, an initial and a family name); None for another list."""
    k, names = a, 0
    while k < e:
        end = _vancouver_name_end(tokens, k)
        if end is None or end > e:
            return None
        k, names = end, names + 1
        if k < e and tokens[k].text == ",":
            k += 1
        elif k < e and tokens[k].text == "." and names > 1:
            return k + 1
        else:
            return None
    return None


@needs("author", "title")
def family_first_names_opening_a_title(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "..., Logsdon DL, Driver CL. 1 alpha,25-Dihydroxy-16-ene..." and "Breiman, L., ..., Olshen, R.,
    Stone, C. Classification and Regression Trees": in a list that puts each family name before its
    initials, a title does not open, straight after the authors' comma, with more names written as
    theirs: they are the last authors, up to the last one's stop."""
    found, title = first_run(labels, "author"), first_run(labels, "title")
    if found is None or title is None:
        return labels
    a, e = found
    i, j = title
    vancouver = _vancouver_name_end(tokens, a) is not None
    if (i < e or not (vancouver or _family_then_initials(tokens, a))
            or not any(tokens[k].text == "," for k in range(e, i))
            or any(tokens[k].text not in (",", ".") for k in range(e, i))):
        return labels
    k, stop = i, None
    while k < j:
        end = _vancouver_name_end(tokens, k) if vancouver else _inverted_name_end(tokens, k)
        if end is None or end >= j:
            return labels
        if tokens[end].text == ",":
            k = end + 1
            continue
        stop = end if tokens[end].text == "." else end - 1
        break
    if stop is None or tokens[stop].text != "." or stop + 1 >= j:
        return labels
    return labels[:i] + ["author"] * (stop - i) + [OTHER] + labels[stop + 1:]


def _vancouver_name_end(tokens: list[Token], k: int) -> int | None:
    """The index after a "Family IN" name at k ("Driver CL"), or None."""
    n = len(tokens)
    if not (k < n and len(tokens[k].text) > 1 and tokens[k].text[:1].isupper() and tokens[k].text[1:].islower()):
        return None
    k += 1
    while k + 1 < n and tokens[k].text == "-" and tokens[k + 1].text[:1].isupper():
        k += 2                 # "Torp-Pedersen C"
    initials = tokens[k].text if k < n else ""
    return k + 1 if initials.isalpha() and initials.isupper() and len(initials) <= 3 else None


def _inverted_name_end(tokens: list[Token], k: int) -> int | None:
    """The index after a "Family, I." name at k, its initials' stops included ("Stone, C."), or None."""
    if not _family_then_initials(tokens, k):
        return None
    k += 2
    while k + 1 < len(tokens) and is_initial(tokens, k) and tokens[k + 1].text == ".":
        k += 2
    return k
