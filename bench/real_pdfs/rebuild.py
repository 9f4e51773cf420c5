"""Rebuild the real-PDF set outside the repository from the manifest and fetched mirrors.

    python bench/real_pdfs/rebuild.py [--mirrors /work/.mirror] [--out /work/realpdf] [--find-bibs]
                                      [--manifest bench/real_pdfs/manifest-2.json --out /work/realpdf-2]
                                      [--manifest bench/real_pdfs/manifest-3.json --out /work/realpdf-3]

Each repository in manifest.json must first be fetched (the session's fetch tool puts a bare git
directory under /work/.mirror/<owner>+<name>/). For every paper this writes OUT/<slug>/paper.pdf
and paper.bbl (the blobs at the recorded commit and paths) and meta.json, and checks the
SHA-256 of both against the manifest; and the BibTeX files the .bbl was made from, at the same
commit, as OUT/<slug>/bib/<name>.bib (the manifest's "bib" list: path in the repository, file
written, SHA-256). Nothing written here belongs in git.

--find-bibs looks those .bib files up again in the mirrors and writes the manifest's "bib" and
"bib_found_by" fields (it was run once to make them):
    blg           the .blg BibTeX wrote next to the .bbl names them ("Database file #1: refs.bib")
    bibliography  \\bibliography{a,b} in the .tex files of the .bbl's folder (and below it)
    every .bib    neither: every .bib file in the repository at that commit
A name is looked up relative to the .bbl's folder (where BibTeX runs), then anywhere in the
repository by its file name (BIBINPUTS). Papers whose .bib is not committed get an empty list.
"""
import argparse
import hashlib
import json
import posixpath
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))


def git_dir(mirrors: Path, repo: str) -> Path | None:
    base = mirrors / repo.replace("/", "+")
    for candidate in (base / "repo" / ".git", base / "repo", base):
        if (candidate / "objects").is_dir():
            return candidate
    return None


def _git(gd: Path, *args: str) -> bytes:
    return subprocess.run(["git", "--git-dir", str(gd), *args], capture_output=True, check=True).stdout


_DATABASE = re.compile(r"^Database file #\d+: (.+?)\s*$", re.M)


def find_bibs(gd: Path, paper: dict) -> tuple[list[str], str]:
    """The .bib files (paths in the repository at the paper's commit) its .bbl was made from, and how
    they were found (see the module's doc)."""
    # The .tex files name them as the project's source path reads them (\bibliography, comments out).
    from citations.extraction.bib_references import _BIB_RESOURCE
    from citations.extraction.latex_references import _strip_comments

    files = _git(gd, "ls-tree", "-r", "--name-only", paper["commit"]).decode().splitlines()
    folder = posixpath.dirname(paper["bbl"])
    stem = posixpath.splitext(paper["bbl"])[0]
    bibs = [f for f in files if f.lower().endswith(".bib")]

    def show(member: str) -> str:
        return _git(gd, "show", f"{paper['commit']}:{member}").decode("utf-8", "replace")

    def resolve(names: list[str]) -> list[str]:
        found = []
        for name in names:
            name = name.strip().replace("\\jobname", posixpath.basename(stem))
            if not name:
                continue
            name = name if name.lower().endswith(".bib") else name + ".bib"
            path = posixpath.normpath(posixpath.join(folder, name))
            if path not in files:
                same = sorted((b for b in bibs if posixpath.basename(b) == posixpath.basename(name)),
                              key=lambda b: (not b.startswith(folder + "/" if folder else ""), b.count("/"), b))
                path = same[0] if same else None
            if path and path not in found:
                found.append(path)
        return found

    if stem + ".blg" in files:
        named = resolve(_DATABASE.findall(show(stem + ".blg")))
        if named:
            return named, "blg"
    inside = folder + "/" if folder else ""
    texs = sorted(f for f in files if f.lower().endswith(".tex") and f.startswith(inside))
    main_tex = stem + ".tex"
    texs.sort(key=lambda f: f != main_tex)            # the .bbl's own .tex first
    for tex in texs:
        named = resolve([n for group in _BIB_RESOURCE.findall(_strip_comments(show(tex)))
                         for n in group.split(",")])
        if named:
            return named, "bibliography"
    return bibs, "every .bib"


def bib_file_names(paths: list[str]) -> list[str]:
    """Where each .bib is written under OUT/<slug>/: bib/<name>.bib, the path joined by '+' when two
    share a name."""
    names = [posixpath.basename(p) for p in paths]
    return [f"bib/{n if names.count(n) == 1 else p.replace('/', '+')}" for n, p in zip(names, paths)]


def update_manifest(mirrors: Path) -> None:
    """Fill each paper's "bib" and "bib_found_by" fields from the mirrors (keeps every other field)."""
    manifest = json.loads((HERE / "manifest.json").read_text())
    for paper in manifest["papers"]:
        gd = git_dir(mirrors, paper["repo"])
        if gd is None:
            print(f"not fetched: {paper['repo']}")
            continue
        paths, how = find_bibs(gd, paper)
        paper["bib"] = [{"path": path, "file": name,
                         "sha256": hashlib.sha256(_git(gd, "show", f"{paper['commit']}:{path}")).hexdigest()}
                        for path, name in zip(paths, bib_file_names(paths))]
        paper["bib_found_by"] = how
        print(f"{paper['slug']}: {how}: {', '.join(paths) or 'none'}")
    (HERE / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    parser.add_argument("--out", type=Path, default=Path("/work/realpdf"))
    parser.add_argument("--find-bibs", action="store_true",
                        help="look the .bib files up in the mirrors and write them into manifest.json")
    parser.add_argument("--manifest", type=Path, default=HERE / "manifest.json",
                        help="the set to write (manifest-2.json: the second set)")
    args = parser.parse_args()
    if args.find_bibs:
        update_manifest(args.mirrors)
    papers = json.loads(args.manifest.read_text())["papers"]
    missing = 0
    for paper in papers:
        gd = git_dir(args.mirrors, paper["repo"])
        if gd is None:
            print(f"not fetched: {paper['repo']}")
            missing += 1
            continue
        folder = args.out / paper["slug"]
        folder.mkdir(parents=True, exist_ok=True)
        for member, name, digest in ((paper["pdf"], "paper.pdf", "pdf_sha256"), (paper["bbl"], "paper.bbl", "bbl_sha256")):
            blob = subprocess.run(["git", "--git-dir", str(gd), "show", f"{paper['commit']}:{member}"],
                                  capture_output=True, check=True).stdout
            if hashlib.sha256(blob).hexdigest() != paper[digest]:
                print(f"{paper['slug']}: {member} differs from the manifest's digest")
            (folder / name).write_bytes(blob)
        for bib in paper.get("bib", []):
            blob = _git(gd, "show", f"{paper['commit']}:{bib['path']}")
            if hashlib.sha256(blob).hexdigest() != bib["sha256"]:
                print(f"{paper['slug']}: {bib['path']} differs from the manifest's digest")
            (folder / bib["file"]).parent.mkdir(exist_ok=True)
            (folder / bib["file"]).write_bytes(blob)
        (folder / "meta.json").write_text(json.dumps(paper, indent=1))
    print(f"{len(papers) - missing} of {len(papers)} papers written to {args.out}")
    sys.exit(1 if missing else 0)


if __name__ == "__main__":
    main()
