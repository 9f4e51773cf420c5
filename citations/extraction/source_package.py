"""Reading an arXiv source package safely: the .tex, .bbl and .bib files in it, as bytes.

    read_package(source) -> ({member name: bytes}, notes)

arXiv serves a paper's "source" as a gzipped tar, a plain tar, or (single-file submissions) the
gzipped .tex itself; the kind is told by magic bytes, never by file name.

Everything stays in memory and nothing is written to disk. Every byte inflated is counted against
the caps below while it streams, so a gzip bomb is refused long before it is inflated, and a
package with links, device files or paths that climb out of it is refused whole (SourceRefused).
"""
import gzip
import io
import os
import posixpath
import re
import tarfile
import zlib
from pathlib import PurePosixPath
from typing import BinaryIO

MAX_PACKAGE_BYTES = 200 * 1024 * 1024  # all that the package inflates to, headers included
MAX_MEMBER_BYTES = 100 * 1024 * 1024   # one file, as its tar header declares it
MAX_TEX_BYTES = 32 * 1024 * 1024       # one .tex/.bbl/.bib held in memory to be parsed
MAX_MEMBERS = 10_000
READ_CHUNK = 64 * 1024

TEX_SUFFIXES = (".tex", ".bbl", ".bib")
# arXiv's single gzipped .tex carries no file name worth keeping (gzip's FNAME is the arXiv id).
SINGLE_FILE_NAME = "main.tex"


class SourceRefused(ValueError):
    """The package is unsafe, broken or holds no TeX; the message says which in plain words."""


def read_package(source: bytes | str | os.PathLike) -> tuple[dict[str, bytes], list[str]]:
    """The TeX files (.tex, .bbl, .bib) of a package given as bytes or a path, and notes on it."""
    if isinstance(source, (bytes, bytearray)):
        return _read_stream(io.BytesIO(source))
    with open(source, "rb") as raw:
        return _read_stream(raw)


_GZIP_MAGIC = b"\x1f\x8b"
_KNOWN_MAGIC = {b"%PDF": "a PDF", b"%!PS": "a PostScript file", b"PK\x03\x04": "a zip archive",
                b"BZh": "a bzip2 file", b"\xfd7zXZ": "an xz file", b"\x89PNG": "a PNG image"}


def _read_stream(raw: BinaryIO) -> tuple[dict[str, bytes], list[str]]:
    magic = raw.read(8)
    raw.seek(0)
    gzipped = magic.startswith(_GZIP_MAGIC)
    try:
        stream = _CappedStream(gzip.GzipFile(fileobj=raw, mode="rb") if gzipped else raw)
        head = stream.read_up_to(tarfile.BLOCKSIZE)
        if _is_tar_header(head):
            stream.unread(head)
            return _read_tar(stream)
        if not gzipped:
            raise SourceRefused(f"not a gzip or tar file{_looks_like(magic)}")
        if kind := _looks_like(head):
            raise SourceRefused(f"no TeX files: the package is a single gzipped file{kind}")
        return {SINGLE_FILE_NAME: _read_single_file(stream, head)}, ["a single gzipped .tex"]
    except (tarfile.TarError, EOFError, zlib.error, OSError) as exc:
        raise SourceRefused(f"the package is truncated or corrupt ({exc})") from exc


def _looks_like(data: bytes) -> str:
    for magic, kind in _KNOWN_MAGIC.items():
        if data.startswith(magic):
            return f" (it is {kind})"
    return ""


def _is_tar_header(block: bytes) -> bool:
    try:
        tarfile.TarInfo.frombuf(block, "utf-8", "surrogateescape")
    except tarfile.HeaderError:
        return False
    return True


class _CappedStream:
    """Reads in bounded chunks and refuses once more than MAX_PACKAGE_BYTES have come out.

    Counting what comes out, not what goes in, is what stops a gzip bomb: 300 KB of gzip can
    inflate to 300 MB, and this raises at the cap while the rest is still uninflated.
    """

    def __init__(self, inner: BinaryIO):
        self._inner = inner
        self._count = 0
        self._pending = b""

    def read(self, size: int = -1) -> bytes:
        if size is None or size < 0:
            raise ValueError("read only in bounded chunks")  # tarfile's stream mode never asks
        if self._pending:
            data, self._pending = self._pending[:size], self._pending[size:]
            return data
        data = self._inner.read(min(size, READ_CHUNK))
        self._count += len(data)
        if self._count > MAX_PACKAGE_BYTES:
            raise SourceRefused(f"the package inflates to more than {_mb(MAX_PACKAGE_BYTES)} "
                                "(a gzip bomb?)")
        return data

    def read_up_to(self, size: int) -> bytes:
        chunks = []
        while size > 0 and (chunk := self.read(size)):
            chunks.append(chunk)
            size -= len(chunk)
        return b"".join(chunks)

    def unread(self, data: bytes) -> None:
        self._pending = data + self._pending


class _CheckedTarInfo(tarfile.TarInfo):
    """A tar header that refuses to declare more than MAX_MEMBER_BYTES.

    tarfile reads the data of GNU long-name and pax headers into memory inside next(), before
    the loop in _read_tar sees a member, so the size is checked here, where each header is parsed.
    """

    @classmethod
    def frombuf(cls, buf, encoding, errors):
        info = super().frombuf(buf, encoding, errors)
        if info.size > MAX_MEMBER_BYTES:
            raise SourceRefused(f"{info.name!r} would inflate to {_mb(info.size)}, over the "
                                f"{_mb(MAX_MEMBER_BYTES)} limit for one file (a gzip bomb?)")
        return info


def _read_tar(stream: _CappedStream) -> tuple[dict[str, bytes], list[str]]:
    blobs: dict[str, bytes] = {}
    notes: list[str] = []
    other_files: list[str] = []
    tex_files = 0
    declared = 0
    # Stream mode ("r|") reads forward only, so nothing is ever re-inflated or seeked back to.
    with tarfile.open(fileobj=stream, mode="r|", tarinfo=_CheckedTarInfo) as tar:
        for count, member in enumerate(tar, start=1):
            if count > MAX_MEMBERS:
                raise SourceRefused(f"the package has more than {MAX_MEMBERS} files")
            _check_member(member)
            declared += member.size
            if declared > MAX_PACKAGE_BYTES:
                raise SourceRefused(f"the package's files add up to more than "
                                    f"{_mb(MAX_PACKAGE_BYTES)} (a gzip bomb?)")
            if member.isdir():
                continue
            name = member.name.removeprefix("./")
            # "._x.tex" are macOS resource forks (binary) that tar on a Mac adds beside x.tex.
            if not name.lower().endswith(TEX_SUFFIXES) or posixpath.basename(name).startswith("._"):
                other_files.append(name)
                continue
            tex_files += 1
            if member.size > MAX_TEX_BYTES:
                notes.append(f"skipped {name}: {_mb(member.size)}, over the "
                             f"{_mb(MAX_TEX_BYTES)} limit for a TeX file")
            else:
                blobs[name] = _read_member(tar, member)  # a later copy of a name wins, as in tar
    if not tex_files:
        shown = ", ".join(other_files[:5]) + (", ..." if len(other_files) > 5 else "")
        raise SourceRefused("no TeX files (.tex, .bbl or .bib) in the package"
                            + (f"; it holds {shown}" if shown else "; it is empty"))
    if other_files:
        notes.append(f"skipped what is not .tex, .bbl or .bib ({len(other_files)} files)")
    return blobs, notes


def _check_member(member: tarfile.TarInfo) -> None:
    name = member.name
    path = PurePosixPath(name.replace("\\", "/"))
    if path.is_absolute() or re.match(r"[A-Za-z]:", name):
        raise SourceRefused(f"{name!r} has an absolute path; a package's files must stay inside it")
    if ".." in path.parts:
        raise SourceRefused(f"{name!r} climbs out of the package with '..' (path traversal)")
    if member.issym() or member.islnk():
        # Refused whole rather than skipped: nothing is written to disk here, so a link cannot
        # hurt this code, but a paper's source has no need for one, and whoever later unpacks
        # the same package with ordinary tools would follow it out of the folder.
        kind = "symbolic" if member.issym() else "hard"
        raise SourceRefused(f"{name!r} is a {kind} link (to {member.linkname!r}); "
                            "packages with links are refused")
    if member.ischr() or member.isblk():
        raise SourceRefused(f"{name!r} is a device file; packages with device files are refused")
    if not (member.isreg() or member.isdir()):
        raise SourceRefused(f"{name!r} is not a plain file or folder (tar type {member.type!r})")


def _read_member(tar: tarfile.TarFile, member: tarfile.TarInfo) -> bytes:
    reader = tar.extractfile(member)
    chunks, total = [], 0
    while chunk := reader.read(READ_CHUNK):
        total += len(chunk)
        if total > MAX_TEX_BYTES:  # the header said otherwise; trust what is counted
            raise SourceRefused(f"{member.name!r} is longer than its tar header says")
        chunks.append(chunk)
    return b"".join(chunks)


def _read_single_file(stream: _CappedStream, head: bytes) -> bytes:
    chunks, total = [head], len(head)
    while chunk := stream.read(READ_CHUNK):
        total += len(chunk)
        if total > MAX_TEX_BYTES:
            raise SourceRefused(f"the gzipped file inflates to more than {_mb(MAX_TEX_BYTES)}, "
                                "the limit for one TeX file (a gzip bomb?)")
        chunks.append(chunk)
    return b"".join(chunks)


def _mb(size: int) -> str:
    if size < 1024 * 1024:
        return f"{size // 1024} KB"
    return f"{size / (1024 * 1024):.0f} MB"
