"""The data sets with link gold (Crossref, biblio-glutton, unarXive): each read into evaluation
cases, with the works its candidate store holds."""
import gzip
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from citations.evaluation.cases import Case, gold_arxiv, gold_year, literal_doi, printed_ids
from citations.parsing.locators import normal_page, normal_volume
from citations.resolution.matching import Candidate

# --- loaders: Crossref ----------------------------------------------------------------------------

def _crossref_targets(item: dict) -> list[str]:
    gt = item.get("gt")
    return [d.lower() for d in (gt if isinstance(gt, list) else [gt] if gt else [])]


def _overall_items(data_dir: Path) -> list[dict]:
    return json.loads((data_dir / "crossref-reference-matching-eval" / "real" / "overall_2k.json").read_text())


def load_crossref_overall(data_dir: Path) -> Iterator[Case]:
    """Crossref overall_2k: each item with an `unstructured` string is a query; its structured record
    gives the gold title (article-title) and year; `gt` the gold DOI (a list: either; null: no work)."""
    for index, item in enumerate(_overall_items(data_dir)):
        reference = item["reference"]
        raw = reference.get("unstructured")
        if not raw or not raw.strip():
            continue
        targets = _crossref_targets(item)
        yield Case(
            key=f"overall_2k.json#{index}", raw=raw, title=reference.get("article-title") or None,
            year=gold_year(reference.get("year")),
            doi=printed_ids([d for d in targets if d in raw.lower()], complete=False), link=frozenset(targets))


def crossref_overall_works(data_dir: Path, cases: list[Case]) -> Iterator[Candidate]:
    """Every gold DOI of overall_2k (queries or not) as a work, with the record's article-title and
    year. When gt names two DOIs, the metadata goes to the one the record itself names, if any."""
    for item in _overall_items(data_dir):
        reference = item["reference"]
        targets = _crossref_targets(item)
        own = (reference.get("DOI") or "").strip().lower()
        for doi in targets:
            described = len(targets) == 1 or doi == own
            title = reference.get("article-title") if described else None
            year = gold_year(reference.get("year")) if described else None
            yield Candidate(paper_id=None, work_id=doi, arxiv_id=None, titles=(title,) if title else (),
                            years=(year,) if year else (), dois=(doi,))


def load_crossref_comparison(data_dir: Path) -> Iterator[Case]:
    """Crossref comparison-reasons: 2,000 real strings with a human gold DOI or null (no work)."""
    path = data_dir / "crossref-reference-matching-eval" / "real" / "comparison-reasons.json"
    for index, item in enumerate(json.loads(path.read_text())):
        targets = _crossref_targets(item)
        raw = item["ref_string"]
        yield Case(key=f"comparison-reasons.json#{index}", raw=raw,
                   doi=literal_doi(targets[0], raw) if targets else None, link=frozenset(targets))


def crossref_comparison_works(data_dir: Path, cases: list[Case]) -> Iterator[Candidate]:
    """The gold DOIs only, with no title or year: what can link is a DOI printed in the string."""
    for case in cases:
        for doi in sorted(case.link or ()):
            yield Candidate(paper_id=None, work_id=doi, arxiv_id=None, titles=(), years=(), dois=(doi,))


# --- loaders: biblio-glutton ----------------------------------------------------------------------

def load_glutton(data_dir: Path) -> Iterator[Case]:
    """biblio-glutton PMC strings: gold DOI (link) and article title; no gold year."""
    with gzip.open(data_dir / "biblio-glutton-doi-matching" / "references-doi-matching.json.gz", "rt") as file:
        items = json.load(file)
    for index, item in enumerate(items):
        doi = item["doi"].strip().lower()
        yield Case(key=f"references-doi-matching.json#{index}", raw=item["reference"],
                   title=item.get("atitle") or None, doi=literal_doi(doi, item["reference"]),
                   link=frozenset([doi]), first_author=item.get("firstAuthor") or None,
                   journal=item.get("jtitle") or None, volume=normal_volume(item.get("volume")),
                   first_page=normal_page(item.get("firstPage")))


def glutton_works(data_dir: Path, cases: list[Case]) -> Iterator[Candidate]:
    """Every gold work with its title, DOI and first author (as the NLM XML gives them) and no year:
    a title match then needs an all but exact title, or a close one by the same first author."""
    for case in cases:
        (doi,) = case.link
        yield Candidate(paper_id=None, work_id=doi, arxiv_id=None, titles=(case.title,) if case.title else (),
                        years=(), dois=(doi,), first_authors=(case.first_author,) if case.first_author else (),
                        locators=((case.volume, case.first_page),) if case.volume and case.first_page else (),
                        journals=(case.journal,) if case.journal else ())


# --- loaders: unarXive ----------------------------------------------------------------------------

def _unarxive_entries(data_dir: Path) -> Iterator[tuple[str, dict]]:
    with open(data_dir / "unarxive-sample" / "arXiv_src_2212_086.jsonl", encoding="utf-8") as file:
        for line in file:
            paper = json.loads(line)
            for bib_key, entry in paper["bib_entries"].items():
                yield f"{paper['paper_id']}/{bib_key}", entry


def _matched_ids(entry: dict) -> tuple[str | None, str | None]:
    """The DOI and arXiv id unarXive matched an entry to (OpenAlex, on title), or None."""
    ids = entry.get("ids") or {}
    doi = (ids.get("doi") or "").strip().lower() or None
    arxiv_id = (ids.get("arxiv_id") or "").strip() or None
    return doi, (gold_arxiv(arxiv_id) or arxiv_id) if arxiv_id else None


def _linked_arxiv_ids(entry: dict) -> set[str]:
    """contained_arXiv_ids whose id text is printed in bib_entry_raw (they are hyperlink targets;
    an id only in a link is not in the string). The version suffix is not part of the id."""
    found = set()
    for contained in entry.get("contained_arXiv_ids") or []:
        written = contained["id"] if isinstance(contained, dict) else str(contained)
        canonical = gold_arxiv(written)
        if canonical and canonical in entry["bib_entry_raw"]:
            found.add(canonical)
    return found


@dataclass
class _Catalogue:
    """The works unarXive's gold names, one per work however many entries name it: a DOI or an
    arXiv id seen before (in any entry) is the same work, as unique columns would make it."""

    works: dict[str, Candidate] = field(default_factory=dict)
    by_doi: dict[str, str] = field(default_factory=dict)
    by_arxiv: dict[str, str] = field(default_factory=dict)

    def add(self, doi: str | None, arxiv_id: str | None) -> str:
        work_id = self.work_of(doi, arxiv_id) or (f"doi:{doi}" if doi else f"arxiv:{arxiv_id}")
        held = self.works.get(work_id)
        dois = tuple(sorted(set(held.dois if held else ()) | ({doi} if doi else set())))
        self.works[work_id] = Candidate(paper_id=None, work_id=work_id,
                                        arxiv_id=(held.arxiv_id if held else None) or arxiv_id,
                                        titles=(), years=(), dois=dois)
        if doi:
            self.by_doi.setdefault(doi, work_id)
        if arxiv_id:
            self.by_arxiv.setdefault(arxiv_id, work_id)
        return work_id

    def work_of(self, doi: str | None, arxiv_id: str | None) -> str | None:
        return (self.by_doi.get(doi) if doi else None) or (self.by_arxiv.get(arxiv_id) if arxiv_id else None)


def _unarxive_catalogue(entries: list[tuple[str, dict]]) -> _Catalogue:
    catalogue = _Catalogue()
    for _, entry in entries:
        doi, arxiv_id = _matched_ids(entry)
        if doi or arxiv_id:
            catalogue.add(doi, arxiv_id)
    for _, entry in entries:
        for arxiv_id in _linked_arxiv_ids(entry):
            catalogue.add(None, arxiv_id)
    return catalogue


def load_unarxive(data_dir: Path) -> Iterator[Case]:
    """unarXive sample bib entries. Link gold: the OpenAlex-matched work (ids.doi / ids.arxiv_id) and
    the arXiv papers hyperlinked and printed in the entry; entries with neither have no link gold
    (unmatched is not verified as unresolvable). Printed ids: those gold ids that appear in the text
    (incomplete: an id printed but neither linked nor matched is not listed)."""
    entries = list(_unarxive_entries(data_dir))
    catalogue = _unarxive_catalogue(entries)
    for key, entry in entries:
        raw = entry["bib_entry_raw"]
        doi, arxiv_id = _matched_ids(entry)
        linked = _linked_arxiv_ids(entry)
        targets = {catalogue.by_arxiv[a] for a in linked}
        if doi or arxiv_id:
            targets.add(catalogue.work_of(doi, arxiv_id))
        printed_arxiv = linked | ({arxiv_id} if arxiv_id and arxiv_id in raw else set())
        yield Case(key=key, raw=raw, arxiv=printed_ids(printed_arxiv, complete=False),
                   doi=printed_ids([doi] if doi and doi in raw.lower() else [], complete=False),
                   link=frozenset(targets) if targets else None)


def unarxive_works(data_dir: Path, cases: list[Case]) -> Iterator[Candidate]:
    """Works for the gold ids, with no titles or years: what can link is a printed id."""
    return iter(_unarxive_catalogue(list(_unarxive_entries(data_dir))).works.values())
