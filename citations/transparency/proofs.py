"""What a client needs to check that every observation a record shows was in the log in time.

For a record built as of T: the first checkpoint published at or after T, and for each observation
shown, the leaf of its reference and the leaf of the resolution link the record shows, each with its
entry bytes and an RFC 6962 inclusion proof in that checkpoint's tree. A leaf appended after that
checkpoint (an observation written later, though dated earlier: a back-dated import) is listed with
its index and no proof, so the client sees it; an observation never logged is listed as such.
"""
import base64
import json

from citations.models import LeafKind, LogCheckpoint, LogLeaf, PaperReferenceLink
from citations.records.timestamps import parse_z, render_z
from citations.transparency.sequencer import tiles
from pith_verify.merkle import inclusion_proof

SCHEMA = "pith.record-proofs.v1"


class NotYetCheckpointed(Exception):
    """No checkpoint has been published since the record's as_of: the next one comes within a minute."""


def record_proofs(body: bytes) -> dict:
    """The proofs document of a record's exact bytes."""
    record = json.loads(body)
    as_of = parse_z(record["as_of"])
    checkpoint = LogCheckpoint.objects.filter(published_at__gte=as_of).order_by("published_at", "size").first()
    if checkpoint is None:
        raise NotYetCheckpointed(f"no checkpoint published since {record['as_of']} yet")
    ids = list(dict.fromkeys(o["observation_id"] for o in record["outbound"] + record["inbound"]))
    shown = {str(reference): link for reference, link in PaperReferenceLink.objects.filter(reference_id__in=ids)
             .current(as_of).values_list("reference_id", "id")}
    wanted = [(LeafKind.REFERENCE, i) for i in ids] + [(LeafKind.LINK, str(link)) for link in shown.values()]
    leaves = {(leaf.kind, leaf.observation): leaf for leaf in
              LogLeaf.objects.filter(observation__in=[o for _, o in wanted])}
    subtree = tiles().subtree(checkpoint.size)

    def proof(kind: str, observation: str) -> dict | None:
        leaf = leaves.get((kind, observation))
        if leaf is None:
            return None
        found = {"leaf_index": leaf.leaf_index, "entry": bytes(leaf.entry).decode(),
                 "logged_at": render_z(leaf.logged_at)}
        if leaf.leaf_index < checkpoint.size:
            found["inclusion"] = [base64.b64encode(h).decode()
                                  for h in inclusion_proof(leaf.leaf_index, checkpoint.size, subtree)]
        return found

    return {
        "schema": SCHEMA,
        "record": {"arxiv_id": record["paper"]["arxiv_id"], "as_of": record["as_of"],
                   "context_digest": record["context_digest"]},
        "checkpoint": checkpoint.note,
        "checkpoint_published_at": render_z(checkpoint.published_at),
        "log": {"checkpoint": "/log/checkpoint", "tiles": "/log/tile/", "keys": "/.well-known/pith-keys.json"},
        "observations": [{"observation_id": i, "reference": proof(LeafKind.REFERENCE, i),
                          "resolution": proof(LeafKind.LINK, str(shown[i])) if i in shown else None}
                         for i in ids],
    }
