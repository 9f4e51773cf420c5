"""Benchmark: reference lists out of SCANNED-then-OCRed copies of real PDFs, beside the born-digital ones.

    python bench/real_pdfs_ocr.py [--real DIR] [--ocr DIR] [--held-out] [--only SLUG] [--details] [--dpi 300]

--held-out reads the papers of HELD_OUT instead of PAPERS (ten more, which the fixes were not made
on); --only names any paper of the set.

Needs Debian's tesseract-ocr and ocrmypdf (apt-get install -y tesseract-ocr ocrmypdf); the bench
alone needs them, not the project or its tests.

For the papers in PAPERS (a fixed choice across the set's styles, see below) a scanned copy is
made: each page of DIR/<slug>/paper.pdf rendered at --dpi to a greyscale image (pypdfium2) and the
images put in a PDF of their own (Pillow), so that no text layer remains; ocrmypdf runs tesseract
on it and writes a PDF whose pages are the images with tesseract's invisible text layer (one box a
word, font GlyphLessFont). The copies are cached outside git, OCR/<slug>/paper.pdf next to a copy
of the paper's .bbl, and made again only when missing.

Both copies of each paper are scored as bench/real_pdfs.py scores the set (its functions: .bbl gold,
strict one-to-one matching): per paper and in total, recall / precision / refused, OCRed beside
born-digital.
"""
import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from real_pdfs import DEFAULT_DIR, papers_of_the_set, pith_strings, print_runs, run  # noqa: E402 (after the path it needs)

DEFAULT_OCR_DIR = Path("/work/realpdf-ocr")

# Chosen to span the set's styles: one and two columns, numbered and author-year lists, math,
# different publishers' classes; short enough (71 pages in all) to OCR in minutes.
PAPERS = {
    "renyi-entropy-rate-estimation-paper-paper": "IEEEtran conference, two columns, numbered [1], math",
    "adversarial-rf-latex-spectral-gated-defense-usenix": "USENIX, two columns, plain numbered [1]",
    "magneticuppersco-paper-arxiv-ms": "A&A, two columns, author-year, math",
    "symbolicgwpopulation-paper-tex-ms": "ICML, two columns, author-year, math",
    "dropimpact-prl-arxiv-ms": "APS revtex preprint, one column, numbered [1], no heading, math",
    "gaugefixer-manuscript-main": "OUP authoring template, plainnat author-year",
    "helios-fusion-engine-paper-main": "article + abbrv, one column, numbered [1]",
    "countersign-paper-main": "NeurIPS, one column, unsrtnat numbered [1]",
}
# Papers the OCR fixes were NOT made on, a check that they hold for the classes and not for the
# papers above (--held-out).
HELD_OUT = {
    "timeseries-paper-manuscript-gsa": "GSA, two columns, author-year",
    "jams-arxiv-main": "article + unsrtnat, numbered [1]",
    "nv-netpl19-paper": "ACM sigconf, two columns, small-capital names",
    "rkt-heaps-paper-final-report": "Springer LNCS, numbered 1.",
    "resed-manuscript-main": "IEEEtran journal, two columns",
    "dw-bench-paper-main": "NeurIPS, abbrvnat author-year",
    "fshybridpls-manuscript-enar-submission": "Biometrics referee copy, author-year",
    "centralms-tex-main": "AAS aastex preprint, author-year",
    "laplaceredux-jl-paper-paper": "JuliaCon proceedings, two columns",
    "band-as-modality-hsi-latex-main": "Elsevier elsarticle, author-year",
}


def scanned(pdf: Path, out: Path, dpi: int) -> None:
    """A copy of the PDF whose pages are images only: nothing of its text layer is left."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(pdf))
    try:
        images = [page.render(scale=dpi / 72, grayscale=True).to_pil().convert("L") for page in document]
    finally:
        document.close()
    images[0].save(out, save_all=True, append_images=images[1:], resolution=dpi)


def ocred_copy(folder: Path, ocr_dir: Path, dpi: int) -> Path:
    """OCR/<slug>/ holding the OCRed PDF and the paper's .bbl, made when missing."""
    target = ocr_dir / folder.name
    if (target / "paper.pdf").exists():
        return target
    target.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        image_only = Path(scratch) / "scanned.pdf"
        scanned(folder / "paper.pdf", image_only, dpi)
        # --output-type pdf: no PDF/A conversion (Ghostscript), the images stay as rendered.
        subprocess.run(["ocrmypdf", "--quiet", "--language", "eng", "--output-type", "pdf", "--optimize", "0",
                        "--jobs", "1", str(image_only), str(Path(scratch) / "paper.pdf")], check=True)
        shutil.copy(Path(scratch) / "paper.pdf", target / "paper.pdf")
    shutil.copy(folder / "paper.bbl", target / "paper.bbl")
    return target


def tesseract_version() -> str:
    answer = subprocess.run(["tesseract", "--version"], capture_output=True, text=True, check=False)
    return (answer.stdout or answer.stderr).splitlines()[0]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--real", type=Path, default=DEFAULT_DIR, help="the real set: <slug>/paper.pdf + paper.bbl")
    parser.add_argument("--ocr", type=Path, default=DEFAULT_OCR_DIR, help="where the OCRed copies are cached")
    parser.add_argument("--only", action="append", help="this slug of the set instead of PAPERS (repeatable)")
    parser.add_argument("--held-out", action="store_true", help="the papers of HELD_OUT instead of PAPERS")
    parser.add_argument("--dpi", type=int, default=300, help="resolution of the scanned pages")
    parser.add_argument("--details", action="store_true", help="print the unmatched entries of the OCRed copies")
    args = parser.parse_args()
    if not shutil.which("ocrmypdf") or not shutil.which("tesseract"):
        sys.exit("needs tesseract and ocrmypdf: apt-get install -y tesseract-ocr ocrmypdf")

    born = papers_of_the_set(args.real, args.only or list(HELD_OUT if args.held_out else PAPERS))
    ocred = [ocred_copy(folder, args.ocr, args.dpi) for folder in born]
    pith_strings((born[0] / "paper.pdf").read_bytes())                 # warm up (imports)
    extract = lambda folder, data: pith_strings(data)                   # noqa: E731
    runs = {"born-digital": run(born, extract, memory=False), "scanned, OCRed": run(ocred, extract, memory=False)}

    print(f"OCR: {tesseract_version()}, pages rendered at {args.dpi} dpi; copies in {args.ocr}")
    print_runs(runs, details=args.details, details_of=[name for name in runs if name != "born-digital"])


if __name__ == "__main__":
    main()
