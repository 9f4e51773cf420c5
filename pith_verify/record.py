"""The record's own digests (the rules of ../shared/tools/verify_record.py) and its detached signature."""
import base64
import hashlib
import json


def canonical(value) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def digest(value) -> str:
    return "sha256:" + hashlib.sha256(canonical(value)).hexdigest()


def digest_problems(body: bytes) -> list[str]:
    """Canonical bytes, each observation_digest and the context_digest."""
    record = json.loads(body)
    problems = []
    if canonical(record) != body:
        problems.append("the body is not canonical JSON (sorted keys, compact, UTF-8)")
    rest = {k: v for k, v in record.items() if k not in ("as_of", "context_digest")}
    if digest(rest) != record.get("context_digest"):
        problems.append("context_digest does not match the record")
    for side in ("outbound", "inbound"):
        for n, observation in enumerate(record.get(side, [])):
            body_only = {k: v for k, v in observation.items() if k != "observation_digest"}
            if digest(body_only) != observation.get("observation_digest"):
                problems.append(f"{side}[{n}] ({observation.get('observation_id')}): observation_digest does not "
                                "match its content")
    return problems


def signature_of(document_or_header: str) -> tuple[str, bytes]:
    """(key id, signature) from a .sig document (JSON) or a Pith-Signature header value."""
    text = document_or_header.strip()
    if text.startswith("{"):
        document = json.loads(text)
        return document["key_id"], base64.b64decode(document["signature"])
    fields = dict(part.strip().split("=", 1) for part in text.split(";")[1:])
    return fields["keyid"].strip('"'), base64.b64decode(fields["sig"].strip('"'))
