"""An arXiv source package's reference list as plain strings, each with its index and cite key.

    extract_references(source) -> SourceReferences(
        references=[SourceReference(index, raw_text, key, origin, member, links)],
        origin, members, notes)

The package is read by source_package (safely, in memory) and each entry's LaTeX is turned into
text by latex_text; this module chooses the bibliography and parses it. The references come, in
order of preference, from what BibTeX or biber wrote: a .bbl (classic `thebibliography` or
biblatex's `\\entry` records) or a `thebibliography` typed into a .tex; only when there is none,
from the .bib entries that the .tex files cite, in order of first citation.

The BibTeX reader (_BibReader) is written here rather than taken from bibtexparser 1.4, which
pulls in pyparsing for what is some 150 lines here.
"""
import os
import posixpath
import re
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Literal

from citations.extraction.latex_text import latex_to_text, read_group, skip_spaces, verbatim
from citations.extraction.source_package import SINGLE_FILE_NAME, read_package

Origin = Literal["latex_bbl", "latex_bib"]


@dataclass(frozen=True)
class SourceReference:
    index: int          # 1-based position in the reference list
    raw_text: str
    key: str            # the cite key (\bibitem{key}, \entry{key}, @article{key,)
    origin: Origin
    member: str         # the file inside the package it was read from
    links: tuple[str, ...] = ()  # \href and \url targets: the printed text often hides the DOI


@dataclass(frozen=True)
class SourceReferences:
    references: list[SourceReference]
    origin: Origin | None            # None: the package has TeX but no bibliography
    members: tuple[str, ...]         # the files the references were read from
    notes: list[str]                 # what was chosen, skipped or guessed, and why


def extract_references(source: bytes | str | os.PathLike) -> SourceReferences:
    """The reference list of an arXiv source package given as bytes or a path."""
    blobs, notes = read_package(source)
    return _references_from_files(blobs, notes)


# --- Choosing the bibliography -------------------------------------------------------------

_DOCUMENTCLASS = re.compile(r"\\document(?:class|style)(?![A-Za-z])")
_BEGIN_DOCUMENT = re.compile(r"\\begin\s*\{document\}")
_THEBIBLIOGRAPHY = re.compile(r"\\begin\s*\{thebibliography\}")
_END_THEBIBLIOGRAPHY = re.compile(r"\\end\s*\{thebibliography\}")
_BIBLATEX_ENTRY = re.compile(r"\\entry\s*\{([^{}]*)\}\s*\{([^{}]*)\}\s*\{([^{}]*)\}")
# A '%' starts a comment unless escaped; "%20" right after other characters is a URL's escape
# (BibTeX copies URLs into the .bbl as they are). The comment takes its newline and the next
# line's indent with it, as in TeX, so "%"-continued lines join.
_COMMENT_OR_URL_ESCAPE = re.compile(r"(?P<keep>(?<=\S)%[0-9A-Fa-f]{2})|(?<!\\)%[^\n]*(?:\n[ \t]*)?")


def _references_from_files(blobs: dict[str, bytes], notes: list[str]) -> SourceReferences:
    texts = {}
    for name, data in blobs.items():
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = data.decode("latin-1")  # older arXiv sources; latin-1 decodes any byte
            notes.append(f"{name} is not UTF-8; read it as Latin-1")
        # BibTeX has no comment character inside entries, so a .bib keeps its '%'.
        texts[name] = text if name.lower().endswith(".bib") else _strip_comments(text)
    main = _main_tex(texts)
    return _from_bbl(texts, main, notes) or _from_bib(texts, main, notes)


def _strip_comments(tex: str) -> str:
    return _COMMENT_OR_URL_ESCAPE.sub(lambda m: m.group("keep") or "", tex)


def _main_tex(texts: dict[str, str]) -> str | None:
    """The .tex with \\documentclass; of several, one with \\begin{document}, then the largest."""
    mains = [n for n, t in texts.items() if n.lower().endswith(".tex") and _DOCUMENTCLASS.search(t)]
    if not mains:
        return SINGLE_FILE_NAME if SINGLE_FILE_NAME in texts else None
    return min(mains, key=lambda n: (not _BEGIN_DOCUMENT.search(texts[n]), -len(texts[n]), n))


def _from_bbl(texts: dict[str, str], main: str | None, notes: list[str]) -> SourceReferences | None:
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
    return tuple(links)


# --- biblatex .bbl -------------------------------------------------------------------------

_BIBLATEX_PART = re.compile(r"\\(field|list|name)\s*\{([^{}]*)\}")
_BIBLATEX_VERB = re.compile(r"\\verb\s*\{([^{}]*)\}(.*?)\\endverb", re.S)
_KEY_VALUE = re.compile(r"(\w+)\s*=\s*")


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
        items.append((key, _format_reference(names=names, fields=fields, et_al=more_names), ()))
    return items


def _biblatex_fields(body: str) -> tuple[dict[str, str], list[str], bool]:
    fields: dict[str, str] = {}
    names: dict[str, list[str]] = {}
    for part in _BIBLATEX_PART.finditer(body):
        kind, name = part.groups()
        groups = _consecutive_groups(body, part.end())
        if not groups:
            continue
        if kind == "field":
            fields.setdefault(name, groups[0])
        elif kind == "list":  # \list{publisher}{1}{{Springer}}
            fields.setdefault(name, " and ".join(_top_level_groups(groups[-1])))
        else:                 # \name{author}{2}{}{{...}{...}}
            names.setdefault(name, [_biblatex_person(p) for p in _top_level_groups(groups[-1])])
    for verb in _BIBLATEX_VERB.finditer(body):
        fields.setdefault(verb.group(1), re.sub(r"\\verb\s?", "", verb.group(2)))
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


def _consecutive_groups(s: str, i: int) -> list[str]:
    groups = []
    i = skip_spaces(s, i)
    while s.startswith("{", i):
        content, i = read_group(s, i)
        groups.append(content)
        i = skip_spaces(s, i)
    return groups


def _top_level_groups(s: str) -> list[str]:
    groups, i = [], 0
    while (i := s.find("{", i)) != -1:
        content, i = read_group(s, i)
        groups.append(content)
    return groups


# --- .bib fallback -------------------------------------------------------------------------

_CITE_OR_INPUT = re.compile(
    r"\\(?P<command>[A-Za-z]*cite[A-Za-z]*)\*?\s*(?:\[[^\]]*\]\s*){0,2}\{(?P<keys>[^{}]*)\}"
    r"|\\(?:input|include|subfile)\s*\{(?P<file>[^{}]*)\}")
_BIB_RESOURCE = re.compile(
    r"\\(?:bibliography|addbibresource|addglobalbib)\s*(?:\[[^\]]*\])?\s*\{([^{}]*)\}")
_NOT_CITATIONS = {"citestyle", "citeindextrue", "citeindexfalse"}


def _from_bib(texts: dict[str, str], main: str | None, notes: list[str]) -> SourceReferences:
    cited, unread = _cited_keys(texts, main)
    if unread:
        notes.append(f"not read for citations (not \\input from {main}): {', '.join(unread)}")
    entries = {}  # key -> (entry, member); the first definition wins, as in BibTeX
    bib_files = _bib_files(texts, notes)
    for member in bib_files:
        parsed, problems = _read_bibtex(texts[member])
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
        raw_text = _format_reference(names=[n for n in names if n != "others"], fields=fields,
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


def _with_crossref(entry: "_BibEntry", entries: dict) -> dict[str, str]:
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


# --- A BibTeX file reader ------------------------------------------------------------------

@dataclass(frozen=True)
class _BibEntry:
    key: str
    entry_type: str
    fields: dict[str, str]  # lower-case field name -> value as LaTeX, macros expanded


class _BadBib(ValueError):
    pass


_MONTHS = dict(zip("jan feb mar apr may jun jul aug sep oct nov dec".split(),
                   "January February March April May June July August September October "
                   "November December".split()))
_IDENTIFIER = re.compile(r"[^\s\"#%'(),={}]+")
_ANY_BRACE = re.compile(r"[{}]")
_BRACE_OR_QUOTE = re.compile(r'[{}"]')
# An unclosed brace makes the reader scan to the end of the file before it gives up on an
# entry; past this many, a hostile .bib would cost a pass per entry, so reading stops.
MAX_BIB_PROBLEMS = 20


def _read_bibtex(text: str) -> tuple[list[_BibEntry], list[str]]:
    """The entries of a .bib file, and a note for each malformed entry that was skipped."""
    reader = _BibReader(text)
    entries, problems = [], []
    while (at := text.find("@", reader.pos)) != -1:
        reader.pos = at + 1
        try:
            entry = reader.item()
        except _BadBib as exc:
            line = text.count("\n", 0, at) + 1
            problems.append(f"skipped a malformed entry at line {line}: {exc}")
            if len(problems) >= MAX_BIB_PROBLEMS:
                problems.append(f"stopped reading after {MAX_BIB_PROBLEMS} malformed entries")
                break
            reader.pos = at + 1
            continue
        if entry:
            entries.append(entry)
    return entries, problems


class _BibReader:
    """@entry{key, name = {braced} # "quoted" # macro # 2001, ...}; @string defines macros;
    @comment and @preamble are skipped; text outside entries is ignored, as BibTeX does."""

    def __init__(self, text: str):
        self.text = text
        self.pos = 0
        self.macros = dict(_MONTHS)

    def item(self) -> _BibEntry | None:
        kind = self._identifier().lower()
        self._skip_spaces()
        opener = self.text[self.pos:self.pos + 1]
        if not kind or opener not in ("{", "("):
            return None  # an '@' outside an entry, e.g. in an e-mail address
        closer = "}" if opener == "{" else ")"
        if kind in ("comment", "preamble"):
            if opener == "{":
                _, self.pos = _read_bib_group(self.text, self.pos)
            return None
        self.pos += 1
        if kind == "string":
            name, value = self._field()
            self.macros[name] = value
            self._skip_spaces()
            if self.text.startswith(closer, self.pos):
                self.pos += 1
            return None
        self._skip_spaces()
        key = re.compile(r"[^,\s}]*" if closer == "}" else r"[^,\s)]*").match(self.text, self.pos)
        self.pos = key.end()
        if not key.group():
            raise _BadBib("it has no key")
        fields: dict[str, str] = {}
        while True:
            self._skip_spaces()
            char = self.text[self.pos:self.pos + 1]
            if char == ",":
                self.pos += 1
            elif char == closer:
                self.pos += 1
                return _BibEntry(key=key.group(), entry_type=kind, fields=fields)
            elif not char:
                raise _BadBib("the file ends inside it")
            else:
                name, value = self._field()
                fields.setdefault(name, value)  # BibTeX keeps the first of a repeated field

    def _field(self) -> tuple[str, str]:
        name = self._identifier().lower()
        self._skip_spaces()
        if not name or not self.text.startswith("=", self.pos):
            raise _BadBib(f"expected 'name = value' near {self.text[self.pos:self.pos + 20]!r}")
        self.pos += 1
        pieces = []
        while True:
            self._skip_spaces()
            char = self.text[self.pos:self.pos + 1]
            if char == "{":
                piece, self.pos = _read_bib_group(self.text, self.pos)
            elif char == '"':
                piece = self._quoted()
            elif char.isdigit():
                piece = re.compile(r"\d+").match(self.text, self.pos).group()
                self.pos += len(piece)
            else:
                macro = self._identifier()
                if not macro:
                    raise _BadBib(f"field {name!r} has no value")
                piece = self.macros.get(macro.lower(), "")  # BibTeX too: undefined macro -> ""
            pieces.append(piece)
            self._skip_spaces()
            if not self.text.startswith("#", self.pos):
                return name, "".join(pieces)
            self.pos += 1

    def _quoted(self) -> str:
        depth, start = 0, self.pos + 1
        for match in _BRACE_OR_QUOTE.finditer(self.text, start):
            char = match.group()
            depth += {"{": 1, "}": -1}.get(char, 0)
            if char == '"' and depth == 0:
                self.pos = match.end()
                return self.text[start:match.start()]
        raise _BadBib("a quoted value is not closed")

    def _identifier(self) -> str:
        self._skip_spaces()
        match = _IDENTIFIER.match(self.text, self.pos)
        if not match:
            return ""
        self.pos = match.end()
        return match.group()

    def _skip_spaces(self) -> None:
        self.pos = skip_spaces(self.text, self.pos)


def _read_bib_group(s: str, i: int) -> tuple[str, int]:
    """read_group as BibTeX counts: every brace counts, \\{ too, and an unclosed group is an error."""
    depth = 0
    for match in _ANY_BRACE.finditer(s, i):
        depth += 1 if match.group() == "{" else -1
        if depth == 0:
            return s[i + 1:match.start()], match.end()
    raise _BadBib("a brace is not closed")


# --- One reference string from bibliography fields -----------------------------------------

_ID_FIELDS = ("doi", "url", "eprint")
_TEXT_FIELDS = ("title", "subtitle", "journal", "booktitle", "howpublished", "volume", "number",
                "pages", "publisher", "institution", "school", "organization", "year", "date",
                "eprinttype", "archiveprefix")
_ARXIV_ID = re.compile(r"^(\d{4}\.\d{4,5}|[a-z\-]+(\.[A-Z]{2})?/\d{7})(v\d+)?$")


def _format_reference(*, names: list[str], fields: dict[str, str], et_al: bool = False) -> str:
    """Authors. Title. Venue, volume(number), pages, publisher, year. arXiv:id doi:..."""
    text = {k: latex_to_text(fields[k]) for k in _TEXT_FIELDS if fields.get(k, "").strip()}
    ids = {k: verbatim(fields[k]) for k in _ID_FIELDS if fields.get(k, "").strip()}
    authors = _join_names([latex_to_text(n) for n in names], et_al)
    title = text.get("title", "")
    if text.get("subtitle"):
        title = f"{title}: {text['subtitle']}"
    venue = text.get("journal") or (f"In {text['booktitle']}" if text.get("booktitle") else "") \
        or text.get("howpublished", "")
    volume = text.get("volume", "")
    if text.get("number"):
        volume = f"{volume}({text['number']})" if volume else f"no. {text['number']}"
    publisher = "" if text.get("journal") else (
        text.get("publisher") or text.get("institution") or text.get("school")
        or text.get("organization", ""))
    year = text.get("year") or text.get("date", "")[:4]
    container = ", ".join(p for p in (venue, volume, text.get("pages", ""), publisher, year) if p)
    sentences = [s if s.endswith((".", "?", "!")) else s + "."
                 for s in (authors, title, container) if s]
    eprint = ids.get("eprint", "")
    kind = (text.get("eprinttype") or text.get("archiveprefix") or "").lower()
    if eprint and (kind == "arxiv" or _ARXIV_ID.match(eprint)):
        sentences.append(f"arXiv:{eprint}")
    if ids.get("doi"):
        sentences.append("doi:" + re.sub(r"^(https?://)?(dx\.)?doi\.org/", "", ids["doi"]))
    elif ids.get("url") and not eprint:
        sentences.append(ids["url"])
    return " ".join(sentences)


def _join_names(names: list[str], et_al: bool) -> str:
    if et_al:
        return ", ".join(names) + " et al." if names else ""
    if len(names) <= 2:
        return " and ".join(names)
    return ", ".join(names[:-1]) + ", and " + names[-1]
