"""The log's tree as C2SP tlog-tiles files: tile/<L>/<N>[.p/<W>] of hashes, tile/entries/<N>[.p/<W>] of entries.

A full tile never changes once written (served as immutable). A partial tile of width W is written
for each checkpoint whose tree ends inside it and never changes either; once its tile is full the
partials go (C2SP allows it: a client of an older checkpoint reads the full tile's first W hashes).
Appending touches only the right edge: the last tile of each level, one level per 256x more leaves.
"""
import os
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

from pith_verify.merkle import (
    HASH_SIZE,
    TILE_HEIGHT,
    TILE_WIDTH,
    bundle,
    entries_in_level,
    root_of,
    subtree_from_tiles,
    tile_path,
    unbundle,
)

ENTRIES = "entries"


class TileStore:
    """Tiles under one directory (settings.LOG_DIR: shared storage when web servers are several)."""

    def __init__(self, root: Path):
        self.root = Path(root)

    def path(self, level, n: int, width: int = TILE_WIDTH) -> Path:
        return self.root / tile_path(level, n, width)

    def read(self, level, n: int, width: int) -> bytes:
        """Tile n of a level as a tree whose edge leaves it `width` wide: the partial, else the full one cut."""
        if width < TILE_WIDTH:
            partial = self.path(level, n, width)
            if partial.is_file():
                return partial.read_bytes()
        data = self.path(level, n).read_bytes()
        if level == ENTRIES:
            return bundle(unbundle(data)[:width])
        return data[:width * HASH_SIZE]

    def write(self, level, n: int, width: int, data: bytes) -> None:
        path = self.path(level, n, width)
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f".{path.name}.tmp")
        temporary.write_bytes(data)
        os.replace(temporary, path)
        if width == TILE_WIDTH:
            partials = path.with_name(path.name + ".p")
            if partials.is_dir():
                for old in partials.iterdir():
                    old.unlink(missing_ok=True)
                partials.rmdir()

    def holds(self, size: int) -> bool:
        """Whether the tiles of a tree of `size` leaves are here (its right edge, the last written, is)."""
        if size == 0:
            return True
        last = (size - 1) // TILE_WIDTH
        width = size - last * TILE_WIDTH
        return self.path(0, last, width).is_file() or self.path(0, last).is_file()

    def write_checkpoint(self, note: bytes) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        temporary = self.root / ".checkpoint.tmp"
        temporary.write_bytes(note)
        os.replace(temporary, self.root / "checkpoint")

    def hashes_reader(self, size: int):
        """read_tile(level, n) for the tree of `size` leaves, remembering what it read."""
        @lru_cache(maxsize=4096)
        def read_tile(level: int, n: int) -> bytes:
            count = entries_in_level(level, size)
            return self.read(level, n, min(TILE_WIDTH, count - n * TILE_WIDTH))
        return read_tile

    def subtree(self, size: int):
        """MTH(D[lo:hi]) for lo < hi <= size, read from the tiles."""
        return subtree_from_tiles(self.hashes_reader(size))

    def root_hash(self, size: int) -> bytes:
        return self.subtree(size)(0, size) if size else root_of([])

    def append(self, old_size: int, leaf_hashes: Sequence[bytes], entries: Sequence[bytes]) -> int:
        """Extend the tree of old_size leaves by these; returns the new size. Rewriting the same leaves
        at the same indexes writes the same bytes, so a sequencer rolled back after this is harmless."""
        new_size = old_size + len(leaf_hashes)
        self._extend(ENTRIES, old_size, new_size, list(entries), entry_level=True)
        level, new = 0, [h for h in leaf_hashes]
        while new:
            old_count, new_count = entries_in_level(level, old_size), entries_in_level(level, new_size)
            data = self._extend(level, old_count, new_count, new)
            first = old_count // TILE_WIDTH
            # Tiles that became full now: each adds one hash to the level above.
            new = [root_of([data[t - first][i:i + HASH_SIZE] for i in range(0, TILE_WIDTH * HASH_SIZE, HASH_SIZE)])
                   for t in range(first, new_count // TILE_WIDTH)]
            level += 1
        return new_size

    def _extend(self, level, old_count: int, new_count: int, new: list, entry_level: bool = False) -> list[bytes]:
        """Write the tiles of a level from old_count to new_count items; returns each touched tile's bytes."""
        first, at = old_count // TILE_WIDTH, old_count % TILE_WIDTH
        items = []
        if at:
            edge = self.read(level, first, at)
            items = unbundle(edge) if entry_level else [edge[i:i + HASH_SIZE] for i in range(0, at * HASH_SIZE, HASH_SIZE)]
        items += new
        written = []
        for t in range(first, -(-new_count // TILE_WIDTH)):
            chunk = items[(t - first) * TILE_WIDTH:(t - first + 1) * TILE_WIDTH]
            data = bundle(chunk) if entry_level else b"".join(chunk)
            self.write(level, t, len(chunk), data)
            written.append(data)
        return written


assert TILE_WIDTH == 1 << TILE_HEIGHT
