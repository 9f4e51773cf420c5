"""C2SP signed-note with Ed25519 keys, and the tlog-checkpoint body it signs.

A note is text ending in a newline, a blank line, then one line per signature:
"— <key name> <base64(4-byte key hash || 64-byte signature)>". The key hash is the first four
bytes of SHA-256(name || "\\n" || 0x01 || public key); the verifier key string
"<name>+<hash hex>+<base64(0x01 || public key)>" is what Go's golang.org/x/mod/sumdb/note reads.
Pith signs its records with the same key, detached, and names it by the same key hash.
"""
import base64
import hashlib
from dataclasses import dataclass

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

ED25519 = b"\x01"
SIGNATURE_PREFIX = "\u2014 "          # em dash and a space


def key_hash(name: str, public_key: bytes) -> bytes:
    """The signed-note key hash: four bytes naming a (name, key) pair."""
    return hashlib.sha256(name.encode() + b"\n" + ED25519 + public_key).digest()[:4]


def key_id(name: str, public_key: bytes) -> str:
    """The key hash as eight hex digits, the id Pith's keys document and signatures use."""
    return key_hash(name, public_key).hex()


def verifier_key(name: str, public_key: bytes) -> str:
    """The vkey string of Go's note package: name+hash+base64(0x01 || key)."""
    return f"{name}+{key_id(name, public_key)}+{base64.b64encode(ED25519 + public_key).decode()}"


@dataclass(frozen=True)
class PublicKey:
    name: str
    key: bytes

    @property
    def id(self) -> str:
        return key_id(self.name, self.key)

    def verify(self, signature: bytes, message: bytes) -> bool:
        try:
            Ed25519PublicKey.from_public_bytes(self.key).verify(signature, message)
        except InvalidSignature:
            return False
        return True

    @classmethod
    def from_verifier_key(cls, vkey: str) -> "PublicKey":
        name, hash_hex, encoded = vkey.rsplit("+", 2)
        raw = base64.b64decode(encoded)
        if raw[:1] != ED25519 or len(raw) != 33:
            raise ValueError("not an Ed25519 verifier key")
        key = cls(name, raw[1:])
        if key.id != hash_hex:
            raise ValueError("the verifier key's hash does not match its name and key")
        return key


def signature_line(name: str, public_key: bytes, signature: bytes) -> str:
    return f"{SIGNATURE_PREFIX}{name} {base64.b64encode(key_hash(name, public_key) + signature).decode()}\n"


class NoteError(ValueError):
    pass


def open_note(note: str, keys: list[PublicKey]) -> str:
    """The note's text, if one of its signatures verifies with one of `keys`; NoteError otherwise."""
    text, separator, signatures = note.rpartition("\n\n")
    if not separator or not text:
        raise NoteError("not a signed note: no blank line before the signatures")
    text += "\n"
    by_hash = {(k.name, key_hash(k.name, k.key)): k for k in keys}
    seen = False
    for line in signatures.splitlines():
        if not line.startswith(SIGNATURE_PREFIX):
            raise NoteError(f"malformed signature line {line!r}")
        name, _, encoded = line[len(SIGNATURE_PREFIX):].rpartition(" ")
        raw = base64.b64decode(encoded)
        key = by_hash.get((name, raw[:4]))
        if key is None:
            continue
        seen = True
        if key.verify(raw[4:], text.encode()):
            return text
    raise NoteError("signed by a key that fails to verify" if seen else "not signed by any known key")


@dataclass(frozen=True)
class Checkpoint:
    """A C2SP tlog-checkpoint: origin, tree size, root hash, then extension lines."""
    origin: str
    size: int
    root: bytes
    extensions: tuple[str, ...] = ()

    def text(self) -> str:
        lines = [self.origin, str(self.size), base64.b64encode(self.root).decode(), *self.extensions]
        return "\n".join(lines) + "\n"

    @classmethod
    def parse(cls, text: str) -> "Checkpoint":
        lines = text.rstrip("\n").split("\n")
        if len(lines) < 3 or not lines[1].isdigit():
            raise NoteError("not a checkpoint: origin, size and root hash lines expected")
        root = base64.b64decode(lines[2])
        if len(root) != 32:
            raise NoteError("a checkpoint's root hash is 32 bytes")
        return cls(lines[0], int(lines[1]), root, tuple(lines[3:]))
