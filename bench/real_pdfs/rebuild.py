"""Rebuild the real-PDF set outside the repository from the manifest and fetched mirrors.

    python bench/real_pdfs/rebuild.py [--mirrors /work/.mirror] [--out /work/realpdf]

Each repository in manifest.json must first be fetched (the session's fetch tool puts a bare git
directory under /work/.mirror/<owner>+<name>/). For every paper this writes OUT/<slug>/paper.pdf
and paper.bbl (the blobs at the recorded commit and paths) and meta.json, and checks the
SHA-256 of both against the manifest. Nothing written here belongs in git.
"""
import argparse
import hashlib
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def git_dir(mirrors: Path, repo: str) -> Path | None:
    base = mirrors / repo.replace("/", "+")
    for candidate in (base / "repo" / ".git", base / "repo", base):
        if (candidate / "objects").is_dir():
            return candidate
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    parser.add_argument("--out", type=Path, default=Path("/work/realpdf"))
    args = parser.parse_args()
    papers = json.loads((HERE / "manifest.json").read_text())["papers"]
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
        (folder / "meta.json").write_text(json.dumps(paper, indent=1))
    print(f"{len(papers) - missing} of {len(papers)} papers written to {args.out}")
    sys.exit(1 if missing else 0)


if __name__ == "__main__":
    main()
