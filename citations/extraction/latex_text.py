"""A LaTeX fragment (one reference, one bibliography field) as plain Unicode text.

    latex_to_text(r"Schr{\\"o}der, \\emph{Monads}, pp.~1--10") -> "Schröder, Monads, pp. 1–10"

Written here, table-driven, rather than taken from pylatexenc 2.10: pylatexenc raises IndexError
on `\\href{url}{text}`, wraps `\\url` in <...>, and renders `\\newblock`, `\\bibinfo` and
`\\penalty0` wrongly, so half of the bibliography macros would need our own specs anyway.
Commands in the tables print what they say; any other command is dropped and its text kept.
"""
import re
import unicodedata

_ACCENTS = {"'": "\u0301", "`": "\u0300", "^": "\u0302", '"': "\u0308", "~": "\u0303",
            "=": "\u0304", ".": "\u0307", "u": "\u0306", "v": "\u030c", "H": "\u030b",
            "c": "\u0327", "k": "\u0328", "r": "\u030a", "d": "\u0323", "b": "\u0331",
            "t": "\u0361"}
_GREEK = dict(zip("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi pi "
                  "rho sigma tau upsilon phi chi psi omega".split(), "αβγδεζηθικλμνξπρστυφχψω"))
_GREEK |= {n.capitalize(): c for n, c in zip(
    "gamma delta theta lambda xi pi sigma upsilon phi psi omega".split(), "ΓΔΘΛΞΠΣΥΦΨΩ")}
_GREEK |= {"varepsilon": "ε", "vartheta": "ϑ", "varpi": "ϖ", "varrho": "ϱ", "varsigma": "ς",
           "varphi": "φ"}
_SPACES = ("newblock par newline linebreak quad qquad space nobreakspace enspace enskip "
           "thinspace bibinitdelim bibnamedelima bibnamedelimb bibnamedelimc bibnamedelimd "
           "bibnamedelimi").split()
_OPERATORS = "log ln exp sin cos tan max min lim sup inf det dim ker deg arg gcd Pr".split()
# Control words that print something; any other command is dropped and what follows it kept.
_WORDS = {
    "ss": "ß", "SS": "SS", "o": "ø", "O": "Ø", "aa": "å", "AA": "Å", "ae": "æ", "AE": "Æ",
    "oe": "œ", "OE": "Œ", "l": "ł", "L": "Ł", "i": "ı", "j": "ȷ", "dh": "ð", "DH": "Ð",
    "th": "þ", "TH": "Þ", "dj": "đ", "DJ": "Đ", "ng": "ŋ", "NG": "Ŋ",
    "ldots": "…", "dots": "…", "textellipsis": "…", "textendash": "–", "textemdash": "—",
    "textquoteleft": "‘", "textquoteright": "’", "textquotedblleft": "“", "textquotedblright": "”",
    "guillemotleft": "«", "guillemotright": "»", "textasciitilde": "~", "textbackslash": "\\",
    "textbar": "|", "textless": "<", "textgreater": ">", "textunderscore": "_", "textdegree": "°",
    "copyright": "©", "textcopyright": "©", "textregistered": "®", "texttrademark": "™",
    "pounds": "£", "S": "§", "P": "¶", "dag": "†", "ddag": "‡", "slash": "/", "hyphen": "-",
    "@": "", "bibrangedash": "–", "bibdatedash": "–", "bibdaterangesep": "–",
    "bibinitperiod": ".", "bibinithyphendelim": ".-", "urlprefix": "URL ",
    "times": "×", "pm": "±", "mp": "∓", "cdot": "·", "leq": "≤", "le": "≤", "geq": "≥",
    "ge": "≥", "neq": "≠", "ne": "≠", "approx": "≈", "sim": "∼", "simeq": "≃", "propto": "∝",
    "lesssim": "≲", "gtrsim": "≳", "infty": "∞", "to": "→", "rightarrow": "→",
    "leftarrow": "←", "leftrightarrow": "↔", "ell": "ℓ", "partial": "∂", "nabla": "∇",
    "hbar": "ℏ", "prime": "′", "circ": "∘", "odot": "⊙", "star": "⋆", "ast": "∗", "sqrt": "√",
    "langle": "⟨", "rangle": "⟩",
} | _GREEK | dict.fromkeys(_SPACES, " ") | {op: op + " " for op in _OPERATORS}
# Journal macros of the astronomy classes (aastex, mnras, aa; the AAS's aas_macros): a .bbl of
# theirs writes \apj where the paper prints "ApJ", and the class, not the .bbl, defines it.
_JOURNALS = {
    "aj": "AJ", "actaa": "Acta Astron.", "araa": "ARA&A", "apj": "ApJ", "apjl": "ApJL", "apjs": "ApJS",
    "ao": "Appl. Opt.", "apss": "Ap&SS", "aap": "A&A", "aapr": "A&A Rev.", "aaps": "A&AS", "azh": "AZh",
    "baas": "BAAS", "caa": "Chinese Astron. Astrophys.", "cjaa": "Chinese J. Astron. Astrophys.",
    "icarus": "Icarus", "jcap": "J. Cosmology Astropart. Phys.", "jrasc": "JRASC", "memras": "MmRAS",
    "mnras": "MNRAS", "na": "New A", "nar": "New A Rev.", "pra": "Phys. Rev. A", "prb": "Phys. Rev. B",
    "prc": "Phys. Rev. C", "prd": "Phys. Rev. D", "pre": "Phys. Rev. E", "prl": "Phys. Rev. Lett.",
    "pasa": "PASA", "pasp": "PASP", "pasj": "PASJ", "rmxaa": "Rev. Mexicana Astron. Astrofis.",
    "qjras": "QJRAS", "skytel": "S&T", "solphys": "Sol. Phys.", "sovast": "Soviet Ast.", "ssr": "Space Sci. Rev.",
    "zap": "ZAp", "nat": "Nature", "iaucirc": "IAU Circ.", "aplett": "Astrophys. Lett.",
    "apspr": "Astrophys. Space Phys. Res.", "bain": "Bull. Astron. Inst. Netherlands", "fcp": "Fund. Cosmic Phys.",
    "gca": "Geochim. Cosmochim. Acta", "grl": "Geophys. Res. Lett.", "jcp": "J. Chem. Phys.",
    "jgr": "J. Geophys. Res.", "jqsrt": "J. Quant. Spec. Radiat. Transf.", "memsai": "Mem. Soc. Astron. Italiana",
    "nphysa": "Nucl. Phys. A", "physrep": "Phys. Rep.", "physscr": "Phys. Scr", "planss": "Planet. Space Sci.",
    "procspie": "Proc. SPIE", "psj": "PSJ",
}
_WORDS |= _JOURNALS | {"AND": " and "}      # imsart's \AND between the last two authors
_SYMBOLS = {"\\": " ", " ": " ", "\n": " ", "\t": " ", ",": " ", ";": " ", ":": " ", ">": " ",
            "!": "", "/": "", "-": "", "(": "", ")": "", "[": "", "]": ""}
# Commands whose first N braced arguments are not printed text (a field name, a sort key, a
# link target); what follows them is kept.
_DROPPED_ARGUMENTS = {
    "bibinfo": 1, "bibfield": 1, "bibAnnoteFile": 1, "bibAnnote": 2,
    "href": 1, "Eprint": 1, "foreignlanguage": 1, "BIBforeignlanguage": 1, "selectlanguage": 1,
    "hspace": 1, "vspace": 1, "label": 1, "noopsort": 1, "SortNoop": 1, "sortnoop": 1,
    "textcolor": 1, "color": 1, "bibstring": 1, "cite": 1, "citep": 1, "citet": 1,
    # An environment's name (\begin{barticle}) is markup.
    "begin": 1, "end": 1,
}
_VERBATIM_ARGUMENT = {"url", "path", "nolinkurl", "doi"}
_COMMAND_NAME = re.compile(r"[A-Za-z@]+")
_PLAIN_RUN = re.compile(r"[^\\{}$~`'\-]+")
_NUMBER = re.compile(r"\s*[-+]?\d+")
_DIMEN = r"[-+]?\s*(?:\d+\.?\d*|\.\d+)\s*(?:true)?(?:em|ex|pt|pc|in|cm|mm|bp|dd|cc|sp|mu|fill|fil)?"
_GLUE = re.compile(rf"\s*{_DIMEN}(?:\s*(?:plus|minus)\s*{_DIMEN})*")


def latex_to_text(latex: str) -> str:
    """A LaTeX fragment (one reference, one field) as plain Unicode text, NFC, spaces collapsed."""
    out: list[str] = []
    i, n = 0, len(latex)
    while i < n:
        char = latex[i]
        if plain := _PLAIN_RUN.match(latex, i):
            out.append(plain.group())
            i = plain.end()
        elif char == "\\":
            i = _command(latex, i + 1, out)
        elif char in "{}$":  # grouping and math shifts print nothing; $O(n^2)$ -> O(n^2)
            i += 1
        elif char == "~":
            out.append(" ")
            i += 1
        elif char == "-":
            run = len(latex[i:i + 3]) - len(latex[i:i + 3].lstrip("-"))
            out.append({1: "-", 2: "–", 3: "—"}[run])
            i += run
        elif latex.startswith(char * 2, i):  # `` and ''
            out.append("“" if char == "`" else "”")
            i += 2
        else:
            out.append("‘" if char == "`" else "'")
            i += 1
    return " ".join(unicodedata.normalize("NFC", "".join(out)).split())


def _command(s: str, i: int, out: list[str]) -> int:
    """Render the command whose name starts at s[i] (just after the backslash); return the end."""
    word = _COMMAND_NAME.match(s, i)
    if word is None:  # a control symbol: \' \& \, ...
        if i >= len(s):
            return i
        symbol = s[i]
        if symbol in _ACCENTS:
            return _accent(s, i + 1, _ACCENTS[symbol], out)
        out.append(_SYMBOLS.get(symbol, symbol))  # \& \% \_ \# \$ \{ \} print themselves
        return i + 1
    name = word.group()
    i = skip_spaces(s, word.end())  # TeX drops the spaces after a control word
    if name in _ACCENTS:
        return _accent(s, i, _ACCENTS[name], out)
    if name in _WORDS:
        out.append(_WORDS[name])
    elif name in _VERBATIM_ARGUMENT and s.startswith("{", i):
        content, i = read_group(s, i)
        tail = "".join(out[-3:]).rstrip().lower()
        prefix = "doi: " if name == "doi" and not tail.endswith(("doi", "doi:")) else ""
        out.append(prefix + verbatim(content))
    elif name == "verb" and i < len(s):
        end = s.find(s[i], i + 1)
        end = len(s) if end < 0 else end
        out.append(s[i + 1:end])
        i = end + 1
    elif name == "BibitemShut" and s.startswith("{", i):  # revtex: {Stop} ends with a period
        argument, i = read_group(s, i)
        out.append("." if argument.strip() == "Stop" else "")
    elif name == "bfnm" and s.startswith("{", i):
        # imsart's \bfnm{Ana M.}\binits{A. M.}: the journal's style prints the initials, where given.
        given, after = read_group(s, i)
        if not s.startswith("\\binits", skip_spaces(s, after)):
            out.append(latex_to_text(given))
        i = after
    elif name == "mn@doi":
        # mnras's \mn@doi[text]{doi}: a link to the DOI printed as the text (the journal), else as doi:...
        shown = ""
        if s.startswith("[", i):
            end = s.find("]", i)
            end = len(s) if end < 0 else end
            shown, i = s[i + 1:end], skip_spaces(s, end + 1)
        doi, i = read_group(s, i) if s.startswith("{", i) else ("", i)
        out.append(latex_to_text(shown) if shown.strip() else "doi:" + verbatim(doi))
    elif name == "mn@eprint" and s.startswith("{", i):
        archive, i = read_group(s, i)
        identifier, i = read_group(s, skip_spaces(s, i)) if s.startswith("{", skip_spaces(s, i)) else ("", i)
        out.append(f"{verbatim(archive)}:{verbatim(identifier)}")
    elif name in _DROPPED_ARGUMENTS:
        for _ in range(_DROPPED_ARGUMENTS[name]):
            if not s.startswith("{", i):
                break
            _, i = read_group(s, i)
            if s.startswith("{", skip_spaces(s, i)):  # TeX skips spaces between arguments
                i = skip_spaces(s, i)
        if name == "begin" and s.startswith("[", i):  # \begin{barticle}[author]: the option is markup too
            end = s.find("]", i)
            i = len(s) if end < 0 else end + 1
    elif name == "penalty":
        i = m.end() if (m := _NUMBER.match(s, i)) else i
    elif name in ("hskip", "vskip", "kern", "mkern"):
        i = m.end() if (m := _GLUE.match(s, i)) else i
    return i


def _accent(s: str, i: int, mark: str, out: list[str]) -> int:
    """\\'e, \\'{e}, \\v c, \\'{\\i}: the base letter and a combining mark (NFC composes them)."""
    i = skip_spaces(s, i)
    while s.startswith("{", i):
        i = skip_spaces(s, i + 1)  # the closing brace is left for the main loop, which drops it
    if i >= len(s) or s[i] == "}":
        return i
    if s[i] == "\\":
        word = _COMMAND_NAME.match(s, i + 1)
        if not word or word.group() not in ("i", "j"):
            return i  # an accent on something else (a macro); keep the macro, drop the accent
        # Dotless i and j take accents in TeX; NFC composes í from i, not from ı.
        out.append(word.group() + mark)
        return skip_spaces(s, word.end())
    out.append(s[i] + mark)
    return i + 1


def skip_spaces(s: str, i: int) -> int:
    """The index of the first character at or after s[i] that is not a space or newline."""
    while i < len(s) and s[i] in " \t\r\n":
        i += 1
    return i


def read_group(s: str, i: int) -> tuple[str, int]:
    """The text inside the brace group that opens at s[i], and the index after it.

    LaTeX's \\{ is not a brace, and a group left open runs to the end of the text.
    """
    depth = 0
    for match in _LATEX_BRACE.finditer(s, i):
        depth += 1 if match.group() == "{" else -1
        if depth == 0:
            return s[i + 1:match.start()], match.end()
    return s[i + 1:], len(s)


_LATEX_BRACE = re.compile(r"(?<!\\)[{}]")


def verbatim(value: str) -> str:
    """A URL, DOI or e-print id as written: escapes undone, braces and spaces dropped."""
    return "".join(re.sub(r"\\([_%#&$~])", r"\1", value).replace("{", "").replace("}", "").split())
