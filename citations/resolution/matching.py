"""Deciding a reference's state: pure functions over its fields and a store of candidates.

`resolve()` returns one of the six states with the link (a held paper and/or a canonical work),
what decided it (resolver_source) and the evidence. It reads candidates only through the
CandidateStore protocol, so the same code runs against the database (store.py) and against the
in-memory stores of the evaluation (citations/evaluation/stores.py).

Order of decisions, each explained where it is made:
  1. an identifier that names a held paper or work: verified_exact, unless the title contradicts
     every known title of it (metadata_mismatch);
  2. a valid arXiv id that names nothing held: no held paper is it (each has an arXiv id of its own),
     but a work with no arXiv id may be its published version: 5 and 6 run among those alone, and
     without a link it is unresolved;
  3. only malformed identifiers: malformed_identifier;
  4. an untrustworthy title or year: parse_uncertain;
  5. title and year against candidates found by blocking key: verified_fuzzy for exactly one
     clear winner, otherwise unresolved;
  6. when the title finds nothing (or is missing or damaged), journal, volume and first page
     against the works printed there: verified_fuzzy when exactly one agrees on the journal or
     the first author as well (resolver_source "journal_volume_page").
"""
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Protocol

from rapidfuzz import fuzz

from citations.parsing.locators import Locator, journal_agrees
from citations.parsing.quality import title_problems, year_problems
from citations.parsing.text import comparable_title, name_part, significant_tokens, title_blocking_keys

RESOLVER_VERSION = "pith-resolver/1"

# Thresholds. Similarity is rapidfuzz's normalised Levenshtein ratio (0..1) of the comparable
# forms (lower case, accents and punctuation gone), so the PDF damage left after cleaning is
# what they must absorb. They were set from how titles of the same work and of different works
# score, not fitted to one data set (the evaluation prints every data set side by side).
VERIFY_SIMILARITY = 0.90      # same work: typically >= 0.95; 0.90 leaves room for ~1 edit in 10 characters
NO_YEAR_SIMILARITY = 0.97     # a candidate with no year to check must be all but identical
CLEAR_MARGIN = 0.05           # the winner must beat every other candidate by this much
YEAR_TOLERANCE = 1            # preprint and venue versions are often a year apart
# With no year to check (biblio-glutton's store has none; many reference styles put it last, where
# it is lost), the first author's family name is the second piece of evidence: title and author
# must both agree, and the title closely.
AUTHOR_SIMILARITY = 0.93
# For an identifier match, a title "contradicts" only when it shares almost nothing with any
# known title: truncated, extended or reworded titles of the same paper are not contradictions.
CONTRADICTION_RATIO = 0.50
CONTRADICTION_PARTIAL = 0.80
CONTRADICTION_OVERLAP = 0.34
MIN_SUBTITLE_TOKENS = 4       # a reference may cite a title without its subtitle, if that leaves enough


@dataclass(frozen=True)
class Candidate:
    """A held paper or a canonical work that a reference might cite."""

    paper_id: int | None
    work_id: str | None
    arxiv_id: str | None
    titles: tuple[str, ...]
    years: tuple[int, ...]
    dois: tuple[str, ...] = ()
    first_authors: tuple[str, ...] = ()     # family names, as the sources give them
    locators: tuple[tuple[str, str], ...] = ()   # (volume, first page), as locators.normal_* give them
    journals: tuple[str, ...] = ()          # container titles, full and short

    @property
    def label(self) -> str:
        return f"arXiv:{self.arxiv_id}" if self.arxiv_id else (self.dois[0] if self.dois else str(self.work_id))


class CandidateStore(Protocol):
    def by_arxiv_id(self, arxiv_id: str) -> Candidate | None: ...
    def by_doi(self, doi: str) -> Candidate | None: ...
    def by_title_keys(self, keys: Iterable[str]) -> list[Candidate]: ...
    def by_locator(self, volume: str, first_page: str) -> list[Candidate]: ...


@dataclass(frozen=True)
class ReferenceFields:
    """What the resolver reads of a reference: its parse, with any curator overrides applied."""

    title: str | None
    year: int | None
    identifiers: tuple[dict, ...] = ()
    not_a_work: bool = False
    first_author: str | None = None          # as parsed: "Kawai K", "S. Rajbhandari"
    locator: Locator | None = None           # volume and first page read from the raw text
    citing_paper_id: int | None = None       # the paper whose list holds the reference: never its own citation

    def identifiers_of(self, kind: str, *, valid: bool) -> list[dict]:
        return [i for i in self.identifiers if i["kind"] == kind and bool(i.get("valid")) is valid]


@dataclass(frozen=True)
class Resolution:
    state: str
    resolver_source: str | None
    paper_id: int | None = None
    work_id: str | None = None
    evidence: dict = field(default_factory=dict)


def resolve(fields: ReferenceFields, store: CandidateStore) -> Resolution:
    """The state of one reference, with its link and the evidence for it. A paper is never linked as
    citing itself (its own arXiv id or DOI printed in its list, its own title read as a reference's):
    such a reference is unresolved, and the evidence says why."""
    found = _resolve(fields, store)
    if found.paper_id is not None and found.paper_id == fields.citing_paper_id:
        return Resolution("unresolved", found.resolver_source, evidence={
            **{k: v for k, v in found.evidence.items() if k in ("identifier", "candidate")},
            "reason": "the work found is the citing paper itself: a paper is not its own citation"})
    return found


def _resolve(fields: ReferenceFields, store: CandidateStore) -> Resolution:
    if fields.not_a_work:
        return Resolution("unresolved", "curation", evidence={"reason": "marked not a scholarly work by a curator"})
    arxiv_ids = fields.identifiers_of("arxiv", valid=True)
    dois = fields.identifiers_of("doi", valid=True)
    malformed = [i for i in fields.identifiers if not i.get("valid") and i["kind"] in ("arxiv", "doi")]
    problems = title_problems(fields.title) + year_problems(
        fields.year, arxiv_id=arxiv_ids[0]["value"] if arxiv_ids else None)
    title_trusted = not title_problems(fields.title)

    # 1. An identifier naming something held decides, unless the title plainly names something else.
    for identifier in arxiv_ids + dois:
        kind = "arxiv_id" if identifier["kind"] == "arxiv" else "doi"
        found = store.by_arxiv_id(identifier["value"]) if kind == "arxiv_id" else store.by_doi(identifier["value"])
        if found is None:
            continue
        evidence = {"identifier": {"kind": kind, "value": identifier["value"]}, "candidate": found.label}
        if problems:
            evidence["parse_problems"] = problems
        # The citing paper's own id needs no title check: resolve() says it is no citation whatever the title.
        if title_trusted and found.titles and found.paper_id != fields.citing_paper_id:
            similarity = best_similarity(fields.title, found.titles)
            evidence["title_similarity"] = round(similarity, 3)
            if _contradicts(fields.title, found.titles):
                evidence["reason"] = "the reference's title matches no known title of the identified paper"
                return Resolution("metadata_mismatch", kind, evidence=evidence)
        return Resolution("verified_exact", kind, found.paper_id, found.work_id, evidence)

    # 2. A valid arXiv id that names nothing held: only a work without an arXiv id can be it.
    searched = _WithoutArxivId(store) if arxiv_ids else store
    doi = dois[0]["value"] if dois else None
    suggestion = _fuzzy(fields, searched, doi=doi) if title_trusted else None
    if fields.locator and (suggestion is None or suggestion.state != "verified_fuzzy"):
        # 6. The title found nothing, or cannot be trusted: where the work is printed may still name it.
        located = _by_locator(fields, searched, doi=doi, title_trusted=title_trusted)
        if located.state == "verified_fuzzy":
            if problems:
                located.evidence["parse_problems"] = problems
            suggestion = located
        elif suggestion is not None:
            suggestion.evidence["locator"] = located.evidence

    if arxiv_ids:
        named = {"kind": "arxiv_id", "value": arxiv_ids[0]["value"]}
        if suggestion is not None and suggestion.state == "verified_fuzzy":
            suggestion.evidence["identifier_not_held"] = named
            return suggestion
        return Resolution("unresolved", "arxiv_id", evidence={
            "identifier": named, "reason": "the arXiv paper named is not held by this store"})

    # 3. Only broken identifiers: say so, and keep what the title suggests for a curator.
    if malformed:
        evidence = {"malformed": [{k: i.get(k) for k in ("kind", "text", "problem")} for i in malformed]}
        if suggestion and suggestion.state == "verified_fuzzy":
            evidence["suggested"] = suggestion.evidence
        return Resolution("malformed_identifier", "parser", evidence=evidence)

    # 4. Fields that cannot be trusted are not matched by title.
    if problems and not (suggestion and suggestion.resolver_source == JOURNAL_VOLUME_PAGE):
        return Resolution("parse_uncertain", "parser", evidence={"problems": problems})

    # 5. Title and year.
    return suggestion


class _WithoutArxivId:
    """A store's candidates less every one with an arXiv id (the papers held, and works known by one)."""

    def __init__(self, store: CandidateStore):
        self._store = store

    def by_title_keys(self, keys: Iterable[str]) -> list[Candidate]:
        return [c for c in self._store.by_title_keys(keys) if c.arxiv_id is None]

    def by_locator(self, volume: str, first_page: str) -> list[Candidate]:
        return [c for c in self._store.by_locator(volume, first_page) if c.arxiv_id is None]

    def __getattr__(self, name):
        return getattr(self._store, name)


def best_similarity(title: str, titles: Iterable[str]) -> float:
    """The best similarity of a title to any of some titles (0..1)."""
    mine = comparable_title(title)
    first = _first_sentence(title)
    if first is None:
        return max((_similarity(mine, comparable_title(other), other) for other in titles), default=0.0)
    return max((max(_similarity(mine, theirs, other), fuzz.ratio(first, theirs) / 100)
                for other in titles for theirs in (comparable_title(other),)), default=0.0)


_SENTENCE_END = re.compile(r"(?<=[^\W\d_]{2})\.\s+(?=[A-Z])")


@lru_cache(maxsize=4096)             # asked once per candidate of the same reference
def _first_sentence(title: str) -> str | None:
    """ "Dementia, lesbians and gay men. Alzheimer's Australia": a title read on past its full stop
    into the venue after it is compared by its first sentence too, where that is long enough to
    name a work on its own."""
    parts = _SENTENCE_END.split(title, maxsplit=1)
    if len(parts) < 2 or len(significant_tokens(parts[0])) < MIN_SUBTITLE_TOKENS:
        return None
    return comparable_title(parts[0])


def _similarity(mine: str, theirs: str, original: str) -> float:
    score = fuzz.ratio(mine, theirs) / 100
    # "Educating for innovation and management" cites "...: The engineering educator's dilemma";
    # "Relying on informal care in the new century?" cites "...? Informal care for elderly people".
    main = _MAIN_TITLE.split(original, maxsplit=1)[0]
    if main != original:
        main = comparable_title(main)
        if len(significant_tokens(main)) >= MIN_SUBTITLE_TOKENS:
            score = max(score, fuzz.ratio(mine, main) / 100)
    return score


_MAIN_TITLE = re.compile(r"\s*(?::|\?|\.\s)\s*")


def _contradicts(title: str, titles: Iterable[str]) -> bool:
    mine = comparable_title(title)
    my_tokens = set(significant_tokens(title))
    for other in titles:
        theirs = comparable_title(other)
        if fuzz.ratio(mine, theirs) / 100 >= CONTRADICTION_RATIO:
            return False
        if fuzz.partial_ratio(mine, theirs) / 100 >= CONTRADICTION_PARTIAL:
            return False
        their_tokens = set(significant_tokens(other))
        if my_tokens and their_tokens and len(my_tokens & their_tokens) / len(my_tokens | their_tokens) >= \
                CONTRADICTION_OVERLAP:
            return False
    return True


def _names_agree(title: str, titles: Iterable[str]) -> bool:
    """ZeRO vs ZeRO-Infinity, FlashAttention vs FlashAttention-2: a named system is a different work."""
    mine = name_part(title)
    theirs = [name_part(other) for other in titles]
    if mine is None or all(name is None for name in theirs):
        return True
    return any(name == mine for name in theirs if name is not None)


def _fuzzy(fields: ReferenceFields, store: CandidateStore, *, doi: str | None) -> Resolution:
    keys = title_blocking_keys(fields.title)
    candidates = store.by_title_keys(keys)
    # Keys a store leaves out because too many titles share them (store.CROWDED_KEY), said in the evidence.
    crowded = getattr(store, "crowded", lambda keys: 0)(keys)
    resolution = _fuzzy_among(fields, candidates, doi=doi)
    if crowded:
        resolution.evidence["keys_too_common"] = crowded
        if not candidates:
            resolution.evidence["reason"] = "the title's blocking keys are each shared by too many works to tell apart"
    return resolution


def _fuzzy_among(fields: ReferenceFields, candidates: list[Candidate], *, doi: str | None) -> Resolution:
    scored = sorted(
        ((best_similarity(fields.title, c.titles), c) for c in candidates if c.titles),
        key=lambda pair: (-pair[0], pair[1].label),
    )
    listed = [{"candidate": c.label, "similarity": round(s, 3), "years": list(c.years)} for s, c in scored[:5]]
    if not scored:
        return Resolution("unresolved", "title_year", evidence={"reason": "no known work has a similar title"})

    def agrees(similarity: float, candidate: Candidate) -> bool:
        if doi and candidate.dois and doi not in candidate.dois and not all(
                d.startswith("10.48550/") for d in candidate.dois):
            return False          # the reference names another DOI than this work's own
        if not _names_agree(fields.title, candidate.titles) or _kind_differs(fields.title, candidate.titles):
            return False
        author = author_agrees(fields.first_author, candidate.first_authors) is True
        # Printed at the same volume and first page: as strong a second piece of evidence as the year.
        located = locator_agrees(fields.locator, candidate) is True
        if located and similarity >= VERIFY_SIMILARITY:
            return True
        if fields.year is None:
            # No year printed: the first author must agree, and the title closely.
            return author and similarity >= AUTHOR_SIMILARITY
        if not candidate.years:
            # The work's year is unknown: an all but identical title, or a close one by the same first author.
            return similarity >= NO_YEAR_SIMILARITY or (author and similarity >= AUTHOR_SIMILARITY)
        return similarity >= VERIFY_SIMILARITY and any(abs(fields.year - y) <= YEAR_TOLERANCE
                                                       for y in candidate.years)

    agreeing = [(s, c) for s, c in scored if agrees(s, c)]
    if not agreeing:
        reason = ("no candidate agrees on both title and year" if fields.year is not None else
                  "no year, and no candidate agrees on title and first author")
        return Resolution("unresolved", "title_year", evidence={"reason": reason, "candidates": listed})
    best_score, best = agreeing[0]
    runner_up = next((s for s, c in scored if c is not best), None)
    if runner_up is not None and best_score - runner_up < CLEAR_MARGIN:
        # Close titles are told apart only by the other evidence: nothing contradicts the winner,
        # and every close candidate is contradicted (another year, another first author): the same
        # title by someone else in another year, an erratum, a journal version a decade later.
        def contradicted(candidate: Candidate) -> bool:
            other_year = fields.year is not None and candidate.years and not any(
                abs(fields.year - y) <= YEAR_TOLERANCE for y in candidate.years)
            return bool(other_year) or author_agrees(fields.first_author, candidate.first_authors) is False \
                or locator_agrees(fields.locator, candidate) is False or _kind_differs(fields.title, candidate.titles)

        close = [c for s, c in scored if c is not best and best_score - s < CLEAR_MARGIN]
        if contradicted(best) or not all(contradicted(c) for c in close):
            return Resolution("unresolved", "title_year", evidence={
                "reason": "two candidates are too close to tell apart", "candidates": listed})
    author = author_agrees(fields.first_author, best.first_authors)
    located = locator_agrees(fields.locator, best)
    year_agrees = fields.year is not None and any(abs(fields.year - y) <= YEAR_TOLERANCE for y in best.years)
    return Resolution("verified_fuzzy", "title_year", best.paper_id, best.work_id, evidence={
        "candidate": best.label, "title_similarity": round(best_score, 3), "year": fields.year,
        "candidate_years": list(best.years), "runner_up_similarity": round(runner_up, 3) if runner_up else None,
        "first_author": _AGREEMENT[author], "volume_first_page": _AGREEMENT[located],
        "matched_on": ["title"] + (["year"] if year_agrees else []) + (["first_author"] if author else [])
                      + (["volume", "first_page"] if located else []),
        "candidates": listed})


_AGREEMENT = {True: "agrees", False: "differs", None: "unknown"}
JOURNAL_VOLUME_PAGE = "journal_volume_page"


def locator_agrees(locator: Locator | None, candidate: Candidate) -> bool | None:
    """Whether the reference's volume and first page are the candidate's; None when either is unknown."""
    if locator is None or not candidate.locators:
        return None
    return (locator.volume, locator.first_page) in candidate.locators


def _by_locator(fields: ReferenceFields, store: CandidateStore, *, doi: str | None, title_trusted: bool) -> Resolution:
    """The works printed at the reference's volume and first page, told apart by journal, first author
    and title. Volume 12, page 100 is in hundreds of journals: the location alone never links."""
    locator = fields.locator
    candidates = store.by_locator(locator.volume, locator.first_page)
    listed = []
    agreeing = []
    for candidate in candidates:
        if doi and candidate.dois and doi not in candidate.dois:
            continue              # the reference names another DOI than this work's own
        journal = journal_agrees(locator.journal_words, candidate.journals)
        author = author_agrees(fields.first_author, candidate.first_authors)
        similarity = best_similarity(fields.title, candidate.titles) if title_trusted and candidate.titles else None
        listed.append({"candidate": candidate.label, "journal": _AGREEMENT[journal], "first_author": _AGREEMENT[author],
                       "title_similarity": round(similarity, 3) if similarity is not None else None})
        if journal is False or author is False:
            continue
        if title_trusted and candidate.titles and (_contradicts(fields.title, candidate.titles) or
                                                   _kind_differs(fields.title, candidate.titles)):
            continue              # a readable title that is another work's: not this one, whatever the page
        # Two of the three agree, the location being one: journal or first author must say yes too.
        if journal or author:
            agreeing.append((candidate, journal, author))
    if len(agreeing) != 1:
        reason = ("no work is known at this volume and first page" if not candidates else
                  "no work at this volume and first page agrees on journal or first author" if not agreeing else
                  "more than one work at this volume and first page agrees")
        return Resolution("unresolved", JOURNAL_VOLUME_PAGE, evidence={
            "reason": reason, "volume": locator.volume, "first_page": locator.first_page, "candidates": listed[:5]})
    best, journal, author = agreeing[0]
    return Resolution("verified_fuzzy", JOURNAL_VOLUME_PAGE, best.paper_id, best.work_id, evidence={
        "candidate": best.label, "volume": locator.volume, "first_page": locator.first_page,
        "journal": _AGREEMENT[journal], "first_author": _AGREEMENT[author],
        "matched_on": ["volume", "first_page"] + (["journal"] if journal else []) + (["first_author"] if author else []),
        "candidates": listed[:5]})


_NOTICE = re.compile(r"^\W*(erratum|errata|corrigendum|correction|retraction|retracted|expression of concern|"
                     r"addendum|withdrawn|notice of retraction)\b", re.I)


def _kind_differs(title: str, titles: Iterable[str]) -> bool:
    """A notice about a paper ("Erratum: <its title>") is not the paper, and the paper is not its notice."""
    mine = bool(_NOTICE.match(title or ""))
    return all(bool(_NOTICE.match(other)) != mine for other in titles) if titles else False


_INITIALS = re.compile(r"^(?:[a-z]{1,2})$")


def _surname_tokens(name: str) -> set[str]:
    """The words of an author string that can be a family name (initials left out)."""
    tokens = comparable_title(name).split()
    return {t for t in tokens if not _INITIALS.match(t)}


def author_agrees(reference_author: str | None, first_authors: Iterable[str]) -> bool | None:
    """Whether the reference's first author is the candidate's: True, False, or None when either is
    unknown. "Kawai K", "K. Kawai" and "Kawai, K." all agree with the family name "Kawai"."""
    first_authors = [a for a in first_authors if a]
    if not reference_author or not first_authors:
        return None
    mine = _surname_tokens(reference_author)
    if not mine:
        return None
    return any(_surname_tokens(family) & mine for family in first_authors)
