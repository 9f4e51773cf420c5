"""Ingestion: arXiv metadata into the paper store, and reference lists into observations.

Both read JSON lines, stream (memory stays flat for millions of lines), and are idempotent:
reading the same input twice changes nothing. A bad line is counted with its reason and skipped;
it never stops the rest of the file and never leaves half of itself behind.
"""
import gzip
import hashlib
import io
import json
import re
import zlib
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from pathlib import Path

from django.db import DatabaseError, transaction
from django.utils import timezone

from citations.arxiv_ids import InvalidArxivId, parse_arxiv_id
from citations.records.canonical import canonical_bytes
from citations.models import (
    Paper,
    PaperReference,
    PaperReferenceLink,
    PaperSnapshot,
    PaperVersion,
    ReferenceExtraction,
    ResolutionState,
)
from citations.models.references import REFERENCE_SOURCES, ExtractionOrigin
from citations.records.cache import records_changed, records_of_papers_changed
from citations.resolution.index import index_paper_titles
from citations.resolution.waiting import resolve_references_naming
from citations.current.papers import papers_changed
from citations.current.resolutions import links_written
from citations.resolution.parser import PARSER_NAME, parse_reference
from citations.validation import OutOfRange, checked_time, clean_text, parse_time

METADATA_BATCH = 1000
MAX_LINE_BYTES = 4 * 1024 * 1024
MAX_REFERENCES = 5000
MAX_VERSION = 1000
MAX_REASONS = 100          # distinct rejection reasons kept apart; the rest are counted together
OTHER_REASONS = f"other reasons (only the first {MAX_REASONS} reasons are told apart)"
# What a damaged input file raises while it is read: not gzip, ends early, corrupt inside.
FILE_ERRORS = (OSError, EOFError, zlib.error)
# What a database raises for a row it will not store; a driver refuses text it cannot encode
# before the database sees it.
DATABASE_REFUSALS = (DatabaseError, UnicodeEncodeError)


class RejectedLine(ValueError):
    """A line that cannot be ingested; the message is the reason counted for it."""


@dataclass
class IngestReport:
    lines: int = 0
    created: Counter = field(default_factory=Counter)
    unchanged: int = 0
    rejected: Counter = field(default_factory=Counter)
    examples: dict[str, int] = field(default_factory=dict)   # reason -> first line number

    def reject(self, line_number: int, reason: str) -> None:
        if reason not in self.rejected and len(self.rejected) >= MAX_REASONS:
            reason = OTHER_REASONS      # reasons that name values must not grow without bound
        self.rejected[reason] += 1
        self.examples[reason] = min(self.examples.get(reason, line_number), line_number)

    def merge(self, other: "IngestReport") -> None:
        """Add the outcome of a part of the input (a batch written) to this report."""
        self.created.update(other.created)
        self.unchanged += other.unchanged
        for reason, count in other.rejected.items():
            for _ in range(count):
                self.reject(other.examples[reason], reason)

    @property
    def rejected_lines(self) -> int:
        return sum(self.rejected.values())

    def as_json(self) -> dict:
        return {"lines": self.lines, "created": dict(self.created), "unchanged": self.unchanged,
                "rejected": dict(self.rejected)}


def open_lines(path: str | Path) -> tuple[Iterator[bytes], Callable[[], int], int]:
    """Lines of a file, gzip or not, with a function telling how many bytes of the file are read."""
    raw = open(path, "rb")
    size = Path(path).stat().st_size
    magic = raw.peek(2)[:2] if hasattr(raw, "peek") else b""
    stream = gzip.GzipFile(fileobj=raw) if magic == b"\x1f\x8b" else raw
    return _bounded_lines(stream), raw.tell, size


def _bounded_lines(stream) -> Iterator[bytes]:
    """The stream's lines; of a line longer than MAX_LINE_BYTES only its first MAX_LINE_BYTES + 1 bytes
    (enough to reject it), so memory stays flat however long a line is."""
    while line := stream.readline(MAX_LINE_BYTES + 1):
        if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
            while (rest := stream.readline(1024 * 1024)) and not rest.endswith(b"\n"):
                pass
        yield line


def database_refusal(error: Exception) -> str:
    """The reason counted for a line the database refused: the first line of its message."""
    first = (str(error).splitlines() or [type(error).__name__])[0]
    return f"the database refused it: {first[:120]}"


def _json_lines(lines: Iterable[bytes], report: IngestReport) -> Iterator[tuple[int, dict]]:
    for number, line in enumerate(lines, 1):
        report.lines += 1
        if not line.strip():
            report.lines -= 1
            continue
        if len(line) > MAX_LINE_BYTES:
            report.reject(number, "line longer than 4 MiB")
            continue
        try:
            value = json.loads(line)
        except (UnicodeDecodeError, json.JSONDecodeError):
            report.reject(number, "not JSON")
            continue
        if not isinstance(value, dict):
            report.reject(number, "not a JSON object")
            continue
        yield number, value


# --- arXiv metadata -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Metadata:
    arxiv_id: str
    title: str
    authors: str
    versions: tuple[tuple[int, datetime], ...]
    primary_category: str | None
    categories: str
    doi: str | None
    journal_ref: str | None
    abstract: str

    def snapshot_facts(self) -> dict:
        return {
            "title": self.title, "authors": self.authors, "submitted_at": self.versions[0][1],
            "last_updated": self.versions[-1][1], "latest_version": self.versions[-1][0],
            "primary_category": self.primary_category, "categories": self.categories, "doi": self.doi,
            "journal_ref": self.journal_ref, "abstract": self.abstract,
        }


PRIMARY_CATEGORY_LENGTH = PaperSnapshot._meta.get_field("primary_category").max_length
CATEGORIES_LENGTH = PaperSnapshot._meta.get_field("categories").max_length
DOI_LENGTH = PaperSnapshot._meta.get_field("doi").max_length
ABSTRACT_LENGTH = 20_000        # arXiv caps abstracts at 1,920 characters; ten times that is not an abstract
_VERSION = re.compile(r"v?([0-9]{1,4})")         # ASCII digits: int() would read any script's


def _metadata(value: dict) -> _Metadata:
    """Every field of one line checked as it will be stored; RejectedLine names the first problem."""
    arxiv_id = value.get("id")
    try:
        # Text only: a number (2501.00010) would lose its trailing zeros and name another paper.
        arxiv_id = parse_arxiv_id(arxiv_id if isinstance(arxiv_id, str) else "").id
    except InvalidArxivId:
        raise RejectedLine("no valid arXiv id") from None
    title = _stored_text(value, "title")
    if not title:
        raise RejectedLine("no title")
    primary_category, categories = _checked_categories(_stored_text(value, "categories", max_length=CATEGORIES_LENGTH))
    doi = _stored_text(value, "doi", max_length=DOI_LENGTH, spaced=False).lower() or None
    return _Metadata(arxiv_id, title, _stored_text(value, "authors"), _versions(value), primary_category, categories,
                     doi, _stored_text(value, "journal-ref") or None,
                     _stored_text(value, "abstract", max_length=ABSTRACT_LENGTH))


def _stored_text(value: dict, key: str, *, max_length: int | None = None, spaced: bool = True) -> str:
    """The field as it will be stored, whitespace runs made single spaces ("" when absent or null)."""
    field = value.get(key)
    if field is None:
        return ""
    try:
        text = clean_text(field, what=key)
        text = " ".join(text.split()) if spaced else text.strip()
        return clean_text(text, what=key, max_length=max_length)
    except OutOfRange as error:
        raise RejectedLine(str(error)) from None


def _checked_categories(categories: str) -> tuple[str | None, str]:
    """The primary category (the first listed) and all of them, when the primary fits its column."""
    primary = categories.split()[0] if categories else None
    if primary is not None:
        try:
            clean_text(primary, what="the primary category (the first of categories)", max_length=PRIMARY_CATEGORY_LENGTH)
        except OutOfRange as error:
            raise RejectedLine(str(error)) from None
    return primary, categories


def _versions(value: dict) -> tuple[tuple[int, datetime], ...]:
    """(number, created) of every version, in order; each number once."""
    entries = value.get("versions")
    if not entries:
        raise RejectedLine("no versions")
    if not isinstance(entries, list):
        raise RejectedLine("versions is not a list")
    versions: dict[int, datetime] = {}
    for entry in entries:
        number, created = _version(entry)
        if number in versions:
            raise RejectedLine(f"version {number} appears twice")
        versions[number] = created
    return tuple(sorted(versions.items()))


def _version(entry) -> tuple[int, datetime]:
    if not isinstance(entry, dict) or "version" not in entry or not isinstance(entry.get("created"), str):
        raise RejectedLine("a version without a number or a date")
    number = _version_number(entry["version"])
    try:
        created = parsedate_to_datetime(entry["created"])
    except (TypeError, ValueError, IndexError, OverflowError):
        raise RejectedLine("a version without a number or a date") from None
    if created.tzinfo is None:
        created = created.replace(tzinfo=UTC)
    try:
        # When arXiv received a version is an observation: in the stored range, not in the future.
        return number, checked_time(created, what=f"version {number} created", observation=True)
    except OutOfRange as error:
        raise RejectedLine(str(error)) from None


def _version_number(written) -> int:
    """"v2" (or 2) is 2; a version column holds 1 to MAX_VERSION."""
    if isinstance(written, int) and not isinstance(written, bool):
        written = str(written)
    match = _VERSION.fullmatch(written) if isinstance(written, str) else None
    number = int(match.group(1)) if match else 0
    if not 1 <= number <= MAX_VERSION:
        raise RejectedLine(f"a version number is not v1 to v{MAX_VERSION}")
    return number


def import_arxiv_metadata(lines: Iterable[bytes], *, observed_at: datetime | None = None,
                          progress: Callable[[], None] | None = None) -> IngestReport:
    """Read arXiv metadata snapshot lines (the public JSON-lines layout) into papers and snapshots.

    A paper whose newest snapshot already says the same is left alone, so importing a file again
    writes nothing; a changed title, version list or DOI becomes a new dated snapshot. A file naming
    a paper twice keeps its first line. observed_at must be a past time in the stored range (a
    snapshot "from 2999" would outrank every real one); OutOfRange says why when it is not.
    """
    observed_at = checked_time(observed_at or timezone.now(), what="observed_at", observation=True)
    report = IngestReport()
    batch: list[tuple[int, _Metadata]] = []
    for number, value in _json_lines(lines, report):
        try:
            batch.append((number, _metadata(value)))
        except RejectedLine as error:
            report.reject(number, str(error))
        if len(batch) >= METADATA_BATCH:
            _write_metadata(batch, observed_at, report)
            batch = []
            if progress:
                progress()
    if batch:
        _write_metadata(batch, observed_at, report)
    if progress:
        progress()
    return report


def _write_metadata(batch: list[tuple[int, _Metadata]], observed_at: datetime, report: IngestReport) -> None:
    """Write a batch in one transaction. When the database refuses it (a line the checks let
    through), write it again line by line, each in its own transaction, so only the line the
    database refuses is rejected, with the database's reason, and every other line is kept."""
    try:
        report.merge(_write_metadata_batch(batch, observed_at))
        return
    except DATABASE_REFUSALS:
        pass
    for number, metadata in batch:
        try:
            report.merge(_write_metadata_batch([(number, metadata)], observed_at))
        except DATABASE_REFUSALS as error:
            report.reject(number, database_refusal(error))


def _write_metadata_batch(batch: list[tuple[int, _Metadata]], observed_at: datetime) -> IngestReport:
    """Write a batch whole or not at all; the report of what it did counts only once it is committed."""
    outcome = IngestReport()
    first: dict[str, tuple[int, _Metadata]] = {}
    repeats: list[tuple[int, int, bool]] = []            # (line, line of the paper's first, same metadata)
    for number, metadata in batch:
        held_first = first.setdefault(metadata.arxiv_id, (number, metadata))
        if held_first[0] != number:
            repeats.append((number, held_first[0], held_first[1] == metadata))
    verdicts: dict[int, str | None] = {}               # a first line -> why it was rejected (None: taken)
    with transaction.atomic():
        existing = dict(Paper.objects.filter(arxiv_id__in=first).values_list("arxiv_id", "id"))
        new = [Paper(arxiv_id=a, first_seen_at=observed_at) for a in first if a not in existing]
        Paper.objects.bulk_create(new, ignore_conflicts=True)
        outcome.created["papers"] += len(new)
        ids = dict(Paper.objects.filter(arxiv_id__in=first).values_list("arxiv_id", "id"))
        newest: dict[int, PaperSnapshot] = {}
        for snapshot in PaperSnapshot.objects.filter(paper_id__in=ids.values()).order_by("paper_id", "-observed_at", "-revision"):
            newest.setdefault(snapshot.paper_id, snapshot)
        snapshots, versions = [], []
        for arxiv_id, (number, metadata) in first.items():
            paper_id = ids[arxiv_id]
            facts = metadata.snapshot_facts()
            held = newest.get(paper_id)
            verdicts[number] = None
            if held is not None and all(getattr(held, k) == v for k, v in facts.items()):
                outcome.unchanged += 1
                continue
            if held is not None and held.observed_at >= observed_at:
                # Never write a snapshot older than one held; at the same time, this file named
                # the paper twice with different metadata, and the first line stands.
                verdicts[number] = ("a paper named again with other metadata (the first line stands)"
                                    if held.observed_at == observed_at else "metadata older than the snapshot held")
                outcome.reject(number, verdicts[number])
                continue
            snapshots.append(PaperSnapshot(paper_id=paper_id, observed_at=observed_at, source="arxiv_metadata", **facts))
            versions += [PaperVersion(paper_id=paper_id, version=v, created_at=created) for v, created in metadata.versions]
        PaperSnapshot.objects.bulk_create(snapshots)
        PaperVersion.objects.bulk_create(versions, ignore_conflicts=True)
        papers_changed(s.paper_id for s in snapshots)
        outcome.created["paper_snapshots"] += len(snapshots)
        if snapshots:
            records_changed()       # a paper's metadata shows in every record that names it
        index_paper_titles(paper_ids=[s.paper_id for s in snapshots])
        # References naming a paper by its arXiv id, or printing its DOI, resolve now that it is held.
        resolve_references_naming(arxiv_ids=[paper.arxiv_id for paper in new],
                                  dois={s.doi.lower() for s in snapshots if s.doi})
    for number, first_number, same in repeats:
        # A paper named again in the same batch: the first line stands, as across batches.
        reason = verdicts[first_number] if same else "a paper named again with other metadata (the first line stands)"
        if reason is None:
            outcome.unchanged += 1
        else:
            outcome.reject(number, reason)
    return outcome


# --- reference lists ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class ReferenceList:
    arxiv_id: str
    version: int
    source: str
    references: tuple[tuple[int, str], ...]
    pages: tuple[int | None, ...] = ()        # the PDF page each reference starts on, when read from one

    @property
    def digest(self) -> str:
        body = {"source": self.source, "references": [{"index": i, "raw": r} for i, r in self.references]}
        if any(self.pages):         # (lists without pages keep the digests they always had)
            body["pages"] = list(self.pages)
        return "sha256:" + hashlib.sha256(canonical_bytes(body)).hexdigest()


def reference_list(value: dict) -> ReferenceList:
    """Validate one line of `ingest_references` input; raise RejectedLine naming the problem."""
    arxiv_id = value.get("arxiv_id")
    try:
        # Text only: a number (2501.00010) would lose its trailing zeros and name another paper.
        arxiv_id = parse_arxiv_id(arxiv_id if isinstance(arxiv_id, str) else "").id
    except InvalidArxivId:
        raise RejectedLine("no valid arxiv_id") from None
    version = value.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or not 1 <= version <= MAX_VERSION:
        raise RejectedLine("version is not a positive integer")
    source = value.get("source", "pdf_text")
    if source not in REFERENCE_SOURCES:
        raise RejectedLine(f"source is not one of {', '.join(REFERENCE_SOURCES)}")
    references = value.get("references")
    if not isinstance(references, list) or not references:
        raise RejectedLine("references is not a non-empty list")
    if len(references) > MAX_REFERENCES:
        raise RejectedLine(f"more than {MAX_REFERENCES} references")
    parsed, indexes = [], set()
    for item in references:
        index, raw = _reference(item)
        if index in indexes:
            raise RejectedLine(f"reference index {index} appears twice")
        indexes.add(index)
        parsed.append((index, raw))
    return ReferenceList(arxiv_id, version, source, tuple(parsed))


def _reference(item) -> tuple[int, str]:
    """(index, raw text) of one reference of a list, when both can be stored."""
    if not isinstance(item, dict):
        raise RejectedLine("a reference is not an object")
    index, raw = item.get("index"), item.get("raw")
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index <= 2_147_483_647:
        raise RejectedLine("a reference index is not a non-negative integer")
    if not isinstance(raw, str) or not raw.strip() or len(raw) > 10_000:
        raise RejectedLine("a reference's raw text is empty or longer than 10,000 characters")
    try:
        return index, clean_text(raw, what="a reference's raw text")
    except OutOfRange as error:
        raise RejectedLine(str(error)) from None


def ingest_reference_list(item: ReferenceList, *, observed_at: datetime | None = None) -> tuple[str, list]:
    """Store one version's reference list: ("created", reference ids) or ("unchanged", []).

    Each reference is parsed, and written with its first resolution (unresolved, no resolver
    named) in the same transaction, so a record shows it at once and truthfully.
    """
    observed_at = observed_at or timezone.now()
    with transaction.atomic():
        try:
            paper = Paper.objects.get(arxiv_id=item.arxiv_id)
        except Paper.DoesNotExist:
            raise RejectedLine("paper not held: import its arXiv metadata first") from None
        version, _ = PaperVersion.objects.get_or_create(paper=paper, version=item.version)
        # Lock the version so two ingests of the same list cannot both find it missing.
        PaperVersion.objects.select_for_update().filter(pk=version.pk).first()
        newest = (ReferenceExtraction.objects.filter(paper_version=version, source=item.source)
                  .order_by("-observed_at", "-id").first())
        digest = item.digest
        if newest is not None and newest.content_digest == digest:
            return "unchanged", []
        extraction = ReferenceExtraction.objects.create(
            paper_version=version, source=item.source, origin=ExtractionOrigin.INGEST, observed_at=observed_at,
            content_digest=digest)
        references = []
        pages = item.pages or (None,) * len(item.references)
        for (index, raw), page in zip(item.references, pages, strict=True):
            parsed = parse_reference(raw)
            references.append(PaperReference(
                extraction=extraction, reference_index=index, raw_text=raw, page=page, title=parsed.title, year=parsed.year,
                authors=list(parsed.authors), venue=parsed.venue, arxiv_id=parsed.arxiv_id, doi=parsed.doi,
                identifiers=[i.as_json() for i in parsed.identifiers], parser=PARSER_NAME, observed_at=observed_at,
            ))
        PaperReference.objects.bulk_create(references)
        links = PaperReferenceLink.objects.bulk_create([
            PaperReferenceLink(reference=r, state=ResolutionState.UNRESOLVED, observed_at=observed_at,
                               evidence={"stage": "ingested, not yet resolved"}, resolver_version="")
            for r in references
        ])
        links_written(link.pk for link in links)
        papers_changed([paper.pk])
        records_changed(arxiv_ids=[item.arxiv_id])
        return "created", [r.pk for r in references]


def ingest_references(lines: Iterable[bytes], *, progress: Callable[[], None] | None = None,
                      on_created: Callable[[str], None] | None = None) -> IngestReport:
    """Read reference-list lines (one citing version a line) into observations."""
    report = IngestReport()
    for number, value in _json_lines(lines, report):
        try:
            item = reference_list(value)
            outcome, ids = ingest_reference_list(item)
        except RejectedLine as error:
            report.reject(number, str(error))
            continue
        except DATABASE_REFUSALS as error:
            report.reject(number, database_refusal(error))
            continue
        if outcome == "created":
            report.created["reference_lists"] += 1
            report.created["references"] += len(ids)
            if on_created:
                on_created(item.arxiv_id)
        else:
            report.unchanged += 1
        if progress:
            progress()
    return report


def lines_of(data: bytes) -> Iterator[bytes]:
    """Lines of in-memory input (an upload, a test)."""
    return iter(io.BytesIO(data))


# --- external citation measurements ---------------------------------------------------------------


def import_citation_counts(lines: Iterable[bytes]) -> IngestReport:
    """Read source-named, dated citation counts: {"arxiv_id" | "doi", "source", "count", "observed_at"}.

    Each line is one measurement of a held paper; the same measurement twice is one row, and counts
    of different sources are kept apart (a record never adds them up).
    """
    report = IngestReport()
    for number, value in _json_lines(lines, report):
        try:
            with transaction.atomic():          # a line the database refuses leaves nothing behind
                outcome = _import_citation_count(value)
        except RejectedLine as error:
            report.reject(number, str(error))
            continue
        except DATABASE_REFUSALS as error:
            report.reject(number, database_refusal(error))
            continue
        if outcome == "created":
            report.created["measurements"] += 1
        else:
            report.unchanged += 1
    return report


def _import_citation_count(value: dict) -> str:
    """Store one measurement line: "created" or "unchanged"; RejectedLine says why it cannot be."""
    from citations.models import CitationMeasurement
    from citations.resolution.identifiers import normalise_doi

    paper_id = _measured_paper(value, normalise_doi)
    source = value.get("source")
    if not isinstance(source, str) or not re.fullmatch(r"[a-z][a-z0-9_]{0,39}", source):
        raise RejectedLine("source is not a short lower-case name (e.g. semantic_scholar)")
    count = value.get("count")
    if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= 2_000_000_000:
        raise RejectedLine("count is not a non-negative integer")
    try:
        observed_at = parse_time(value.get("observed_at"), what="observed_at", observation=True)
    except OutOfRange as error:
        raise RejectedLine(str(error)) from None
    measurement, created = CitationMeasurement.objects.get_or_create(
        paper_id=paper_id, source=source, observed_at=observed_at, defaults={"count": count})
    if created:
        records_of_papers_changed(paper_ids=[paper_id])
        return "created"
    if measurement.count != count:
        raise RejectedLine("a different count is held for this paper, source and time")
    return "unchanged"


def _measured_paper(value: dict, normalise_doi) -> int:
    if value.get("arxiv_id"):
        try:
            # Text only: a number (2501.00010) would lose its trailing zeros and name another paper.
            arxiv_id = parse_arxiv_id(clean_text(value["arxiv_id"], what="arxiv_id")).id
        except OutOfRange as error:
            raise RejectedLine(str(error)) from None
        except InvalidArxivId:
            raise RejectedLine("arxiv_id is not a valid arXiv id") from None
        paper = Paper.objects.filter(arxiv_id=arxiv_id).values_list("id", flat=True).first()
    elif value.get("doi"):
        try:
            doi = normalise_doi(clean_text(value["doi"], what="doi"))
            if doi is not None:
                clean_text(doi, what="doi", max_length=DOI_LENGTH)    # longer: no column holds it
        except OutOfRange as error:
            raise RejectedLine(str(error)) from None
        if doi is None:
            raise RejectedLine("doi is not a DOI")
        if doi.startswith("10.48550/arxiv."):
            paper = Paper.objects.filter(arxiv_id=doi.removeprefix("10.48550/arxiv.")).values_list("id", flat=True).first()
        else:
            paper = PaperSnapshot.objects.filter(doi=doi).values_list("paper_id", flat=True).first()
    else:
        raise RejectedLine("neither arxiv_id nor doi")
    if paper is None:
        raise RejectedLine("no held paper has this id")
    return paper
