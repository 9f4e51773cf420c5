"""arXiv metadata into the paper store: dated snapshots of each paper, a batch a transaction.

JSON lines, streamed (memory stays flat for millions of lines), idempotent: reading the same input
twice changes nothing. A bad line is counted with its reason and skipped; it never stops the rest of
the file and never leaves half of itself behind."""
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime

from django.db import transaction
from django.utils import timezone

from citations.arxiv_ids import MAX_VERSION, arxiv_id_field
from citations.current.papers import papers_changed
from citations.input_files import DATABASE_REFUSALS, IngestReport, RejectedLine, database_refusal, json_lines
from citations.models import (
    Paper,
    PaperSnapshot,
    PaperVersion,
)
from citations.models.generations import records_changed
from citations.models.transparency import LeafKind, note_written
from citations.resolution.index import index_paper_titles
from citations.resolution.waiting import resolve_references_naming
from citations.validation import OutOfRange, checked_time, clean_text

METADATA_BATCH = 1000


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
# The numbers of an RFC 2822 date that are not part of its time or zone: the day, then the year.
_DATE_NUMBER = re.compile(r"(?<![:0-9+-])([0-9]+)(?![:0-9])")


def _metadata(value: dict) -> _Metadata:
    """Every field of one line checked as it will be stored; RejectedLine names the first problem."""
    arxiv_id = arxiv_id_field(value.get("id"))
    if arxiv_id is None:
        raise RejectedLine("no valid arXiv id")
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
    ordered = tuple(sorted(versions.items()))
    for (before, earlier), (number, created) in zip(ordered, ordered[1:]):
        if created < earlier:
            raise RejectedLine(f"version {number} is dated before version {before}: arXiv receives them in order")
    return ordered


def _version(entry) -> tuple[int, datetime]:
    if not isinstance(entry, dict) or "version" not in entry or not isinstance(entry.get("created"), str):
        raise RejectedLine("a version without a number or a date")
    number = _version_number(entry["version"])
    try:
        created = parsedate_to_datetime(entry["created"])
    except (TypeError, ValueError, IndexError, OverflowError):
        raise RejectedLine("a version without a number or a date") from None
    # email.utils reads a year of one to three digits as 19xx or 20xx ("0000" is 2000): a date is taken only
    # when the year it is read as is the one written.
    written = _DATE_NUMBER.findall(entry["created"])
    if not written or int(written[-1]) != created.year:
        raise RejectedLine(f"version {number} created {entry['created'][:40]!r} is not a possible date "
                           "(its year must be written with four digits)")
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
    for number, value in json_lines(lines, report):
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
        note_written(LeafKind.SNAPSHOT, [s.pk for s in snapshots])
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
