"""Every stored reference read again by the current parser, as a new dated list, never by rewriting.

A reference is an observation: its parsed fields are never edited. When the parser improves, each
version's current list (the newest from each source) whose references the current parser reads
differently is written again as a new list (origin `reread`, `corrects` naming the list it reads
again), with the same texts, cut and digest:
- a reference read differently is read anew and resolved anew, in the same transaction, so no
  reader ever sees it unresolved;
- a reference read the same is carried over with its newest link (time and evidence kept);
- every override in force is carried to its successor, since the text it was about is unchanged.
A list every reference of which reads the same writes no observation, only a note that the current
parser read it (ListReading); a list the current parser has read, or written, is not read again. A
record as of a time before the new list is byte-identical to what it was, and one after shows the
new readings and their resolutions.
"""
from collections import Counter
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import OuterRef, Subquery
from django.utils import timezone

from citations.current.papers import papers_changed
from citations.models import (
    ListReading,
    Override,
    PaperReference,
    PaperReferenceLink,
    PaperVersion,
    ReferenceExtraction,
    ResolutionState,
)
from citations.models.references import ExtractionOrigin
from citations.parsing.reader import READER_NAME, STORED_FIELDS, read_references, stored_fields
from citations.resolution.links import write_links
from citations.resolution.service import resolve_references
from citations.sources.successor_lists import carried_link, carry_overrides, newer_list, newest_links


@dataclass
class RereadSummary:
    lists: int = 0                  # current lists looked at
    reread: int = 0                 # written again as a new list
    unchanged: int = 0              # every reference read the same: nothing written
    current: int = 0                # already read by the current parser: not read
    no_text: int = 0                # read from v1 records, which carry no reference text
    references: int = 0             # references read
    changed: int = 0                # references read differently
    states: Counter = field(default_factory=Counter)    # resolution of the references read differently

    def add(self, other: "RereadSummary") -> None:
        for name in ("lists", "reread", "unchanged", "current", "no_text", "references", "changed"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.states.update(other.states)

    def as_json(self) -> dict:
        return {"lists": self.lists, "reread": self.reread, "unchanged": self.unchanged, "current": self.current,
                "no_text": self.no_text, "references": self.references, "changed": self.changed,
                "states": dict(sorted(self.states.items()))}


def current_lists(*, paper_ids) -> list[tuple[int, int, str]]:
    """(list id, version id, source) of the newest list from each source of every version of these
    papers, by version and source (the PDF's list is kept beside the source package's, so both are
    read again). The order is the same on every run, whatever lists earlier runs wrote."""
    newest = (ReferenceExtraction.objects
              .filter(paper_version_id=OuterRef("paper_version_id"), source=OuterRef("source")).order_by(
                  "-observed_at", "-id").values("id")[:1])
    return list(ReferenceExtraction.objects.filter(paper_version__paper_id__in=list(paper_ids), id=Subquery(newest))
                .order_by("paper_version_id", "source").values_list("id", "paper_version_id", "source"))


def reread_papers(*, paper_ids, after: tuple | None = None, on_list=None) -> RereadSummary:
    """Read again the current lists of these papers; what was found and written. `after`: the (version
    id, source) an earlier run got through; `on_list(summary, (version id, source))` is called in each
    list's transaction (a chunk records its progress there, so a run after a lost worker counts each
    list once)."""
    summary = RereadSummary()
    for extraction_id, version_id, source in current_lists(paper_ids=paper_ids):
        if after is not None and (version_id, source) <= tuple(after):
            continue
        key = (version_id, source)
        summary.add(reread_list(extraction_id, on_done=None if on_list is None else
                                (lambda part, key=key: on_list(part, key))))
    return summary


def reread_list(extraction_id: int, *, on_done=None) -> RereadSummary:
    """Read one list again, as the module docstring says. Safe to repeat, and to race: the version is
    locked as an ingest or a curator's correction locks it, and a list something newer has replaced
    in the meantime is left alone. `on_done(summary)` runs in the list's transaction."""
    with transaction.atomic():
        summary = _reread(extraction_id)
        if on_done is not None:
            on_done(summary)
    return summary


def _reread(extraction_id: int) -> RereadSummary:
    summary = RereadSummary(lists=1)
    extraction = ReferenceExtraction.objects.select_related("paper_version").get(pk=extraction_id)
    PaperVersion.objects.select_for_update().filter(pk=extraction.paper_version_id).first()
    if newer_list(extraction) is not None:
        summary.lists = 0                   # replaced since it was planned: its successor is read instead
        return summary
    if ListReading.objects.filter(extraction=extraction, parser=READER_NAME).exists():
        summary.current = 1
        return summary
    references = list(PaperReference.objects.filter(extraction=extraction).order_by("reference_index", "id"))
    if extraction.origin == ExtractionOrigin.RECORD_IMPORT or not all(r.raw_text for r in references):
        summary.no_text = 1
        return summary
    if all(r.parser == READER_NAME for r in references):
        summary.current = 1
        return summary
    readings = [stored_fields(parsed) for parsed in read_references([r.raw_text for r in references])]
    summary.references = len(references)
    changed = {r.pk for r, reading in zip(references, readings) if _differs(r, reading)}
    if not changed:
        summary.unchanged = 1
        ListReading.objects.create(extraction=extraction, parser=READER_NAME, read_at=timezone.now())
        return summary
    summary.reread, summary.changed = 1, len(changed)
    new_references = _write_list(extraction, references, readings, changed)
    summary.states.update(resolve_references(reference_ids=[new.pk for new in new_references
                                                            if new.derived_from_id in changed]).states)
    papers_changed([extraction.paper_version.paper_id])
    return summary


def _differs(reference: PaperReference, reading: dict) -> bool:
    """Whether the new reading says something the stored one does not (the parser's name aside)."""
    return any(getattr(reference, name) != reading[name] for name in STORED_FIELDS if name != "parser")


def _write_list(extraction: ReferenceExtraction, references: list[PaperReference], readings: list[dict],
                changed: set) -> list[PaperReference]:
    now = timezone.now()
    successor = ReferenceExtraction.objects.create(
        paper_version=extraction.paper_version, source=extraction.source, origin=ExtractionOrigin.REREAD,
        observed_at=now, content_digest=extraction.content_digest, corrects=extraction)
    # The text was observed when the extractor read it; only its reading is new.
    new_references = PaperReference.objects.bulk_create([
        PaperReference(extraction=successor, reference_index=old.reference_index, raw_text=old.raw_text,
                       page=old.page, observed_at=old.observed_at, derived_from=old,
                       **(reading if old.pk in changed else {name: getattr(old, name) for name in STORED_FIELDS}))
        for old, reading in zip(references, readings)])
    successors = {old.pk: new for old, new in zip(references, new_references)}
    carry_overrides(successors, Override.objects.in_force().filter(reference__extraction_id=extraction.pk), now)
    newest = newest_links(successors)
    links = []
    for old_pk, new in successors.items():
        held = newest.get(old_pk)
        if old_pk not in changed and held is not None:
            links.append(carried_link(new, held, {"reread": successor.pk}))
        else:
            # Resolved at once (reread_list), in this transaction; this first link dates the new reading.
            links.append(PaperReferenceLink(
                reference=new, state=ResolutionState.UNRESOLVED, observed_at=now, resolver_version="",
                evidence={"stage": f"read again by {READER_NAME}, not yet resolved"}))
    write_links(links, replaced=list(successors))
    ListReading.objects.create(extraction=successor, parser=READER_NAME, read_at=now)
    return new_references
