"""The counts an evaluation keeps (YearCounts, TitleCounts, IdCounts, LinkCounts) and the figures
they give (ratio, f1); the package docstring defines each figure."""
from dataclasses import dataclass

from rapidfuzz import fuzz

from citations.evaluation.cases import PrintedIds, comparable_gold_title
from citations.parsing.text import comparable_title

TITLE_SIMILARITY = 90          # fuzz.ratio (0..100) for "title >= 0.90"


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
