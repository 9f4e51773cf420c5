"""The candidate store of an evaluation: MemoryStore holds a data set's works in memory and is
searched as the database store is."""
from collections import defaultdict
from collections.abc import Iterable

from citations.arxiv_ids import ARXIV_DOI_PREFIX
from citations.parsing.text import title_blocking_keys
from citations.resolution.matching import Candidate


def identity(candidate: Candidate) -> str:
    """What a candidate is: its held paper, or else its work (a string)."""
    return f"paper:{candidate.paper_id}" if candidate.paper_id is not None else str(candidate.work_id)


def merge_candidates(candidates: Iterable[Candidate]) -> list[Candidate]:
    """One candidate per identity, with every title, year and DOI given for it (first title first)."""
    merged: dict[str, Candidate] = {}
    for candidate in candidates:
        key = identity(candidate)
        held = merged.get(key)
        if held is None:
            merged[key] = candidate
            continue
        merged[key] = Candidate(
            paper_id=held.paper_id, work_id=held.work_id, arxiv_id=held.arxiv_id or candidate.arxiv_id,
            titles=held.titles + tuple(t for t in candidate.titles if t not in held.titles),
            years=tuple(sorted(set(held.years) | set(candidate.years))),
            dois=tuple(sorted(set(held.dois) | set(candidate.dois))),
            first_authors=tuple(sorted(set(held.first_authors) | set(candidate.first_authors))),
            locators=tuple(sorted(set(held.locators) | set(candidate.locators))),
            journals=held.journals + tuple(j for j in candidate.journals if j not in held.journals))
    return list(merged.values())


class MemoryStore:
    """The CandidateStore protocol over candidates held in memory.

    Indexed as the database store is: by arXiv id, by lower-case DOI (arXiv DOIs go to the arXiv
    id) and by every production title_blocking_keys() key of every title, so candidate search finds
    exactly what it would find in the database holding the same works.
    """

    def __init__(self, candidates: Iterable[Candidate] = ()):
        self.candidates = merge_candidates(candidates)
        self._by_arxiv: dict[str, Candidate] = {}
        self._by_doi: dict[str, Candidate] = {}
        self._by_key: dict[str, list[Candidate]] = defaultdict(list)
        self._by_locator: dict[tuple[str, str], list[Candidate]] = defaultdict(list)
        for candidate in self.candidates:
            self._index(candidate)

    def __len__(self) -> int:
        return len(self.candidates)

    def _index(self, candidate: Candidate) -> None:
        # First come keeps an id, as a unique column would.
        if candidate.arxiv_id:
            self._by_arxiv.setdefault(candidate.arxiv_id, candidate)
        for doi in candidate.dois:
            self._by_doi.setdefault(doi.lower(), candidate)
        for key in set().union(*(title_blocking_keys(title) for title in candidate.titles)):
            self._by_key[key].append(candidate)
        for locator in candidate.locators:
            self._by_locator[locator].append(candidate)

    def by_locator(self, volume: str, first_page: str) -> list[Candidate]:
        return list(self._by_locator.get((volume, first_page), ()))

    def by_arxiv_id(self, arxiv_id: str) -> Candidate | None:
        return self._by_arxiv.get(arxiv_id)

    def by_doi(self, doi: str) -> Candidate | None:
        doi = doi.lower()
        if doi.startswith(ARXIV_DOI_PREFIX):
            return self.by_arxiv_id(doi[len(ARXIV_DOI_PREFIX):])
        return self._by_doi.get(doi)

    def by_title_keys(self, keys: Iterable[str]) -> list[Candidate]:
        # The order DatabaseStore returns: keys sorted, each key's candidates as filed, no repeats.
        found, seen = [], set()
        for key in sorted(set(keys)):
            for candidate in self._by_key.get(key, ()):
                if identity(candidate) not in seen:
                    seen.add(identity(candidate))
                    found.append(candidate)
        return found
