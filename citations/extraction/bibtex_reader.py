"""A BibTeX file reader: the entries of a .bib file (read_bibtex), with @string macros expanded.

Written here rather than taken from bibtexparser 1.4, which pulls in pyparsing for what is some 150
lines here.
"""
import re
from dataclasses import dataclass

from citations.extraction.latex_text import skip_spaces


@dataclass(frozen=True)
class BibEntry:
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


def read_bibtex(text: str) -> tuple[list[BibEntry], list[str]]:
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

    def item(self) -> BibEntry | None:
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
                return BibEntry(key=key.group(), entry_type=kind, fields=fields)
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
