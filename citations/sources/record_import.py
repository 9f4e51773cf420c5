"""Reading a v1 record back into the observations it was built from.

`import_record()` refuses a file, naming the problem and writing nothing, when
it is not JSON, not of the v1 shape, has a digest that does not match, repeats
an observation id, or contradicts what the store already holds. It writes in
one transaction and, before committing, rebuilds the record from the store as
of the record's time: unless the result is the same record (for a capped record,
the same itemized observations), the transaction is rolled back and the file
refused. So a record that was imported is one this store reproduces, and
importing it again changes nothing.
"""
import json
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import cache
from pathlib import Path
from uuid import UUID

import jsonschema
from django.db import DatabaseError, transaction

from citations.arxiv_ids import is_canonical_arxiv_id
from citations.current.papers import papers_changed
from citations.models import (
    CitationMeasurement,
    CitedWork,
    EventType,
    Paper,
    PaperReference,
    PaperReferenceLink,
    PaperSnapshot,
    PaperVersion,
    ReferenceExtraction,
    RetractionStatusReceipt,
    ScholarlyWorkEvent,
    StandingSourceSync,
    SyncStatus,
)
from citations.models.generations import records_changed
from citations.models.references import ExtractionOrigin
from citations.records.build import REFUSAL, SCHEMA, RecordUnavailable, build_record
from citations.records.canonical import context_digest, observation_digest
from citations.records.timestamps import OFFSET_RENDERING, parse_offset, parse_z
from citations.resolution.index import index_paper_titles
from citations.resolution.links import write_links
from citations.validation import OutOfRange, checked_date, checked_time

SCHEMA_PATH = Path(__file__).resolve().parent.parent / "records" / "schema" / "record-v1.schema.json"
IMPORT_SOURCE = "record_import"
# The build time lies somewhere in the minute that as_of names.
BUILD_MINUTE = timedelta(minutes=1) - timedelta(microseconds=1)


class RecordRefused(ValueError):
    """The file cannot be imported; the message names the problem."""


@dataclass
class ImportSummary:
    arxiv_id: str
    as_of: str
    created: dict[str, int] = field(default_factory=dict)
    capped: bool = False

    @property
    def changed(self) -> bool:
        return any(self.created.values())

    def count(self, kind: str) -> None:
        self.created[kind] = self.created.get(kind, 0) + 1


@cache
def record_schema() -> dict:
    """The JSON Schema of the v1 record (also served at /evidence/record-v1.schema.json)."""
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


def import_record(*, data: bytes) -> ImportSummary:
    """Import one record file's bytes; raise RecordRefused and write nothing if it cannot be imported."""
    record = parse_record(data)
    check_record(record)
    try:
        with transaction.atomic():
            summary = _Decomposer(record).run()
            _verify_reproduced(record, summary)
            if summary.changed:
                records_changed()       # its papers' snapshots show in other records too
    except RecordUnavailable as error:
        raise RecordRefused(str(error)) from None
    except DatabaseError as error:
        # The checks above should leave nothing for a constraint to catch; if one does,
        # the transaction is already rolled back and the file is refused all the same.
        raise RecordRefused(f"the database refused a value: {str(error).splitlines()[0][:300]}") from None
    return summary


def parse_record(data: bytes) -> dict:
    """Bytes to a JSON object, refusing what is not UTF-8 JSON or repeats a key."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise RecordRefused(f"not UTF-8: byte {error.start} cannot be decoded") from None
    if not text.strip():
        raise RecordRefused("the file is empty")
    try:
        record = json.loads(text, object_pairs_hook=_no_repeated_keys)
    except _RepeatedKey as error:
        raise RecordRefused(f"not a record: key {error.args[0]!r} appears twice in one object") from None
    except json.JSONDecodeError as error:
        raise RecordRefused(f"not JSON (truncated or malformed): {error.msg} at line {error.lineno} "
                            f"column {error.colno}") from None
    except RecursionError:
        raise RecordRefused("not a record: nested too deeply") from None
    except ValueError:
        # Python's decoder refuses integers of more than 4,300 digits (sys.get_int_max_str_digits).
        raise RecordRefused("not a record: a number has too many digits to be read") from None
    if not isinstance(record, dict):
        raise RecordRefused(f"not a record: the top level is a JSON {type(record).__name__}, not an object")
    _refuse_unencodable(record)
    return record


def _refuse_unencodable(value) -> None:
    # JSON can spell a lone surrogate (\ud800) that no UTF-8 text, and so no digest, can hold.
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                raise RecordRefused("not a record: a string holds a lone UTF-16 surrogate") from None


class _RepeatedKey(ValueError):
    pass


def _no_repeated_keys(pairs):
    result = {}
    for key, value in pairs:
        if key in result:
            raise _RepeatedKey(key)
        result[key] = value
    return result


def check_record(record: dict) -> None:
    """Shape, digests and self-consistency that need no database; raise RecordRefused on the first problem."""
    if record.get("schema") != SCHEMA:
        raise RecordRefused(f"wrong schema: {record.get('schema')!r}, this importer reads {SCHEMA!r}")
    error = jsonschema.exceptions.best_match(jsonschema.Draft202012Validator(record_schema()).iter_errors(record))
    if error is not None:
        where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path) or "the record"
        raise RecordRefused(f"not a v1 record: at {where.lstrip('.')}: {error.message[:300]}")
    _check_values(record)
    if record["refusal"] != REFUSAL:
        raise RecordRefused("the refusal sentence differs from the v1 contract")
    arxiv_id = record["paper"]["arxiv_id"]
    if not is_canonical_arxiv_id(arxiv_id):
        raise RecordRefused(f"paper.arxiv_id {arxiv_id!r} is not an arXiv id in canonical form")

    seen: dict[str, str] = {}
    for direction in ("outbound", "inbound"):
        for index, observation in enumerate(record[direction]):
            where = f"{direction}[{index}]"
            oid = observation["observation_id"]
            if oid in seen:
                raise RecordRefused(f"observation {oid} appears twice ({seen[oid]} and {where})")
            seen[oid] = where
            if observation_digest(observation) != observation["observation_digest"]:
                raise RecordRefused(f"{where} (observation {oid}): observation_digest does not match its content")
            _check_observation(observation, where, direction, arxiv_id)
    if context_digest(record) != record["context_digest"]:
        raise RecordRefused("context_digest does not match the record")


# The schema gives the shape of times and numbers; these are the values that can also be stored.
_TIME_KEYS = frozenset({"as_of", "submitted_at", "last_updated", "snapshot_observed_at", "observed_at",
                        "source_observed_at"})
_DATE_KEYS = frozenset({"occurred_on"})
_VERSION_KEYS = frozenset({"version", "latest_version"})     # PositiveSmallIntegerField
MAX_VERSION = 32_767
MAX_NUMBER = 2_147_483_647                                     # every other number fits an integer column


def _check_values(record: dict) -> None:
    """Times that are real times within TIME_RANGE (citations/validation.py), and numbers that fit their
    columns: a month 13, a 30 February, year 0000 or a number past any column would otherwise fail
    (or, on SQLite, overflow) mid-import instead of being refused."""
    stack = [(record, "")]
    while stack:
        value, where = stack.pop()
        if isinstance(value, dict):
            stack.extend((item, f"{where}.{key}" if where else key) for key, item in value.items())
        elif isinstance(value, list):
            stack.extend((item, f"{where}[{index}]") for index, item in enumerate(value))
        elif isinstance(value, bool):
            continue
        elif isinstance(value, int):
            key = where.rsplit(".", 1)[-1]
            limit = MAX_VERSION if key in _VERSION_KEYS else MAX_NUMBER
            if not -MAX_NUMBER - 1 <= value <= limit:
                raise RecordRefused(f"at {where}: {_number(value)} is larger than any value Pith stores there "
                                    f"(at most {limit:,})")
        elif isinstance(value, str):
            key = where.rsplit(".", 1)[-1]
            if key in _TIME_KEYS:
                _check_time(value, where)
            elif key in _DATE_KEYS:
                _check_date(value, where)


def _check_time(text: str, where: str) -> None:
    try:
        value = parse_offset(text) if OFFSET_RENDERING.match(text) else parse_z(text)
    except ValueError:
        raise RecordRefused(f"at {where}: {text[:40]!r} is not a real time") from None
    try:
        checked_time(value, what=where)
    except OutOfRange as error:
        raise RecordRefused(str(error)) from None


def _check_date(text: str, where: str) -> None:
    try:
        value = datetime.fromisoformat(text).date()
    except ValueError:
        raise RecordRefused(f"at {where}: {text[:40]!r} is not a real date") from None
    try:
        checked_date(value, what=where)
    except OutOfRange as error:
        raise RecordRefused(str(error)) from None


def _number(value: int) -> str:
    digits = str(abs(value))
    return f"{value:,}" if len(digits) <= 30 else f"a number of {len(digits):,} digits"


def _check_observation(observation: dict, where: str, direction: str, arxiv_id: str) -> None:
    citation = observation["citation"]
    citing, cited, work = citation["citing_paper"], citation["cited_paper"], citation["cited_work"]
    for role, block in (("citing_paper", citing), ("cited_paper", cited)):
        if block is not None and not is_canonical_arxiv_id(block["arxiv_id"]):
            raise RecordRefused(f"{where}: {role}.arxiv_id {block['arxiv_id']!r} is not a canonical arXiv id")
    if citing["version"] is None:
        raise RecordRefused(f"{where}: citing_paper.version is missing")
    if direction == "outbound" and citing["arxiv_id"] != arxiv_id:
        raise RecordRefused(f"{where}: an outbound observation is cited by arXiv:{citing['arxiv_id']}, "
                            f"not by arXiv:{arxiv_id}")
    if direction == "inbound" and (cited or {}).get("arxiv_id") != arxiv_id:
        raise RecordRefused(f"{where}: an inbound observation does not cite arXiv:{arxiv_id}")
    if work["pith_arxiv_id"] != (cited or {}).get("arxiv_id"):
        raise RecordRefused(f"{where}: cited_work.pith_arxiv_id and cited_paper name different papers")
    if work["work_id"] is None:
        # Without a canonical work, the record's cited_work is the reference's own parse;
        # canonical fields there could not have come from this store.
        stray = [k for k in ("arxiv_id", "doi", "venue", "metadata_source") if work[k] is not None]
        if stray or work["snapshot_observed_at"] != citation["source_observed_at"]:
            raise RecordRefused(f"{where}: cited_work has canonical fields ({', '.join(stray) or 'snapshot time'}) "
                                f"but no work_id")
    notice = observation["standing_notice"]
    for event in notice["events"]:
        if event["source"] not in {r["source"] for r in notice["source_receipts"]}:
            raise RecordRefused(f"{where}: an event from {event['source']!r} has no receipt from that source")


# --- writing -----------------------------------------------------------------------------------------


class _Decomposer:
    """Writes a checked record's facts as observations, reusing what the store already holds."""

    def __init__(self, record: dict):
        self.record = record
        self.summary = ImportSummary(arxiv_id=record["paper"]["arxiv_id"], as_of=record["as_of"])
        self.papers: dict[str, Paper] = {}
        self.versions: dict[tuple[str, int], PaperVersion] = {}
        self.extractions: dict[tuple[int, str], ReferenceExtraction] = {}
        self.links: list[PaperReferenceLink] = []           # written together, by the one link writer

    def run(self) -> ImportSummary:
        record = self.record
        top = record["paper"]
        self._snapshot(top, latest_version=top["latest_version"], primary_category=top["primary_category"])
        for source in record["standing_sources"]:
            self._sync(source["source"], parse_offset(source["observed_at"]))
        for measurement in record["external_citation_measurements"]:
            self._measurement(top["arxiv_id"], measurement)
        for observation in record["outbound"] + record["inbound"]:
            self._observation(observation)
        write_links(self.links, check_standing=False)
        rr = record["reference_resolution"]
        inbound_lane = record["coverage"][2]
        self.summary.capped = (rr["total_outbound_references"] > rr["displayed"]
                               or inbound_lane["denominator"] > inbound_lane["records_observed"])
        # The papers' titles become candidates for resolving other references.
        index_paper_titles(paper_ids=[paper.pk for paper in self.papers.values()])
        papers_changed(paper.pk for paper in self.papers.values())      # their snapshots and lists, for lists
        return self.summary

    # papers

    def _paper(self, arxiv_id: str) -> Paper:
        if arxiv_id not in self.papers:
            paper, created = Paper.objects.get_or_create(arxiv_id=arxiv_id)
            if created:
                self.summary.count("papers")
            self.papers[arxiv_id] = paper
        return self.papers[arxiv_id]

    def _snapshot(self, block: dict, **known) -> Paper:
        paper = self._paper(block["arxiv_id"])
        observed_at = parse_z(block["snapshot_observed_at"])
        facts = {
            "title": block["title"],
            "submitted_at": _z_or_none(block["submitted_at"]),
            "last_updated": _z_or_none(block["last_updated"]),
            **known,
        }
        snapshot = PaperSnapshot.objects.filter(paper=paper, observed_at=observed_at).newest_first().first()
        if snapshot is None:
            PaperSnapshot.objects.create(paper=paper, observed_at=observed_at, source=IMPORT_SOURCE, **facts)
            self.summary.count("paper_snapshots")
            return paper
        filled = {}
        for name, value in facts.items():
            held = getattr(snapshot, name)
            if value is None or held == value:
                continue
            if held is not None:
                raise RecordRefused(
                    f"arXiv:{paper.arxiv_id} snapshot of {block['snapshot_observed_at']}: {name} is {value!r} here "
                    f"but {held!r} in the store")
            filled[name] = value
        if filled:
            # The same snapshot seen from another record that knew more of it: a completion, as a
            # new revision shown from this record's as_of on. The held row is never changed, so
            # records built as of an earlier time keep their bytes.
            known = {f.name: getattr(snapshot, f.name) for f in PaperSnapshot._meta.concrete_fields
                     if f.name not in ("id", "paper", "revision", "recorded_at", "source")}
            PaperSnapshot.objects.create(paper=paper, revision=snapshot.revision + 1, source=IMPORT_SOURCE,
                                         recorded_at=max(parse_z(self.record["as_of"]), observed_at),
                                         **{**known, **filled})
            self.summary.count("paper_snapshots_completed")
        return paper

    def _version(self, paper: Paper, version: int) -> PaperVersion:
        key = (paper.arxiv_id, version)
        if key not in self.versions:
            row, created = PaperVersion.objects.get_or_create(paper=paper, version=version)
            if created:
                self.summary.count("paper_versions")
            self.versions[key] = row
        return self.versions[key]

    def _extraction(self, version: PaperVersion, source: str, observed_at: datetime) -> ReferenceExtraction:
        key = (version.pk, source)
        extraction = self.extractions.get(key)
        if extraction is None:
            extraction, created = ReferenceExtraction.objects.get_or_create(
                paper_version=version, source=source, origin=ExtractionOrigin.RECORD_IMPORT,
                defaults={"observed_at": observed_at},
            )
            if created:
                self.summary.count("reference_extractions")
            self.extractions[key] = extraction
        if observed_at < extraction.observed_at:
            # The imported set is as old as its oldest reference.
            extraction.observed_at = observed_at
            extraction.save(update_fields=["observed_at"])
        return extraction

    # observations

    def _observation(self, observation: dict) -> None:
        citation = observation["citation"]
        citing_block, cited_block, work_block = citation["citing_paper"], citation["cited_paper"], citation["cited_work"]
        citing = self._snapshot(citing_block)
        cited = self._snapshot(cited_block, latest_version=cited_block["version"]) if cited_block else None
        version = self._version(citing, citing_block["version"])
        work = self._work(work_block, cited) if work_block["work_id"] else None
        reference = self._reference(observation, version, work_block, cited)
        self._link(reference, observation["resolution"], cited, work, observation["observation_id"])
        if work is not None:
            self._receipts(work, observation["standing_notice"])

    def _reference(self, observation, version: PaperVersion, work_block, cited) -> PaperReference:
        citation = observation["citation"]
        oid = UUID(observation["observation_id"])
        index, source = citation["reference_index"], citation["source"]
        observed_at = parse_z(citation["source_observed_at"])
        # With a canonical work the record shows the work's title and year, not the reference's parse.
        title = work_block["title"] if work_block["work_id"] is None else None
        year = work_block["year"] if work_block["work_id"] is None else None
        held = PaperReference.objects.select_related("extraction").filter(pk=oid).first()
        if held is not None:
            clashes = [
                name for name, mine, theirs in (
                    ("citing version", version.pk, held.extraction.paper_version_id),
                    ("source", source, held.extraction.source),
                    ("reference_index", index, held.reference_index),
                    ("source_observed_at", observed_at, held.observed_at),
                    ("title", title, held.title if title is not None else None),
                    ("year", year, held.year if year is not None else None),
                ) if mine != theirs
            ]
            if clashes:
                raise RecordRefused(f"observation {oid} is already held with a different {', '.join(clashes)}")
            return held
        # A held paper linked from the reference is the arXiv id the extracting system read in it.
        arxiv_id = cited.arxiv_id if cited is not None else None
        self.summary.count("paper_references")
        return PaperReference.objects.create(
            id=oid, extraction=self._extraction(version, source, observed_at), reference_index=index,
            observed_at=observed_at, title=title, year=year, arxiv_id=arxiv_id, parser=IMPORT_SOURCE,
            identifiers=[{"kind": "arxiv", "value": arxiv_id, "valid": True, "origin": IMPORT_SOURCE}]
            if arxiv_id else [],
        )

    def _work(self, block: dict, cited: Paper | None) -> CitedWork:
        work_id = UUID(block["work_id"])
        facts = {
            "doi": block["doi"], "arxiv_id": block["arxiv_id"], "title": block["title"], "year": block["year"],
            "venue": block["venue"], "metadata_source": block["metadata_source"],
            "snapshot_observed_at": parse_z(block["snapshot_observed_at"]), "paper": cited,
        }
        held = CitedWork.objects.filter(pk=work_id).first()
        if held is None:
            for unique in ("doi", "arxiv_id"):
                if facts[unique] and CitedWork.objects.filter(**{unique: facts[unique]}).exists():
                    raise RecordRefused(f"work {work_id}: {unique} {facts[unique]!r} belongs to another held work")
            self.summary.count("cited_works")
            return CitedWork.objects.create(id=work_id, **facts)
        clashes = [name for name, value in facts.items() if getattr(held, name) != value]
        if clashes:
            raise RecordRefused(f"work {work_id} is already held with a different {', '.join(clashes)}")
        return held

    def _link(self, reference, resolution, cited, work, oid) -> None:
        observed_at = parse_z(resolution["observed_at"])
        same_time = PaperReferenceLink.objects.filter(reference=reference, observed_at=observed_at)
        facts = {"state": resolution["status"], "resolver_source": resolution["resolver_source"],
                 "cited_paper": cited, "cited_work": work}
        for link in same_time:
            if all(getattr(link, name) == value for name, value in facts.items()):
                return
            raise RecordRefused(f"observation {oid}: a different resolution is held for {resolution['observed_at']}")
        if facts["state"] in ("verified_exact", "verified_fuzzy") and cited is None and work is None:
            raise RecordRefused(f"observation {oid}: a {facts['state']} resolution names no paper or work")
        self.links.append(PaperReferenceLink(reference=reference, observed_at=observed_at,
                                             evidence={"origin": IMPORT_SOURCE}, resolver_version=IMPORT_SOURCE,
                                             **facts))
        self.summary.count("paper_reference_links")

    # standing

    def _receipts(self, work: CitedWork, notice: dict) -> None:
        for receipt_block in notice["source_receipts"]:
            source = receipt_block["source"]
            receipt, created = RetractionStatusReceipt.objects.get_or_create(
                work=work, source=source, observed_at=parse_offset(receipt_block["observed_at"]))
            if created:
                self.summary.count("receipts")
            events = [self._event(e, receipt.observed_at) for e in notice["events"] if e["source"] == source]
            missing = [e for e in events if not receipt.found_events.filter(pk=e.pk).exists()]
            if missing and not created:
                raise RecordRefused(f"work {work.pk}: the {source} receipt of {receipt_block['observed_at']} "
                                    "is held with other events")
            receipt.found_events.add(*missing)

    def _event(self, block: dict, observed_at: datetime) -> ScholarlyWorkEvent:
        facts = {
            "event_type": block["event_type"], "subject_doi": block["subject_doi"], "notice_doi": block["notice_doi"],
            "occurred_on": datetime.fromisoformat(block["occurred_on"]).date() if block["occurred_on"] else None,
            "reason": block["reason"] or "",
        }
        if facts["event_type"] not in EventType.values:
            raise RecordRefused(f"unknown event type {facts['event_type']!r}")
        # A source record may be held in several revisions (citations/standing/revisions.py): the
        # record's event is the revision that says what it says; a new one is a revision of its own.
        revisions = list(ScholarlyWorkEvent.objects.filter(source=block["source"],
                                                           source_record_id=block["source_record_id"]))
        for event in revisions:
            if all(getattr(event, name) == value for name, value in facts.items()):
                return event
        if any(event.observed_at == observed_at for event in revisions):
            raise RecordRefused(f"event {block['source']}:{block['source_record_id']} is held with other facts")
        self.summary.count("events")
        return ScholarlyWorkEvent.objects.create(source=block["source"], source_record_id=block["source_record_id"],
                                                 observed_at=observed_at, **facts)

    def _sync(self, source: str, observed_at: datetime) -> None:
        _, created = StandingSourceSync.objects.get_or_create(
            source=source, status=SyncStatus.SUCCEEDED, observed_at=observed_at,
            defaults={"started_at": observed_at, "finished_at": observed_at, "origin": IMPORT_SOURCE},
        )
        if created:
            self.summary.count("standing_source_syncs")

    def _measurement(self, arxiv_id: str, block: dict) -> None:
        measurement, created = CitationMeasurement.objects.get_or_create(
            paper=self._paper(arxiv_id), source=block["source"], observed_at=parse_z(block["observed_at"]),
            defaults={"count": block["count"]},
        )
        if created:
            self.summary.count("citation_measurements")
        elif measurement.count != block["count"]:
            raise RecordRefused(f"the {block['source']} measurement of {block['observed_at']} is held with count "
                                f"{measurement.count}, not {block['count']}")


def _z_or_none(value: str | None) -> datetime | None:
    return parse_z(value) if value is not None else None


# --- verification ------------------------------------------------------------------------------------

# What a capped record cannot let us reproduce: the references it counts but does not itemize.
_CAPPED_PATHS = ("thesis", "reference_resolution.total_outbound_references", "coverage[2].denominator")


def _verify_reproduced(record: dict, summary: ImportSummary) -> None:
    as_of = parse_z(record["as_of"])
    rebuilt = build_record(arxiv_id=record["paper"]["arxiv_id"], as_of=as_of + BUILD_MINUTE).record
    # The context digest follows from the rest; name the displayed fact that differs instead.
    ignore = ("context_digest", *(_CAPPED_PATHS if summary.capped else ()))
    difference = first_difference(record, rebuilt, ignore=ignore)
    if difference is not None:
        path, theirs, ours = difference
        raise RecordRefused(
            f"the store cannot reproduce this record as of {record['as_of']}: at {path} the file has "
            f"{_short(theirs)} but the stored observations give {_short(ours)}")


def first_difference(a, b, *, ignore=(), path="") -> tuple[str, object, object] | None:
    """The first JSON path at which two values differ, with both values; None when equal."""
    if path in ignore:
        return None
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            sub = f"{path}.{key}" if path else key
            if key not in a or key not in b:
                return sub, a.get(key, "<absent>"), b.get(key, "<absent>")
            found = first_difference(a[key], b[key], ignore=ignore, path=sub)
            if found:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list):
        for index, (x, y) in enumerate(zip(a, b)):
            found = first_difference(x, y, ignore=ignore, path=f"{path}[{index}]")
            if found:
                return found
        if len(a) != len(b):
            return f"{path} (length)", len(a), len(b)
        return None
    if a != b or type(a) is not type(b):
        return path, a, b
    return None


def _short(value) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 120 else text[:117] + "..."


__all__ = ["ImportSummary", "RecordRefused", "check_record", "first_difference", "import_record", "parse_record",
           "record_schema"]
