"""A record's observations held against the log: each leaf's entry against what the record shows,
its inclusion in the checkpoint, and consistency between two checkpoints."""
import base64
import json
from collections.abc import Callable

from pith_verify.merkle import consistency_proof, leaf_hash, subtree_from_tiles, verify_consistency, verify_inclusion
from pith_verify.note import Checkpoint, NoteError, PublicKey, open_note


def checkpoint_of(note: str, keys: list[PublicKey]) -> Checkpoint:
    return Checkpoint.parse(open_note(note, keys))


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
    if stamped is None or stamped < record["as_of"]:
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
            problems += _leaf_problems(f"{where} (reference)", proof["reference"], {
                "kind": "reference", "id": oid, "reference_index": citation["reference_index"],
                "source": citation["source"], "observed_at": citation["source_observed_at"],
                "citing_arxiv_id": citation["citing_paper"]["arxiv_id"],
                "citing_version": citation["citing_paper"]["version"]}, checkpoint)
            resolution = observation["resolution"]
            problems += _leaf_problems(f"{where} (resolution)", proof["resolution"], {
                "kind": "link", "reference": oid, "state": resolution["status"],
                "resolver_source": resolution["resolver_source"], "observed_at": resolution["observed_at"]},
                checkpoint)
    return problems, checkpoint


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
