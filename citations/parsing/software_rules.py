"""Label rules for pages and software cited by their names, where the tagger read the name as an author,
a note or a link: a page named before its link or the date it was accessed, a release named as Zenodo
and GitHub name it, software in AAS's style before the empty pieces of a journal it has none of, and
what kind of work it is said after its title. `relabel` (relabelling.py) applies them, in its order."""
import re

from citations.parsing.label_runs import ends_a_sentence, first_run, holds_a_persons_initial, is_initial, sentence_start
from citations.parsing.labels import IDENTIFIER_LABELS, OTHER
from citations.parsing.rule_needs import needs
from citations.parsing.tokens import Token


@needs("url", absent=("title",))
def page_named_before_its_link(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "Graphviz. https://www.graphviz.org/." and "Racket Binary Heaps. http://docs.racket-lang.org/...
    [Accessed October 9, 2013].": with no title labelled, the sentence a reference opens with,
    straight before its link, names the page or software cited: its title, though the tagger read a
    short name as its author ("Tabula. http://tabula.technology."); a person's name (an initial) and
    an author named elsewhere leave it as it was read."""
    if "title" in labels:
        return labels
    stop = next((k for k in range(1, len(tokens) - 1) if tokens[k].text == "." and labels[k + 1] == "url"), None)
    if stop is None or any(label in IDENTIFIER_LABELS for label in labels[:stop]) \
            or not any(t.text.isalnum() for t in tokens[:stop]) or sentence_start(tokens, stop) != 0:
        return labels
    if "author" in labels and ("author" in labels[stop:] or stop > 4
                               or holds_a_persons_initial(tokens, labels, 0, stop)):
        return labels
    return ["title"] * stop + labels[stop:]


@needs(absent=("title",))
def page_named_before_its_access_date(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "EGL Overview, accessed: 2022-09-11 (2022)." and "O. Cornut, Dear ImGui, accessed: 2022-09-11":
    with no title labelled, the comma-parted piece straight before the date a page was accessed names
    the page or software cited: its title, though the tagger read a short name as an author or a note.
    A person's name (an initial with its stop, or an author's single capital: "Smith J") is left as it
    was read."""
    if "title" in labels:
        return labels
    accessed = next((k for k in range(2, len(tokens)) if tokens[k].text.lower() == "accessed"
                     and tokens[k - 1].text == ","), None)
    if accessed is None:
        return labels
    stop = accessed - 1
    # the piece starts after a comma or a full stop, not after an initial's stop ("O. Cornut")
    start = next((k + 1 for k in range(stop - 1, -1, -1) if tokens[k].text == ","
                  or (tokens[k].text == "." and not (k > 0 and is_initial(tokens, k - 1)))), 0)
    piece = range(start, stop)
    if (not piece or any(labels[k] not in ("author", "note", OTHER) for k in piece)
            or holds_a_persons_initial(tokens, labels, start, stop)
            or not any(tokens[k].text.isalpha() for k in piece)):
        return labels
    return labels[:start] + ["title"] * (stop - start) + labels[stop:]


@needs("date", "author", absent=("title",))
def software_before_empty_pieces(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "Foreman-Mackey, D., & Morton, T. 2016, dfm/transit: v0.3.0, , , doi:10.5281/zenodo.159478":
    with no title labelled, the piece after the authors' date that the journal's and volume's empty
    pieces follow, and then only a link or identifier, is the title (AAS's software citation)."""
    if "title" in labels or "date" not in labels or "author" not in labels[:labels.index("date")]:
        return labels
    n = len(tokens)
    i = labels.index("date")
    while i < n and (labels[i] == "date" or tokens[i].text in (",", ")")):
        i += 1
    j = next((k for k in range(i + 1, n - 1) if tokens[k].text == "," and tokens[k + 1].text == ","), None)
    if (j is None or any(label in IDENTIFIER_LABELS - {"idno"} or label in ("author", "date") for label in labels[i:j])
            or any(label not in IDENTIFIER_LABELS and label != OTHER for label in labels[j:])):
        return labels
    return labels[:i] + ["title"] * (j - i) + labels[j:]


# Zenodo's and GitHub's name of a software release: "owner/repository: v1.2.3" or "...: Qibo 0.1.7", not
# inside a link.
_RELEASE = re.compile(r"(?<![\w/.:])[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+: (?:[A-Z][A-Za-z0-9_.-]* )?v?[0-9]+(?:\.[0-9]+)+"
                      r"[A-Za-z0-9-]*")
_NOT_IN_A_RELEASE = {"author", "editor", "journal", "booktitle", "date"}


@needs("author", words=("/", ":"))
def software_release_title(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "Moritz Schauer and Sebastiano Grazzi. mschauer/ZigZagBoomerang.jl: v0.10.0, 2021. doi:10.5281/
    zenodo.3931118" and "EleutherAI/lm-evaluation-harness: v0.4.12": a release named as Zenodo and GitHub
    name it, its repository and its version, is the title, version and all, though the tagger read it as
    a link, a page or a title cut at its colon."""
    if not any(t.text == "/" for t in tokens) or not any(t.text == ":" for t in tokens):
        return labels
    text = [" "] * tokens[-1].end                      # the text as tokenised, its spaces where they were
    for t in tokens:
        text[t.start:t.end] = t.text
    match = _RELEASE.search("".join(text))
    if match is None:
        return labels
    inside = [k for k, t in enumerate(tokens) if match.start() <= t.start < match.end()]
    if not inside or any(labels[k] in _NOT_IN_A_RELEASE for k in inside) or "author" not in labels[:inside[0]]:
        return labels
    labels = ["note" if label == "title" else label for label in labels]      # a title read elsewhere is not it
    labels[inside[0]:inside[-1] + 1] = ["title"] * len(inside)
    return labels


# Words that say what kind of work a thing cited by its name is, as BibTeX's howpublished and note print it
# after the title ("Public code repository.", "Python package on PyPI.", "W3C recommendation.").
_KINDS = {"repository", "package", "recommendation", "dataset", "software", "library", "toolkit", "documentation",
          "website", "webpage", "blog", "notebook", "specification"}
_KINDS_AS_WRITTEN = frozenset(form for kind in _KINDS for form in (kind, kind.capitalize()))
_KIND_WORDS = 5


@needs("title", words=(".",), one_of=tuple(sorted(_KINDS_AS_WRITTEN)))
def kind_of_work_closing_the_title(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "ruggsea. 2026. lmkbc26-share: A closed-book system for the lm-kbc 2026 challenge. Public code
    repository." and "Grekousis G (2024). geoxgboost: Geographically Weighted XGBoost. Python package on PyPI,
    URL ...": the last sentence the tagger read into a title, where it is a few words that say what kind of
    work it is (a repository, a package, a data set, a recommendation), is a note on it, not its title. A
    subtitle says it with an article ("Keras. The Python deep learning library") or at more length, and
    stays the title's, as does a short one that names no kind of work ("Spin waves. Magnetism of thin
    films")."""
    found = first_run(labels, "title")
    if found is None:
        return labels
    i, j = found
    stop = next((k for k in range(j - 2, i, -1) if ends_a_sentence(tokens, k)), None)
    if stop is None:
        return labels
    words = [t.text for t in tokens[stop + 1:j] if t.text.isalnum()]
    if (not words or len(words) > _KIND_WORDS or words[0].lower() in ("a", "an", "the")
            or _KINDS_AS_WRITTEN.isdisjoint(words)):
        return labels
    return labels[:stop] + [OTHER] + ["note"] * (j - stop - 1) + labels[j:]
