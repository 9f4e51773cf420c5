from citations.management.file_ingest import FileIngestCommand
from citations.sources.paper_files import SOURCE


class Command(FileIngestCommand):
    help = ("Read the reference list of a paper version from its arXiv source package (.tar.gz, or a gzipped "
            ".tex): its .bbl bibliography (source latex_bbl), else the .bib entries its .tex files cite "
            "(latex_bib). The list is stored and resolved; for a version that also has a PDF list, records show "
            "this one. A package with ../ paths, links, too much data or no TeX files is refused with its reason "
            "and nothing is stored. --dir DIR reads every package named after its paper (2509.11076v2.tar.gz).")
    kind = SOURCE
    noun = "source package"
    pattern = "*.gz"
