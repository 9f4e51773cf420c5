"""A record's observations, and the facts it shows beside them (work statements, standing receipts and
events, the paper's snapshot and measurements), held against the log: each leaf's entry against what
the record shows, its inclusion in the checkpoint, and consistency between two checkpoints."""
import base64
import json
from collections.abc import Callable
from datetime import datetime

from pith_verify.merkle import consistency_proof, leaf_hash, subtree_from_tiles, verify_consistency, verify_inclusion
from pith_verify.note import Checkpoint, NoteError, PublicKey, open_note


def checkpoint_of(note: str, keys: list[PublicKey]) -> Checkpoint:
    return Checkpoint.parse(open_note(note, keys))


def _instant(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def checkpoint_time(checkpoint: Checkpoint) -> str | None:
    return next((line[5:] for line in checkpoint.extensions if line.startswith("time ")), None)


def _leaf_problems(where: str, found: dict | None, expected: dict, checkpoint: Checkpoint) -> list[str]:
    if found is None:
        return [f"{where}: not in the log at all"]
    entry = json.loads(found["entry"])
    problems = [f"{where}: the log's entry says {name} {entry.get(name)!r}, the record shows {value!r} "
                f"(logged at {found['logged_at']}, leaf {found['leaf_index']}: changed since)"
                for name, value in expected.items() if entry.get(name) != value]
    if "inclusion" not in found:
        problems.append(f"{where}: logged only at {found['logged_at']} (leaf {found['leaf_index']}), after the "
                        f"checkpoint of {checkpoint.size} that follows the record's as_of: written later than dated")
    elif not verify_inclusion(leaf_hash(found["entry"].encode()), found["leaf_index"], checkpoint.size,
                              [base64.b64decode(h) for h in found["inclusion"]], checkpoint.root):
        problems.append(f"{where}: the inclusion proof of leaf {found['leaf_index']} does not verify")
    return problems


def proof_problems(record: dict, proofs: dict, keys: list[PublicKey]) -> tuple[list[str], Checkpoint | None]:
    """Every observation the record shows, in the log by the first checkpoint after its as_of."""
    try:
        checkpoint = checkpoint_of(proofs["checkpoint"], keys)
    except NoteError as error:
        return [f"the proofs' checkpoint: {error}"], None
    problems = []
    if proofs["record"]["context_digest"] != record["context_digest"] or proofs["record"]["as_of"] != record["as_of"]:
        problems.append("the proofs are of another record or another as_of")
    stamped = checkpoint_time(checkpoint)
    # As instants, not strings: "07:45:00.707736Z" sorts before "07:45:00Z" as text.
    if stamped is None or _instant(stamped) < _instant(record["as_of"]):
        problems.append(f"the checkpoint's signed time {stamped} is before the record's as_of {record['as_of']}")
    given = {o["observation_id"]: o for o in proofs["observations"]}
    for side in ("outbound", "inbound"):
        for n, observation in enumerate(record[side]):
            oid = observation["observation_id"]
            where = f"{side}[{n}] observation {oid}"
            proof = given.get(oid)
            if proof is None:
                problems.append(f"{where}: no proof given")
                continue
            citation = observation["citation"]
            curated = _curated(proof.get("overrides") or [])
            problems += _override_problems(where, record["as_of"], observation, proof.get("overrides") or [],
                                           curated, checkpoint)
            expected = {"kind": "reference", "id": oid, "reference_index": citation["reference_index"],
                        "source": citation["source"], "observed_at": citation["source_observed_at"],
                        "citing_arxiv_id": citation["citing_paper"]["arxiv_id"],
                        "citing_version": citation["citing_paper"]["version"]}
            if "index" in curated:                      # the number shown is the curator's, held against it
                del expected["reference_index"]
            problems += _leaf_problems(f"{where} (reference)", proof["reference"], expected, checkpoint)
            resolution = observation["resolution"]
            problems += _leaf_problems(f"{where} (resolution)", proof["resolution"], {
                "kind": "link", "reference": oid, "state": resolution["status"],
                "resolver_source": resolution["resolver_source"], "observed_at": resolution["observed_at"]},
                checkpoint)
            problems += _work_problems(where, citation["cited_work"], proof.get("work"), curated, checkpoint)
            problems += _identifier_problems(where, citation["cited_work"], proof.get("work"),
                                             proof.get("identifier"), checkpoint)
            problems += _standing_problems(where, citation["cited_work"]["work_id"], observation["standing_notice"],
                                           proof.get("standing") or [], checkpoint)
    problems += _paper_problems(record, proofs.get("paper") or {}, checkpoint)
    problems += _other_paper_problems(record, proofs.get("other_papers") or {}, checkpoint)
    return problems, checkpoint


def _other_paper_problems(record: dict, given: dict, checkpoint: Checkpoint) -> list[str]:
    """Each other paper's block (the cited paper of an outbound observation, the citing paper of an
    inbound one) against its snapshot's leaf, once per paper."""
    problems, seen = [], {record["paper"]["arxiv_id"]}
    for observation in record["outbound"] + record["inbound"]:
        for block in (observation["citation"]["cited_paper"], observation["citation"]["citing_paper"]):
            if not block or block["arxiv_id"] in seen or not block["snapshot_observed_at"]:
                continue
            seen.add(block["arxiv_id"])
            problems += _leaf_problems(f"paper {block['arxiv_id']} (metadata snapshot)", given.get(block["arxiv_id"]), {
                "kind": "snapshot", "arxiv_id": block["arxiv_id"], "title": block["title"],
                "submitted_at": block["submitted_at"], "last_updated": block["last_updated"],
                "observed_at": block["snapshot_observed_at"]}, checkpoint)
    return problems


def _entry(found: dict | None) -> dict:
    return json.loads(found["entry"]) if found else {}


def _z(offset_text: str | None) -> str | None:
    """A +00:00 time (receipts are shown so) in the log's Z rendering: six fraction digits or none."""
    if offset_text is None:
        return None
    base = offset_text.removesuffix("+00:00")
    whole, _, fraction = base.partition(".")
    return f"{whole}.{fraction.ljust(6, '0')}Z" if fraction else f"{whole}Z"


def _work_problems(where: str, work: dict, found: dict | None, curated: dict, checkpoint: Checkpoint) -> list[str]:
    """The cited work's fields against the statement they come from: the work as first written or a
    later revision, either logged when written; a title or year a curator's entry gives (held against
    that entry's leaf) is not the statement's, nor then is its source."""
    if work["work_id"] is None:
        return []
    expected = {"kind": _entry(found).get("kind") if _entry(found).get("kind") in ("work", "work_revision")
                else "work", "work": work["work_id"], "observed_at": work["snapshot_observed_at"]}
    names = ("title", "year", "venue") if work["metadata_source"] == "curation" else (
        "title", "year", "venue", "metadata_source")
    expected.update({name: work[name] for name in names if name not in curated})
    return _leaf_problems(f"{where} (cited work {work['work_id']})", found, expected, checkpoint)


def _curated(given: list[dict | None]) -> dict[str, dict]:
    """The curators' entries the proofs give for an observation, by field."""
    return {entry["field"]: entry for g in given if (entry := _entry(g)).get("kind") == "override" and "field" in entry}


# What a curator's entry of each field sets, and where the record shows it.
_CURATED_VALUE = {"title": ("value_text", lambda o: o["citation"]["cited_work"]["title"]),
                  "year": ("value_year", lambda o: o["citation"]["cited_work"]["year"]),
                  "index": ("value_index", lambda o: o["citation"]["reference_index"])}
NOT_A_WORK = "not_a_scholarly_work"


def _override_problems(where: str, as_of: str, observation: dict, given: list[dict | None], curated: dict,
                       checkpoint: Checkpoint) -> list[str]:
    """Each curator's entry an observation shows, against its leaf: the value shown, set on this
    reference, in force by the record's cutoff (created in its as_of's minute at the latest), and
    logged by the checkpoint. A curated value shown without an entry for it is named."""
    problems = []
    oid = observation["observation_id"]
    for found in given:
        if found is None:
            problems.append(f"{where} (a curator's entry it shows): not in the log at all")
            continue
        entry = _entry(found)
        expected = {"kind": "override", "reference": oid, "action": "set"}
        if entry.get("field") in _CURATED_VALUE:
            name, shown = _CURATED_VALUE[entry["field"]]
            expected[name] = shown(observation)
        label = f"{where} (curator's {entry.get('field')} entry {entry.get('id')})"
        problems += _leaf_problems(label, found, expected, checkpoint)
        if str(entry.get("created_at"))[:16] > as_of[:16]:
            problems.append(f"{label}: created at {entry.get('created_at')}, after the record's as_of {as_of}")
    work = observation["citation"]["cited_work"]
    if work["metadata_source"] == "curation" and not {"title", "year"} & set(curated):
        problems.append(f"{where}: shows a curator's title or year, and the proofs give no curator's entry for it")
    if observation["standing_notice"].get("reason") == NOT_A_WORK and "not_a_work" not in curated:
        problems.append(f"{where}: shows a curator's \"not a scholarly work\", and the proofs give no entry for it")
    return problems


def _identifier_problems(where: str, work: dict, statement: dict | None, found: dict | None,
                         checkpoint: Checkpoint) -> list[str]:
    """The cited work's DOI: its own, held against the work's leaf; or one joined to it later (its own
    being none or an arXiv DOI), held against that identifier's leaf."""
    if work["work_id"] is None:
        return []
    own = _entry(statement)
    if found is None:
        if own.get("kind") == "work" and own.get("doi") != work["doi"]:
            return [(f"{where} (cited work {work['work_id']}): the log's entry says doi {own.get('doi')!r}, the "
                     f"record shows {work['doi']!r}, and the proofs give no identifier it comes from")]
        return []
    problems = _leaf_problems(f"{where} (identifier of work {work['work_id']})", found, {
        "kind": "work_identifier", "work": work["work_id"], "identifier_kind": "doi", "value": work["doi"]},
        checkpoint)
    if own.get("kind") == "work" and own.get("doi") and not own["doi"].startswith("10.48550/"):
        problems.append(f"{where} (cited work {work['work_id']}): shows doi {work['doi']!r} though the work's "
                        f"own is {own['doi']!r}")
    return problems


def _standing_problems(where: str, work_id: str | None, notice: dict, given: list[dict],
                       checkpoint: Checkpoint) -> list[str]:
    """Each receipt the notice shows against its leaf, and the events shown against the events those
    receipts found as logged: an event changed, added or dropped since is named."""
    problems, logged_events = [], []
    for shown in notice["source_receipts"]:
        label = f"{where} (standing: {shown['source']} receipt of {shown['observed_at']})"
        # A notice shows one receipt per source: found by it, so a receipt changed since is named as such.
        found = next((g for g in given if _entry(g["receipt"]).get("source") == shown["source"]), None)
        problems += _leaf_problems(label, found and found["receipt"], {
            "kind": "receipt", "work": work_id, "source": shown["source"], "observed_at": _z(shown["observed_at"])},
            checkpoint)
        if found is None or found["receipt"] is None:
            continue
        named = _entry(found["receipt"])["events"]
        events = [e for e in found["events"] if e is not None]
        if sorted(int(_entry(e)["id"]) for e in events) != sorted(named):
            problems.append(f"{label}: the proofs do not give the events its leaf names ({named})")
        for event in events:
            entry = _entry(event)
            problems += _leaf_problems(f"{label} event {entry['id']}", event, {"kind": "standing_event"}, checkpoint)
            logged_events.append({k: entry.get(k) for k in _EVENT_FIELDS})
    shown_events = [{k: e.get(k) for k in _EVENT_FIELDS} for e in notice["events"]]
    if notice["source_receipts"] and sorted(map(_key, shown_events)) != sorted(map(_key, logged_events)):
        missing = [e for e in shown_events if e not in logged_events]
        dropped = [e for e in logged_events if e not in shown_events]
        problems.append(f"{where} (standing): the events shown are not those its receipts found as logged "
                        f"(shown, not logged: {missing}; logged, not shown: {dropped})")
    return problems


def _key(event: dict) -> str:
    return json.dumps(event, sort_keys=True)


_EVENT_FIELDS = ("event_type", "notice_doi", "occurred_on", "reason", "source", "source_record_id", "subject_doi")


def _paper_problems(record: dict, given: dict, checkpoint: Checkpoint) -> list[str]:
    """The paper's snapshot and its citation measurements against their leaves."""
    paper = record["paper"]
    problems = _leaf_problems("paper (metadata snapshot)", given.get("snapshot"), {
        "kind": "snapshot", "arxiv_id": paper["arxiv_id"], "title": paper["title"],
        "submitted_at": paper["submitted_at"], "last_updated": paper["last_updated"],
        "latest_version": paper["latest_version"], "primary_category": paper["primary_category"],
        "observed_at": paper["snapshot_observed_at"]}, checkpoint)
    measured = given.get("measurements") or []
    for shown in record["external_citation_measurements"]:
        found = next((m for m in measured if _entry(m).get("source") == shown["source"]), None)   # one per source
        problems += _leaf_problems(f"paper ({shown['source']} measurement of {shown['observed_at']})", found, {
            "kind": "measurement", "arxiv_id": paper["arxiv_id"], "source": shown["source"],
            "count": shown["count"], "observed_at": shown["observed_at"]}, checkpoint)
    return problems


def consistency_problems(old: Checkpoint, new: Checkpoint, read_tile: Callable[[int, int], bytes]) -> list[str]:
    """Is `new` an extension of `old`? Proved from the newer tree's tiles (a truncated or forked log fails)."""
    if old.origin != new.origin:
        return [f"checkpoints of two logs: {old.origin} and {new.origin}"]
    if new.size < old.size:
        return [f"the log shrank: {old.size} leaves before, {new.size} now (truncated, or a fork)"]
    subtree = subtree_from_tiles(read_tile)
    try:
        if subtree(0, new.size) != new.root:
            return [f"the tiles do not hash to the checkpoint of {new.size}"]
        proof = consistency_proof(old.size, new.size, subtree) if old.size else []
    except (OSError, ValueError) as error:
        return [f"cannot read the log's tiles: {error}"]
    if old.size and not verify_consistency(old.size, new.size, old.root, new.root, proof):
        return [(f"the log of {new.size} does not extend the checkpoint of {old.size} held before: a leaf before "
                 f"index {old.size} was changed or the log forked")]
    return []
