"""read_package on packages built here: what it refuses and why, in bounded time and memory.
No database is used.
"""
import gzip
import io
import re
import tarfile
import time
import tracemalloc
import zlib

import pytest

from citations.extraction import source_package
from citations.extraction.source_package import SourceRefused, read_package

MiB = 1024 * 1024


# --- Building packages ---------------------------------------------------------------------

def tar_bytes(files: dict[str, str | bytes], *, gzipped: bool = True) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz" if gzipped else "w") as tar:
        for name, data in files.items():
            data = data.encode("utf-8") if isinstance(data, str) else data
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def tar_with_member(info: tarfile.TarInfo) -> bytes:
    """A .tar.gz holding a good main.tex and then the member under test."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        tex = b"\\documentclass{article}\\begin{document}\\cite{a}\\end{document}"
        good = tarfile.TarInfo("main.tex")
        good.size = len(tex)
        tar.addfile(good, io.BytesIO(tex))
        tar.addfile(info, io.BytesIO(b"x" * info.size) if info.size else None)
    return buffer.getvalue()


def gzipped_zeros(prefix: bytes, zero_bytes: int) -> bytes:
    """gzip of prefix + zero_bytes zeros, compressed a MiB at a time: the zeros never exist at once."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, 31)  # wbits 31: a gzip container
    chunk = bytes(MiB)
    parts = [compressor.compress(prefix)]
    parts += [compressor.compress(chunk) for _ in range(zero_bytes // MiB)]
    return b"".join(parts) + compressor.flush()


MAIN_TEX = ("\\documentclass{article}\n\\begin{document}\nSee \\cite{a}.\n"
            "\\bibliographystyle{plainnat}\n\\bibliography{main}\n\\end{document}\n")


# --- Refusals ------------------------------------------------------------------------------

def member(name: str, kind: bytes = tarfile.REGTYPE, *, linkname: str = "", size: int = 0):
    info = tarfile.TarInfo(name)
    info.type, info.linkname, info.size = kind, linkname, size
    return info


@pytest.mark.parametrize("info, reason", [
    (member("../evil.tex", size=3), "climbs out of the package with '..' (path traversal)"),
    (member("figures/../../evil.tex", size=3), "path traversal"),
    (member("/etc/evil.tex", size=3), "has an absolute path"),
    (member("paper.tex", tarfile.SYMTYPE, linkname="/etc/passwd"),
     "is a symbolic link (to '/etc/passwd')"),
    (member("refs.bib", tarfile.LNKTYPE, linkname="main.tex"), "is a hard link"),
    (member("tty", tarfile.CHRTYPE), "is a device file"),
    (member("pipe", tarfile.FIFOTYPE), "is not a plain file or folder"),
])
def test_unsafe_members_refuse_the_whole_package(info, reason):
    with pytest.raises(SourceRefused, match=re.escape(reason)):
        read_package(tar_with_member(info))


@pytest.fixture(scope="module")
def tar_bomb() -> bytes:
    """300 MiB of zeros behind a tar header that declares them: about 300 KB of gzip."""
    header = member("paper.tex", size=300 * MiB).tobuf(format=tarfile.GNU_FORMAT)
    return gzipped_zeros(header, 300 * MiB)


def test_a_tar_bomb_is_refused_at_its_header_in_bounded_memory(tar_bomb):
    assert len(tar_bomb) < 1 * MiB
    tracemalloc.start()
    started = time.monotonic()
    try:
        with pytest.raises(SourceRefused,
                           match=r"'paper.tex' would inflate to 300 MB, over the 100 MB limit"):
            read_package(tar_bomb)
        elapsed = time.monotonic() - started
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert elapsed < 2.0
    assert peak < 8 * MiB


def test_a_gzipped_single_file_bomb_stops_at_the_tex_limit():
    bomb = gzipped_zeros(b"\\documentclass{article}", 300 * MiB)
    tracemalloc.start()
    started = time.monotonic()
    try:
        with pytest.raises(SourceRefused, match="inflates to more than 32 MB"):
            read_package(bomb)
        elapsed = time.monotonic() - started
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert elapsed < 5.0
    assert peak < 48 * MiB  # what it held is the 32 MiB it may hold, not the 300 MiB


def test_files_adding_up_past_the_package_limit_are_refused(monkeypatch):
    monkeypatch.setattr(source_package, "MAX_PACKAGE_BYTES", MiB)
    package = tar_bytes({"main.tex": MAIN_TEX, "a.dat": bytes(600_000), "b.dat": bytes(600_000)})

    with pytest.raises(SourceRefused, match="files add up to more than 1 MB"):
        read_package(package)


def test_the_inflated_byte_count_itself_is_capped(monkeypatch):
    # Empty files declare nothing, but each header inflates to 512 bytes: the stream counts them.
    monkeypatch.setattr(source_package, "MAX_PACKAGE_BYTES", 64 * 1024)
    package = tar_bytes({"main.tex": MAIN_TEX} | {f"empty{n}.txt": b"" for n in range(300)})

    with pytest.raises(SourceRefused, match="the package inflates to more than 64 KB"):
        read_package(package)


def test_too_many_files_are_refused(monkeypatch):
    monkeypatch.setattr(source_package, "MAX_MEMBERS", 5)
    package = tar_bytes({"main.tex": MAIN_TEX} | {f"fig{n}.png": b"png" for n in range(5)})

    with pytest.raises(SourceRefused, match="more than 5 files"):
        read_package(package)


def test_truncated_packages_are_refused():
    bbl = "".join(f"\\bibitem{{k{n}}}\nA. Author. Title number {n}. Journal, 2020.\n"
                  for n in range(200))
    gzipped = tar_bytes({"main.tex": MAIN_TEX, "main.bbl": bbl})
    plain = tar_bytes({"main.bbl": bbl}, gzipped=False)

    for cut in (gzipped[:len(gzipped) // 2], plain[:512 + len(bbl) // 2]):
        with pytest.raises(SourceRefused, match="the package is truncated or corrupt"):
            read_package(cut)


def test_a_package_without_tex_files_is_refused_and_says_what_it_holds():
    package = tar_bytes({"README": "Figures for the paper.", "figure1.png": b"\x89PNG\r\n\x1a\n"})

    with pytest.raises(SourceRefused, match=r"no TeX files \(.tex, .bbl or .bib\) in the package; "
                                            r"it holds README, figure1.png"):
        read_package(package)


@pytest.mark.parametrize("data, reason", [
    (b"Just some text, not an archive at all.", "not a gzip or tar file"),
    (b"%PDF-1.5\n%\xe2\xe3\xcf\xd3\n", r"not a gzip or tar file \(it is a PDF\)"),
    (gzip.compress(b"%PDF-1.5\n" + bytes(600)),
     r"no TeX files: the package is a single gzipped file \(it is a PDF\)"),
])
def test_what_is_not_a_source_package_is_refused(data, reason):
    with pytest.raises(SourceRefused, match=reason):
        read_package(data)
