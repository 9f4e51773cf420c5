"""Field-level precision, recall and F1, and instance accuracy, of parsed references against
labelled strings. Values compare in a soft form (lower case, letters and digits only), so
punctuation and spacing conventions of the labels do not count as errors."""
import re
from dataclasses import dataclass, field

from citations.parsing.fields import build, runs
from citations.parsing.identifier_repair import read_identifiers
from citations.parsing.identifiers import normalise_doi
from citations.parsing.parser import ParsedReference
from citations.parsing.text import fold
from citations.parsing.training_data import LabelledString

FIELDS = ("author", "title", "container", "volume", "issue", "pages", "year", "editor", "publisher", "place")
CORE = ("author", "title", "year")
_NOT_NAMES = re.compile(r"\b(?:and|et|al|und|others)\b|&")
_NON_ALNUM = re.compile(r"[\W_]+")


def _soft(value: str | None) -> str | None:
    if not value:
        return None
    return _NON_ALNUM.sub("", fold(value)) or None


def value(parsed: ParsedReference, name: str):
    """A field of a parse in the form it is compared in (None when absent)."""
    if name == "year":
        return parsed.year
    if name == "author":
        return _soft(_NOT_NAMES.sub(" ", fold(" ".join(parsed.authors))))
    if name == "editor":
        return _soft(" ".join(n.text for n in parsed.editors))
    if name == "container":
        return _soft(parsed.container or parsed.venue)
    return _soft(getattr(parsed, name))


def gold(string: LabelledString) -> ParsedReference:
    """The fields a labelled string's labels describe."""
    return build(string.text, string.text, string.tokens, string.labels, read_identifiers(string.text),
                 gold=True)


def gold_dois(string: LabelledString) -> set[str]:
    """The DOIs labelled in a string (as DOIs, or inside a labelled URL)."""
    found = set()
    for label, ranges in runs(string.tokens, string.labels).items():
        if label in ("doi", "url", "idno"):
            for i, j in ranges:
                written = string.text[string.tokens[i].start:string.tokens[j - 1].end]
                doi = normalise_doi(re.sub(r"^.*?(?=10\.)", "", written.replace(" ", ""), count=1))
                if doi and (label == "doi" or "doi" in written.lower()):
                    found.add(doi)
    return found


@dataclass
class Counts:
    """One field's right, wrong and missed values."""

    right: int = 0
    wrong: int = 0           # a value given that is not the gold one
    missed: int = 0          # gold has a value the parse does not give right

    def precision(self) -> float | None:
        """right / (right + wrong)."""
        return self.right / (self.right + self.wrong) if self.right + self.wrong else None

    def recall(self) -> float | None:
        """right / (right + missed)."""
        return self.right / (self.right + self.missed) if self.right + self.missed else None

    def f1(self) -> float | None:
        """The harmonic mean of precision and recall."""
        p, r = self.precision(), self.recall()
        return 2 * p * r / (p + r) if p and r else (0.0 if p is not None and r is not None else None)


@dataclass
class Scores:
    """Every field's counts, instance accuracy and DOI counts over a set of strings."""

    fields: dict[str, Counts] = field(default_factory=lambda: {name: Counts() for name in FIELDS})
    strings: int = 0
    all_right: int = 0
    core_right: int = 0
    doi: Counts = field(default_factory=Counts)

    def add(self, string: LabelledString, parsed: ParsedReference, expected: ParsedReference | None = None) -> dict:
        """Count one parse against its string's gold; returns the fields it got wrong, gold and parsed."""
        expected = expected or gold(string)
        errors = {}
        for name in FIELDS:
            want, got = value(expected, name), value(parsed, name)
            counts = self.fields[name]
            if got is not None and got == want:
                counts.right += 1
                continue
            if got is not None:
                counts.wrong += 1
            if want is not None:
                counts.missed += 1
            if got != want:
                errors[name] = (want, got)
        self.strings += 1
        self.all_right += not errors
        self.core_right += not any(name in errors for name in CORE)
        want_dois = gold_dois(string)
        got_dois = {i.value for i in parsed.identifiers if i.kind == "doi" and i.valid}
        self.doi.right += len(got_dois & want_dois)
        self.doi.wrong += len(got_dois - want_dois)
        self.doi.missed += len(want_dois - got_dois)
        return errors

    def summary(self) -> dict:
        """The figures as plain numbers (rounded), for metadata and printing."""
        def r(x):
            return None if x is None else round(x, 4)
        return {
            "strings": self.strings,
            "instance_accuracy": r(self.all_right / self.strings) if self.strings else None,
            "core_instance_accuracy": r(self.core_right / self.strings) if self.strings else None,
            "fields": {name: {"precision": r(c.precision()), "recall": r(c.recall()), "f1": r(c.f1()),
                              "support": c.right + c.missed} for name, c in self.fields.items()},
            "doi": {"precision": r(self.doi.precision()), "recall": r(self.doi.recall()),
                    "found": self.doi.right + self.doi.wrong},
        }
