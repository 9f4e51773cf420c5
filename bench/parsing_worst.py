"""Benchmark: the parser's time on reference strings built to be slow, at the longest text ingest
stores (citations.sources.reference_lists.MAX_RAW_TEXT), next to an ordinary reference.

    python bench/parsing_worst.py [--repeat 3]

Each shape repeats one small pattern up to MAX_RAW_TEXT characters: many years, page ranges,
identifiers, links, brackets, quotes, initials, journal locators. A step of the reader whose cost
grows with the square of the string's length shows here as a shape far slower than the others;
the figure to watch is the slowest shape's seconds per string, and what a list of such strings at
MAX_REFERENCES would cost a worker. Printed: each shape's characters, tokens and the median wall
time of read_references([string]) over --repeat runs.
"""
import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SHAPES = {
    "years": "1999, ",
    "bracketed years": "(1999) ",
    "page ranges": "1-2 ",
    "journal locators": "Phys. Rev. 12, 13 ",
    "arXiv ids": "arXiv:1234.5678 ",
    "DOIs": "doi:10.1000/abc ",
    "links": "http://a.bc/d ",
    "names": "Smith, J., ",
    "initials": "A. ",
    "quotes": '"a" ',
    "brackets": "(",
    "In": "In ",
    "one long word": "x",
}
ORDINARY = ("A. Einstein, B. Podolsky and N. Rosen, Can quantum-mechanical description of physical reality be "
            "considered complete?, Phys. Rev. 47, 777 (1935).")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pith.settings")
    import django

    django.setup()
    from citations.parsing.reader import read_references
    from citations.parsing.tokens import tokenise
    from citations.sources.reference_lists import MAX_RAW_TEXT, MAX_REFERENCES

    read_references([ORDINARY])                   # load the model
    strings = {name: (pattern * (MAX_RAW_TEXT // len(pattern) + 1))[:MAX_RAW_TEXT] for name, pattern in SHAPES.items()}
    strings["ordinary reference"] = ORDINARY
    print(f"{'shape':<20}{'chars':>8}{'tokens':>8}{'seconds':>10}")
    slowest = 0.0
    for name, text in strings.items():
        runs = []
        for _ in range(args.repeat):
            started = time.perf_counter()
            read_references([text])
            runs.append(time.perf_counter() - started)
        seconds = statistics.median(runs)
        if name != "ordinary reference":
            slowest = max(slowest, seconds)
        print(f"{name:<20}{len(text):>8,}{len(tokenise(text)):>8,}{seconds:>10.3f}")
    print(f"\nslowest shape: {slowest:.3f} s a string; a list of {MAX_REFERENCES:,} such strings, the most "
          f"ingest takes, about {slowest * MAX_REFERENCES / 60:.0f} worker-minutes")


if __name__ == "__main__":
    main()
