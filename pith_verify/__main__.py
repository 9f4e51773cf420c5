"""python -m pith_verify RECORD [options]: digests, signature, inclusion and log consistency, offline.

RECORD is a file or an http(s) address of /paper/<id>/citation-record.json. Beside a file, RECORD.sig
and RECORD.proofs.json are used when present; from an address, the Pith-Signature header, the
proofs of that very as_of and the keys of the same site. --log URL|DIR reads the log's newest
checkpoint and tiles to check it extends the proofs' checkpoint; --since FILE, a checkpoint you kept
before, to check the log still extends it. Exit 0 when every check run passed, 1 otherwise.
"""
import argparse
import base64
import json
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

from pith_verify.merkle import TILE_WIDTH, entries_in_level, tile_path
from pith_verify.note import NoteError, PublicKey
from pith_verify.proofs import checkpoint_of, checkpoint_time, consistency_problems, proof_problems
from pith_verify.record import digest_problems, signature_of


def fetch(where: str) -> tuple[bytes, dict]:
    if where.startswith(("http://", "https://")):
        with urllib.request.urlopen(where, timeout=30) as response:
            return response.read(), dict(response.headers)
    return Path(where).read_bytes(), {}


def optional(where: str | None) -> bytes | None:
    if not where:
        return None
    try:
        return fetch(where)[0]
    except (OSError, ValueError):
        return None


def keys_from(document: bytes) -> list[PublicKey]:
    return [PublicKey(k["name"], base64.b64decode(k["public_key"])) for k in json.loads(document)["keys"]]


class Log:
    """A log read from a site (/log/...) or a directory (settings.LOG_DIR, or a mirror of it)."""

    def __init__(self, where: str):
        self.where = where.rstrip("/")

    def read(self, name: str) -> bytes:
        return fetch(f"{self.where}/{name}")[0]

    def tile_reader(self, size: int):
        cache = {}

        def read_tile(level: int, n: int) -> bytes:
            if (level, n) not in cache:
                width = min(TILE_WIDTH, entries_in_level(level, size) - n * TILE_WIDTH)
                try:
                    data = self.read(tile_path(level, n, width))
                except OSError:
                    data = self.read(tile_path(level, n))[:width * 32]
                cache[level, n] = data
            return cache[level, n]
        return read_tile


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pith_verify", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("record", nargs="?")
    parser.add_argument("--proofs", help="the record's proofs (default: beside it)")
    parser.add_argument("--signature", help="a .sig document or a Pith-Signature header value")
    parser.add_argument("--keys", help="the public keys document (default: the site's /.well-known/pith-keys.json)")
    parser.add_argument("--log", help="the log: https://site/log or a directory with checkpoint and tile/")
    parser.add_argument("--since", help="a checkpoint held from before: the log must still extend it")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    problems, passed = [], []
    site = path = None
    query = ""
    if args.record and args.record.startswith(("http://", "https://")):
        parts = urllib.parse.urlsplit(args.record)
        site, path = f"{parts.scheme}://{parts.netloc}", parts.path
        query = f"?{parts.query}" if parts.query else ""
    keys_text = optional(args.keys or (site and f"{site}/.well-known/pith-keys.json"))
    keys = keys_from(keys_text) if keys_text else []
    if not keys:
        problems.append("no public keys: give --keys (a pith-keys.json)")
    held = None
    if args.record:
        body, headers = fetch(args.record)
        record = json.loads(body)
        found = digest_problems(body)
        problems += found
        if not found:
            passed.append("digests: the body is canonical and every digest matches")
        signature = args.signature or headers.get("Pith-Signature") or (optional(args.record + ".sig") or b"").decode()
        if not signature:
            problems.append("signature: none given or found")
        else:
            key_id, raw = signature_of(signature)
            key = next((k for k in keys if k.id == key_id), None)
            if key is None:
                problems.append(f"signature: key {key_id} is not among the public keys")
            elif not key.verify(raw, body):
                problems.append(f"signature: does not verify with key {key_id}: these are not the bytes Pith signed")
            else:
                passed.append(f"signature: Ed25519, key {key_id}")
        # From a site: the proofs of the very record fetched. The current record (no ?as_of) is built at
        # a moment inside its as_of's minute, so its proofs come from the same current record, not from
        # a rebuild as of the minute; a past record's from the same ?as_of.
        proofs_at = args.proofs or (f"{site}{path.removesuffix('.json')}.proofs.json{query}"
                                    if site else str(Path(args.record)) + ".proofs.json")
        proofs_text = optional(proofs_at)
        if proofs_text is None:
            problems.append(f"inclusion: no proofs at {proofs_at}")
        else:
            found, held = proof_problems(record, json.loads(proofs_text), keys)
            problems += found
            if not found:
                passed.append(f"inclusion: {len(record['outbound']) + len(record['inbound'])} observations, with the "
                              "works, standing receipts and events, snapshot and measurements they show, in the "
                              f"log by the checkpoint of {held.size} signed at {checkpoint_time(held)}, the first "
                              f"after the record's as_of {record['as_of']}")
    if args.since:
        try:
            held = checkpoint_of(Path(args.since).read_text(), keys)
        except NoteError as error:
            problems.append(f"--since: {error}")
    log_at = args.log or (site and f"{site}/log")
    if log_at and held is not None:
        log = Log(log_at)
        try:
            newest = checkpoint_of(log.read("checkpoint").decode(), keys)
        except (OSError, NoteError) as error:
            problems.append(f"consistency: the log's newest checkpoint: {error}")
        else:
            found = consistency_problems(held, newest, log.tile_reader(newest.size))
            problems += found
            if not found:
                passed.append(f"consistency: the log of {newest.size} extends the checkpoint of {held.size}")
    for line in passed:
        print(f"ok    {line}")
    for line in problems:
        print(f"FAIL  {line}")
    print(f"{'FAILED' if problems else 'verified'} in {(time.perf_counter() - started) * 1000:.1f} ms")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
