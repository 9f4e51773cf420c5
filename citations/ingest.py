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
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from pathlib import Path

from django.db import DatabaseError, transaction
from django.utils import timezone

from citations.arxiv_ids import InvalidArxivId, parse_arxiv_id
from citations.canonical import canonical_bytes
from citations.models import (
    Paper,
    PaperReference,
    PaperReferenceLink,
    PaperSnapshot,
    PaperVersion,
    ReferenceExtraction,
    ResolutionState,
)
from citations.models.references import ExtractionOrigin
from citations.record_cache import records_changed, records_of_papers_changed
from citations.resolution.index import index_paper_titles
from citations.resolution.parser import PARSER_NAME, parse_reference

METADATA_BATCH = 1000
MAX_LINE_BYTES = 4 * 1024 * 1024
MAX_REFERENCES = 5000
REFERENCE_SOURCES = ("pdf_text", "latex", "grobid", "crossref")


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
        self.rejected[reason] += 1
        self.examples.setdefault(reason, line_number)

    def as_json(self) -> dict:
        return {"lines": self.lines, "created": dict(self.created), "unchanged": self.unchanged,
                "rejected": dict(self.rejected)}


def open_lines(path: str | Path) -> tuple[Iterator[bytes], Callable[[], int], int]:
    """Lines of a file, gzip or not, with a function telling how many bytes of the file are read."""
    raw = open(path, "rb")
    size = Path(path).stat().st_size
    magic = raw.peek(2)[:2] if hasattr(raw, "peek") else b""
    stream = gzip.GzipFile(fileobj=raw) if magic == b"\x1f\x8b" else raw
    return iter(stream), raw.tell, size


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

    def snapshot_facts(self) -> dict:
        return {
            "title": self.title, "authors": self.authors, "submitted_at": self.versions[0][1],
            "last_updated": self.versions[-1][1], "latest_version": self.versions[-1][0],
            "primary_category": self.primary_category, "categories": self.categories, "doi": self.doi,
            "journal_ref": self.journal_ref,
        }


def _metadata(value: dict) -> _Metadata:
    try:
        arxiv_id = parse_arxiv_id(str(value.get("id", ""))).id
    except InvalidArxivId:
        raise RejectedLine("no valid arXiv id") from None
    title = " ".join(str(value.get("title") or "").split())
    if not title:
        raise RejectedLine("no title")
    versions = []
    for entry in value.get("versions") or []:
        try:
            number = int(str(entry["version"]).lstrip("v"))
            created = parsedate_to_datetime(entry["created"])
        except (KeyError, TypeError, ValueError):
            raise RejectedLine("a version without a number or a date") from None
        if created.tzinfo is None:
            created = created.replace(tzinfo=UTC)
        versions.append((number, created))
    if not versions:
        raise RejectedLine("no versions")
    versions.sort()
    categories = " ".join(str(value.get("categories") or "").split())
    doi = str(value["doi"]).strip().lower() if value.get("doi") else None
    journal_ref = " ".join(str(value["journal-ref"]).split()) if value.get("journal-ref") else None
    return _Metadata(arxiv_id, title, " ".join(str(value.get("authors") or "").split()), tuple(versions),
                     categories.split()[0] if categories else None, categories, doi, journal_ref)


def import_arxiv_metadata(lines: Iterable[bytes], *, observed_at: datetime | None = None,
                          progress: Callable[[], None] | None = None) -> IngestReport:
    """Read arXiv metadata snapshot lines (the public JSON-lines layout) into papers and snapshots.

    A paper whose newest snapshot already says the same is left alone, so importing a file again
    writes nothing; a changed title, version list or DOI becomes a new dated snapshot.
    """
    observed_at = observed_at or timezone.now()
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
    latest: dict[str, _Metadata] = {}
    line_of: dict[str, int] = {}
    for number, metadata in batch:
        latest[metadata.arxiv_id] = metadata     # a batch naming a paper twice: its last line wins
        line_of[metadata.arxiv_id] = number
    with transaction.atomic():
        existing = dict(Paper.objects.filter(arxiv_id__in=latest).values_list("arxiv_id", "id"))
        new = [Paper(arxiv_id=a, first_seen_at=observed_at) for a in latest if a not in existing]
        Paper.objects.bulk_create(new, ignore_conflicts=True)
        report.created["papers"] += len(new)
        ids = dict(Paper.objects.filter(arxiv_id__in=latest).values_list("arxiv_id", "id"))
        newest: dict[int, PaperSnapshot] = {}
        for snapshot in PaperSnapshot.objects.filter(paper_id__in=ids.values()).order_by("paper_id", "-observed_at", "-revision"):
            newest.setdefault(snapshot.paper_id, snapshot)
        snapshots, versions = [], []
        for arxiv_id, metadata in latest.items():
            paper_id = ids[arxiv_id]
            facts = metadata.snapshot_facts()
            held = newest.get(paper_id)
            if held is not None and all(getattr(held, k) == v for k, v in facts.items()):
                report.unchanged += 1
                continue
            if held is not None and held.observed_at >= observed_at:
                # Never write a snapshot older than one held; at the same time, this file named
                # the paper twice with different metadata, and the first line stands.
                report.reject(line_of[arxiv_id], "a paper named again with other metadata (the first line stands)"
                              if held.observed_at == observed_at else "metadata older than the snapshot held")
                continue
            snapshots.append(PaperSnapshot(paper_id=paper_id, observed_at=observed_at, source="arxiv_metadata", **facts))
            versions += [PaperVersion(paper_id=paper_id, version=v, created_at=created) for v, created in metadata.versions]
        PaperSnapshot.objects.bulk_create(snapshots)
        PaperVersion.objects.bulk_create(versions, ignore_conflicts=True)
        report.created["paper_snapshots"] += len(snapshots)
        if snapshots:
            records_changed()       # a paper's metadata shows in every record that names it
        index_paper_titles(paper_ids=[s.paper_id for s in snapshots])


# --- reference lists ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class ReferenceList:
    arxiv_id: str
    version: int
    source: str
    references: tuple[tuple[int, str], ...]

    @property
    def digest(self) -> str:
        body = {"source": self.source, "references": [{"index": i, "raw": r} for i, r in self.references]}
        return "sha256:" + hashlib.sha256(canonical_bytes(body)).hexdigest()


def reference_list(value: dict) -> ReferenceList:
    """Validate one line of `ingest_references` input; raise RejectedLine naming the problem."""
    try:
        arxiv_id = parse_arxiv_id(str(value.get("arxiv_id", ""))).id
    except InvalidArxivId:
        raise RejectedLine("no valid arxiv_id") from None
    version = value.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or not 1 <= version <= 1000:
        raise RejectedLine("version is not a positive integer")
    source = value.get("source", "pdf_text")
    if source not in REFERENCE_SOURCES:
        raise RejectedLine(f"source is not one of {', '.join(REFERENCE_SOURCES)}")
    references = value.get("references")
    if not isinstance(references, list) or not references:
        raise RejectedLine("references is not a non-empty list")
    if len(references) > MAX_REFERENCES:
        raise RejectedLine(f"more than {MAX_REFERENCES} references")
    parsed = []
    for item in references:
        if not isinstance(item, dict):
            raise RejectedLine("a reference is not an object")
        index, raw = item.get("index"), item.get("raw")
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index <= 2_147_483_647:
            raise RejectedLine("a reference index is not a non-negative integer")
        if not isinstance(raw, str) or not raw.strip() or len(raw) > 10_000:
            raise RejectedLine("a reference's raw text is empty or longer than 10,000 characters")
        if "\x00" in raw:
            raise RejectedLine("a reference's raw text holds a NUL character")
        parsed.append((index, raw))
    return ReferenceList(arxiv_id, version, source, tuple(parsed))


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
        for index, raw in item.references:
            parsed = parse_reference(raw)
            references.append(PaperReference(
                extraction=extraction, reference_index=index, raw_text=raw, title=parsed.title, year=parsed.year,
                authors=list(parsed.authors), venue=parsed.venue, arxiv_id=parsed.arxiv_id, doi=parsed.doi,
                identifiers=[i.as_json() for i in parsed.identifiers], parser=PARSER_NAME, observed_at=observed_at,
            ))
        PaperReference.objects.bulk_create(references)
        PaperReferenceLink.objects.bulk_create([
            PaperReferenceLink(reference=r, state=ResolutionState.UNRESOLVED, observed_at=observed_at,
                               evidence={"stage": "ingested, not yet resolved"}, resolver_version="")
            for r in references
        ])
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
        except DatabaseError as error:
            report.reject(number, f"the database refused it: {str(error).splitlines()[0][:120]}")
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
    from citations.models import CitationMeasurement
    from citations.resolution.identifiers import normalise_doi

    report = IngestReport()
    for number, value in _json_lines(lines, report):
        try:
            paper_id = _measured_paper(value, normalise_doi)
            source = value.get("source")
            if not isinstance(source, str) or not re.fullmatch(r"[a-z][a-z0-9_]{0,39}", source):
                raise RejectedLine("source is not a short lower-case name (e.g. semantic_scholar)")
            count = value.get("count")
            if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= 2_000_000_000:
                raise RejectedLine("count is not a non-negative integer")
            try:
                observed_at = datetime.fromisoformat(str(value.get("observed_at")))
            except ValueError:
                raise RejectedLine("observed_at is not an ISO 8601 time") from None
            if observed_at.tzinfo is None:
                raise RejectedLine("observed_at has no time zone")
            if observed_at > timezone.now():
                raise RejectedLine("observed_at is in the future")
        except RejectedLine as error:
            report.reject(number, str(error))
            continue
        measurement, created = CitationMeasurement.objects.get_or_create(
            paper_id=paper_id, source=source, observed_at=observed_at, defaults={"count": count})
        if created:
            report.created["measurements"] += 1
            records_of_papers_changed(paper_ids=[paper_id])
        elif measurement.count != count:
            report.reject(number, "a different count is held for this paper, source and time")
        else:
            report.unchanged += 1
    return report


def _measured_paper(value: dict, normalise_doi) -> int:
    if value.get("arxiv_id"):
        try:
            arxiv_id = parse_arxiv_id(str(value["arxiv_id"])).id
        except InvalidArxivId:
            raise RejectedLine("arxiv_id is not a valid arXiv id") from None
        paper = Paper.objects.filter(arxiv_id=arxiv_id).values_list("id", flat=True).first()
    elif value.get("doi"):
        doi = normalise_doi(str(value["doi"]))
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
