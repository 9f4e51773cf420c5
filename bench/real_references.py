"""Benchmark: how well the parsers read REAL reference strings, against field gold from the .bib files.

    python bench/real_references.py [--real DIR] [--details N] [--model PATH] [--rebuild-gold]
                                    [--only SLUG] [--seed S]

The gold is DIR/fields.json (bench/real_pdfs_gold.py builds it when it is missing, or with
--rebuild-gold): for each .bbl entry of the real-PDF set (bench/real_pdfs/SOURCE.md) that has a
.bib entry, its title, year, family names and container, each counted only where the style printed
it. Two inputs are read: the LaTeX path's string of each entry (what ingest_source stores) and the
PDF path's string paired with it (what ingest_pdf stores; entries no extracted string matches are
left out of that input). Two parsers read them: pith-crf (citations.parsing.reader.read_references,
as production stores, one call per paper and input) and pith-rules/1 (parser.parse_reference).
--model PATH reads with another CRFsuite model file of the same features instead of the shipped one
(parse_references with a Tagger of that file; production is not touched).

Per field, over the entries whose gold field is printed (n), the share read exactly: soft forms
equal (NFKD, accents dropped, case-folded, letters and digits only; years as numbers):
    title        and "~0.9": rapidfuzz ratio >= 90 on the soft forms; "none": no title read
    year
    first        the first author's family name (pith-rules/1 gives names as written: its family
                 name is what citations.parsing.names.split_names makes of each)
    authors      every family name, in order (only where the whole list is printed)
    container    journal or booktitle (pith-rules/1: its venue)
    volume, pages  (pith-crf only)
and "title read where none printed": of the entries whose .bib title the style does not print
(astronomy and physics styles), the share with a title read anyway. Micro totals; then one title
line per style family (manifest "family"); --details N prints N title misses of pith-crf per input.
"""
import argparse
import os
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from real_pdfs import DEFAULT_DIR
from real_pdfs_gold import load, soft

TITLE_RATIO = 90.0
INPUTS = ("latex", "pdf")
SCORED = ("title", "year", "first", "authors", "container", "volume", "pages")


def setup():
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pith.settings")
    django.setup()      # the rules read the latest plausible year from settings' clock


def crf_reader(model: Path | None):
    """Many strings -> ParsedReferences: production's read_references, or the CRF with another model."""
    if model is None:
        from citations.parsing.reader import read_references
        return read_references
    from citations.parsing.crf import parse_references
    from citations.parsing.tagger import Tagger
    tagger = Tagger(model)
    return lambda raws: parse_references(raws, tagger)


def rules_reader(raws):
    from citations.parsing.parser import parse_reference
    return [parse_reference(raw) for raw in raws]


def families(parsed) -> list[str]:
    """The family names the parser read, in order."""
    if parsed.names:
        return [n.family or n.text for n in parsed.names]
    from citations.parsing.names import split_names
    out = []
    for author in parsed.authors:                # pith-rules/1: names as written
        names = split_names(author)
        out.append((names[0].family or names[0].text) if names else author)
    return out


def reading(parsed) -> dict:
    return {"title": parsed.title, "year": parsed.year, "authors": families(parsed),
            "container": parsed.container or parsed.venue, "volume": parsed.volume, "pages": parsed.pages}


def judge(gold: dict, shown: dict, got: dict, has_fields: bool) -> dict:
    """Per scored field: None (gold not printed), or whether the reading is right; and the title extras."""
    from rapidfuzz import fuzz

    out = {}
    if shown["title"]:
        a, b = soft(got["title"]), soft(gold["title"])
        out["title"] = a == b
        out["title~"] = bool(a) and fuzz.ratio(a, b) >= TITLE_RATIO
        out["title none"] = not a
    elif gold["title"]:
        out["title where none"] = bool(soft(got["title"]))
    if shown["year"]:
        out["year"] = got["year"] == gold["year"]
    if shown["first_author"]:
        out["first"] = bool(got["authors"]) and soft(got["authors"][0]) == soft(gold["authors"][0])
    if shown["authors"]:
        out["authors"] = [soft(f) for f in got["authors"]] == [soft(f) for f in gold["authors"]]
    if shown["container"]:
        out["container"] = soft(got["container"]) == soft(gold["container"])
    if has_fields:
        for name in ("volume", "pages"):
            if shown[name]:
                out[name] = soft(got[name]) == soft(gold[name])
    return out


def score(gold: dict, readers: dict, only: list[str] | None):
    """rows[(parser, input)] = list of (paper, family, entry, reading, verdicts); and seconds per run."""
    rows, seconds = defaultdict(list), defaultdict(float)
    for paper in gold["papers"]:
        if only and paper["slug"] not in only:
            continue
        for source in INPUTS:
            entries = [e for e in paper["entries"] if e["gold"] and e[source]]
            if not entries:
                continue
            for name, reader in readers.items():
                started = time.perf_counter()
                parsed = reader([e[source] for e in entries])          # one call per paper and input
                seconds[(name, source)] += time.perf_counter() - started
                for entry, p in zip(entries, parsed):
                    got = reading(p)
                    verdicts = judge(entry["gold"], entry["printed"], got, has_fields=name != "pith-rules/1")
                    rows[(name, source)].append((paper, entry, got, verdicts))
    return rows, seconds


def tally(rows, key) -> tuple[int, int]:
    values = [v[key] for _, _, _, v in rows if key in v]
    return sum(values), len(values)


def share(right: int, n: int) -> str:
    return f"{right / n:.3f}" if n else "  -  "


def print_totals(rows, seconds) -> None:
    runs = list(rows)
    head = f"{'field':<26}" + "".join(f"{name + ' / ' + source:>26}" for name, source in runs)
    print(head)
    lines = [("title exact", "title"), ("title ~0.9", "title~"), ("title none read", "title none"),
             ("year", "year"), ("first author family", "first"), ("all families in order", "authors"),
             ("container", "container"), ("volume", "volume"), ("pages", "pages"),
             ("title read, none printed", "title where none")]
    for label, key in lines:
        cells = []
        for run in runs:
            right, n = tally(rows[run], key)
            cells.append(f"{share(right, n)} of {n:4d}" if n else "-")
        print(f"{label:<26}" + "".join(f"{c:>26}" for c in cells))
    print(f"{'entries read':<26}" + "".join(f"{len(rows[r]):>26}" for r in runs))
    print(f"{'seconds (parse calls)':<26}" + "".join(f"{seconds[r]:>26.2f}" for r in runs))


def print_families(rows) -> None:
    runs = list(rows)
    print("\ntitle exact (~0.9) per style family, n = entries with a printed title")
    print(f"{'family':<34}{'n':>5}" + "".join(f"{name[:9] + '/' + source:>20}" for name, source in runs))
    by = defaultdict(lambda: defaultdict(list))
    for run in runs:
        for row in rows[run]:
            by[row[0]["family"]][run].append(row)
    for family in sorted(by, key=lambda f: (-tally(by[f][runs[0]], "title")[1], f)):
        n = tally(by[family][runs[0]], "title")[1]
        if not n:
            continue
        cells = []
        for run in runs:
            right, m = tally(by[family][run], "title")
            near, _ = tally(by[family][run], "title~")
            cells.append(f"{share(right, m)} ({share(near, m)})")
        print(f"{family[:33]:<34}{n:>5}" + "".join(f"{c:>20}" for c in cells))


def print_details(rows, parser: str, count: int, seed: int) -> None:
    for source in INPUTS:
        misses = [r for r in rows.get((parser, source), []) if r[3].get("title") is False]
        print(f"\n{count} of {len(misses)} title misses of {parser} on the {source} strings")
        for paper, entry, got, _ in random.Random(seed).sample(misses, min(count, len(misses))):
            print(f"--- {paper['slug']} [{entry['index']}]")
            print(f"  string: {entry[source]}")
            print(f"  gold:   {entry['gold']['title']}")
            print(f"  read:   {got['title']}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--real", type=Path, default=DEFAULT_DIR)
    parser.add_argument("--details", type=int, default=0, metavar="N", help="print N title misses of the CRF per input")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--model", type=Path, help="another CRFsuite model file (same features) for pith-crf")
    parser.add_argument("--rebuild-gold", action="store_true", help="build fields.json again first")
    parser.add_argument("--only", action="append", help="only this slug (repeatable)")
    parser.add_argument("--no-rules", action="store_true", help="read with the CRF only")
    args = parser.parse_args()

    setup()
    gold = load(args.real, rebuild=args.rebuild_gold)
    crf_name = "pith-crf" if args.model is None else f"crf:{args.model.stem[:12]}"
    readers = {crf_name: crf_reader(args.model)}
    if not args.no_rules:
        readers["pith-rules/1"] = rules_reader
    for read in readers.values():
        read(["A. Author. A title. Journal 1, 2 (2000)."])                 # warm up (model, imports)
    rows, seconds = score(gold, readers, args.only)
    entries = [e for p in gold["papers"] for e in p["entries"]]
    print(f"{len(gold['papers'])} papers, {len(entries)} .bbl entries, {sum(1 for e in entries if e['gold'])} "
          f"with a .bib entry, {sum(1 for e in entries if e['gold'] and e['pdf'])} of them with a PDF string")
    print_totals(rows, seconds)
    print_families(rows)
    if args.details:
        print_details(rows, crf_name, args.details, args.seed)


if __name__ == "__main__":
    main()
