from citations.management.file_ingest import FileIngestCommand
from citations.sources.paper_files import PDF


class Command(FileIngestCommand):
    help = ("Read the reference list of a paper version from its PDF (source pdf_text), store it as a new "
            "observation set (an unchanged list is left alone) and resolve it. A PDF that cannot be read "
            "(encrypted, scanned, truncated, no reference section) is refused with its reason and nothing is "
            "stored. --dir DIR reads every PDF named after its paper (2509.11076v2.pdf), one job chunk each.")
    kind = PDF
    noun = "PDF"
    pattern = "*.pdf"
