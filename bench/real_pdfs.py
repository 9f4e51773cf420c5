"""Benchmark: reference lists out of REAL PDFs, each next to the .bbl it was compiled with.

    python bench/real_pdfs.py [--real DIR] [--only SLUG] [--no-refextract] [--details] [--bodies]

The set (built by hand from public repositories under permissive licences; see
bench/real_pdfs/SOURCE.md and manifest.json, which say where every paper comes from so that a
later session can fetch it again) lives OUTSIDE the repository, one folder a paper:
DIR/<slug>/paper.pdf, paper.bbl, meta.json. Nothing of it is committed.

Gold: the .bbl's entries in order, read by the project's own LaTeX path
(latex_references._references_from_files, what ingest_source uses), so that "the PDF path
agrees with gold" means "ingest_pdf agrees with ingest_source" entry by entry.

Matching is STRICT and one-to-one: an extracted string and a gold string match when rapidfuzz's
fuzz.ratio of the two whitespace-normalised, case-folded strings is >= 90 (small capitals come out
of a PDF as capitals); candidate pairs are taken in
order of decreasing ratio, each gold entry and each extracted entry used at most once (a found
string that glues two references together, or half a reference, matches nothing).
    recall     matched / gold entries
    precision  matched / entries found
    refused    the extractor gave no list (PdfRefused); its sentence is printed
    disagree   entries on which the PDF path and the .bbl path disagree: gold entries no found
               entry matches + found entries that match no gold entry
    ms         wall time of extract_references(bytes) for the paper (one process, warmed up)
    cpu ms     the same in this process's CPU time (the machine is shared: wall time waits)
    peak       Python heap peak while extracting (tracemalloc, a second pass; PDFium's own C
               allocations are not in it), the process's max RSS is printed at the end
Printed per paper and in total (micro: summed over entries), for Pith and for refextract
(extract_references_from_file, poppler's pdftotext; installed only for this comparison).
"""
import argparse
import os
import re
import resource
import shutil
import statistics
import sys
import time
import tracemalloc
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DEFAULT_DIR = Path(os.environ.get("PITH_REAL_PDFS", "/work/realpdf"))
MATCH_RATIO = 90.0


def squash(text: str) -> str:
    return " ".join(text.split())


def gold_references(bbl: bytes, name: str = "paper.bbl") -> list[str]:
    """The .bbl's entries as the project's LaTeX path reads them (what ingest_source stores)."""
    from citations.extraction.latex_references import _references_from_files

    return [r.raw_text for r in _references_from_files({name: bbl}, []).references]


def match(found: list[str], gold: list[str]) -> list[tuple[int, int, float]]:
    """Strict one-to-one matching: (found index, gold index, ratio), best pairs first."""
    from rapidfuzz import fuzz

    # Case folded: names set in small capitals come out of a PDF's text as capitals.
    found = [squash(f).casefold() for f in found]
    gold = [squash(g).casefold() for g in gold]
    pairs = []
    for i, text in enumerate(found):
        for j, candidate in enumerate(gold):
            longer = max(len(text), len(candidate))
            if abs(len(text) - len(candidate)) > 0.2 * longer + 5:
                continue            # ratio < 90 is certain past this length difference
            ratio = fuzz.ratio(text, candidate)
            if ratio >= MATCH_RATIO:
                pairs.append((ratio, i, j))
    pairs.sort(key=lambda p: (-p[0], p[1], p[2]))
    used_found, used_gold, matched = set(), set(), []
    for ratio, i, j in pairs:
        if i in used_found or j in used_gold:
            continue
        used_found.add(i)
        used_gold.add(j)
        matched.append((i, j, ratio))
    return matched


@dataclass
class Result:
    slug: str
    gold: int
    found: int = 0
    matched: int = 0
    refused: str | None = None
    seconds: float = 0.0
    peak: int = 0
    cpu: float = 0.0
    unmatched_gold: list = field(default_factory=list)
    unmatched_found: list = field(default_factory=list)

    @property
    def recall(self) -> float:
        return self.matched / self.gold if self.gold else 1.0

    @property
    def precision(self) -> float:
        return self.matched / self.found if self.found else (1.0 if not self.gold else 0.0)

    @property
    def disagree(self) -> int:
        return (self.gold - self.matched) + (self.found - self.matched)


def pith_strings(data: bytes) -> tuple[list[str], str | None]:
    from citations.extraction.pdf_references import PdfRefused, extract_references

    try:
        return [r.raw_text for r in extract_references(data).references], None
    except PdfRefused as refusal:
        return [], str(refusal)


def refextract_strings(path: Path) -> tuple[list[str], str | None]:
    from refextract import extract_references_from_file

    try:
        references = extract_references_from_file(str(path))
    except Exception as error:          # refextract raises what pdftotext or its parser raises
        return [], f"{type(error).__name__}: {error}"
    strings = []
    for reference in references:
        for raw in reference.get("raw_ref") or []:
            for marker in reference.get("linemarker") or []:
                raw = re.sub(rf"^\s*[\[(]?{re.escape(marker)}[\].)]?\s*", "", raw, count=1)
            strings.append(raw)
    return strings, None


def run(papers: list[Path], extract, *, memory: bool = True) -> list[Result]:
    results = []
    for folder in papers:
        gold = gold_references((folder / "paper.bbl").read_bytes())
        data = (folder / "paper.pdf").read_bytes()
        started, cpu_started = time.perf_counter(), time.process_time()
        found, refused = extract(folder, data)
        seconds, cpu = time.perf_counter() - started, time.process_time() - cpu_started
        peak = 0
        if memory:
            tracemalloc.start()
            extract(folder, data)
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
        pairs = match(found, gold)
        result = Result(folder.name, len(gold), len(found), len(pairs), refused, seconds, peak, cpu=cpu)
        matched_found = {i for i, _, _ in pairs}
        matched_gold = {j for _, j, _ in pairs}
        result.unmatched_gold = [(j, gold[j]) for j in range(len(gold)) if j not in matched_gold]
        result.unmatched_found = [(i, found[i]) for i in range(len(found)) if i not in matched_found]
        results.append(result)
    return results


HEADER = (f"{'paper':<46} {'gold':>5} {'found':>5} {'recall':>7} {'prec.':>7} {'disagree':>8} {'ms':>7} "
          f"{'cpu ms':>7} {'peak MB':>8}")


def row(r: Result) -> str:
    line = (f"{r.slug[:46]:<46} {r.gold:5d} {r.found:5d} {r.recall:7.3f} {r.precision:7.3f} "
            f"{r.disagree:8d} {1000 * r.seconds:7.0f} {1000 * r.cpu:7.0f} {r.peak / 2**20:8.1f}")
    return line + (f"  REFUSED: {r.refused}" if r.refused else "")


def total(name: str, results: list[Result]) -> str:
    gold = sum(r.gold for r in results)
    found = sum(r.found for r in results)
    matched = sum(r.matched for r in results)
    refused = sum(1 for r in results if r.refused)
    times = [r.seconds for r in results]
    return (f"{name}: {len(results)} papers, {gold} gold entries, {found} found, {matched} matched; "
            f"recall {matched / max(gold, 1):.3f}, precision {matched / max(found, 1):.3f}, "
            f"disagreements {sum(r.disagree for r in results)}, refused {refused}, "
            f"papers with recall and precision >= 0.95: "
            f"{sum(1 for r in results if r.recall >= 0.95 and r.precision >= 0.95)}; "
            f"time median {1000 * statistics.median(times):.0f} ms, max {1000 * max(times):.0f} ms "
            f"(CPU median {1000 * statistics.median(r.cpu for r in results):.0f} ms), "
            f"sum {sum(times):.1f} s; Python heap peak max {max(r.peak for r in results) / 2**20:.1f} MB")


def bodies(papers: list[Path]):
    """What a paper without a reference list gives: its body, the pages before its list, read alone
    (a list found there is a false one; the refusal is right)."""
    from citations.extraction.pdf_references import PdfRefused, extract_references, read_words, references_from_words

    false = 0
    for folder in papers:
        data = (folder / "paper.pdf").read_bytes()
        try:
            first = min(r.page for r in extract_references(data).references)
        except PdfRefused:
            continue
        words, sizes = read_words(data)
        body = [w for w in words if w.page < first]
        if not body:
            continue
        try:
            found = references_from_words(body, sizes[:first - 1])
        except PdfRefused:
            continue
        false += 1
        print(f"{folder.name}: {len(found.references)} found after {found.heading!r}: {found.references[0].raw_text[:60]}")
    print(f"bodies read without their lists: {len(papers)} papers, {false} gave a list")


def print_runs(runs: dict, details: bool, details_of=None) -> None:
    """Each run's rows (with its unmatched entries when details, for the runs named in details_of,
    else all), then each run's total."""
    for name, results in runs.items():
        print(f"\n== {name}")
        print(HEADER)
        for result in results:
            print(row(result))
            if details and (details_of is None or name in details_of):
                for j, text in result.unmatched_gold:
                    print(f"      missed gold {j + 1}: {text[:150]}")
                for i, text in result.unmatched_found:
                    print(f"      unmatched found {i + 1}: {text[:150]}")
    print()
    for name, results in runs.items():
        print(total(name, results))


def papers_of_the_set(real: Path, only: list[str] | None) -> list[Path]:
    """The paper folders (a PDF and its .bbl) of the real set, or the named ones; exits when there are none."""
    papers = sorted(p for p in real.iterdir() if (p / "paper.pdf").exists() and (p / "paper.bbl").exists())
    if only:
        papers = [p for p in papers if p.name in only]
    if not papers:
        sys.exit(f"no papers under {real}: see bench/real_pdfs/SOURCE.md to rebuild the set")
    return papers


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--real", type=Path, default=DEFAULT_DIR, help="folder of <slug>/paper.pdf + paper.bbl")
    parser.add_argument("--only", action="append", help="only this slug (repeatable)")
    parser.add_argument("--no-refextract", action="store_true")
    parser.add_argument("--details", action="store_true", help="print the unmatched entries")
    parser.add_argument("--no-memory", action="store_true", help="skip the tracemalloc pass")
    parser.add_argument("--bodies", action="store_true",
                        help="read each paper's pages before its list's first page: a list found there is false")
    args = parser.parse_args()

    papers = papers_of_the_set(args.real, args.only)
    if args.bodies:
        bodies(papers)
        return
    pith_strings((papers[0] / "paper.pdf").read_bytes())                 # warm up (imports)
    runs = {"pith": run(papers, lambda folder, data: pith_strings(data), memory=not args.no_memory)}
    if args.no_refextract:
        pass
    elif shutil.which("pdftotext") is None:
        print("refextract: not run, it needs poppler's pdftotext (apt-get install poppler-utils)")
    else:
        import logging
        logging.disable(logging.WARNING)
        refextract_strings(papers[0] / "paper.pdf")
        runs["refextract"] = run(papers, lambda folder, data: refextract_strings(folder / "paper.pdf"),
                                 memory=False)
    print_runs(runs, details=args.details)
    print(f"process max RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


if __name__ == "__main__":
    main()
