"""References from .bib files, when a source package has no bibliography that BibTeX or biber
wrote: the entries the .tex files cite, in order of first citation (references_from_bib)."""
import posixpath
import re
from pathlib import PurePosixPath

from citations.extraction.bibtex_reader import BibEntry, read_bibtex
from citations.extraction.reference_format import format_reference
from citations.extraction.source_references import SourceReference, SourceReferences

_CITE_OR_INPUT = re.compile(
    r"\\(?P<command>[A-Za-z]*cite[A-Za-z]*)\*?\s*(?:\[[^\]]*\]\s*){0,2}\{(?P<keys>[^{}]*)\}"
    r"|\\(?:input|include|subfile)\s*\{(?P<file>[^{}]*)\}")
_BIB_RESOURCE = re.compile(
    r"\\(?:bibliography|addbibresource|addglobalbib)\s*(?:\[[^\]]*\])?\s*\{([^{}]*)\}")
_NOT_CITATIONS = {"citestyle", "citeindextrue", "citeindexfalse"}


def references_from_bib(texts: dict[str, str], main: str | None, notes: list[str]) -> SourceReferences:
    cited, unread = _cited_keys(texts, main)
    if unread:
        notes.append(f"not read for citations (not \\input from {main}): {', '.join(unread)}")
    entries = {}  # key -> (entry, member); the first definition wins, as in BibTeX
    bib_files = _bib_files(texts, notes)
    for member in bib_files:
        parsed, problems = read_bibtex(texts[member])
        notes += [f"{member}: {problem}" for problem in problems]
        for entry in parsed:
            entries.setdefault(entry.key, (entry, member))
    by_folded_key = {}
    for key, value in entries.items():
        by_folded_key.setdefault(key.casefold(), value)

    chosen, missing = {}, []
    for key in cited:
        if key == "*":  # \nocite{*}: every entry, in the order of the .bib files
            for other, value in entries.items():
                chosen.setdefault(other, value)
        elif key not in chosen:
            value = entries.get(key) or by_folded_key.get(key.casefold())
            if value:
                chosen[key] = value
            else:
                missing.append(key)
    if missing:
        notes.append(f"cited but in no .bib ({len(missing)}): {', '.join(missing[:10])}"
                     + (", ..." if len(missing) > 10 else ""))
    if not bib_files:
        notes.append("no bibliography: no .bbl, no thebibliography and no .bib file")
    elif not cited:
        notes.append("the .tex files cite no keys, so no .bib entry was used")
    references = []
    for key, (entry, member) in chosen.items():
        fields = _with_crossref(entry, entries)
        names = _bibtex_names(fields.get("author") or fields.get("editor") or "")
        raw_text = format_reference(names=[n for n in names if n != "others"], fields=fields,
                                     et_al="others" in names)
        references.append(SourceReference(index=len(references) + 1, raw_text=raw_text,
                                          key=entry.key, origin="latex_bib", member=member))
    members = tuple(dict.fromkeys(ref.member for ref in references))
    return SourceReferences(references=references, origin="latex_bib" if references else None,
                            members=members, notes=notes)


def _cited_keys(texts: dict[str, str], main: str | None) -> tuple[list[str], list[str]]:
    """Cite keys in order of first citation, following \\input from the main file; and the
    .tex files that were not reached that way (their citations are not in the paper)."""
    tex_files = sorted(n for n in texts if n.lower().endswith(".tex"))
    base = posixpath.dirname(main) if main else ""
    keys: list[str] = []
    visited: set[str] = set()

    def walk(name: str, depth: int) -> None:
        if name in visited or depth > 20:
            return
        visited.add(name)
        for match in _CITE_OR_INPUT.finditer(texts[name]):
            if match.group("file") is not None:
                target = posixpath.normpath(posixpath.join(base, match.group("file").strip()))
                for candidate in (target, target + ".tex"):
                    if candidate in texts:
                        walk(candidate, depth + 1)
                        break
            elif match.group("command") not in _NOT_CITATIONS:
                keys.extend(k.strip() for k in match.group("keys").split(",") if k.strip())

    for name in [main] if main else tex_files:
        walk(name, 0)
    return keys, [n for n in tex_files if n not in visited]


def _bib_files(texts: dict[str, str], notes: list[str]) -> list[str]:
    """The .bib files that \\bibliography{...} names, else all of them."""
    bibs = sorted(n for n in texts if n.lower().endswith(".bib"))
    named = [PurePosixPath(name.strip()).stem for text in texts.values()
             for match in _BIB_RESOURCE.finditer(text) for name in match.group(1).split(",")]
    chosen = [b for stem in dict.fromkeys(named) for b in bibs if PurePosixPath(b).stem == stem]
    if chosen:
        unused = [b for b in bibs if b not in chosen]
        if unused:
            notes.append(f"not named by \\bibliography, so not used: {', '.join(unused)}")
        return list(dict.fromkeys(chosen))
    return bibs


def _with_crossref(entry: "BibEntry", entries: dict) -> dict[str, str]:
    """The entry's fields, with those it lacks taken from the entry its crossref names."""
    parent = entries.get(entry.fields.get("crossref", "").strip())
    if not parent:
        return entry.fields
    inherited = dict(parent[0].fields)
    # The parent's title is the child's booktitle: a paper crossrefs its proceedings.
    parent_title = inherited.pop("title", "")
    inherited.setdefault("booktitle", parent_title)
    return inherited | entry.fields


def _bibtex_names(value: str) -> list[str]:
    """'Last, First and First Last and others' -> ['First Last', 'First Last', 'others']."""
    names = []
    for name in _split_top_level(value, r"\s+and\s+"):
        parts = [p.strip() for p in _split_top_level(name, ",")]
        if len(parts) == 2:       # Last, First
            name = f"{parts[1]} {parts[0]}"
        elif len(parts) >= 3:     # von Last, Jr, First
            name = f"{parts[2]} {parts[0]}, {parts[1]}"
        if name.strip():
            names.append(name.strip())
    return names


def _split_top_level(value: str, separator: str) -> list[str]:
    pieces, depth, start = [], 0, 0
    for match in re.finditer(rf"[{{}}]|{separator}", value, flags=re.IGNORECASE):
        if match.group() == "{":
            depth += 1
        elif match.group() == "}":
            depth -= 1
        elif depth == 0:
            pieces.append(value[start:match.start()])
            start = match.end()
    pieces.append(value[start:])
    return pieces
