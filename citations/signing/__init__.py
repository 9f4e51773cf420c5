"""Pith's Ed25519 signing key: detached signatures of records and dumps, and signed notes (checkpoints).

The private key lives in a file (settings.SIGNING_KEY_FILE, from PITH_SIGNING_KEY), never in the
database or a response; `manage.py create_signing_key` writes it. Its public half, and every key
used before it, are listed with their validity periods in the public keys file
(settings.SIGNING_PUBLIC_KEYS_FILE), served at /.well-known/pith-keys.json: rotation closes the old
key's period and keeps it listed, so every signature ever made still verifies. Keys are named by
their signed-note key hash over (settings.LOG_ORIGIN, public key), the same id the log's
checkpoints carry. Signing is skipped, not faked, while no key is configured.
"""
import base64
import hashlib
import json
import os
import threading
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from django.conf import settings

from pith_verify.note import PublicKey, key_id, signature_line, verifier_key

KEYS_SCHEMA = "pith.signing-keys.v1"
SIGNATURE_SCHEMA = "pith.record-signature.v1"


@dataclass(frozen=True)
class Signature:
    key_id: str
    signature: bytes

    @property
    def encoded(self) -> str:
        return base64.b64encode(self.signature).decode()

    def header(self) -> str:
        """The Pith-Signature header: algorithm, key id and base64 signature of the response body."""
        return f'ed25519; keyid="{self.key_id}"; sig="{self.encoded}"'


@dataclass(frozen=True)
class SigningKey:
    name: str
    private: Ed25519PrivateKey
    public: bytes

    @property
    def id(self) -> str:
        return key_id(self.name, self.public)

    def sign(self, data: bytes) -> Signature:
        return Signature(self.id, self.private.sign(data))

    def sign_note(self, text: str) -> str:
        """A C2SP signed note of `text` (which ends in a newline)."""
        return text + "\n" + signature_line(self.name, self.public, self.private.sign(text.encode()))


_loaded: dict = {}
_lock = threading.Lock()


def signing_key() -> SigningKey | None:
    """The configured key, read once per process and again when its file changes; None without one."""
    path = Path(settings.SIGNING_KEY_FILE)
    try:
        stamp = (str(path), path.stat().st_mtime_ns, settings.LOG_ORIGIN)
    except FileNotFoundError:
        return None
    with _lock:
        if _loaded.get("stamp") != stamp:
            private = serialization.load_pem_private_key(path.read_bytes(), password=None)
            if not isinstance(private, Ed25519PrivateKey):
                raise ValueError(f"{path} does not hold an Ed25519 private key")
            public = private.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
            _loaded.update(stamp=stamp, key=SigningKey(settings.LOG_ORIGIN, private, public))
        return _loaded["key"]


def sign(data: bytes) -> Signature | None:
    """A detached signature of these exact bytes, or None while no key is configured."""
    key = signing_key()
    return key.sign(data) if key else None


def signature_document(body: bytes, signature: Signature) -> dict:
    """What /paper/<id>/citation-record.json.sig serves: the signature and the body's digest and size."""
    return {"schema": SIGNATURE_SCHEMA, "algorithm": "ed25519", "key_id": signature.key_id,
            "signature": signature.encoded, "signed_bytes": len(body),
            "signed_sha256": hashlib.sha256(body).hexdigest(), "keys": "/.well-known/pith-keys.json"}


def public_keys() -> list[dict]:
    """Every key Pith has signed with, oldest first, with its validity period."""
    path = Path(settings.SIGNING_PUBLIC_KEYS_FILE)
    return json.loads(path.read_text())["keys"] if path.is_file() else []


def keys_document() -> dict:
    """The public keys document (/.well-known/pith-keys.json)."""
    return {"schema": KEYS_SCHEMA, "origin": settings.LOG_ORIGIN, "keys": public_keys()}


def known_public_keys() -> list[PublicKey]:
    return [PublicKey(k["name"], base64.b64decode(k["public_key"])) for k in public_keys()]


def create_signing_key(*, now: datetime, key_file: Path | None = None, keys_file: Path | None = None,
                       name: str | None = None) -> dict:
    """A new key: its private half written to key_file (mode 0600), its public half listed as valid from
    now, and the key it replaces listed as valid until now. Returns the new key's public entry."""
    key_file = Path(key_file or settings.SIGNING_KEY_FILE)
    keys_file = Path(keys_file or settings.SIGNING_PUBLIC_KEYS_FILE)
    name = name or settings.LOG_ORIGIN
    private = Ed25519PrivateKey.generate()
    public = private.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    key_file.parent.mkdir(parents=True, exist_ok=True)
    keys_file.parent.mkdir(parents=True, exist_ok=True)
    listed = json.loads(keys_file.read_text())["keys"] if keys_file.is_file() else []
    for old in listed:
        if old["valid_until"] is None:
            old["valid_until"] = _render(now)
    entry = {"key_id": key_id(name, public), "name": name, "algorithm": "ed25519",
             "public_key": base64.b64encode(public).decode(), "note_verifier_key": verifier_key(name, public),
             "valid_from": _render(now), "valid_until": None}
    listed.append(entry)
    pem = private.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption())
    temporary = key_file.with_name(key_file.name + ".tmp")
    with open(os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "wb") as handle:
        handle.write(pem)
    _write_atomically(keys_file, json.dumps({"schema": KEYS_SCHEMA, "keys": listed}, indent=2).encode() + b"\n")
    os.replace(temporary, key_file)     # the public half is listed before anything is signed with it
    return entry


def _write_atomically(path: Path, data: bytes) -> None:
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_bytes(data)
    os.replace(temporary, path)


def _render(value: datetime) -> str:
    return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
