"""Benchmark: title and year read from ingest_pdf's strings next to the same read of the .bbl's.

    python bench/real_pdfs_fields.py [--real DIR] [--only SLUG]

For each paper of the real set (bench/real_pdfs/SOURCE.md), the PDF's references are matched one
to one with the .bbl entries (bench/real_pdfs.py's strict matching), and each parser, the rules
(citations.parsing.parser.parse_reference) and the trained CRF (citations.parsing.crf), reads
both strings of every gold entry. The set has no hand-labelled fields, so "right" means "as the
same parser reads the .bbl entry" (what ingest_source would store):
    title right   the two titles agree (rapidfuzz ratio >= 90 on lower-case letters and digits;
                  a hyphenation undone differently is not a different title), or both are empty
    year right    the same year, or none in both
A gold entry no extracted string matches counts as wrong for both. Also printed: how often the
parser finds a title and a year in the .bbl strings at all (its coverage, for scale).
"""
import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from real_pdfs import DEFAULT_DIR, gold_references, match, papers_of_the_set, pith_strings

TITLE_RATIO = 90.0


def _letters(text: str | None) -> str:
    return " ".join(re.sub(r"[^0-9a-z]+", " ", (text or "").lower()).split())


def same_title(a: str | None, b: str | None) -> bool:
    from rapidfuzz import fuzz

    a, b = _letters(a), _letters(b)
    if not a or not b:
        return a == b
    return fuzz.ratio(a, b) >= TITLE_RATIO


def parsers():
    import os

    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pith.settings")
    django.setup()      # the rules read the latest plausible year from settings' clock
    from citations.parsing import crf, parser
    return {"rules": parser.parse_reference, "crf": crf.parse_reference}


def score(papers: list[Path]) -> dict:
    """Per parser and paper: [gold, title right, year right, gold with a title, gold with a year]."""
    table = {name: {} for name in parsers()}
    for folder in papers:
        gold = gold_references((folder / "paper.bbl").read_bytes())
        found, _ = pith_strings((folder / "paper.pdf").read_bytes())
        partner = {j: found[i] for i, j, _ in match(found, gold)}
        for name, parse in parsers().items():
            counts = [len(gold), 0, 0, 0, 0]
            for j, text in enumerate(gold):
                expected = parse(text)
                counts[3] += bool(expected.title)
                counts[4] += expected.year is not None
                if j not in partner:
                    continue
                got = parse(partner[j])
                counts[1] += same_title(got.title, expected.title)
                counts[2] += got.year == expected.year
            table[name][folder.name] = counts
    return table


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--real", type=Path, default=DEFAULT_DIR)
    parser.add_argument("--only", action="append")
    args = parser.parse_args()
    papers = papers_of_the_set(args.real, args.only)
    table = score(papers)
    for name, rows in table.items():
        print(f"\n== {name}")
        print(f"{'paper':<46} {'gold':>5} {'title':>7} {'year':>7}")
        for slug, (gold, title, year, _, _) in rows.items():
            print(f"{slug[:46]:<46} {gold:5d} {title / max(gold, 1):7.3f} {year / max(gold, 1):7.3f}")
    print()
    for name, rows in table.items():
        gold, title, year, has_title, has_year = (sum(c[k] for c in rows.values()) for k in range(5))
        print(f"{name}: {len(rows)} papers, {gold} gold entries; on the PDF's strings, as on the .bbl's: "
              f"title {title / gold:.3f}, year {year / gold:.3f}; the .bbl's strings have a title in "
              f"{has_title / gold:.3f}, a year in {has_year / gold:.3f}")


if __name__ == "__main__":
    main()
