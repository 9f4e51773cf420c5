"""What a client needs to check that every observation a record shows was in the log in time.

For a record built as of T: the first checkpoint published at or after T, and for each observation
shown, the leaf of its reference and the leaf of the resolution link the record shows, each with its
entry bytes and an RFC 6962 inclusion proof in that checkpoint's tree. A leaf appended after that
checkpoint (an observation written later, though dated earlier: a back-dated import) is listed with
its index and no proof, so the client sees it; an observation never logged is listed as such.
"""
import base64
import json
from datetime import datetime

from django.utils import timezone

from citations.models import LeafKind, LogCheckpoint, LogLeaf, PaperReferenceLink
from citations.records.timestamps import parse_z, render_z
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
    ids = list(dict.fromkeys(o["observation_id"] for o in record["outbound"] + record["inbound"]))
    shown = _links_shown(record, ids)
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
