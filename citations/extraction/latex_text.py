"""A LaTeX fragment (one reference, one bibliography field) as plain Unicode text.

    latex_to_text(r"Schr{\\"o}der, \\emph{Monads}, pp.~1--10") -> "Schröder, Monads, pp. 1–10"

Written here, table-driven, rather than taken from pylatexenc 2.10: pylatexenc raises IndexError
on `\\href{url}{text}`, wraps `\\url` in <...>, and renders `\\newblock`, `\\bibinfo` and
`\\penalty0` wrongly, so half of the bibliography macros would need our own specs anyway.
A command prints what its row in _COMMANDS says; any other command is dropped and its text kept.
"""
import re
import unicodedata
from typing import NamedTuple

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
# Control words that print a fixed text (rows of _COMMANDS with no arguments).
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
# apacite's (APA style; AGU's agujournal2019 loads it): the package, not the .bbl, says what the
# words between authors and fields print. \BBOQ and \BBCQ, the quotes around an article title,
# print nothing in APA.
_APACITE_WORDS = {
    "BBOP": "(", "BBCP": ")", "BBOQ": "", "BBCQ": "", "BBAA": "&", "BBA": "&", "BAnd": "&",
    "BBAB": "and", "BPBI": ". ", "BHBI": ".-", "BCBT": ",", "BCBL": ",", "BDBL": ", … ",
    "BIP": "in press", "BIn": "In", "Bby": "by", "BED": "Ed.", "BEDS": "Eds.", "BTRANS": "Trans.",
    "BTRANSS": "Trans.", "BTRANSL": "trans.", "BCHAIR": "Chair", "BCHAIRS": "Chairs", "BVOL": "Vol.",
    "BVOLS": "Vols.", "BNUM": "No.", "BNUMS": "Nos.", "BEd": "ed.", "BCHAP": "chap.", "BCHAPS": "chap.",
    "BPG": "p.", "BPGS": "pp.", "BTR": "Tech. Rep.", "BPhD": "Doctoral dissertation",
    "BUPhD": "Unpublished doctoral dissertation", "BMTh": "Master's thesis",
    "BUMTh": "Unpublished master's thesis", "BAuthor": "Author", "BOWP": "Original work published",
    "BREPR": "Reprinted from", "BAvailFrom": "Available from ", "BRetrievedFrom": "Retrieved from ",
    "BMsgPostedTo": "Message posted to ", "bibnodate": "n.d.", "bibmessage": "Msg",
    "bibcomputerprogram": "Computer program", "bibcomputerprogrammanual": "Computer program manual",
    "bibcomputerprogramandmanual": "Computer program and manual",
    "bibcomputersoftware": "Computer software", "bibcomputersoftwaremanual": "Computer software manual",
    "bibcomputersoftwareandmanual": "Computer software and manual",
    "bibprogramminglanguage": "Programming language",
}
_WORDS |= _APACITE_WORDS
_SYMBOLS = {"\\": " ", " ": " ", "\n": " ", "\t": " ", ",": " ", ";": " ", ":": " ", ">": " ",
            "!": "", "/": "", "-": "", "(": "", ")": "", "[": "", "]": ""}
_DIMEN = r"[-+]?\s*(?:\d+\.?\d*|\.\d+)\s*(?:true)?(?:em|ex|pt|pc|in|cm|mm|bp|dd|cc|sp|mu|fill|fil)?"
_TEX_QUANTITIES = {"n": re.compile(r"\s*[-+]?\d+"),
                   # TeX reads one optional space after a dimension, as part of it
                   "k": re.compile(rf"\s*{_DIMEN}(?:\s*(?:plus|minus)\s*{_DIMEN})* ?"),
                   "r": re.compile(rf"(?:\s*(?:height|depth|width)\s*{_DIMEN})* ?")}
_COMMAND_NAME = re.compile(r"[A-Za-z@]+")
_PLAIN_RUN = re.compile(r"[^\\{}$~`'\-]+")


class Call(NamedTuple):
    """One use of a command, for the function that prints it."""
    arguments: list[str | None]  # one per letter of the command's arguments; None where it is not there
    text: str                    # the whole fragment, for what follows the command
    end: int                     # where the command and its arguments end in text
    printed: list[str]           # what the fragment has printed so far


# A command's last argument printed as text is read on in place, not converted apart, so that its
# spaces, and what the text after it sees as printed before, are those of the surrounding text.
AS_TEXT = object()


class Command(NamedTuple):
    """What a command reads after its name and what it prints.

    arguments, one letter each: "m" a {mandatory} group (TeX skips the spaces before it), "o" an
    [optional] one, "v" \\verb's delimited text (xparse's letters); "n" a TeX number (\\penalty0), "k"
    TeX glue (\\hskip 1em plus 1fil), "r" a rule's dimensions (\\vrule height 2pt width 23pt).
    prints: None for nothing, a fixed text, AS_TEXT for its last argument, or a function of the Call
    that returns the text (None for nothing).
    """
    arguments: str = ""
    prints: object = None  # one of the four above


def _link(call: Call) -> str | None:
    (link,) = call.arguments
    return None if link is None else verbatim(link)


def _doi(call: Call) -> str | None:
    """\\doi{10.1/x} prints "doi: 10.1/x", unless the text just before it already says DOI."""
    (doi,) = call.arguments
    if doi is None:
        return None
    said = "".join(call.printed[-3:]).rstrip().lower().endswith(("doi", "doi:"))
    return ("" if said else "doi: ") + verbatim(doi)


def _bibitem_shut(call: Call) -> str | None:
    """revtex's \\BibitemShut{Stop} ends an entry with a period; {NoStop} prints nothing."""
    (stop,) = call.arguments
    return None if stop is None else "." if stop.strip() == "Stop" else ""


def _given_name(call: Call) -> str | None:
    """imsart's \\bfnm{Ana M.}\\binits{A. M.}: the journal's style prints the initials, where given."""
    (given,) = call.arguments
    if given is None or call.text.startswith("\\binits", skip_spaces(call.text, call.end)):
        return None
    return latex_to_text(given)


def _mnras_doi(call: Call) -> str:
    """mnras's \\mn@doi[text]{doi}: a link to the DOI printed as the text (the journal), else as doi:..."""
    shown, doi = call.arguments
    return latex_to_text(shown) if shown and shown.strip() else "doi:" + verbatim(doi or "")


def _mnras_eprint(call: Call) -> str | None:
    """mnras's \\mn@eprint{arXiv}{1234.5678} prints arXiv:1234.5678."""
    archive, identifier = call.arguments
    return None if archive is None else f"{verbatim(archive)}:{verbatim(identifier or '')}"


def _acm_eprint(call: Call) -> str | None:
    """acmart's \\showeprint[arxiv]{2101.00001} prints arXiv:2101.00001 (arxiv is the default
    archive), [pubmed] PubMed:..., and any other archive as written before a colon."""
    archive, identifier = call.arguments
    if identifier is None:
        return None
    archive = verbatim(archive or "arxiv").strip()
    shown = {"arxiv": "arXiv", "pubmed": "PubMed"}.get(archive.lower(), archive)
    return f"{shown}:{verbatim(identifier).strip()}"


def _texts(call: Call) -> list[str]:
    """The call's arguments as text; one not given is empty."""
    return [latex_to_text(argument or "") for argument in call.arguments]


def _joined(*parts: str, separator: str = ", ") -> str:
    """The parts that are not empty, joined: apacite leaves out an empty field and its comma."""
    return separator.join(part for part in parts if part)


def _in_parentheses(text: str) -> str:
    return f"({text})" if text else ""


def _apa_journal(call: Call) -> str:
    """\\APACjournalVolNumPages{journal}{volume}{number}{pages}: "journal, volume(number), pages"."""
    journal, volume, number, pages = _texts(call)
    return _joined(journal, volume + _in_parentheses(number), pages)


def _apa_date(call: Call) -> str:
    """\\APACrefYearMonthDay{year}{month}{day}: "(year, month day)"."""
    year, month, day = _texts(call)
    return _in_parentheses(_joined(year, _joined(month, day, separator=" ")))


def _apa_address_publisher(call: Call) -> str:
    """\\APACaddressPublisher{address}{publisher}: "address: publisher"."""
    return _joined(*_texts(call), separator=": ")


def _apa_address_school(call: Call) -> str:
    """\\APACaddressSchool{address}{school}: "school, address"."""
    address, school = _texts(call)
    return _joined(school, address)


def _apa_type_address_school(call: Call) -> str:
    """\\APACtypeAddressSchool{type}{address}{school}: "(type, school, address)"."""
    kind, address, school = _texts(call)
    return _in_parentheses(_joined(kind, school, address))


def _apa_volume_edition_report(call: Call) -> str:
    """\\APACbVolEdTR{2nd ed., Vol. 1}{Tech. Rep. No. 3} and \\APACbVolEdTRpgs{..}{..}{pp. 1-9}:
    "(2nd ed., Vol. 1; Tech. Rep. No. 3, pp. 1-9)"."""
    edition, *rest = _texts(call)
    return _in_parentheses(_joined(edition, _joined(*rest), separator="; "))


def _apa_original_year(call: Call) -> str:
    """\\APACorigyearnote{1890}{note}: "(Original work published 1890; note)"."""
    year, note = _texts(call)
    return _in_parentheses(_joined(year and f"Original work published {year}", note, separator="; "))


def _apa_original_editors(call: Call, role: str) -> str:
    """\\APACorigED{E. D. Itor}: "by E. D. Itor, Ed." (the editors of a reprint's original)."""
    (editors,) = _texts(call)
    return editors and f"by {editors}, {role}"


def _apa_count(call: Call) -> str:
    """\\BCnt{2}: the letter that tells apart two works of one author and year, "b"."""
    (count,) = _texts(call)
    return chr(ord("a") + int(count) - 1) if count.isdigit() and 0 < int(count) <= 26 else count


def _apa_month(call: Call) -> str:
    (month,) = _texts(call)
    return _APA_MONTHS[int(month) - 1] if month.isdigit() and 0 < int(month) <= len(_APA_MONTHS) else month


_APA_MONTHS = ("January February March April May June July August September October November "
               "December Winter Spring Summer Fall").split()


def _ordinal(call: Call) -> str:
    """\\PrintOrdinal{2}: "2nd"."""
    (number,) = _texts(call)
    if not number.isdigit():
        return number
    last = int(number) % 10 if int(number) % 100 not in (11, 12, 13) else 0
    return number + {1: "st", 2: "nd", 3: "rd"}.get(last, "th")


def _begin(call: Call) -> str | None:
    """\\begin{environment}: what the environment prints before its content (apacite's link
    environments), else nothing; \\begin{barticle}[author]: imsart's environments are markup."""
    environment, option = call.arguments
    if environment and environment.strip() == "APACrefURL" and option and option.strip():
        return f"Retrieved {latex_to_text(option)}, from "
    return _ENVIRONMENT_OPENINGS.get((environment or "").strip())


_ENVIRONMENT_OPENINGS = {"APACrefURL": "Retrieved from ", "APACrefDOI": "doi:",
                         "APACrefURLmsg": "Message posted to "}


# Every command that prints something, or whose arguments are not printed text. Any other command
# is dropped and what follows it kept: \emph{x} and {\em x} print x.
_COMMANDS: dict[str, Command] = {name: Command(prints=text) for name, text in _WORDS.items()} | {
    # A field name, a language, a colour or a link target, then the text printed.
    **dict.fromkeys(["bibinfo", "bibfield", "href", "Eprint", "foreignlanguage", "BIBforeignlanguage",
                     "textcolor"], Command("mm", AS_TEXT)),
    # Sort keys, labels, citations, spacing and switches: markup, not text.
    **dict.fromkeys(["bibAnnoteFile", "selectlanguage", "vspace", "label", "noopsort",
                     "SortNoop", "sortnoop", "color", "bibstring", "cite", "citep", "citet", "end"],
                    Command("m")),
    "bibAnnote": Command("mm"),
    "begin": Command("mo", _begin),
    "penalty": Command("n"),
    # Glue is space between words: IEEEtran parts a proceedings' name from its publisher with it
    # ("(WF-IoT).\\hskip 1em plus 0.5em minus 0.4em\\relax IEEE"). A kern is an adjustment inside a word.
    **dict.fromkeys(["hskip", "vskip"], Command("k", " ")),
    "hspace": Command("m", " "),
    **dict.fromkeys(["kern", "mkern"], Command("k")),
    # A rule is drawn, not text: siam's style sets one for the authors of the entry above.
    **dict.fromkeys(["vrule", "hrule"], Command("r")),
    "rule": Command("omm"),
    # Links print as written.
    **dict.fromkeys(["url", "path", "nolinkurl"], Command("m", _link)),
    "doi": Command("m", _doi),
    "verb": Command("v", lambda call: call.arguments[0]),
    "BibitemShut": Command("m", _bibitem_shut),
    "bfnm": Command("m", _given_name),
    "mn@doi": Command("om", _mnras_doi),
    "mn@eprint": Command("mm", _mnras_eprint),
    "showeprint": Command("om", _acm_eprint),
    # apacite. A title comes twice, as written and as printed (sentence case): the second prints.
    # The meta-analysis star is printed only for works the document marks, which the .bbl does not
    # say; a sort key and the back-references' hook print nothing.
    **dict.fromkeys(["APACrefatitle", "APACrefbtitle"], Command("mm", AS_TEXT)),
    **dict.fromkeys(["APACrefaetitle", "APACrefbetitle"],
                    Command("mm", lambda call: f"[{latex_to_text(call.arguments[1] or '')}]")),
    **dict.fromkeys(["APACinsertmetastar", "APACSortNoop", "bibphant", "PrintBackRefs", "AX",
                     "corporateAX"], Command("m")),
    "APACjournalVolNumPages": Command("mmmm", _apa_journal),
    "APACrefYearMonthDay": Command("mmm", _apa_date),
    "APACrefYear": Command("m", lambda call: _in_parentheses(_texts(call)[0])),
    **dict.fromkeys(["APACaddressPublisher", "APACaddressInstitution"], Command("mm", _apa_address_publisher)),
    "APACaddressSchool": Command("mm", _apa_address_school),
    "APACtypeAddressSchool": Command("mmm", _apa_type_address_school),
    "APACbVolEdTR": Command("mm", _apa_volume_edition_report),
    "APACbVolEdTRpgs": Command("mmm", _apa_volume_edition_report),
    "APACrefnote": Command("m", lambda call: _in_parentheses(_texts(call)[0])),
    "APACorigyearnote": Command("mm", _apa_original_year),
    "APACorigED": Command("m", lambda call: _apa_original_editors(call, "Ed.")),
    "APACorigEDS": Command("m", lambda call: _apa_original_editors(call, "Eds.")),
    **dict.fromkeys(["BOthers", "BOthersPeriod"], Command("m", "et al.")),
    "BRetrieved": Command("m", lambda call: f"Retrieved {_texts(call)[0]}, from "),
    "BCnt": Command("m", _apa_count),
    **dict.fromkeys(["BCntIP", "BCntND"], Command("m", lambda call: "-" + _apa_count(call))),
    "APACmonth": Command("m", _apa_month),
    "PrintOrdinal": Command("m", _ordinal),
    # ACM-Reference-Format's .bbl defines these to print nothing unless the class defines them, and
    # acmart does not: the ISBN, ISSN, CODEN and LCCN are in the .bbl, not on the page.
    **dict.fromkeys(["showISBNx", "showISBNxiii", "showISSN", "showCODEN", "showLCCN"], Command("m")),
}


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
    command = _COMMANDS.get(name, Command())
    if callable(command.prints):
        arguments, end = _read_arguments(command.arguments, s, i)
        printed = command.prints(Call(arguments, s, end, out))
        if printed is not None:
            out.append(printed)
        return end
    if isinstance(command.prints, str):
        out.append(command.prints)
    # The arguments print nothing, and the text after them is read on (AS_TEXT's last argument with
    # it). A group right after a group there is the command's next argument to TeX, which skips the
    # spaces before it: \bibinfo {journal} {PRL}.
    letters = command.arguments[:-1] if command.prints is AS_TEXT else command.arguments
    arguments, end = _read_arguments(letters, s, i)
    read = [letter for letter, value in zip(letters, arguments) if value is not None]
    start = skip_spaces(s, end)
    return start if read[-1:] == ["m"] and s.startswith("{", start) else end


def _read_arguments(letters: str, s: str, i: int) -> tuple[list[str | None], int]:
    """The arguments that start at s[i], one per letter of a Command's arguments; and where they end."""
    arguments: list[str | None] = []
    for letter in letters:
        value = None
        if letter == "m" and s.startswith("{", start := skip_spaces(s, i)):
            value, i = read_group(s, start)
        elif letter == "o" and s.startswith("[", i):
            end = _find_or_end(s, "]", i)
            value, i = s[i + 1:end], end + 1
        elif letter == "v" and i < len(s):  # \\verb|text|: any character delimits it
            end = _find_or_end(s, s[i], i + 1)
            value, i = s[i + 1:end], end + 1
        elif letter in _TEX_QUANTITIES and (match := _TEX_QUANTITIES[letter].match(s, i)):
            value, i = match.group(), match.end()
        arguments.append(value)
    return arguments, i


def _find_or_end(s: str, char: str, i: int) -> int:
    """The index of char at or after s[i]; an argument left open runs to the end of the text."""
    found = s.find(char, i)
    return len(s) if found < 0 else found


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
