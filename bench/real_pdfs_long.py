"""Benchmark: ingest_pdf's time and peak memory as a document grows to hundreds of pages.

    python bench/real_pdfs_long.py [--real DIR] [--pages 100,250,500] [--keep DIR] [--no-each]

The real set (bench/real_pdfs/SOURCE.md) has no thesis of hundreds of pages, so long documents
are made from it: the set's PDFs, in the order of their names, concatenated (pypdfium2) as long as the
page count is not passed, each whole so that the document ends with a reference list as a
thesis does. Each document, and each of the set's three longest papers, is read by
extract_references (given the file's path, as ingest_pdf gives it) in a child process under
/usr/bin/time -v: printed are the file's size, the wall time and CPU time (the reader's child
process included), the maximum resident set size of the larger of the two processes (the
interpreter and its imports included: the first row, the set's shortest paper, is about that
floor), the same of each process (own: the process that asked, which holds the layout; reader:
the child that PDFium runs in), and the number of references found. Unless --no-each, every
paper of the set is also read alone and the one that needs the most memory is printed: a long
document made of the set's papers should need about what its heaviest pages need, whatever its
length.
"""
import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from real_pdfs import DEFAULT_DIR  # noqa: E402 - needs bench/ on the path

CHILD = """
import resource, sys
sys.path.insert(0, {root!r})
from citations.extraction.pdf_references import extract_references
found = len(extract_references(sys.argv[1]).references)
own, reader = (resource.getrusage(who).ru_maxrss // 1024 for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
print(own, reader, found)
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
    """Wall seconds, CPU seconds, max RSS in MiB and the child's answer ("own reader references" or error)."""
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
    parser.add_argument("--no-each", dest="each", action="store_false", help="do not read every paper alone")
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
    print(f"{'document':<50} {'pages':>5} {'file MB':>7} {'wall s':>7} {'cpu s':>6} {'max RSS MiB':>11} "
          f"{'own':>5} {'reader':>6}  references")

    def row(name: str, path: Path, pages: int):
        wall, cpu, rss, answer = measure(path)
        own, reader, found = answer.split() if len(answer.split()) == 3 and answer[0].isdigit() else ("-", "-", answer)
        print(f"{name[:50]:<50} {pages:5d} {path.stat().st_size / 1e6:7.1f} {wall:7.2f} {cpu:6.2f} {rss:11d} "
              f"{own:>5} {reader:>6}  {found[:80]}")
        return rss

    for name, path, pages in cases:
        row(name, path, pages)
    if args.each:
        heaviest = max(papers, key=lambda p: measure(p / "paper.pdf")[2])
        row(f"{heaviest.name} (heaviest alone)", heaviest / "paper.pdf", lengths[heaviest])


if __name__ == "__main__":
    main()
