"""Field gold for the real-PDF set: each .bbl entry's title, year, authors and container, from the
.bib entry it was made from, where the style printed them.

    python bench/real_pdfs_gold.py [--real DIR] [--sample N] [--seed S]

Builds DIR/fields.json (outside git; DIR is /work/realpdf, see bench/real_pdfs/SOURCE.md) from
DIR/<slug>/{paper.bbl, paper.pdf, bib/*.bib, meta.json}, deterministically: the same files give the
same bytes. --sample N prints N random entries with their strings and gold, to read by eye.

For every paper, its .bbl entries as the project's LaTeX path reads them
(latex_references._references_from_files, what ingest_source stores: index, raw_text, cite key)
are paired by cite key with the entries of the paper's .bib files (bibtex_reader.read_bibtex; the
first definition wins; a key is also looked up case-folded; crossref is followed as the .bib path
does). Each entry's gold fields are rendered as the .bib path renders them (latex_to_text, as
reference_format.format_reference does):
    title       title (": subtitle" when there is one)
    year        the four digits of year, else of date
    authors     the family names, in order ("others" dropped): "Family, Given", "von Family, Jr,
                Given" and "Given von Family" as BibTeX splits them; "{Braced Corp}" is one name
                (but "{Gabriel G. Haddad}", a braced name with an initial, is a person); a
                "Jr" closing "Lloyd Jr, Robert" is no family name
    container   journal, else booktitle
    volume, pages
A gold field counts only where the style PRINTED it, which the entry's raw_text shows:
    title, container      its soft form (NFKD, accents dropped, case-folded, letters and digits
                          only) occurs in the soft form of raw_text; a container that only says
                          arXiv ("arXiv preprint arXiv:2303.08774", "ArXiv e-prints", "CoRR")
                          never counts: it names no venue, its number is an identifier
    year                  the four digits occur, not inside a longer number
    first_author          the first family name's words occur as consecutive words of raw_text
    authors               every family name does, in order (a list cut by "et al." is not printed)
    volume, pages         their words occur as consecutive words
(physics styles print no article titles, some styles no pages, and a .bib edited after the .bbl
was made no longer says what was printed: such fields simply do not count.)
Each entry also keeps the PDF path's string for it: citations.extraction.pdf_references on
paper.pdf as bench/real_pdfs.py runs it, paired with the .bbl entries by real_pdfs.match (None
where no extracted string matches).
"""
import argparse
import json
import random
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from real_pdfs import DEFAULT_DIR, match, papers_of_the_set, pith_strings

FIELDS = ("title", "year", "first_author", "authors", "container", "volume", "pages")
GOLD_NAME = "fields.json"


def words(text: str | None) -> list[str]:
    """The words of a text in the form titles are compared in (citations.parsing.text.comparable_title:
    case-folded, accents dropped, ligatures undone, punctuation gone)."""
    from citations.parsing.text import comparable_title

    return comparable_title(text or "").split()


def soft(text: str | None) -> str:
    """Lower case, letters and digits only: the words run together."""
    return "".join(words(text))


def _words_at(needle: list[str], hay: list[str], start: int = 0) -> int:
    """Where needle's words start as consecutive words of hay, from start; -1 if nowhere."""
    if not needle:
        return -1
    for i in range(start, len(hay) - len(needle) + 1):
        if hay[i:i + len(needle)] == needle:
            return i
    return -1


_SUFFIX = re.compile(r"\s+(?:Jr|Sr|II|III|IV)\.?$")
# A braced name with an initial in it is a person the .bib's author braced whole, not a body.
_BRACED_PERSON = re.compile(r"^\{[^{}]*\s[A-Z]\.\s[^{}]*\}$")
# A journal field that only says arXiv ("arXiv preprint arXiv:2303.08774", "ArXiv e-prints",
# "CoRR") names no container: its number is an identifier, and parsers read it as one.
_ARXIV_CONTAINER = re.compile(r"^(?:arxiv|corr$|corrabs)")


def family_names(value: str) -> list[str]:
    """BibTeX's author field -> the family names, rendered ("others" dropped)."""
    from citations.extraction.bib_references import _split_top_level
    from citations.extraction.latex_text import latex_to_text

    families = []
    for name in _split_top_level(value, r"\s+and\s+"):
        name = name.strip()
        if not name or name.lower() == "others":
            continue
        parts = [p.strip() for p in _split_top_level(name, ",")]
        if len(parts) >= 2:
            family = _SUFFIX.sub("", parts[0])       # "Lloyd Jr, Robert": Jr is no family name
        elif _BRACED_PERSON.match(name):
            family = name[1:-1].split()[-1]           # "{Gabriel G. Haddad}": a person braced whole
        else:
            tokens = [t for t in _split_top_level(name, r"\s+") if t]
            family = tokens[-1] if tokens else ""
            # "Given von Last": the family name starts at the first lower-case word (not the last).
            for k in range(1, len(tokens) - 1):
                if not tokens[k].startswith("{") and latex_to_text(tokens[k])[:1].islower():
                    family = " ".join(tokens[k:])
                    break
        family = latex_to_text(family).strip(" ,.")
        if family:
            families.append(family)
    return families


def gold_fields(fields: dict[str, str]) -> dict:
    from citations.extraction.latex_text import latex_to_text

    def text(name):
        value = fields.get(name, "")
        return latex_to_text(value) if value.strip() else None

    title = text("title")
    if title and text("subtitle"):
        title = f"{title}: {text('subtitle')}"
    year = re.search(r"(?<!\d)\d{4}(?!\d)", text("year") or (text("date") or "")[:4])
    return {"title": title, "year": int(year.group()) if year else None,
            "authors": family_names(fields["author"]) if fields.get("author", "").strip() else [],
            "container": text("journal") or text("booktitle"),
            "volume": text("volume"), "pages": text("pages")}


def printed(gold: dict, raw: str) -> dict:
    """Which gold fields the raw text prints (see the module's doc)."""
    raw_soft, raw_words = soft(raw), words(raw)
    shown = {}
    for name in ("title", "container"):
        shown[name] = bool(soft(gold[name])) and soft(gold[name]) in raw_soft
    shown["container"] = shown["container"] and not _ARXIV_CONTAINER.match(soft(gold["container"]))
    shown["year"] = gold["year"] is not None and re.search(rf"(?<!\d){gold['year']}(?!\d)", raw) is not None
    for name in ("volume", "pages"):
        shown[name] = _words_at(words(gold[name]), raw_words) >= 0
    authors = gold["authors"]
    shown["first_author"] = bool(authors) and _words_at(words(authors[0]), raw_words) >= 0
    at, in_order = 0, bool(authors)
    for family in authors:
        found = _words_at(words(family), raw_words, at)
        if found < 0:
            in_order = False
            break
        at = found + len(words(family))
    shown["authors"] = in_order
    return shown


def bib_entries(folder: Path, meta: dict) -> dict:
    """Cite key -> (BibEntry, file) over the paper's .bib files, the first definition winning."""
    from citations.extraction.bibtex_reader import read_bibtex

    entries = {}
    for bib in meta.get("bib", []):
        data = (folder / bib["file"]).read_bytes()
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = data.decode("latin-1")
        parsed, _ = read_bibtex(text)
        for entry in parsed:
            entries.setdefault(entry.key, (entry, bib["file"]))
    return entries


def paper_gold(folder: Path) -> dict:
    from citations.extraction.bib_references import _with_crossref
    from citations.extraction.latex_references import _references_from_files

    meta = json.loads((folder / "meta.json").read_text())
    references = _references_from_files({"paper.bbl": (folder / "paper.bbl").read_bytes()}, []).references
    latex = [r.raw_text for r in references]
    found, _ = pith_strings((folder / "paper.pdf").read_bytes())
    partner = {j: found[i] for i, j, _ in match(found, latex)}
    entries = bib_entries(folder, meta)
    folded = {}
    for key, value in entries.items():
        folded.setdefault(key.casefold(), value)
    out = []
    for j, reference in enumerate(references):
        entry = None
        if reference.key:
            entry = entries.get(reference.key) or folded.get(reference.key.casefold())
        item = {"index": reference.index, "key": reference.key, "latex": reference.raw_text,
                "pdf": partner.get(j), "bib": None, "type": None, "gold": None, "printed": None}
        if entry:
            gold = gold_fields(_with_crossref(entry[0], entries))
            item |= {"bib": entry[1], "type": entry[0].entry_type, "gold": gold,
                     "printed": printed(gold, reference.raw_text)}
        out.append(item)
    return {"slug": folder.name, "family": meta.get("family"), "style": meta.get("style"),
            "bib_files": [b["path"] for b in meta.get("bib", [])], "entries": out}


def build(real: Path = DEFAULT_DIR) -> dict:
    papers = [paper_gold(folder) for folder in papers_of_the_set(real, None)]
    gold = {"what": "Field gold of the real-PDF set's .bbl entries, from their .bib entries; "
                    "built by bench/real_pdfs_gold.py", "fields": list(FIELDS), "papers": papers}
    (real / GOLD_NAME).write_text(json.dumps(gold, indent=1, ensure_ascii=False) + "\n")
    return gold


def load(real: Path = DEFAULT_DIR, rebuild: bool = False) -> dict:
    """The gold, built first when it is missing (or when asked)."""
    path = real / GOLD_NAME
    if rebuild or not path.exists():
        return build(real)
    return json.loads(path.read_text())


def counts(gold: dict) -> str:
    entries = [e for p in gold["papers"] for e in p["entries"]]
    with_bib = [e for e in entries if e["gold"]]
    no_bib = [p["slug"] for p in gold["papers"] if not any(e["gold"] for e in p["entries"])]
    lines = [f"{len(gold['papers'])} papers, {len(entries)} .bbl entries, {len(with_bib)} with a .bib entry; "
             f"{sum(1 for e in entries if e['pdf'])} with a PDF string; "
             f"papers without any .bib entry: {len(no_bib)} {no_bib}"]
    lines.append("printed: " + ", ".join(f"{f} {sum(1 for e in with_bib if e['printed'][f])}" for f in FIELDS))
    return "\n".join(lines)


def sample(gold: dict, n: int, seed: int) -> None:
    entries = [(p["slug"], e) for p in gold["papers"] for e in p["entries"] if e["gold"]]
    for slug, e in random.Random(seed).sample(entries, min(n, len(entries))):
        print(f"--- {slug} [{e['index']}] {e['key']} @{e['type']}")
        print(f"  latex: {e['latex']}")
        print(f"  pdf:   {e['pdf']}")
        for f in ("title", "year", "authors", "container", "volume", "pages"):
            mark = "PRINTED" if e["printed"][f if f != "authors" else "authors"] else "-"
            extra = f" (first {'PRINTED' if e['printed']['first_author'] else '-'})" if f == "authors" else ""
            print(f"  {f:<9} {mark:<7}{extra} {e['gold'][f]!r}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--real", type=Path, default=DEFAULT_DIR)
    parser.add_argument("--sample", type=int, default=0, help="print N random entries with their gold")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-build", action="store_true", help="read the fields.json there is")
    args = parser.parse_args()
    gold = load(args.real, rebuild=not args.no_build)
    print(counts(gold))
    if args.sample:
        sample(gold, args.sample, args.seed)


if __name__ == "__main__":
    main()
