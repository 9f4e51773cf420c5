"""Writing a checked v1 record's facts as observations (ObservationWriter), reusing what the store
already holds and refusing, with RecordRefused, what contradicts it. citations/sources/record_import.py
runs it in the import's transaction."""
from dataclasses import dataclass, field
from datetime import datetime
from uuid import UUID

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
from citations.models.references import ExtractionOrigin
from citations.models.transparency import LeafKind, note_written
from citations.records.timestamps import parse_offset, parse_z
from citations.resolution.index import index_paper_titles
from citations.resolution.links import write_links
from citations.sources.record_checks import RecordRefused

IMPORT_SOURCE = "record_import"


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


class ObservationWriter:
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
        if self.summary.changed:            # a record read again writes nothing, and tells no cache
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
            made = PaperSnapshot.objects.create(paper=paper, observed_at=observed_at, source=IMPORT_SOURCE, **facts)
            note_written(LeafKind.SNAPSHOT, [made.pk])
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
            made = PaperSnapshot.objects.create(paper=paper, revision=snapshot.revision + 1, source=IMPORT_SOURCE,
                                                recorded_at=max(parse_z(self.record["as_of"]), observed_at),
                                                **{**known, **filled})
            note_written(LeafKind.SNAPSHOT, [made.pk])
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
            note_written(LeafKind.WORK, [str(work_id)])
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
                note_written(LeafKind.RECEIPT, [receipt.pk])
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
        event = ScholarlyWorkEvent.objects.create(source=block["source"], source_record_id=block["source_record_id"],
                                                  observed_at=observed_at, **facts)
        note_written(LeafKind.STANDING_EVENT, [event.pk])
        return event

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
            note_written(LeafKind.MEASUREMENT, [measurement.pk])
        elif measurement.count != block["count"]:
            raise RecordRefused(f"the {block['source']} measurement of {block['observed_at']} is held with count "
                                f"{measurement.count}, not {block['count']}")


def _z_or_none(value: str | None) -> datetime | None:
    return parse_z(value) if value is not None else None

