"""The registry of data sets: where each lies under the data dir, how its cases are read and what
its candidate store holds (Dataset, DATASETS, dataset(), available())."""
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from citations.evaluation.cases import Case
from citations.evaluation.link_gold import (
    crossref_comparison_works,
    crossref_overall_works,
    glutton_works,
    load_crossref_comparison,
    load_crossref_overall,
    load_glutton,
    load_unarxive,
    unarxive_works,
)
from citations.evaluation.parse_gold import gold_works, load_anystyle, load_grobid, load_refextract
from citations.resolution.matching import Candidate


def _no_works(data_dir: Path, cases: list[Case]) -> Iterator[Candidate]:
    return iter(())


def _self_store(data_dir: Path, cases: list[Case]) -> Iterator[Candidate]:
    return gold_works(cases)


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
