"""What a client needs to check that every observation a record shows was in the log in time.

For a record built as of T: the first checkpoint published at or after T, and for each observation
shown, the leaves of its reference, of the resolution link the record shows, of the work statement
whose fields its cited_work shows (the work as first written, or the revision shown) and of the
receipts of its standing notice with the events each found as logged; and once, the paper's snapshot
and its citation measurements shown, and the snapshot of each other paper shown (cited or citing);
the curators' entries whose values an observation shows (title, year, reference number, "not a work"),
and the work identifier a shown DOI comes from where it is not the work's own. Each with its entry bytes and an RFC 6962 inclusion proof in
that checkpoint's tree. A leaf appended after that
checkpoint (an observation written later, though dated earlier: a back-dated import) is listed with
its index and no proof, so the client sees it; an observation never logged is listed as such.
"""
import base64
import json
from datetime import datetime, timedelta

from django.utils import timezone

from citations.models import (
    CitationMeasurement,
    LeafKind,
    LogCheckpoint,
    LogLeaf,
    Override,
    PaperReferenceLink,
    PaperSnapshot,
    RetractionStatusReceipt,
    WorkIdentifier,
    WorkRevision,
)
from citations.records.build import CURATION, NOT_A_WORK
from citations.records.timestamps import parse_z, render_offset, render_z
from citations.signing import signing_key
from citations.transparency.sequencer import idle_since, signed_note, tiles
from pith_verify.merkle import inclusion_proof

SCHEMA = "pith.record-proofs.v1"


class NotYetCheckpointed(Exception):
    """No checkpoint has been published since the record's as_of: the next one comes within a minute."""


def record_proofs(body: bytes) -> dict:
    """The proofs document of a record's exact bytes."""
    record = json.loads(body)
    as_of = parse_z(record["as_of"])
    checkpoint = _checkpoint_after(as_of, record["as_of"])
    observations = record["outbound"] + record["inbound"]
    ids = list(dict.fromkeys(o["observation_id"] for o in observations))
    shown = _links_shown(record, ids)
    statements = _statements_shown(observations)
    receipts = _receipts_shown(observations)
    snapshot = _snapshot_shown(record["paper"])
    others = _other_snapshots_shown(observations)
    others.pop(record["paper"]["arxiv_id"], None)       # the paper's own: given once, as "paper"
    measurements = _measurements_shown(record)
    overrides = _overrides_shown(observations, as_of)
    identifiers = _identifiers_shown(observations)
    wanted = ([(LeafKind.REFERENCE, i) for i in ids] + [(LeafKind.LINK, str(link)) for link in shown.values()]
              + list(statements.values()) + [(LeafKind.RECEIPT, r) for rs in receipts.values() for r in rs]
              + ([(LeafKind.SNAPSHOT, snapshot)] if snapshot else []) + [(LeafKind.SNAPSHOT, o) for o in others.values()]
              + [(LeafKind.MEASUREMENT, m) for m in measurements]
              + [(LeafKind.OVERRIDE, e) for es in overrides.values() for e in es]
              + [(LeafKind.WORK_IDENTIFIER, i) for i in identifiers.values()])
    leaves = _leaves(wanted)
    # A receipt's events are the ones its leaf names as logged, whatever the database holds now.
    found = {r: json.loads(bytes(leaves[LeafKind.RECEIPT, r].entry))["events"]
             for rs in receipts.values() for r in rs if (LeafKind.RECEIPT, r) in leaves}
    leaves.update(_leaves([(LeafKind.STANDING_EVENT, str(e)) for events in found.values() for e in events]))
    subtree = tiles().subtree(checkpoint.size)

    def proof(kind: str, observation: str) -> dict | None:
        leaf = leaves.get((kind, observation))
        if leaf is None:
            return None
        given = {"leaf_index": leaf.leaf_index, "entry": bytes(leaf.entry).decode(),
                 "logged_at": render_z(leaf.logged_at)}
        if leaf.leaf_index < checkpoint.size:
            given["inclusion"] = [base64.b64encode(h).decode()
                                  for h in inclusion_proof(leaf.leaf_index, checkpoint.size, subtree)]
        return given

    def standing(work_id: str | None) -> list[dict]:
        return [{"receipt": proof(LeafKind.RECEIPT, r),
                 "events": [proof(LeafKind.STANDING_EVENT, str(e)) for e in found.get(r, [])]}
                for r in receipts.get(work_id, [])]

    return {
        "schema": SCHEMA,
        "record": {"arxiv_id": record["paper"]["arxiv_id"], "as_of": record["as_of"],
                   "context_digest": record["context_digest"]},
        "checkpoint": checkpoint.note,
        "checkpoint_published_at": render_z(checkpoint.published_at),
        "log": {"checkpoint": "/log/checkpoint", "tiles": "/log/tile/", "keys": "/.well-known/pith-keys.json"},
        "paper": {"snapshot": proof(LeafKind.SNAPSHOT, snapshot) if snapshot else None,
                  "measurements": [proof(LeafKind.MEASUREMENT, m) for m in measurements]},
        "other_papers": {arxiv_id: proof(LeafKind.SNAPSHOT, o) for arxiv_id, o in others.items()},
        "observations": [{"observation_id": o["observation_id"],
                          "reference": proof(LeafKind.REFERENCE, o["observation_id"]),
                          "resolution": proof(LeafKind.LINK, str(shown[o["observation_id"]]))
                          if o["observation_id"] in shown else None,
                          "work": proof(*statements[work]) if (work := _work_of(o)) in statements else None,
                          "standing": standing(work),
                          "overrides": [proof(LeafKind.OVERRIDE, e) for e in overrides.get(o["observation_id"], [])],
                          "identifier": proof(LeafKind.WORK_IDENTIFIER, identifiers[work])
                          if work in identifiers else None}
                         for o in {o["observation_id"]: o for o in observations}.values()],
    }


def _leaves(wanted: list[tuple[str, str]]) -> dict[tuple[str, str], LogLeaf]:
    """The leaves of these (kind, observation) pairs that are in the log, in one read."""
    wanted = set(wanted)
    if not wanted:
        return {}
    return {(leaf.kind, leaf.observation): leaf for leaf in
            LogLeaf.objects.filter(observation__in={o for _, o in wanted}, kind__in={k for k, _ in wanted})
            if (leaf.kind, leaf.observation) in wanted}


def _work_of(observation: dict) -> str | None:
    return observation["citation"]["cited_work"]["work_id"]


def _statements_shown(observations: list[dict]) -> dict[str, tuple[str, str]]:
    """The statement each shown work's fields come from, by work: the revision of the time and source
    shown (its newest titled one as of the record's cutoff), else the work as first written."""
    shown = {w["work_id"]: w for o in observations if (w := o["citation"]["cited_work"])["work_id"]}
    statements = {work: (LeafKind.WORK, work) for work in shown}
    for revision, work, source, observed_at in (WorkRevision.objects.filter(work_id__in=list(shown))
                                                .order_by("id").values_list("id", "work_id", "source", "observed_at")):
        block = shown[str(work)]
        if render_z(observed_at) == block["snapshot_observed_at"] and block["metadata_source"] in (source, CURATION):
            statements[str(work)] = (LeafKind.WORK_REVISION, str(revision))
    return statements


def _overrides_shown(observations: list[dict], as_of: datetime) -> dict[str, list[str]]:
    """The curators' entries whose values each observation shows, by observation: its title, year,
    reference number, "not a work". In force at the record's cutoff, which lies in its as_of's minute:
    of the entries in force at either end of it, the one whose value is shown."""
    shown = {o["observation_id"]: o for o in observations}
    fields = ("title", "year", "not_a_work", "index")
    candidates: dict[tuple[str, str], list] = {}
    for at in (as_of, as_of + timedelta(seconds=59, microseconds=999_999)):
        for row in (Override.objects.in_force(at).filter(reference_id__in=list(shown), field__in=fields)
                    .values("id", "reference_id", "field", "value_text", "value_year", "value_index")):
            candidates.setdefault((str(row["reference_id"]), row["field"]), []).append(row)
    found: dict[str, list[str]] = {}
    for (reference, field), rows in candidates.items():
        match = next((r for r in rows if _shows(shown[reference], field, r)), None)
        if match is not None:
            found.setdefault(reference, []).append(str(match["id"]))
    return found


def _shows(observation: dict, field: str, entry: dict) -> bool:
    """Whether the observation shows this entry's value (a curated title or year says so by its source)."""
    work, citation = observation["citation"]["cited_work"], observation["citation"]
    if field == "title":
        return work["metadata_source"] == CURATION and entry["value_text"] == work["title"]
    if field == "year":
        return work["metadata_source"] == CURATION and entry["value_year"] == work["year"]
    if field == "index":
        return entry["value_index"] == citation["reference_index"]
    return observation["standing_notice"].get("reason") == NOT_A_WORK


def _identifiers_shown(observations: list[dict]) -> dict[str, str]:
    """The identifier each shown work's DOI comes from, by work, where it is not the work's own DOI
    (a work known by its arXiv DOI shows its published version's, joined to it later)."""
    shown = {w["work_id"]: w["doi"] for o in observations
             if (w := o["citation"]["cited_work"])["work_id"] and w["doi"] is not None}
    found = {}
    for pk, work, value, own in (WorkIdentifier.objects.filter(work_id__in=list(shown), kind="doi",
                                                                  value__in=set(shown.values()))
                                 .values_list("id", "work_id", "value", "work__doi")):
        if shown[str(work)] == value and (own is None or own.startswith("10.48550/")):
            found[str(work)] = str(pk)
    return found


def _receipts_shown(observations: list[dict]) -> dict[str, list[str]]:
    """The receipts each shown work's standing notice names, by work."""
    shown = {}
    for o in observations:
        if (work := _work_of(o)) is not None:
            shown[work] = {(r["source"], r["observed_at"]) for r in o["standing_notice"]["source_receipts"]}
    receipts = {}
    for receipt, work, source, observed_at in (RetractionStatusReceipt.objects.filter(work_id__in=list(shown))
                                               .values_list("id", "work_id", "source", "observed_at")):
        if (source, render_offset(observed_at)) in shown[str(work)]:
            receipts.setdefault(str(work), []).append(str(receipt))
    return receipts


def _snapshot_shown(paper: dict) -> str | None:
    """The paper's snapshot the record shows: of its time, the revision whose fields it shows."""
    return _snapshots_shown([paper], ("title", "latest_version", "primary_category")).get(paper["arxiv_id"])


def _other_snapshots_shown(observations: list[dict]) -> dict[str, str]:
    """The snapshots of the other papers the observations show (the cited paper of an outbound one,
    the citing paper of an inbound one), by arXiv id."""
    blocks = {}
    for o in observations:
        for block in (o["citation"]["cited_paper"], o["citation"]["citing_paper"]):
            if block and block["snapshot_observed_at"]:
                blocks.setdefault(block["arxiv_id"], block)
    return _snapshots_shown(list(blocks.values()), ("title",))


def _snapshots_shown(blocks: list[dict], fields: tuple[str, ...]) -> dict[str, str]:
    """Each shown paper block's snapshot: of its time, the revision whose fields it shows, by arXiv id."""
    shown = {b["arxiv_id"]: b for b in blocks}
    candidates: dict[str, list] = {}
    for row in (PaperSnapshot.objects.filter(paper__arxiv_id__in=list(shown)).order_by("-revision")
                .values("id", "paper__arxiv_id", "observed_at", *fields)):
        if render_z(row["observed_at"]) == shown[row["paper__arxiv_id"]]["snapshot_observed_at"]:
            candidates.setdefault(row["paper__arxiv_id"], []).append(row)
    found = {}
    for arxiv_id, rows in candidates.items():
        matching = [r for r in rows if all(r[f] == shown[arxiv_id][f] for f in fields)]
        found[arxiv_id] = str((matching or rows)[0]["id"])
    return found


def _measurements_shown(record: dict) -> list[str]:
    shown = {(m["source"], m["observed_at"]) for m in record["external_citation_measurements"]}
    return [str(m) for m, source, observed_at in CitationMeasurement.objects.filter(
        paper__arxiv_id=record["paper"]["arxiv_id"], source__in={s for s, _ in shown})
        .order_by("source").values_list("id", "source", "observed_at") if (source, render_z(observed_at)) in shown]


def _checkpoint_after(as_of: datetime, as_of_text: str) -> LogCheckpoint:
    """The first checkpoint published at or after the record's as_of. When none is yet and the log has
    not grown since its newest, that tree signed anew with the time now: it held every observation
    then, and holds it now (an idle log publishes no checkpoint of its own)."""
    checkpoint = LogCheckpoint.objects.filter(published_at__gte=as_of).order_by("published_at", "size").first()
    if checkpoint is not None:
        return checkpoint
    newest = LogCheckpoint.objects.order_by("-size").first()
    key = signing_key()
    if newest is None or key is None or not idle_since(newest):
        raise NotYetCheckpointed(f"no checkpoint published since {as_of_text} yet")
    now = timezone.now()
    return LogCheckpoint(size=newest.size, root_hash=newest.root_hash, published_at=now,
                         note=signed_note(key, newest.size, bytes(newest.root_hash), now))


def _links_shown(record: dict, ids: list[str]) -> dict[str, int]:
    """The link each observation's resolution shows, by its time and state: the current record is
    built at a moment inside its as_of's minute, so it may show a link written after its as_of."""
    shown_as = {o["observation_id"]: (o["resolution"]["observed_at"], o["resolution"]["status"])
                for o in record["outbound"] + record["inbound"]}
    shown = {}
    for reference, link, observed_at, state in (PaperReferenceLink.objects.filter(reference_id__in=ids)
                                                .order_by("reference_id", "observed_at", "id")
                                                .values_list("reference_id", "id", "observed_at", "state")):
        if shown_as.get(str(reference)) == (render_z(observed_at), state):
            shown[str(reference)] = link
    return shown
