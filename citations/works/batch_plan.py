"""Deciding a batch of works records from what the store holds (BatchPlan): which records are new
works, which identifiers join which work, which records revise a work. Nothing here writes, except
that a held paper the batch names is given its work (look_up_batch, with make_paper_works);
citations/works/batch_store.py stores what was decided."""
import os
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime

from django.db import connection

from citations.models import CitedWork, IdentifierKind, Paper, WorkIdentifier, WorkRevision, WorkTitleKey
from citations.parsing.text import fold, full_title_key, key_fingerprint
from citations.resolution.service import canonical_works
from citations.resolution.waiting import resolve_references_naming
from citations.sql_arrays import any_of
from citations.works import dblp, revisions
from citations.works.records import WorkRecord

# A record that would add to a work something dated before what the store already holds of it: a
# record as of a time between the two was published without it (docs/record-v1.md).
BACK_DATED = ("back-dated: the store holds an observation of this work dated after --observed-at, so records "
              "already published as of a later time would change")


@dataclass
class BatchPlan:
    """What writing a batch will do, decided from what the store held."""

    works: list[tuple]              # (work id, record) of each new work
    identifiers: list[tuple]        # (kind, value, work id, source) of each new identifier
    revised: list[tuple]            # (work id, record) of each revision
    touched: set                    # the works it makes, joins identifiers to, or revises
    counts: Counter
    unchanged: int
    back_dated: list = field(default_factory=list)     # records refused (BACK_DATED)

    def resolve_references_naming_learnt(self) -> int:
        """Send to resolution the references naming a DOI or arXiv id the store learnt from this batch
        (once it is committed); returns how many."""
        learnt = {IdentifierKind.DOI: set(), IdentifierKind.ARXIV: set()}
        for kind, value, _, _ in self.identifiers:
            if kind in learnt:
                learnt[kind].add(value)
        return resolve_references_naming(dois=learnt[IdentifierKind.DOI], arxiv_ids=learnt[IdentifierKind.ARXIV])

    def shares_with(self, batch: list[WorkRecord], lookups: tuple) -> bool:
        """Whether the batch names an identifier this plan writes, or a work it writes to."""
        held, by_title = lookups[:2]
        written = {(kind, value) for kind, value, _, _ in self.identifiers}
        return (any(i in written for record in batch for i in record.identifiers)
                or not self.touched.isdisjoint(held.values()) or not self.touched.isdisjoint(by_title.values()))


def look_up_batch(batch: list[WorkRecord], *, as_text: bool, observed_at: datetime,
                  make_paper_works: bool = True) -> tuple | None:
    """What the store holds of the batch: its known identifiers' works, dblp venue records' CoRR
    versions, the facts known of the works it names, and which of the works it would add to hold an
    observation dated after observed_at. None, without make_paper_works, when a held paper it names
    has no work yet (making one is a write: the caller writes the batch serially)."""
    held = _held_identifiers(batch, as_text=as_text, make_paper_works=make_paper_works)
    if held is None:
        return None
    by_title = _corr_versions(batch, held, as_text=as_text)
    # What the store knows of the works this batch names, so a record saying more is a revision
    # (none is read on a first import: no identifier is held yet).
    known = revisions.known_facts({*held.values(), *by_title.values()}) \
        if held and any(map(revisions.states_something, batch)) else {}
    adding = {str(work) for record in batch
              if (work := _held_work(record, held, by_title)) is not None and _adds_to(record, work, held, known)}
    return held, by_title, known, _observed_after(adding, observed_at)


def plan_batch(batch: list[WorkRecord], held: dict, by_title: dict, known: dict, later: set, *,
               as_text: bool) -> BatchPlan:
    """Decide the batch (in writing order: in_writing_order) from what the store holds; a record that
    would add to a work of later (observed after this import's time) is refused (BACK_DATED)."""
    counts = Counter()
    unchanged = 0
    # Work ids: text on the COPY path (what COPY writes), uuid.UUID on the ORM path.
    new_ids = iter(_uuid7_texts(len(batch)) if as_text else map(uuid.UUID, _uuid7_texts(len(batch))))
    corr_in_batch: dict[tuple[str, str], list] = {}
    works: list[tuple] = []
    identifiers: list[tuple] = []
    revised: list[tuple] = []
    touched: set = set()
    made_by: dict = {}                      # work id -> the record that made it, in this batch
    back_dated: list[WorkRecord] = []
    for record in batch:
        targets = [held[i] for i in record.identifiers if i in held]
        work_id = held.get(record.identifiers[0]) or (targets[0] if targets else by_title.get(id(record)))
        if work_id is not None and str(work_id) in later and _adds_to(record, work_id, held, known):
            back_dated.append(record)
            continue
        key = _corr_key(record)
        if work_id is None and key and not record.ids_of(IdentifierKind.ARXIV) and len(corr_in_batch.get(key, ())) == 1:
            work_id = corr_in_batch[key][0]
        created = work_id is None
        if created:
            work_id = next(new_ids)
            works.append((work_id, record))
            counts["works"] += 1
        if key and record.ids_of(IdentifierKind.ARXIV):
            corr_in_batch.setdefault(key, []).append(work_id)
        if len(set(targets)) > 1:
            counts["identifiers already naming another work (kept there)"] += 1
        added = [i for i in record.identifiers if i not in held]
        for kind, value in added:
            held[(kind, value)] = work_id
            identifiers.append((kind, value, work_id, record.source))
        if created:
            made_by[work_id] = record
            touched.add(work_id)
            continue
        if added:
            touched.add(work_id)
        if revisions.states_something(record):
            facts = known.get(str(work_id))
            if facts is None:       # a work this batch made (its facts worked out only when asked)
                facts = known[str(work_id)] = revisions.facts_of(made_by[work_id]) if work_id in made_by \
                    else revisions.KnownFacts()
            if facts.added_by(record):
                revised.append((work_id, record))
                touched.add(work_id)
                facts.add(*(getattr(record, name) for name in revisions.FACT_COLUMNS))
                counts["works revised (a source said more of them)"] += 1
        if added:
            counts["works joined by new identifiers"] += 1
        elif not revised or revised[-1][1] is not record:
            unchanged += 1
    return BatchPlan(works, identifiers, revised, touched, counts, unchanged, back_dated)


def _held_work(record: WorkRecord, held: dict, by_title: dict):
    """The stored work the record is (plan_batch's choice before the batch's own works), or None."""
    targets = [held[i] for i in record.identifiers if i in held]
    return held.get(record.identifiers[0]) or (targets[0] if targets else by_title.get(id(record)))


def _adds_to(record: WorkRecord, work_id, held: dict, known: dict) -> bool:
    """Whether the record would write to a stored work: an identifier, or a revision."""
    if any(i not in held for i in record.identifiers):
        return True
    facts = known.get(str(work_id))
    return revisions.states_something(record) and (facts is None or facts.added_by(record))


def _observed_after(work_ids: set[str], observed_at: datetime) -> set[str]:
    """Those of the works (ids as text) the store holds an observation of dated after observed_at: the
    work's own row, a revision, an identifier. Three indexed reads, of the works a batch adds to only."""
    if not work_ids:
        return set()
    ids = sorted(work_ids)
    if connection.vendor == "postgresql":
        # One array of the ids as text (a list parameter is dumped value by value by psycopg).
        with connection.cursor() as cursor:
            cursor.execute("""SELECT id::text FROM cited_works WHERE id = ANY(%s::uuid[]) AND snapshot_observed_at > %s
                UNION SELECT work_id::text FROM work_revisions WHERE work_id = ANY(%s::uuid[]) AND observed_at > %s
                UNION SELECT work_id::text FROM work_identifiers WHERE work_id = ANY(%s::uuid[]) AND observed_at > %s""",
                           ["{" + ",".join(ids) + "}", observed_at] * 3)
            return {work for (work,) in cursor.fetchall()}
    later = set()
    for start in range(0, len(ids), 10_000):
        part = ids[start:start + 10_000]
        for rows in (CitedWork.objects.filter(id__in=part, snapshot_observed_at__gt=observed_at).values_list("id"),
                     WorkRevision.objects.filter(work_id__in=part, observed_at__gt=observed_at).values_list("work_id"),
                     WorkIdentifier.objects.filter(work_id__in=part, observed_at__gt=observed_at).values_list("work_id")):
            later.update(str(work) for (work,) in rows.distinct())
    return later


def in_writing_order(batch: list[WorkRecord]) -> list[WorkRecord]:
    """arXiv versions, then the others; within each, titled records before bare ones; else in file
    order (a stable sort on those two, in one pass). arXiv versions first, so that a venue record finds
    the CoRR record of its paper in the same batch too; titled records before the bare ones a notice
    names (update-to), so that a notice read before its work leaves the work's fields, not an empty
    stub, when both are in one batch."""
    groups = ([], [], [], [])
    arxiv = IdentifierKind.ARXIV
    for record in batch:
        groups[2 * all(kind != arxiv for kind, _ in record.identifiers) + (record.title is None)].append(record)
    return [record for group in groups for record in group]


def _held_identifiers(batch: list[WorkRecord], *, as_text: bool = False,
                       make_paper_works: bool = True) -> dict[tuple[str, str], uuid.UUID | str] | None:
    """(kind, value) -> work id for every identifier of the batch the store already knows (the id as
    text with as_text, on PostgreSQL: one query of an array per table, not one parameter per value).
    A held paper the batch names is given its work now if it has none; without make_paper_works,
    None is returned instead."""
    values = {value for record in batch for _, value in record.identifiers}
    dois = {v for r in batch for v in r.ids_of(IdentifierKind.DOI)}
    arxiv = {v for r in batch for v in r.ids_of(IdentifierKind.ARXIV)}
    if as_text:
        with connection.cursor() as cursor:
            any_value, params = any_of(values)
            cursor.execute(f"SELECT kind, value, work_id::text FROM work_identifiers WHERE value = {any_value}", params)
            held = {(kind, value): work for kind, value, work in cursor.fetchall()}
            known = []
            for column, wanted in (("doi", dois), ("arxiv_id", arxiv)):
                if wanted:
                    any_value, params = any_of(wanted)
                    cursor.execute(f"SELECT {column}, id::text FROM cited_works WHERE {column} = {any_value}", params)
                    known.append(cursor.fetchall())
                else:
                    known.append([])
        by_doi, by_arxiv = known
    else:
        held = {(kind, value): work for kind, value, work in
                WorkIdentifier.objects.filter(value__in=values).values_list("kind", "value", "work_id")}
        by_doi = CitedWork.objects.filter(doi__in=dois).values_list("doi", "id") if dois else []
        by_arxiv = CitedWork.objects.filter(arxiv_id__in=arxiv).values_list("arxiv_id", "id") if arxiv else []
    # Works made before the works store (held papers' works, works read from records) are known by
    # their own DOI and arXiv id columns.
    for doi, work in by_doi:
        held.setdefault((IdentifierKind.DOI, doi), work)
    for arxiv_id, work in by_arxiv:
        held.setdefault((IdentifierKind.ARXIV, arxiv_id), work)
    # A held paper is one work with every version of it: make its work now if it has none yet.
    papers = dict(Paper.objects.filter(arxiv_id__in=arxiv).values_list("id", "arxiv_id")) if arxiv else {}
    missing = {pid for pid, a in papers.items() if (IdentifierKind.ARXIV, a) not in held}
    if missing and not make_paper_works:
        return None
    if missing:
        for paper_id, work in canonical_works(paper_ids=missing).items():
            held[(IdentifierKind.ARXIV, papers[paper_id])] = str(uuid.UUID(str(work))) if as_text else uuid.UUID(str(work))
    return {(str(k), v): w for (k, v), w in held.items()}


def _corr_key(record: WorkRecord) -> tuple[int, str] | None:
    """dblp's CoRR and venue records of one paper share this: the fingerprint of their whole-title key
    (what the store files works under) and the first author."""
    if record.source != dblp.SOURCE or not record.title or not record.first_author:
        return None
    key = full_title_key(record.title)
    return (key_fingerprint(key), fold(record.first_author)) if key else None


def _corr_versions(batch: list[WorkRecord], held, *, as_text: bool = False) -> dict[int, uuid.UUID | str]:
    """dblp's CoRR record and its venue record are one work: same title, same first author, one an
    arXiv version and the other not. For venue records with no known identifier, the work of an
    arXiv version already in the store with that title and first author (when there is exactly one)."""
    wanted = {id(record): _corr_key(record) for record in batch
              if _corr_key(record) and not record.ids_of(IdentifierKind.ARXIV)
              and not any(i in held for i in record.identifiers)}
    if not wanted:
        return {}
    candidates: dict[tuple[int, str], set] = {}
    for key, work, author, doi in (WorkTitleKey.objects.filter(key__in={k for k, _ in wanted.values()},
                                                               work__arxiv_id__isnull=False)
                                   .values_list("key", "work_id", "work__first_author", "work__doi")):
        if not doi or doi.startswith("10.48550/"):          # an arXiv version, not another venue's
            candidates.setdefault((key, fold(author or "")), set()).add(str(work) if as_text else work)
    return {rid: next(iter(candidates[key])) for rid, key in wanted.items() if len(candidates.get(key, ())) == 1}


def _uuid7_texts(count: int) -> list[str]:
    """count new work ids as text: version-7 UUIDs (RFC 9562), the current Unix time in milliseconds
    followed by a counter from a random start (its "monotonic random" method), so one batch's ids
    follow each other. Random version-4 ids landed all over the works' primary-key index, each
    insert touching a page of its own; these all land at its end (bench/works.py)."""
    millis = time.time_ns() // 1_000_000
    start = int.from_bytes(os.urandom(8), "big") >> 2          # room for the batch below 2**74
    ids = []
    for n in range(start, start + count):
        value = (millis << 80) | (0x7 << 76) | ((n >> 62) & 0xFFF) << 64 | (0b10 << 62) | (n & _LOW_62)
        text = f"{value:032x}"
        ids.append(f"{text[:8]}-{text[8:12]}-{text[12:16]}-{text[16:20]}-{text[20:]}")
    return ids


_LOW_62 = (1 << 62) - 1
