"""Measuring the parser and the resolver on the public data sets in /work/shared/data.

Pure Python, no database: each data set is read into evaluation cases (a raw reference string with
whatever gold the set has) and a MemoryStore of candidate works, then every case is parsed with
`parse_reference()` and resolved with `resolve()` exactly as production does, and the results are
counted against the gold. Nothing here tunes anything: thresholds and rules live in the code
under evaluation, and this module only measures them. The data sets, their gold and their caveats
are described in /work/shared/data/README.md and each folder's SOURCE.md.

Metrics (each data set reports those its gold supports; "n/a" where it has none):

  year accuracy      cases with a gold year whose parsed year equals it / cases with a gold year
                     (a missing parsed year counts as wrong; "missed" and "wrong" are shown apart).
  title exact        cases with a gold title whose parsed title has the same comparable_title() /
                     cases with a gold title; "title >= 0.90" the same with rapidfuzz fuzz.ratio of
                     the comparable forms >= 90. Gold titles first get clean_reference_text(), the
                     cleaning the parser applies to its input, so the metric measures where the title
                     was cut and not the PDF artefacts the annotators kept in their copy. Gold titles
                     with no comparable form (wholly CJK or Cyrillic) are not counted.
  id extraction      for arXiv ids and DOIs separately, over the valid identifiers the parser found
                     and the identifiers gold says are printed in the string: recall = found gold ids /
                     gold ids; precision = found gold ids / all found ids, counted only on cases whose
                     gold lists every printed id of that kind (elsewhere an extra find may be right).
  malformed flagged  cases whose gold prints an id that cannot be valid and where the parser reports
                     an invalid identifier of that kind / such cases.
  links              a link is the work (or paper) a resolution names. It is correct when it is one of
                     the case's gold targets. precision = correct links / links on cases with link gold
                     (a link on a case whose gold says "no work" is a false positive); recall = correct
                     links / cases with a gold target; F1 their harmonic mean. Links on cases without
                     link gold are counted apart ("unjudged") and enter neither figure.
  states             the count of each of the six states, split by whether the case has a gold target,
                     a gold "no work", or no link gold.

What each store holds decides what its link figures mean (DATASETS states it for each set):
  GROBID, AnyStyle   a work per gold title and year of the set itself: measures title+year linking of
                     parsed fields against the annotators' fields, with the rest of the set as distractors.
  refextract         nothing: only parse figures and states.
  Crossref 2k        every gold DOI with the deposited article-title and year, where there is one; most
                     queries' targets have no title, so only a printed DOI can reach them.
  Crossref 2,000     the gold DOIs only: literal-DOI linking, and false links on the 806 "no work" strings.
  biblio-glutton     every gold work with its title and no year, so a title must be all but identical.
  unarXive           the gold ids only (no titles): id-based linking.
"""
import gzip
import json
import re
import time
import xml.etree.ElementTree as ET
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

from rapidfuzz import fuzz

from citations.arxiv_ids import InvalidArxivId, parse_arxiv_id
from citations.resolution.locators import find_locator, normal_page, normal_volume
from citations.resolution.matching import Candidate, CandidateStore, ReferenceFields, Resolution, resolve
from citations.resolution.parser import ParsedReference, parse_reference
from citations.resolution.text import clean_reference_text, comparable_title, title_blocking_keys

STATES = ("verified_exact", "verified_fuzzy", "metadata_mismatch", "malformed_identifier", "parse_uncertain",
          "unresolved")
LINKED_STATES = ("verified_exact", "verified_fuzzy")
TITLE_SIMILARITY = 90          # fuzz.ratio (0..100) for "title >= 0.90"
EXAMPLES_KEPT = 5              # error examples kept per category and data set
ARXIV_DOI_PREFIX = "10.48550/arxiv."


# --- cases ----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class PrintedIds:
    """Identifiers of one kind that gold says are printed in a reference string."""

    values: frozenset[str]
    complete: bool        # every id of this kind in the string is listed, so an extra find is a false positive


@dataclass(frozen=True)
class Case:
    """One reference string and the gold a data set gives for it (None: the set says nothing)."""

    key: str                                  # where it comes from, to find it again
    raw: str
    title: str | None = None
    year: int | None = None
    arxiv: PrintedIds | None = None           # canonical ids, no version
    doi: PrintedIds | None = None             # lower case
    malformed: frozenset[str] = frozenset()   # kinds ("arxiv", "doi") printed in a form that cannot be valid
    link: frozenset[str] | None = None        # gold target work ids; empty: cites no work the store may link
    first_author: str | None = None           # the gold work's first author's family name, when the set gives it
    journal: str | None = None                # the gold work's journal, volume and first page, when the set gives them
    volume: str | None = None
    first_page: str | None = None


# --- the store ------------------------------------------------------------------------------------

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


# --- gold normalisation ---------------------------------------------------------------------------
# Written apart from identifiers.py on purpose: gold read with the parser's own rules would hide
# the parser's mistakes.

_GOLD_DOI = re.compile(r"10\.\d{4,9}/\S+")
_GOLD_ARXIV = re.compile(r"(\d{4}\.\d{4,5}|[a-z][a-z-]*(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?(?!\d)")
_GOLD_YEAR = re.compile(r"(?<!\d)(1[5-9]\d\d|20\d\d)(?!\d)")


def gold_doi(text: str) -> str | None:
    """The DOI in a gold field ("doi: 10.1163/157006598X00135.", "https://doi.org/..."), lower case."""
    match = _GOLD_DOI.search(re.sub(r"\s+", "", text))
    if not match:
        return None
    value = match.group(0)
    while True:
        stripped = value.rstrip(".,;:]>'\"")
        if stripped.endswith(")") and stripped.count("(") < stripped.count(")"):
            stripped = stripped[:-1]
        if stripped == value:
            return value.lower()
        value = stripped


def gold_arxiv(text: str) -> str | None:
    """The canonical arXiv id in a gold field ("arXiv :hep-th/0603057", "1112 .5166v2"), or None
    when the field holds none that can be valid (a typo, "arXiv:XXX", month 13)."""
    compact = re.sub(r"\s+", "", text)
    if ARXIV_DOI_PREFIX in compact.lower():          # 10.48550/arXiv.2101.00001 names the arXiv paper
        compact = compact[compact.lower().index(ARXIV_DOI_PREFIX) + len(ARXIV_DOI_PREFIX):]
    match = _GOLD_ARXIV.search(compact)
    if not match:
        return None
    try:
        return parse_arxiv_id(match.group(1)).id
    except InvalidArxivId:
        return None


def gold_year(text: str | None) -> int | None:
    """The first four-digit year in a gold date ("(2000)", "May / Jun 2000", "2005,")."""
    match = _GOLD_YEAR.search(text or "")
    return int(match.group(1)) if match else None


def gold_work_id(title: str, year: int) -> str:
    """The work a parse-gold title and year stand for: the same comparable title and year is one work."""
    return f"{comparable_gold_title(title)}|{year}"


def _file(value: str | None, kind: str, found: set[str], malformed: set[str]) -> None:
    """Gold that reads as an id joins the ids; gold that cannot be one marks its kind malformed."""
    if value:
        found.add(value)
    else:
        malformed.add(kind)


def _printed(values: Iterable[str], *, complete: bool) -> PrintedIds:
    return PrintedIds(frozenset(values), complete)


def _literal_doi(doi: str, raw: str) -> PrintedIds:
    """Link gold read as printed-id gold: the gold DOI when it appears literally in the string.
    Incomplete: other DOIs in the string are not listed."""
    return _printed([doi.lower()] if doi.lower() in raw.lower() else [], complete=False)


# --- loaders: GROBID and AnyStyle (parse gold) ----------------------------------------------------

def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _text(element: ET.Element) -> str:
    """An element's text as extracted from the PDF: <lb/> is a line break, whitespace is single."""
    parts = [element.text or ""]
    for child in element:
        if _local(child.tag) == "lb":
            parts.append(" ")
        else:
            parts.append(_text(child))
        parts.append(child.tail or "")
    return "".join(parts)


def _collapse(text: str) -> str:
    return " ".join(text.split())


def _grobid_ids(bibl: ET.Element) -> tuple[set[str], set[str], set[str]]:
    """arXiv ids, DOIs and kinds of malformed ids printed in one <bibl>.

    <idno type="arxiv"|"DOI"> (and untyped <idno> reading "arXiv..."), plus ids inside <ptr> URLs
    (doi.org and /doi/ paths, arxiv.org/abs|pdf): an id read from a printed URL is printed too.
    """
    arxiv, dois, malformed = set(), set(), set()
    for element in bibl.iter():
        tag, kind, text = _local(element.tag), (element.get("type") or "").lower(), _collapse(_text(element))
        doi = gold_doi(text)
        is_arxiv = tag == "idno" and (kind.startswith("arxiv") or (not kind and text.lower().startswith("arxiv")))
        is_doi = tag == "idno" and kind == "doi"
        if tag == "ptr":
            is_arxiv = "arxiv.org" in text.replace(" ", "").lower()
            is_doi = not is_arxiv and doi is not None
        if is_arxiv or (is_doi and doi and doi.startswith(ARXIV_DOI_PREFIX)):
            _file(gold_arxiv(text), "arxiv", arxiv, malformed)
        elif is_doi:
            _file(doi, "doi", dois, malformed)
    return arxiv, dois, malformed


def _grobid_title(bibl: ET.Element) -> str | None:
    """The article title (level a), else the monograph title (level m)."""
    for level in ("a", "m"):
        for element in bibl.iter():
            if _local(element.tag) == "title" and element.get("level") == level:
                title = _collapse(_text(element))
                if title:
                    return title
    return None


def _with_self_link(case: Case) -> Case:
    """Parse-gold sets are resolved against a store of their own gold works (see _gold_works)."""
    if comparable_gold_title(case.title) and case.year:
        return replace(case, link=frozenset([gold_work_id(case.title, case.year)]))
    return case


def load_grobid(data_dir: Path) -> Iterator[Case]:
    """GROBID citation corpus and evaluation TEI: one case per <bibl>; gold title (<title level a/m>),
    year (<date>), printed arXiv ids and DOIs (complete: every printed one is tagged)."""
    folder = data_dir / "grobid-citation-corpus"
    for path in sorted(folder.glob("corpus/*.xml")) + sorted(folder.glob("evaluation/*.xml")):
        root = ET.parse(path).getroot()
        for index, bibl in enumerate(e for e in root.iter() if _local(e.tag) == "bibl"):
            raw = _collapse(_text(bibl))
            if not raw:
                continue
            dates = [e for e in bibl.iter() if _local(e.tag) == "date"]
            arxiv, dois, malformed = _grobid_ids(bibl)
            yield _with_self_link(Case(
                key=f"{path.parent.name}/{path.name}#{index}", raw=raw, title=_grobid_title(bibl),
                year=next((y for y in (gold_year(_text(d)) for d in dates) if y), None),
                arxiv=_printed(arxiv, complete=True), doi=_printed(dois, complete=True),
                malformed=frozenset(malformed)))


def load_anystyle(data_dir: Path) -> Iterator[Case]:
    """AnyStyle gold.xml then core.xml, each reference text once (204 appear in both; the first
    is kept). Gold title, year and printed DOIs (<doi>, and doi.org links in <url>); no arXiv gold."""
    seen: set[str] = set()
    for name in ("gold.xml", "core.xml"):
        root = ET.parse(data_dir / "anystyle-parser-gold" / name).getroot()
        for index, sequence in enumerate(root.iter("sequence")):
            raw = " ".join(_collapse(child.text or "") for child in sequence if (child.text or "").strip())
            if not raw or raw in seen:
                continue
            seen.add(raw)
            fields = [(child.tag, _collapse(child.text or "")) for child in sequence]
            dois, malformed = set(), set()
            for tag, text in fields:
                if tag == "doi" or (tag == "url" and "doi" in text.lower() and gold_doi(text)):
                    _file(gold_doi(text), "doi", dois, malformed)
            yield _with_self_link(Case(
                key=f"{name}#{index}", raw=raw, title=next((t for tag, t in fields if tag == "title" and t), None),
                year=next((y for y in (gold_year(t) for tag, t in fields if tag == "date") if y), None),
                doi=_printed(dois, complete=True), malformed=frozenset(malformed)))


def _gold_works(cases: list[Case]) -> Iterator[Candidate]:
    """A work per gold title and year of a parse-gold set: a store in which every case with both has
    its target, and every other case of the set is a distractor."""
    for case in cases:
        if case.link:
            (work_id,) = case.link
            yield Candidate(paper_id=None, work_id=work_id, arxiv_id=None,
                            titles=(clean_reference_text(case.title),), years=(case.year,))


# --- loaders: refextract --------------------------------------------------------------------------

def _refextract_expected(case: dict) -> tuple[list[dict], bool]:
    """The expected references of a test case as field dicts, and whether they are refextract's full
    output (True) or a few asserted fields of the first reference (False)."""
    expected = case.get("expected") or []
    if expected and all(isinstance(reference, dict) for reference in expected):
        return expected, True
    asserted: dict[str, list] = {}
    for assertion in case.get("asserted_fields") or []:
        path = assertion["path"]
        if len(path) == 3 and path[0] == "references" and path[1] == 0:
            asserted[path[2]] = assertion["equals"]
    return ([asserted] if asserted else []), False


def load_refextract(data_dir: Path) -> Iterator[Case]:
    """refextract's test inputs with its expected output: gold year and title where the line is one
    reference (or all its references agree), arXiv ids from report numbers and DOIs where the
    expectation lists them (complete: refextract lists every one it expects)."""
    items = json.loads((data_dir / "refextract-test-cases" / "refextract_cases.json").read_text())
    for index, item in enumerate(items):
        raw = item.get("ref_line") or item.get("ref_lines")
        references, full = _refextract_expected(item)
        years = {gold_year(y) for reference in references for y in reference.get("year", [])}
        titles = {t for reference in references for t in reference.get("title", [])}
        arxiv, dois, malformed = set(), set(), set()
        for reference in references:
            for number in reference.get("reportnumber", []):
                if re.match(r"arxiv|\d{4}\.\d{4,5}|[a-z-]+(?:\.[A-Z]{2})?/\d{7}", number, re.I):
                    _file(gold_arxiv(number), "arxiv", arxiv, malformed)
            for doi in reference.get("doi", []):
                _file(gold_doi(doi), "doi", dois, malformed)
        knows_arxiv = full or any("reportnumber" in reference for reference in references)
        knows_doi = full or any("doi" in reference for reference in references)
        yield Case(
            key=f"{item['source_file']}::{item['test']}#{index}", raw=raw,
            title=titles.pop() if len(titles) == 1 else None, year=years.pop() if len(years) == 1 else None,
            arxiv=_printed(arxiv, complete=True) if knows_arxiv else None,
            doi=_printed(dois, complete=True) if knows_doi else None, malformed=frozenset(malformed))


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
            doi=_printed([d for d in targets if d in raw.lower()], complete=False), link=frozenset(targets))


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
                   doi=_literal_doi(targets[0], raw) if targets else None, link=frozenset(targets))


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
                   title=item.get("atitle") or None, doi=_literal_doi(doi, item["reference"]),
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
        yield Case(key=key, raw=raw, arxiv=_printed(printed_arxiv, complete=False),
                   doi=_printed([doi] if doi and doi in raw.lower() else [], complete=False),
                   link=frozenset(targets) if targets else None)


def unarxive_works(data_dir: Path, cases: list[Case]) -> Iterator[Candidate]:
    """Works for the gold ids, with no titles or years: what can link is a printed id."""
    return iter(_unarxive_catalogue(list(_unarxive_entries(data_dir))).works.values())


# --- the registry ---------------------------------------------------------------------------------

def _no_works(data_dir: Path, cases: list[Case]) -> Iterator[Candidate]:
    return iter(())


def _self_store(data_dir: Path, cases: list[Case]) -> Iterator[Candidate]:
    return _gold_works(cases)


@dataclass(frozen=True)
class Dataset:
    name: str
    path: str                                                    # what must exist, relative to the data dir
    store: str                                                   # what the candidate store holds, for the table
    cases: Callable[[Path], Iterator[Case]]
    works: Callable[[Path, list[Case]], Iterable[Candidate]]


DATASETS: tuple[Dataset, ...] = (
    Dataset("grobid-citation-corpus", "grobid-citation-corpus", "gold title+year works of this set",
            load_grobid, _self_store),
    Dataset("anystyle-parser-gold", "anystyle-parser-gold", "gold title+year works of this set",
            load_anystyle, _self_store),
    Dataset("refextract-test-cases", "refextract-test-cases/refextract_cases.json", "empty", load_refextract,
            _no_works),
    Dataset("crossref-overall-2k", "crossref-reference-matching-eval/real/overall_2k.json",
            "gold DOIs with article-title and year where deposited", load_crossref_overall, crossref_overall_works),
    Dataset("crossref-comparison-reasons", "crossref-reference-matching-eval/real/comparison-reasons.json",
            "gold DOIs only (no titles)", load_crossref_comparison, crossref_comparison_works),
    Dataset("biblio-glutton-doi-matching", "biblio-glutton-doi-matching/references-doi-matching.json.gz",
            "gold DOI and title, no year", load_glutton, glutton_works),
    Dataset("unarxive-sample", "unarxive-sample/arXiv_src_2212_086.jsonl", "gold ids (DOI, arXiv), no titles",
            load_unarxive, unarxive_works),
)
DATASET_NAMES = tuple(dataset.name for dataset in DATASETS)


def dataset(name: str) -> Dataset:
    """The data set of this name; KeyError naming the known ones."""
    for candidate in DATASETS:
        if candidate.name == name:
            return candidate
    raise KeyError(f"unknown data set {name!r}; known: {', '.join(DATASET_NAMES)}")


def available(data_dir: Path) -> list[str]:
    """The data sets whose files are present under data_dir."""
    return [d.name for d in DATASETS if (Path(data_dir) / d.path).exists()]


# --- metrics --------------------------------------------------------------------------------------

def ratio(numerator: int, denominator: int) -> float | None:
    """numerator / denominator, or None when there is nothing to divide."""
    return numerator / denominator if denominator else None


def f1(precision: float | None, recall: float | None) -> float | None:
    """The harmonic mean of precision and recall (0 when both are 0; None when either is unknown)."""
    if precision is None or recall is None:
        return None
    return 2 * precision * recall / (precision + recall) if precision + recall else 0.0


@dataclass
class YearCounts:
    """Parsed year against gold year, on cases with a gold year."""

    correct: int = 0
    missed: int = 0          # no year parsed
    wrong: int = 0           # another year parsed

    @property
    def total(self) -> int:
        return self.correct + self.missed + self.wrong

    @property
    def accuracy(self) -> float | None:
        return ratio(self.correct, self.total)

    def add(self, gold: int | None, parsed: int | None) -> str | None:
        """Count one case; returns its error category, if any."""
        if gold is None:
            return None
        if parsed == gold:
            self.correct += 1
            return None
        if parsed is None:
            self.missed += 1
            return "year missed"
        self.wrong += 1
        return "year wrong"


def comparable_gold_title(title: str | None) -> str:
    """A gold title's comparable form, after the cleaning the parser gives its input ("" for none)."""
    return comparable_title(clean_reference_text(title)) if title else ""


def title_similarity(gold: str, parsed: str | None) -> float:
    """fuzz.ratio (0..100) of the comparable forms."""
    if not parsed:
        return 0.0
    return fuzz.ratio(comparable_gold_title(gold), comparable_title(parsed))


@dataclass
class TitleCounts:
    """Parsed title against gold title, on cases with a gold title."""

    exact: int = 0           # same comparable_title()
    similar: int = 0         # fuzz.ratio of comparable forms >= TITLE_SIMILARITY (includes exact)
    total: int = 0

    @property
    def exact_rate(self) -> float | None:
        return ratio(self.exact, self.total)

    @property
    def similar_rate(self) -> float | None:
        return ratio(self.similar, self.total)

    def add(self, gold: str | None, parsed: str | None) -> str | None:
        # A title wholly in a script comparable_title() drops (CJK, Cyrillic) has an empty form that
        # every such title would "equal": it cannot be judged this way, so it is not counted.
        if not comparable_gold_title(gold):
            return None
        self.total += 1
        if parsed and comparable_gold_title(gold) == comparable_title(parsed):
            self.exact += 1
            self.similar += 1
            return None
        if title_similarity(gold, parsed) >= TITLE_SIMILARITY:
            self.similar += 1
            return None
        return "title missed" if not parsed else "title wrong"


@dataclass
class IdCounts:
    """Identifiers of one kind found by the parser (valid ones) against those gold says are printed."""

    found_gold: int = 0      # gold ids found, on every case with gold of this kind (recall's numerator)
    missed: int = 0          # gold ids not found
    checked_found: int = 0   # gold ids found, on cases whose gold lists every printed id (precision's numerator)
    extra: int = 0           # ids found that gold does not list, on those cases only
    cases: int = 0

    @property
    def recall(self) -> float | None:
        return ratio(self.found_gold, self.found_gold + self.missed)

    @property
    def precision(self) -> float | None:
        return ratio(self.checked_found, self.checked_found + self.extra)

    def add(self, gold: PrintedIds | None, found: set[str], kind: str) -> list[str]:
        if gold is None:
            return []
        self.cases += 1
        hits = len(found & gold.values)
        self.found_gold += hits
        self.missed += len(gold.values - found)
        errors = [f"{kind} missed"] if gold.values - found else []
        if gold.complete:
            self.checked_found += hits
            self.extra += len(found - gold.values)
            if found - gold.values:
                errors.append(f"{kind} extra")
        return errors


@dataclass
class LinkCounts:
    """The resolver's links against the gold targets."""

    correct: int = 0         # a link naming a gold target
    wrong: int = 0           # a link naming another work, on a case with a gold target (a FP and a FN)
    missed: int = 0          # no link on a case with a gold target
    false: int = 0           # a link on a case whose gold says no work
    gold_targets: int = 0    # cases with a gold target
    gold_null: int = 0       # cases whose gold says no work
    unjudged: int = 0        # links on cases without link gold

    @property
    def precision(self) -> float | None:
        return ratio(self.correct, self.correct + self.wrong + self.false)

    @property
    def recall(self) -> float | None:
        return ratio(self.correct, self.gold_targets)

    @property
    def f1(self) -> float | None:
        return f1(self.precision, self.recall)

    def add(self, gold: frozenset[str] | None, link: str | None) -> str | None:
        if gold is None:
            self.unjudged += link is not None
            return None
        if not gold:
            self.gold_null += 1
            if link is not None:
                self.false += 1
                return "false link"
            return None
        self.gold_targets += 1
        if link is None:
            self.missed += 1
            return "link missed"
        if link in gold:
            self.correct += 1
            return None
        self.wrong += 1
        return "link wrong"


def gold_row(case: Case) -> str:
    """The row of the state confusion a case counts in."""
    if case.link is None:
        return "no link gold"
    return "gold target" if case.link else "gold null"


# --- evaluating -----------------------------------------------------------------------------------

def reference_fields(parsed: ParsedReference) -> ReferenceFields:
    """What the resolver reads of a fresh parse (as ingestion stores it; no curator overrides)."""
    return ReferenceFields(title=parsed.title, year=parsed.year,
                           identifiers=tuple(identifier.as_json() for identifier in parsed.identifiers),
                           first_author=parsed.authors[0] if parsed.authors else None,
                           locator=find_locator(parsed.raw))


def linked(resolution: Resolution) -> str | None:
    """The work (or paper) a resolution links, in the identities of identity()."""
    if resolution.paper_id is not None:
        return f"paper:{resolution.paper_id}"
    return resolution.work_id


@dataclass(frozen=True)
class Outcome:
    case: Case
    parsed: ParsedReference
    resolution: Resolution

    @property
    def link(self) -> str | None:
        return linked(self.resolution)

    def found(self, kind: str) -> set[str]:
        return {i.value for i in self.parsed.identifiers if i.kind == kind and i.valid}

    def flagged(self, kind: str) -> bool:
        return any(i.kind == kind and not i.valid for i in self.parsed.identifiers)


def run_case(case: Case, store: CandidateStore,
             parse: Callable[[str], ParsedReference] = parse_reference) -> Outcome:
    """Parse and resolve one case as production does (`parse`: another parser, to compare)."""
    parsed = parse(case.raw)
    return Outcome(case, parsed, resolve(reference_fields(parsed), store))


@dataclass
class Report:
    """What one data set measured (see the module docstring for each figure)."""

    name: str
    store: str
    store_size: int = 0
    cases: int = 0
    seconds: float = 0.0
    year: YearCounts = field(default_factory=YearCounts)
    title: TitleCounts = field(default_factory=TitleCounts)
    arxiv: IdCounts = field(default_factory=IdCounts)
    doi: IdCounts = field(default_factory=IdCounts)
    malformed_flagged: int = 0
    malformed_total: int = 0
    links: LinkCounts = field(default_factory=LinkCounts)
    states: dict[str, Counter] = field(default_factory=lambda: defaultdict(Counter))
    errors: Counter = field(default_factory=Counter)
    examples: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))

    def add(self, outcome: Outcome) -> None:
        case, parsed = outcome.case, outcome.parsed
        self.cases += 1
        errors = [self.year.add(case.year, parsed.year), self.title.add(case.title, parsed.title),
                  *self.arxiv.add(case.arxiv, outcome.found("arxiv"), "arXiv id"),
                  *self.doi.add(case.doi, outcome.found("doi"), "DOI"),
                  self.links.add(case.link, outcome.link)]
        for kind in sorted(case.malformed):
            self.malformed_total += 1
            if outcome.flagged(kind):
                self.malformed_flagged += 1
            else:
                errors.append(f"malformed {kind} not flagged")
        self.states[gold_row(case)][outcome.resolution.state] += 1
        for error in filter(None, errors):
            self.errors[error] += 1
            if len(self.examples[error]) < EXAMPLES_KEPT:
                self.examples[error].append(describe(outcome, error))

    @property
    def state_totals(self) -> Counter:
        total = Counter()
        for row in self.states.values():
            total.update(row)
        return total


def describe(outcome: Outcome, error: str) -> str:
    """One line showing an error: where, the string, what was found and what gold says."""
    case, parsed, resolution = outcome.case, outcome.parsed, outcome.resolution
    if error.startswith("year"):
        detail = f"parsed {parsed.year}, gold {case.year}"
    elif error.startswith("title"):
        detail = f"parsed {parsed.title!r}, gold {case.title!r}"
    elif error.startswith("link") or error == "false link":
        why = resolution.evidence.get("reason") or resolution.evidence.get("candidate", "")
        detail = f"{resolution.state} -> {outcome.link}, gold {sorted(case.link or [])}, {why}"
    else:
        kind = "arxiv" if "arxiv" in error.lower() else "doi"
        gold = sorted(getattr(case, kind).values) if getattr(case, kind) else []
        invalid = [i.text for i in parsed.identifiers if i.kind == kind and not i.valid]
        detail = f"found {sorted(outcome.found(kind))}, gold {gold}, invalid {invalid}"
    return f"[{case.key}] {case.raw[:300]!r}: {detail}"


def evaluate_dataset(data_dir: Path, name: str, limit: int | None = None) -> Report:
    """Measure one data set. The store holds the whole set's works even when `limit` caps the cases,
    so candidate search is the same with or without a limit."""
    spec = dataset(name)
    started = time.perf_counter()
    cases = list(spec.cases(Path(data_dir)))
    store = MemoryStore(spec.works(Path(data_dir), cases))
    report = Report(name=name, store=spec.store, store_size=len(store))
    for case in cases[:limit] if limit else cases:
        report.add(run_case(case, store))
    report.seconds = time.perf_counter() - started
    return report


def evaluate(data_dir: Path | str, datasets: Iterable[str] | None = None, limit: int | None = None) -> list[Report]:
    """Measure the named data sets (default: every one present under data_dir), in registry order."""
    data_dir = Path(data_dir)
    names = list(datasets) if datasets else available(data_dir)
    for name in names:
        spec = dataset(name)
        if not (data_dir / spec.path).exists():
            raise FileNotFoundError(f"data set {name!r} needs {data_dir / spec.path}, which does not exist")
    return [evaluate_dataset(data_dir, name, limit) for name in DATASET_NAMES if name in names]


# --- rendering ------------------------------------------------------------------------------------

def _figure(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def _fraction(numerator: int, denominator: int) -> str:
    return f"{_figure(ratio(numerator, denominator))} ({numerator:,}/{denominator:,})"


def _line(label: str, text: str) -> str:
    return f"  {label:16} {text}"


def _year_line(year: YearCounts) -> str:
    if not year.total:
        return _line("year", "n/a (no gold)")
    return _line("year", f"{_fraction(year.correct, year.total)}   missed {year.missed:,}, wrong {year.wrong:,}")


def _title_line(title: TitleCounts) -> str:
    if not title.total:
        return _line("title", "n/a (no gold)")
    return _line("title exact", f"{_fraction(title.exact, title.total)}   "
                                f">= 0.90: {_fraction(title.similar, title.total)}")


def _id_line(label: str, counts: IdCounts) -> str:
    if not counts.cases:
        return _line(label, "n/a (no gold)")
    judged = counts.checked_found + counts.extra
    precision = _fraction(counts.checked_found, judged) if judged else "n/a (gold incomplete)"
    recall = _fraction(counts.found_gold, counts.found_gold + counts.missed)
    return _line(label, f"precision {precision}   recall {recall}")


def _link_lines(links: LinkCounts) -> list[str]:
    if not (links.gold_targets or links.gold_null):
        return [_line("links", f"n/a (no link gold); {links.unjudged:,} links made")] if links.unjudged else []
    return [
        _line("links", f"precision {_fraction(links.correct, links.correct + links.wrong + links.false)}   "
                       f"recall {_fraction(links.correct, links.gold_targets)}   F1 {_figure(links.f1)}"),
        _line("", f"correct {links.correct:,}, wrong {links.wrong:,}, missed {links.missed:,}, false on gold null "
                  f"{links.false:,} (of {links.gold_null:,}), unjudged {links.unjudged:,}"),
    ]


def render_report(report: Report, examples: int = 0) -> str:
    """One data set's figures as plain text; with examples, up to that many strings per error category."""
    lines = [f"== {report.name}: {report.cases:,} cases; store: {report.store_size:,} works "
             f"({report.store}); {report.seconds:.1f} s",
             _year_line(report.year), _title_line(report.title),
             _id_line("arXiv ids", report.arxiv), _id_line("DOIs", report.doi)]
    if report.malformed_total:
        lines.append(_line("malformed ids", f"flagged {_fraction(report.malformed_flagged, report.malformed_total)}"))
    lines.extend(_link_lines(report.links))
    lines.extend(_state_table(report))
    for error, count in report.errors.most_common() if examples else ():
        lines.append(f"  -- {error}: {count:,}")
        lines.extend(f"     {example}" for example in report.examples[error][:examples])
    return "\n".join(lines)


def _state_table(report: Report) -> list[str]:
    short = {"verified_exact": "exact", "verified_fuzzy": "fuzzy", "metadata_mismatch": "mismatch",
             "malformed_identifier": "malformed", "parse_uncertain": "uncertain", "unresolved": "unresolved"}
    lines = ["  states          " + "".join(f"{short[s]:>11}" for s in STATES) + f"{'total':>9}"]
    rows = [(row, report.states[row]) for row in ("gold target", "gold null", "no link gold") if report.states.get(row)]
    if len(rows) > 1:
        rows.append(("all", report.state_totals))
    for label, counts in rows:
        lines.append(f"    {label:14}" + "".join(f"{counts[s]:>11,}" for s in STATES) + f"{sum(counts.values()):>9,}")
    return lines


def render_summary(reports: list[Report]) -> str:
    """One row per data set: the headline figures side by side."""
    header = f"{'data set':28}{'cases':>7}{'year':>7}{'title=':>7}{'t>=.9':>7}{'arXiv P':>8}{'arXiv R':>8}" \
             f"{'DOI P':>7}{'DOI R':>7}{'link P':>7}{'link R':>7}{'F1':>7}"
    lines = [header, "-" * len(header)]
    for r in reports:
        has_links = r.links.gold_targets or r.links.gold_null
        cells = [r.year.accuracy, r.title.exact_rate, r.title.similar_rate, r.arxiv.precision, r.arxiv.recall,
                 r.doi.precision, r.doi.recall, r.links.precision if has_links else None,
                 r.links.recall if has_links else None, r.links.f1 if has_links else None]
        widths = [7, 7, 7, 8, 8, 7, 7, 7, 7, 7]
        lines.append(f"{r.name:28}{r.cases:>7,}" + "".join(
            f"{('-' if value is None else f'{value:.3f}'):>{width}}" for value, width in zip(cells, widths)))
    return "\n".join(lines)


def render(reports: list[Report], examples: int = 0) -> str:
    """Every data set's figures, then the summary table."""
    return "\n\n".join([*(render_report(r, examples) for r in reports), render_summary(reports)]) + "\n"
