"""Running an evaluation: each case parsed and resolved as production does (run_case), its outcome
counted into a data set's Report (evaluate_dataset, evaluate). The package docstring defines each figure."""
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from citations.evaluation.cases import Case
from citations.evaluation.datasets import DATASET_NAMES, available, dataset
from citations.evaluation.metrics import IdCounts, LinkCounts, TitleCounts, YearCounts
from citations.evaluation.stores import MemoryStore
from citations.models import PaperReference
from citations.parsing.parser import ParsedReference
from citations.parsing.reader import read_reference, stored_fields
from citations.resolution.fields import reference_fields as stored_reference_fields
from citations.resolution.matching import CandidateStore, ReferenceFields, Resolution, resolve

EXAMPLES_KEPT = 5              # error examples kept per category and data set


def gold_row(case: Case) -> str:
    """The row of the state confusion a case counts in."""
    if case.link is None:
        return "no link gold"
    return "gold target" if case.link else "gold null"


def reference_fields(parsed: ParsedReference) -> ReferenceFields:
    """What the resolver reads of a fresh parse: what ingest stores of it, read back as resolution
    reads any stored reference (no curator overrides)."""
    return stored_reference_fields(PaperReference(raw_text=parsed.raw, **stored_fields(parsed)))


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
             parse: Callable[[str], ParsedReference] = read_reference) -> Outcome:
    """Parse and resolve one case as production does (`parse`: another parser, to compare)."""
    parsed = parse(case.raw)
    return Outcome(case, parsed, resolve(reference_fields(parsed), store))


@dataclass
class Report:
    """What one data set measured (see the package docstring, citations/evaluation/__init__.py, for each figure)."""

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
