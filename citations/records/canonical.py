"""Canonical JSON and the record's sha256 digests.

The contract defines canonical JSON as Python's
json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).
orjson with OPT_SORT_KEYS writes the same bytes for the values a record holds
(str, int, bool, None, lists, dicts with str keys) about ten times faster;
tests/records/test_canonical.py holds the two encoders to that, and
`reference_canonical` stays here as the definition they are checked against.
"""
import hashlib
import json

import orjson

OBSERVATION_DIGEST_KEY = "observation_digest"
CONTEXT_EXCLUDED_KEYS = ("as_of", "context_digest")


def canonical_bytes(value) -> bytes:
    """The canonical UTF-8 encoding of a JSON value."""
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


def reference_canonical(value) -> bytes:
    """The contract's own definition, slower; used by tests and never on a hot path."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def sha256_digest(value) -> str:
    """'sha256:<hex>' of the canonical encoding."""
    return "sha256:" + hashlib.sha256(canonical_bytes(value)).hexdigest()


def observation_digest(observation: dict) -> str:
    """Digest of an observation without its own observation_digest key."""
    return sha256_digest({k: v for k, v in observation.items() if k != OBSERVATION_DIGEST_KEY})


def context_digest(record: dict) -> str:
    """Digest of a record without as_of and context_digest, so the build time alone does not change it."""
    return sha256_digest({k: v for k, v in record.items() if k not in CONTEXT_EXCLUDED_KEYS})
