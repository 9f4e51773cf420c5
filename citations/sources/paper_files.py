"""From a paper's own files to its reference lists: a PDF, or an arXiv source package, of one version.

`ingest_paper_file()` reads the file, takes its reference list out (pdf_references.py for a PDF;
latex_references.py for a source package), stores it as the version's new observation set through
the one writer of reference lists (citations/sources/reference_lists.py: an unchanged list is left alone, a changed
one is a new set beside the old), and resolves it. A file that cannot be read (encrypted, scanned,
truncated, not what it says, a package with `../` paths, links or a bomb in it, no reference
section) is refused with one sentence saying why, and nothing is written: the paper's earlier
lists stay as they were.

The observation's `source` says what the list was read from: `pdf_text`, or `latex_bbl` / `latex_bib`
for the source package's bibliography. When a version has both, its record shows the package's
(citations/models/references.py, source_rank_sql) and the PDF's stays stored beside it.

Bulk runs (`ingest_pdf --dir`, `ingest_source --dir`) are jobs of one file a chunk, run by the
workers (citations/tasks.py, ingest_file_chunk), so they scale with workers, survive a lost worker
(the sweep sends an unfinished chunk again) and show their progress like every job; the files must be
readable by the workers at the same path (shared storage).
"""
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import transaction

from citations.arxiv_ids import MAX_VERSION, InvalidArxivId, parse_arxiv_id
from citations.input_files import RejectedLine
from citations.jobs.planning import plan_chunks
from citations.models import Job, JobChunk, Paper, PaperSnapshot
from citations.models.references import PDF_TEXT
from citations.resolution.service import resolve_paper, resolve_references
from citations.sources.reference_lists import MAX_RAW_TEXT, MAX_REFERENCES, ReferenceList, ingest_reference_list
from citations.validation import OutOfRange, clean_text

PDF, SOURCE = "pdf", "source"
KINDS = (PDF, SOURCE)
JOB_KIND = "ingest_files"
# arXiv's bulk files are named by id and version: 2509.11076v2.pdf, hep-th9901001v1.pdf (old-style
# ids lose their slash in file names), 2509.11076v2.tar.gz or .gz for a source package.
_FILE_NAME = re.compile(r"^(?P<id>(?:[a-z][a-z.-]*?(?:\.[A-Z]{2})?)?\d{4}(?:\.\d{4,5}|\d{3}))(?:v(?P<version>\d+))?"
                        r"(?:\.pdf|\.tar\.gz|\.tgz|\.tar|\.gz)?$")


class FileRefused(ValueError):
    """The file gave no reference list that can be stored; the message says why."""


@dataclass
class FileOutcome:
    arxiv_id: str
    version: int
    kind: str
    path: str
    outcome: str = ""               # created, unchanged or refused
    source: str = ""
    references: int = 0
    reason: str = ""
    notes: list[str] = field(default_factory=list)

    @property
    def target(self) -> str:
        return f"arXiv:{self.arxiv_id}v{self.version}"

    def counts(self) -> dict:
        """What a job adds up (citations/models/jobs.py merge_counts): a refusal with its reason."""
        counts = {"files": 1, self.outcome: 1, "references": self.references}
        if self.outcome == "refused":
            counts["refusals"] = {f"{self.target} ({Path(self.path).name}): {self.reason}": 1}
        elif self.source:
            counts["sources"] = {self.source: 1}
        return counts


def ingest_paper_file(*, kind: str, arxiv_id: str, version: int, path: str | Path, resolve: bool = True,
                      on_stored: Callable[[FileOutcome], None] | None = None) -> FileOutcome:
    """Read one file of a held paper's version into its reference list; see the module docstring.
    on_stored(outcome), when given, is called in the transaction that stores the list."""
    if kind not in KINDS:
        raise ValueError(f"unknown kind of file {kind!r} (known: {', '.join(KINDS)})")
    outcome = FileOutcome(arxiv_id=arxiv_id, version=version, kind=kind, path=str(path))
    try:
        latest = latest_version(arxiv_id)
        if not 1 <= version <= latest:
            # A version the metadata never named would be a version nobody published.
            raise FileRefused(f"arXiv:{arxiv_id} has {'only v1' if latest == 1 else f'v1 to v{latest}'} in its "
                              f"metadata: v{str(version)[:20]} is not one of them (import newer metadata first)")
        item, outcome.notes = _reference_list(kind, arxiv_id, version, Path(path))
        with transaction.atomic():
            result, reference_ids = ingest_reference_list(item)
            outcome.outcome, outcome.source, outcome.references = result, item.source, len(item.references)
            if on_stored is not None:
                on_stored(outcome)
    except (FileRefused, RejectedLine) as error:
        outcome.outcome, outcome.reason = "refused", str(error)
        return outcome
    except SoftTimeLimitExceeded:
        # A worker's time for one file ran out (FILE_TASK_SECONDS): what the file wrote is rolled back.
        outcome.outcome = "refused"
        outcome.reason = f"reading the file took longer than the {settings.FILE_TASK_SECONDS} s a file may take"
        return outcome
    if result == "created" and resolve:
        resolve_references(reference_ids=reference_ids)
    return outcome


def _reference_list(kind: str, arxiv_id: str, version: int, path: Path) -> tuple[ReferenceList, list[str]]:
    try:
        # Each reader is loaded when a file needs it: a worker reading source packages never loads pdfium.
        if kind == PDF:
            from citations.extraction.pdf_references import PdfRefused, extract_references

            try:
                found = extract_references(path, memory_mb=settings.PDF_READ_MEMORY_MB,
                                           seconds=settings.PDF_READ_SECONDS)
            except PdfRefused as error:
                raise FileRefused(str(error)) from None
            entries = [(r.index, r.raw_text, r.page) for r in found.references]
            source, notes = PDF_TEXT, []
        else:
            from citations.extraction.latex_references import extract_references
            from citations.extraction.source_package import SourceRefused

            try:
                found = extract_references(path)
            except SourceRefused as error:
                raise FileRefused(str(error)) from None
            entries = [(r.index, with_linked_identifiers(r.raw_text, r.links), None) for r in found.references]
            source, notes = found.origin, list(found.notes)
    except OSError as error:
        raise FileRefused(f"the file cannot be read: {error.strerror or error}") from None
    if not entries:
        raise FileRefused("no references were found in the file")
    if len(entries) > MAX_REFERENCES:
        raise FileRefused(f"{len(entries):,} references found, more than the {MAX_REFERENCES:,} a list may hold: "
                          "the reference section was not told apart from the text")
    indexes = [index for index, _, _ in entries]
    if len(set(indexes)) != len(indexes):
        # Printed numbers that repeat (two lists, or a misread number) cannot key the list: positions can.
        notes.append("printed reference numbers repeat: numbered by position instead")
        entries = [(position, raw, page) for position, (_, raw, page) in enumerate(entries, start=1)]
    references = []
    for index, raw, _ in entries:
        text = " ".join(raw.split())
        if len(text) > MAX_RAW_TEXT:
            raise FileRefused(f"reference [{index}] is longer than {MAX_RAW_TEXT:,} characters: the reference "
                              "section was not split into references")
        try:
            references.append((index, clean_text(text, what=f"reference [{index}]")))
        except OutOfRange as error:
            raise FileRefused(str(error)) from None
    pages = tuple(page for _, _, page in entries) if any(page for _, _, page in entries) else ()
    return ReferenceList(arxiv_id, version, source, tuple(references), pages), notes


_IDENTIFIER_LINK = re.compile(r"^https?://(?:dx\.)?doi\.org/(10\.\S+)$|^https?://arxiv\.org/abs/(\S+?)/?$", re.I)


def with_linked_identifiers(text: str, links: tuple[str, ...]) -> str:
    """The entry's text, with the DOI or arXiv id its \\href links to when the text does not print it:
    styles often print "Astrophys. J. 223 (1978) 1037" as a link to the DOI, and the DOI is what
    resolution needs. Written as the link's own URL, so the text says where it came from."""
    added = []
    for link in links:
        match = _IDENTIFIER_LINK.match(link.strip())
        identifier = match and (match[1] or match[2])
        if identifier and identifier.lower() not in text.lower() and link not in added:
            added.append(link.strip())
    return " ".join([text, *added])


# --- naming files and planning bulk runs ----------------------------------------------------------


def target_of(text: str) -> tuple[str, int | None]:
    """(arXiv id, version or None) of "2509.11076v2", "arXiv:hep-th/9901001" or a bulk file's name
    ("2509.11076v2.pdf", "hep-th9901001v1.tar.gz"); ValueError naming the problem."""
    name = Path(text).name if ("/" in text and Path(text).suffix) else text
    try:
        parsed = parse_arxiv_id(name)
        arxiv_id, version = parsed.id, parsed.version
    except InvalidArxivId as error:
        match = _FILE_NAME.match(name)
        if not match:
            raise ValueError(f"{text!r} does not name an arXiv paper (2509.11076v2, or a file named so)") from error
        written = match["id"]
        old_style = re.match(r"^([a-z][a-z.-]*?(?:\.[A-Z]{2})?)(\d{7})$", written)
        try:
            arxiv_id = parse_arxiv_id(f"{old_style[1]}/{old_style[2]}" if old_style else written).id
        except InvalidArxivId as error:
            raise ValueError(str(error)) from None
        version = int(match["version"]) if match["version"] else None
    if version is not None and not 1 <= version <= MAX_VERSION:
        raise ValueError(f"{text[:60]!r}: version {str(version)[:20]} is not between 1 and {MAX_VERSION}")
    return arxiv_id, version


def latest_version(arxiv_id: str) -> int:
    """The newest version the paper's metadata names (1 when it names none); FileRefused when not held."""
    paper = Paper.objects.filter(arxiv_id=arxiv_id).first()
    if paper is None:
        raise FileRefused(f"arXiv:{arxiv_id} is not held: import its arXiv metadata first")
    snapshot = PaperSnapshot.objects.filter(paper=paper).newest_first().first()
    return (snapshot.latest_version if snapshot and snapshot.latest_version else None) or 1


def plan_files(*, kind: str, paths: list[Path]) -> tuple[Job, list[str]]:
    """A job of one chunk a file, for the files named after an arXiv id; returns it and what was
    skipped, with why (a name that names no paper, a paper not held)."""
    skipped, named = [], []
    for path in sorted(paths):
        try:
            named.append((path, *target_of(path.name)))
        except ValueError as error:
            skipped.append(f"{path.name}: {error}")
    held = set(Paper.objects.filter(arxiv_id__in={arxiv_id for _, arxiv_id, _ in named}).values_list("arxiv_id", flat=True))
    chunks = []
    for path, arxiv_id, version in named:
        if arxiv_id not in held:
            skipped.append(f"{path.name}: arXiv:{arxiv_id} is not held: import its arXiv metadata first")
            continue
        chunks.append({"kind": kind, "arxiv_id": arxiv_id, "version": version or latest_version(arxiv_id),
                       "path": str(path.resolve())})
    job = plan_chunks(JOB_KIND, {"kind": kind, "files": len(chunks), "skipped": len(skipped)}, chunks)
    return job, skipped


def run_file_chunk(chunk: JobChunk) -> dict:
    """One chunk of a bulk run: its file read, refused or stored (a refusal is counted, not raised:
    one bad file does not stop the others)."""
    payload = chunk.payload
    _, stored = chunk.progress()
    if stored:
        # An earlier run stored the list and was lost before it finished: what it stored is what the
        # job counts (read again, the file would count as unchanged), and resolution is done again.
        if stored.get("created"):
            resolve_paper(arxiv_id=payload["arxiv_id"])
        return stored
    outcome = ingest_paper_file(kind=payload["kind"], arxiv_id=payload["arxiv_id"], version=payload["version"],
                                path=payload["path"],
                                on_stored=lambda outcome: chunk.add_progress(outcome.counts(), through=0))
    return outcome.counts()
