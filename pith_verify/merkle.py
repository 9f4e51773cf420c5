"""RFC 6962 Merkle tree hashing and proofs, and the C2SP tlog-tiles layout.

The one text of these rules: Pith's log (citations/transparency/) builds its tree with these
functions and the verifier checks proofs with them, so a server and a client cannot drift apart.
Standard library only.
"""
import hashlib
from collections.abc import Callable, Sequence

TILE_HEIGHT = 8
TILE_WIDTH = 1 << TILE_HEIGHT           # hashes in a full tile
HASH_SIZE = 32


def leaf_hash(data: bytes) -> bytes:
    """RFC 6962: SHA-256(0x00 || entry)."""
    return hashlib.sha256(b"\x00" + data).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    """RFC 6962: SHA-256(0x01 || left || right)."""
    return hashlib.sha256(b"\x01" + left + right).digest()


def largest_power_below(n: int) -> int:
    """The largest power of two strictly less than n (n > 1)."""
    return 1 << ((n - 1).bit_length() - 1)


def root_of(hashes: Sequence[bytes]) -> bytes:
    """MTH of a list of leaf (or subtree) hashes; the empty tree's hash for none."""
    if not hashes:
        return hashlib.sha256(b"").digest()
    level = list(hashes)
    # Pairwise from the left, an odd last node carried up: the same tree as RFC 6962's split
    # at the largest power of two.
    while len(level) > 1:
        paired = [node_hash(level[i], level[i + 1]) for i in range(0, len(level) - 1, 2)]
        if len(level) % 2:
            paired.append(level[-1])
        level = paired
    return level[0]


# --- proofs, over a function giving MTH(D[lo:hi]) -----------------------------------------------

SubtreeHash = Callable[[int, int], bytes]


def inclusion_proof(index: int, size: int, subtree: SubtreeHash) -> list[bytes]:
    """RFC 6962 PATH(index, D[0:size])."""
    if not 0 <= index < size:
        raise ValueError(f"leaf {index} is not in a tree of {size}")
    proof: list[bytes] = []
    lo, hi = 0, size
    while hi - lo > 1:
        k = largest_power_below(hi - lo)
        if index < lo + k:
            proof.append(subtree(lo + k, hi))
            hi = lo + k
        else:
            proof.append(subtree(lo, lo + k))
            lo = lo + k
    return proof[::-1]


def consistency_proof(old: int, new: int, subtree: SubtreeHash) -> list[bytes]:
    """RFC 6962 PROOF(old, D[0:new])."""
    if not 0 < old <= new:
        raise ValueError(f"no consistency proof from {old} to {new}")
    if old == new:
        return []

    def sub(m: int, lo: int, hi: int, complete: bool) -> list[bytes]:
        if m == hi - lo:
            return [] if complete else [subtree(lo, hi)]
        k = largest_power_below(hi - lo)
        if m <= k:
            return sub(m, lo, lo + k, complete) + [subtree(lo + k, hi)]
        return sub(m - k, lo + k, hi, False) + [subtree(lo, lo + k)]

    return sub(old, 0, new, True)


def verify_inclusion(leaf: bytes, index: int, size: int, proof: Sequence[bytes], root: bytes) -> bool:
    """RFC 9162 section 2.1.3.2: does leaf hash `leaf` sit at `index` of the tree of `size` with `root`?"""
    if not 0 <= index < size:
        return False
    fn, sn, r = index, size - 1, leaf
    for p in proof:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            if not fn & 1:
                while fn and not fn & 1:
                    fn >>= 1
                    sn >>= 1
        else:
            r = node_hash(r, p)
        fn >>= 1
        sn >>= 1
    return sn == 0 and r == root


def verify_consistency(old: int, new: int, old_root: bytes, new_root: bytes, proof: Sequence[bytes]) -> bool:
    """RFC 9162 section 2.1.4.2: is the tree (new, new_root) an extension of (old, old_root)?"""
    if old == new:
        return old_root == new_root and not proof
    if not 0 < old < new or not proof:
        return False
    proof = list(proof)
    if old & (old - 1) == 0:             # a power of two: the old root is the first node
        proof.insert(0, old_root)
    fn, sn = old - 1, new - 1
    while fn & 1:
        fn >>= 1
        sn >>= 1
    fr = sr = proof[0]
    for c in proof[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            fr = node_hash(c, fr)
            sr = node_hash(c, sr)
            if not fn & 1:
                while fn and not fn & 1:
                    fn >>= 1
                    sn >>= 1
        else:
            sr = node_hash(sr, c)
        fn >>= 1
        sn >>= 1
    return sn == 0 and fr == old_root and sr == new_root


# --- C2SP tlog-tiles ---------------------------------------------------------------------------

def tile_index_path(n: int) -> str:
    """The tile index as C2SP writes it: three-digit groups, every group but the last prefixed x."""
    groups = [f"{n % 1000:03d}"]
    n //= 1000
    while n:
        groups.append(f"x{n % 1000:03d}")
        n //= 1000
    return "/".join(reversed(groups))


def tile_path(level: int | str, n: int, width: int = TILE_WIDTH) -> str:
    """tile/<L>/<N>[.p/<W>]; level "entries" for the entry bundles."""
    path = f"tile/{level}/{tile_index_path(n)}"
    return path if width == TILE_WIDTH else f"{path}.p/{width}"


def entries_in_level(level: int, size: int) -> int:
    """Hashes a level of tiles holds for a tree of `size` leaves: one per complete subtree of 2^(8L) leaves."""
    return size >> (TILE_HEIGHT * level)


def bundle(entries: Sequence[bytes]) -> bytes:
    """An entry bundle: each entry as a big-endian 16-bit length and its bytes."""
    return b"".join(len(e).to_bytes(2, "big") + e for e in entries)


def unbundle(data: bytes) -> list[bytes]:
    """The entries of a bundle."""
    entries, at = [], 0
    while at < len(data):
        length = int.from_bytes(data[at:at + 2], "big")
        entries.append(data[at + 2:at + 2 + length])
        at += 2 + length
    return entries


def subtree_from_tiles(read_tile: Callable[[int, int], bytes]) -> SubtreeHash:
    """MTH(D[lo:hi]) computed from tiles: read_tile(level, n) gives tile n of a level (full or partial).

    An aligned subtree of 2^k leaves is 2^(k mod 8) hashes of level k div 8, hashed together;
    any other range splits as RFC 6962 does into such subtrees.
    """
    def aligned(lo: int, count: int) -> bytes:
        k = count.bit_length() - 1
        level, rest = divmod(k, TILE_HEIGHT)
        first = lo >> (TILE_HEIGHT * level)
        hashes = []
        for e in range(first, first + (1 << rest)):
            tile = read_tile(level, e // TILE_WIDTH)
            at = (e % TILE_WIDTH) * HASH_SIZE
            hashes.append(tile[at:at + HASH_SIZE])
        return root_of(hashes)

    def subtree(lo: int, hi: int) -> bytes:
        n = hi - lo
        if n & (n - 1) == 0 and lo % n == 0:
            return aligned(lo, n)
        k = largest_power_below(n)
        return node_hash(subtree(lo, lo + k), subtree(lo + k, hi))

    return subtree
