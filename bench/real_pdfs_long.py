"""Benchmark: ingest_pdf's time and peak memory as a document grows to hundreds of pages.

    python bench/real_pdfs_long.py [--real DIR] [--pages 100,250,500] [--keep DIR]

The real set (bench/real_pdfs/SOURCE.md) has no thesis of hundreds of pages, so long documents
are made from it: the set's PDFs, in the order of their names, concatenated (pypdfium2) as long as the
page count is not passed, each whole so that the document ends with a reference list as a
thesis does. Each document, and each of the set's three longest papers, is read by
extract_references in a child process under /usr/bin/time -v: printed are its wall time, CPU
time and maximum resident set size (the interpreter and its imports included: the first row,
the set's shortest paper, is about that floor), and the number of references found.
"""
import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from real_pdfs import DEFAULT_DIR

CHILD = """
import sys
sys.path.insert(0, {root!r})
from citations.extraction.pdf_references import extract_references
print(len(extract_references(sys.argv[1]).references))
"""


def concatenated(papers: list[Path], pages: int, out: Path) -> int:
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument.new()
    for folder in papers:
        source = pdfium.PdfDocument(str(folder / "paper.pdf"))
        if len(document) + len(source) > pages:      # past MAX_PAGES the PDF would be refused
            source.close()
            continue
        document.import_pages(source)
        source.close()
    count = len(document)
    with open(out, "wb") as file:
        document.save(file)
    document.close()
    return count


def measure(path: Path) -> tuple[float, float, int, str]:
    """Wall seconds, CPU seconds, max RSS in MiB and the child's answer (references or error)."""
    run = subprocess.run(["/usr/bin/time", "-v", sys.executable, "-c", CHILD.format(root=str(ROOT)), str(path)],
                         capture_output=True, text=True, check=False)
    report = run.stderr

    def field(name: str) -> str:
        found = re.search(rf"{re.escape(name)}: (.+)", report)
        return found.group(1).strip() if found else "0"

    wall = field("Elapsed (wall clock) time (h:mm:ss or m:ss)").split(":")
    seconds = sum(float(part) * 60 ** k for k, part in enumerate(reversed(wall)))
    cpu = float(field("User time (seconds)")) + float(field("System time (seconds)"))
    answer = run.stdout.strip() or report.strip().splitlines()[-1]
    return seconds, cpu, int(field("Maximum resident set size (kbytes)")) // 1024, answer


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--real", type=Path, default=DEFAULT_DIR)
    parser.add_argument("--pages", default="100,250,500")
    parser.add_argument("--keep", type=Path, help="write the long PDFs here and keep them")
    args = parser.parse_args()
    import pypdfium2 as pdfium

    papers = sorted(p for p in args.real.iterdir() if (p / "paper.pdf").exists())
    if not papers:
        sys.exit(f"no papers under {args.real}: see bench/real_pdfs/SOURCE.md to rebuild the set")
    lengths = {p: len(pdfium.PdfDocument(str(p / "paper.pdf"))) for p in papers}
    folder = args.keep or Path(tempfile.mkdtemp(prefix="pith-long-"))
    folder.mkdir(parents=True, exist_ok=True)
    cases = []
    shortest = min(papers, key=lambda p: lengths[p])
    cases.append((f"{shortest.name} (floor)", shortest / "paper.pdf", lengths[shortest]))
    for paper in sorted(papers, key=lambda p: -lengths[p])[:3]:
        cases.append((paper.name, paper / "paper.pdf", lengths[paper]))
    for target in (int(n) for n in args.pages.split(",")):
        path = folder / f"long-{target}.pdf"
        cases.append((f"concatenated {target}", path, concatenated(papers, target, path)))
    print(f"{'document':<50} {'pages':>5} {'wall s':>7} {'cpu s':>6} {'max RSS MiB':>11}  references")
    for name, path, pages in cases:
        wall, cpu, rss, answer = measure(path)
        print(f"{name[:50]:<50} {pages:5d} {wall:7.2f} {cpu:6.2f} {rss:11d}  {answer[:80]}")


if __name__ == "__main__":
    main()
