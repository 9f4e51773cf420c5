"""Candidates from the database, fetched in bulk for a batch of references.

`prefetch()` costs a fixed handful of indexed queries for a whole batch (ids, DOIs, title keys,
then the candidates' titles), so resolving a paper's hundred references does not cost a hundred
round trips, and no query scans the store: every lookup is by unique id, DOI or blocking key.
"""
from collections import defaultdict
from collections.abc import Iterable
from functools import reduce
from operator import or_

from django.db import connection
from django.db.models import Q

from citations.arxiv_ids import ARXIV_DOI_PREFIX, arxiv_doi
from citations.models import (
    CitedWork,
    IdentifierKind,
    Paper,
    PaperSnapshot,
    PaperTitleKey,
    WorkIdentifier,
    WorkRevision,
    WorkTitleKey,
)
from citations.parsing.locators import normal_page, normal_volume
from citations.parsing.text import key_fingerprint, title_fingerprints
from citations.resolution.matching import Candidate, ReferenceFields

# Blocking keys are specific by design (a whole title, or four of its words in order), but some are
# shared by many titles all the same: a stock phrase of a field ("systematic review meta analysis"),
# a generic title ("Editorial"), a template many titles follow. Loading every title filed under such a
# key made a lookup's cost grow with the store (bench/resolution.py), most of it from a few crowded
# keys. So a key's owners are all candidates only while
# they are few (SPECIFIC_KEY); an owner of a crowded key is a candidate only when it shares another key
# with the reference too (a title damaged at its end still shares both head keys with its work). A key
# with more owners than CROWDED_KEY is not read further and finds nothing. Either way the reference's
# evidence counts the crowded keys (keys_too_common).
SPECIFIC_KEY = 25
CROWDED_KEY = 10_000


def owners_by_key(keys: set[int]) -> dict[int, list[tuple[int | None, str | None]]]:
    """key -> its owners ((paper id, None) or (None, work id)), at most CROWDED_KEY + 1 per key and owner
    table: an index range read per key that stops there, however many titles share it."""
    found: dict[int, list] = {key: [] for key in keys}
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            for table, column in ((PaperTitleKey._meta.db_table, "paper_id"), (WorkTitleKey._meta.db_table, "work_id")):
                cursor.execute(f"""SELECT k.key, t.{column} FROM unnest(%s::bigint[]) AS k(key)
                    CROSS JOIN LATERAL (SELECT {column} FROM {table} WHERE key = k.key LIMIT %s) t""",
                               [sorted(keys), CROWDED_KEY + 1])
                for key, owner in cursor.fetchall():
                    found[key].append((owner, None) if column == "paper_id" else (None, str(owner)))
        return found
    for key, paper_id in PaperTitleKey.objects.filter(key__in=keys).values_list("key", "paper_id"):
        found[key].append((paper_id, None))
    for key, work_id in WorkTitleKey.objects.filter(key__in=keys).values_list("key", "work_id"):
        found[key].append((None, str(work_id)))
    return found


def _chosen(owners_of_keys: list[list[tuple]]) -> list[tuple]:
    """The owners that are candidates for a reference with these keys' owners (see SPECIFIC_KEY)."""
    chosen, shared = [], {}
    for owners in owners_of_keys:
        if len(owners) <= SPECIFIC_KEY:
            chosen += owners
        elif len(owners) <= CROWDED_KEY:
            for owner in owners:
                shared[owner] = shared.get(owner, 0) + 1
    chosen += [owner for owner, count in shared.items() if count >= 2]
    return list(dict.fromkeys(chosen))


class DatabaseStore:
    def __init__(self):
        self._paper_by_arxiv: dict[str, int | None] = {}
        self._doi_targets: dict[str, tuple[int | None, str | None] | None] = {}
        self._key_targets: dict[int, list[tuple[int | None, str | None]]] = {}     # by key fingerprint
        self._papers: dict[int, Candidate] = {}
        self._works: dict[str, Candidate] = {}
        self._arxiv_works: dict[str, tuple[int | None, str | None] | None] = {}
        self._locator_works: dict[tuple[str, str], list[str]] = {}

    # --- CandidateStore ---------------------------------------------------------------------------

    def by_arxiv_id(self, arxiv_id: str) -> Candidate | None:
        if arxiv_id not in self._paper_by_arxiv:
            self._load(arxiv_ids={arxiv_id})
        paper_id = self._paper_by_arxiv.get(arxiv_id)
        if paper_id:
            return self._papers.get(paper_id)
        # Not held, but known to the works store (a CoRR record, an OpenAlex location).
        return self._target(self._arxiv_works.get(arxiv_id))

    def by_doi(self, doi: str) -> Candidate | None:
        if doi.startswith(ARXIV_DOI_PREFIX):
            return self.by_arxiv_id(doi[len(ARXIV_DOI_PREFIX):])
        if doi not in self._doi_targets:
            self._load(dois={doi})
        return self._target(self._doi_targets.get(doi))

    def by_title_keys(self, keys: Iterable[str]) -> list[Candidate]:
        keys = sorted({key_fingerprint(key) for key in keys})
        self._load(keys=[keys])
        found, seen = [], set()
        for target in _chosen([self._key_targets[key] for key in keys]):
            candidate = self._target(target)
            if candidate is not None and id(candidate) not in seen:
                seen.add(id(candidate))
                found.append(candidate)
        return found

    def crowded(self, keys: Iterable[str]) -> int:
        """How many of these keys are shared by too many titles for all of them to be candidates."""
        return sum(len(self._key_targets.get(key_fingerprint(key), ())) > SPECIFIC_KEY for key in keys)

    def by_locator(self, volume: str, first_page: str) -> list[Candidate]:
        locator = (volume, first_page)
        if locator not in self._locator_works:
            self._load(locators={locator})
        return [self._works[w] for w in self._locator_works.get(locator, ()) if w in self._works]

    # --- loading ----------------------------------------------------------------------------------

    def prefetch(self, batch: Iterable[ReferenceFields]) -> None:
        """Load every candidate a batch of references could name, in a few queries."""
        arxiv_ids, dois, keys, locators = set(), set(), [], set()
        for fields in batch:
            if fields.locator:
                locators.add((fields.locator.volume, fields.locator.first_page))
            for identifier in fields.identifiers:
                if not identifier.get("valid"):
                    continue
                if identifier["kind"] == "arxiv":
                    arxiv_ids.add(identifier["value"])
                elif identifier["kind"] == "doi":
                    dois.add(identifier["value"])
            if fields.title:
                keys.append(sorted(title_fingerprints(fields.title)))
        self._load(arxiv_ids=arxiv_ids - set(self._paper_by_arxiv), dois=dois - set(self._doi_targets),
                   keys=keys, locators=locators - set(self._locator_works))

    def _target(self, target) -> Candidate | None:
        if target is None:
            return None
        paper_id, work_id = target
        return self._papers.get(paper_id) if paper_id else self._works.get(work_id)

    def _load(self, *, arxiv_ids=frozenset(), dois=frozenset(), keys=(), locators=frozenset()) -> None:
        """Load the candidates these name; keys: each reference's key fingerprints, a list a reference."""
        paper_ids: set[int] = set()
        work_ids: set[str] = set()
        arxiv_dois = {d[len(ARXIV_DOI_PREFIX):] for d in dois if d.startswith(ARXIV_DOI_PREFIX)}
        arxiv_ids = set(arxiv_ids) | arxiv_dois
        if arxiv_ids:
            held = dict(Paper.objects.filter(arxiv_id__in=arxiv_ids).order_by().values_list("arxiv_id", "id"))
            for arxiv_id in arxiv_ids:
                self._paper_by_arxiv[arxiv_id] = held.get(arxiv_id)
            paper_ids |= set(held.values())
            elsewhere = arxiv_ids - set(held)
            if elsewhere:
                for arxiv_id, target in self._work_targets(IdentifierKind.ARXIV, "arxiv_id", elsewhere).items():
                    self._arxiv_works[arxiv_id] = target
                    work_ids.add(target[1])
        plain_dois = set(dois) - {d for d in dois if d.startswith(ARXIV_DOI_PREFIX)}
        if plain_dois:
            targets = self._work_targets(IdentifierKind.DOI, "doi", plain_dois)
            for doi, paper_id in PaperSnapshot.objects.filter(doi__in=plain_dois).order_by().values_list(
                    "doi", "paper_id"):
                targets.setdefault(doi, (paper_id, None))
            for doi in plain_dois:
                self._doi_targets[doi] = targets.get(doi)
            for paper_id, work_id in targets.values():
                if paper_id:
                    paper_ids.add(paper_id)
                elif work_id:
                    work_ids.add(work_id)
        unread = {key for reference in keys for key in reference} - set(self._key_targets)
        if unread:
            self._key_targets.update(owners_by_key(unread))
        for reference in keys:
            for paper_id, work_id in _chosen([self._key_targets[key] for key in reference]):
                if paper_id:
                    paper_ids.add(paper_id)
                else:
                    work_ids.add(work_id)
        if locators:
            work_ids |= self._load_locators(locators)
        self._load_papers(paper_ids - set(self._papers))
        self._load_works(work_ids - set(self._works))

    def _load_locators(self, locators: set[tuple[str, str]]) -> set[str]:
        """The works printed at these (volume, first page) pairs, by the works' index on them. Sources
        write pages as printed ("S245", "e676"); the pairs are lower case, so both cases are asked for."""
        for locator in locators:
            self._locator_works[locator] = []
        condition = reduce(or_, (Q(volume__in={volume, volume.upper()}, first_page__in={page, page.upper()})
                                 for volume, page in locators))
        found = set()
        printed = list(CitedWork.objects.filter(condition, first_page__isnull=False).order_by()
                       .values_list("id", "volume", "first_page"))
        # And where a later source says a work is printed (a preprint's journal version: revisions).
        printed += WorkRevision.objects.filter(condition, first_page__isnull=False).order_by() \
            .values_list("work_id", "volume", "first_page")
        for work_id, volume, page in printed:
            locator = (normal_volume(volume), normal_page(page))
            if locator in self._locator_works and str(work_id) not in self._locator_works[locator]:
                self._locator_works[locator].append(str(work_id))
                found.add(str(work_id))
        return found

    @staticmethod
    def _work_targets(kind: str, column: str, values: set[str]) -> dict[str, tuple[int | None, str]]:
        """value -> (held paper, work) of the works named by these identifiers: by the works' own
        column, or by an identifier the works store joined to them (a published DOI of a preprint)."""
        targets: dict[str, tuple[int | None, str]] = {}
        for value, work_id, paper_id in CitedWork.objects.filter(**{f"{column}__in": values}).order_by().values_list(
                column, "id", "paper_id"):
            targets[value] = (paper_id, str(work_id))
        for value, work_id, paper_id in (WorkIdentifier.objects.filter(value__in=values - set(targets), kind=kind)
                                         .order_by().values_list("value", "work_id", "work__paper_id")):
            targets[value] = (paper_id, str(work_id))
        return targets

    def _load_papers(self, paper_ids: set[int]) -> None:
        if not paper_ids:
            return
        titles, years, dois, authors = defaultdict(list), defaultdict(set), defaultdict(set), defaultdict(set)
        arxiv = dict(Paper.objects.filter(id__in=paper_ids).order_by().values_list("id", "arxiv_id"))
        for paper_id, title, submitted, updated, doi, names in (
                PaperSnapshot.objects.filter(paper_id__in=paper_ids).newest_first()
                .values_list("paper_id", "title", "submitted_at", "last_updated", "doi", "authors")):
            if title and title not in titles[paper_id]:
                titles[paper_id].append(title)
            years[paper_id] |= {d.year for d in (submitted, updated) if d}
            if doi:
                dois[paper_id].add(doi.lower())
            if names:                     # arXiv's "A. Author, B. Author and C. Author"
                authors[paper_id].add(names.split(",")[0].split(" and ")[0].strip())
        def stated(paper_id, title, year, author) -> None:
            if title and title not in titles[paper_id]:
                titles[paper_id].append(title)
            if year:
                years[paper_id].add(year)
            if author:
                authors[paper_id].add(author)

        works = {}
        for work_id, paper_id, title, year, doi, author in CitedWork.objects.filter(
                paper_id__in=paper_ids).order_by().values_list("id", "paper_id", "title", "year", "doi", "first_author"):
            works[paper_id] = str(work_id)
            stated(paper_id, title, year, author)
            if doi:
                dois[paper_id].add(doi)
        paper_of_work = {w: p for p, w in works.items()}
        for work_id, value in WorkIdentifier.objects.filter(work_id__in=works.values(), kind=IdentifierKind.DOI) \
                .order_by().values_list("work_id", "value"):
            dois[paper_of_work[str(work_id)]].add(value)
        # What later sources said of the paper's work: its journal version's title, year, first author.
        for work_id, title, year, author, _, _, _ in self._revisions(works.values()):
            stated(paper_of_work[work_id], title, year, author)
        for paper_id in paper_ids:
            dois[paper_id].add(arxiv_doi(arxiv[paper_id]))
            self._papers[paper_id] = Candidate(
                paper_id=paper_id, work_id=works.get(paper_id), arxiv_id=arxiv[paper_id],
                titles=tuple(titles[paper_id]), years=tuple(sorted(years[paper_id])), dois=tuple(sorted(dois[paper_id])),
                first_authors=tuple(sorted(authors[paper_id])))

    @staticmethod
    def _revisions(work_ids) -> list[tuple]:
        """(work id, title, year, first author, journal, volume, first page) of every revision of these works."""
        if not work_ids:
            return []
        return [(str(work_id), *facts) for work_id, *facts in WorkRevision.objects.filter(
            work_id__in=list(work_ids)).order_by("observed_at", "id").values_list(
            "work_id", "title", "year", "first_author", "container_title", "volume", "first_page")]

    def _load_works(self, work_ids: set[str]) -> None:
        if not work_ids:
            return
        dois = defaultdict(set)
        for work_id, value in WorkIdentifier.objects.filter(work_id__in=work_ids, kind=IdentifierKind.DOI) \
                .order_by().values_list("work_id", "value"):
            dois[str(work_id)].add(value)
        # A work's first observation, then what later sources said of it (citations/works/revisions.py).
        facts = defaultdict(list)
        rows = CitedWork.objects.filter(id__in=work_ids).order_by().values_list(
            "id", "arxiv_id", "paper_id", "doi", "title", "year", "first_author", "container_title", "volume",
            "first_page")
        own = {}
        for work_id, arxiv_id, paper_id, doi, *stated in rows:
            own[str(work_id)] = (arxiv_id, paper_id, doi)
            facts[str(work_id)].append(stated)
        for work_id, *stated in self._revisions(own):
            facts[work_id].append(stated)
        for key, (arxiv_id, paper_id, doi) in own.items():
            titles, years, authors, locators, journals = [], [], [], [], []
            for title, year, author, journal, volume, page in facts[key]:
                locator = (normal_volume(volume), normal_page(page))
                for values, value in ((titles, title), (years, year), (authors, author),
                                      (locators, locator if all(locator) else None), (journals, journal)):
                    if value and value not in values:
                        values.append(value)
            self._works[key] = Candidate(
                paper_id=paper_id, work_id=key, arxiv_id=arxiv_id, titles=tuple(titles), years=tuple(years),
                dois=tuple(sorted(dois[key] | ({doi} if doi else set()))), first_authors=tuple(authors),
                locators=tuple(locators), journals=tuple(journals))
