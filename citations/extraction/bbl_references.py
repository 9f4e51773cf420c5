"""References from what BibTeX or biber wrote: a .bbl (classic `thebibliography` or biblatex's
`\\entry` records) or a `thebibliography` typed into a .tex (references_from_bbl)."""
import re
from pathlib import PurePosixPath

from citations.extraction.latex_text import latex_to_text, read_group, skip_spaces, verbatim
from citations.extraction.reference_format import format_reference
from citations.extraction.source_package import SourceRefused
from citations.extraction.source_references import SourceReference, SourceReferences

_THEBIBLIOGRAPHY = re.compile(r"\\begin\s*\{thebibliography\}")
_END_THEBIBLIOGRAPHY = re.compile(r"\\end\s*\{thebibliography\}")
# Far above any real bibliography, and small enough that reading a hostile one costs seconds.
MAX_BIBLIOGRAPHY_CHARACTERS = 8_000_000
_BIBLATEX_ENTRY = re.compile(r"\\entry\s*\{([^{}]*)\}\s*\{([^{}]*)\}\s*\{([^{}]*)\}")


def references_from_bbl(texts: dict[str, str], main: str | None, notes: list[str]) -> SourceReferences | None:
    bbls = [n for n in texts if n.lower().endswith(".bbl")]
    inline = [n for n in texts if n.lower().endswith(".tex") and _THEBIBLIOGRAPHY.search(texts[n])]
    preferred = []
    # A thebibliography typed into the main file is what LaTeX prints; a .bbl beside it is stale.
    if main in inline:
        preferred.append(main)
    if main:
        preferred += [n for n in bbls if PurePosixPath(n).stem == PurePosixPath(main).stem]
    others = sorted(set(bbls + inline) - set(preferred), key=lambda n: (-len(texts[n]), n))
    for member in preferred + others:
        if len(texts[member]) > MAX_BIBLIOGRAPHY_CHARACTERS:
            raise SourceRefused(f"{member} has {len(texts[member]):,} characters: a bibliography is read up to "
                                f"{MAX_BIBLIOGRAPHY_CHARACTERS:,} (tens of thousands of entries)")
        references = _parse_bbl(texts[member], member)
        if references:
            unused = [n for n in preferred + others if n != member]
            if unused:
                notes.append(f"read {member}; did not use {', '.join(unused)}")
            return SourceReferences(references=references, origin="latex_bbl",
                                    members=(member,), notes=notes)
        notes.append(f"{member} has no bibliography entries")
    return None


def _parse_bbl(text: str, member: str) -> list[SourceReference]:
    if member.lower().endswith(".bbl") and not _THEBIBLIOGRAPHY.search(text):
        items = _biblatex_items(text)
    else:
        items = [(key, latex_to_text(latex), _links(latex))
                 for key, latex in _thebibliography_items(text)]
    return [SourceReference(index=index, raw_text=raw_text, key=key, origin="latex_bbl",
                            member=member, links=links)
            for index, (key, raw_text, links) in enumerate(
                (item for item in items if item[1]), start=1)]


# --- thebibliography -----------------------------------------------------------------------

_BIBITEM = re.compile(r"\\bibitem(?![A-Za-z@])")
_LINK = re.compile(r"\\(?:href|url|Eprint)\s*\{([^{}]*)\}")
_MNRAS_DOI = re.compile(r"\\mn@doi\s*(?:\[[^\]]*\])?\s*\{([^{}]*)\}")


def _thebibliography_items(text: str) -> list[tuple[str, str]]:
    """(key, LaTeX) of each \\bibitem; what comes before the first one is the style's preamble."""
    items = []
    # An environment ends at its \end, or else at the next \begin: a hostile file with many
    # unclosed ones then costs one pass, not one pass per environment.
    for body in _THEBIBLIOGRAPHY.split(text)[1:]:
        end = _END_THEBIBLIOGRAPHY.search(body)
        for piece in _BIBITEM.split(body[:end.start()] if end else body)[1:]:
            i = skip_spaces(piece, 0)
            if piece.startswith("[", i):  # the label, e.g. [{Smith et~al.(2001)}]
                i = skip_spaces(piece, _after_bracket(piece, i))
            key = ""
            if piece.startswith("{", i):
                key, i = read_group(piece, i)
            items.append((key.strip(), piece[i:]))
    return items


def _after_bracket(s: str, i: int) -> int:
    depth = 0
    for j in range(i + 1, len(s)):
        if s[j] == "{":
            depth += 1
        elif s[j] == "}":
            depth -= 1
        elif s[j] == "]" and depth <= 0:
            return j + 1
    return len(s)


def _links(latex: str) -> tuple[str, ...]:
    links = []
    for match in _LINK.finditer(latex):
        link = verbatim(match.group(1).replace("\\doibase", "https://doi.org/"))
        if link and link not in links:
            links.append(link)
    for match in _MNRAS_DOI.finditer(latex):
        link = "https://doi.org/" + verbatim(match.group(1))
        if link not in links:
            links.append(link)
    return tuple(links)


# --- biblatex .bbl -------------------------------------------------------------------------

_BIBLATEX_PART = re.compile(r"\\(field|list|name)\s*\{([^{}]*)\}")
_VERB = re.compile(r"\\verb\s*\{([^{}]*)\}")
_END_VERB = re.compile(r"\\endverb")
# \b: a key starts where a word does; without it a long word with no "=" after it (a hostile
# name's value) is tried from each of its letters, in time its length squared.
_KEY_VALUE = re.compile(r"\b(\w+)\s*=\s*")


def _biblatex_items(text: str) -> list[tuple[str, str, tuple[str, ...]]]:
    items, seen = [], set()
    entries = list(_BIBLATEX_ENTRY.finditer(text))
    for entry, following in zip(entries, entries[1:] + [None]):
        key, entry_type, options = entry.groups()
        # A key shows up again in a later refsection or sort list; "set" entries only group
        # others, and "skipbib" ones are not printed.
        if key in seen or entry_type == "set" or "skipbib" in options:
            continue
        seen.add(key)
        body = text[entry.end():following.start() if following else len(text)]
        body = body.split("\\endentry", 1)[0]
        fields, names, more_names = _biblatex_fields(body)
        items.append((key, format_reference(names=names, fields=fields, et_al=more_names), ()))
    return items


def _biblatex_fields(body: str) -> tuple[dict[str, str], list[str], bool]:
    fields: dict[str, str] = {}
    names: dict[str, list[str]] = {}
    read_to = 0
    for part in _BIBLATEX_PART.finditer(body):
        # A part inside an earlier part's value is text of that value, not a field. This is also what
        # keeps a hostile body linear: a value left open runs to the end, and nothing after it is read
        # again (each part re-reading the rest made a body of unclosed values quadratic).
        if part.start() < read_to:
            continue
        kind, name = part.groups()
        groups, read_to = _consecutive_groups(body, part.end())
        if not groups:
            continue
        if kind == "field":
            fields.setdefault(name, groups[0])
        elif kind == "list":  # \list{publisher}{1}{{Springer}}
            fields.setdefault(name, " and ".join(_top_level_groups(groups[-1])))
        else:                 # \name{author}{2}{}{{...}{...}}
            names.setdefault(name, [_biblatex_person(p) for p in _top_level_groups(groups[-1])])
    for name, value in _verbatim_fields(body):
        fields.setdefault(name, re.sub(r"\\verb\s?", "", value))
    if "journaltitle" in fields:
        fields.setdefault("journal", fields["journaltitle"])
    if "date" in fields:
        fields.setdefault("year", fields["date"][:4])
    people = names.get("author") or names.get("editor") or []
    return fields, people, "\\true{moreauthor}" in body


def _biblatex_person(person: str) -> str:
    parts = _top_level_groups(person)
    if parts and "family" in parts[-1] and "=" in parts[-1]:
        # biblatex 3.3 on: {options}{family={..}, familyi={..}, given={..}, ...}
        values = _key_values(parts[-1])
        family, given, prefix, suffix = (values.get(k, "")
                                         for k in ("family", "given", "prefix", "suffix"))
    else:
        # before: {options}{family}{familyi}{given}{giveni}{prefix}{prefixi}{suffix}{suffixi}
        parts = (parts[-8:] + [""] * 8)[:8]
        family, given, prefix, suffix = parts[0], parts[2], parts[4], parts[6]
    name = " ".join(p for p in (given, prefix, family) if p.strip())
    return f"{name}, {suffix}" if suffix.strip() else name


def _key_values(s: str) -> dict[str, str]:
    values, i = {}, 0
    while match := _KEY_VALUE.search(s, i):
        i = match.end()
        if s.startswith("{", i):
            value, i = read_group(s, i)
        else:
            end = s.find(",", i)
            end = len(s) if end < 0 else end
            value, i = s[i:end], end
        values.setdefault(match.group(1), value.strip())
    return values


def _consecutive_groups(s: str, i: int) -> tuple[list[str], int]:
    """The brace groups that follow s[i] one after the other, and the index after the last."""
    groups = []
    i = skip_spaces(s, i)
    while s.startswith("{", i):
        content, i = read_group(s, i)
        groups.append(content)
        i = skip_spaces(s, i)
    return groups, i


def _verbatim_fields(body: str):
    """(name, value) of each \\verb{name} ... \\endverb, in one pass: a \\verb that is never ended
    is not a field (a regex looking ahead for \\endverb from every \\verb read a hostile body once per
    \\verb)."""
    ends = [match.start() for match in _END_VERB.finditer(body)]
    next_end, read_to = 0, 0
    for verb in _VERB.finditer(body):
        if verb.start() < read_to:              # inside the value before: its text
            continue
        while next_end < len(ends) and ends[next_end] < verb.end():
            next_end += 1
        if next_end == len(ends):
            return
        yield verb.group(1), body[verb.end():ends[next_end]]
        read_to = ends[next_end] + len("\\endverb")
        next_end += 1


def _top_level_groups(s: str) -> list[str]:
    groups, i = [], 0
    while (i := s.find("{", i)) != -1:
        content, i = read_group(s, i)
        groups.append(content)
    return groups
