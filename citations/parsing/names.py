"""A labelled author or editor list split into names, each with its family and given names.

Lists come as "Smith, J., Jones, K.", "J. Smith and K. Jones", "Smith J, Jones K" or
"Smith, John; Jones, Kate": a comma separates either two names or a family name from its
given names, and which one it is shows in what stands on each side of it.
"""
import re
from dataclasses import replace

from citations.parsing.lexicon import shipped as shipped_lexicon
from citations.parsing.parser import PersonName

# "und", "et", "y" and "e" join names only in lower case: "Jeffrey E Barrick" holds an initial. Styles
# set in other languages join the last name with their own word ("Ohta, T., és Koyama, M.": Hungarian;
# Dutch "en", Swedish "och", Danish and Norwegian "og", Finnish "ja", Turkish "ve", Indonesian "dan",
# Russian "и"; not Catalan's and Polish "i", a letter of a name set letter-spaced: "P h i l i p").
# "McKinsey & Company": a firm's own "&", before a word naming a firm, joins no two names.
_FIRM_WORD = r"(?:Company|Co\.?|Partners|Sons|Associates|Cie\.?)(?!\s*,\s*[A-ZÀ-Þ]\.)(?:$|[\s,;])"
# "Qiu, Z.; Wang, Z.; and Zheng, B." (AAAI, ACL): the "and" after the last semicolon goes with it.
_AND = re.compile(rf"\s*;\s*(?:(?:(?i:and)|&)\s+)?|\s+(?:(?i:and)|und|et|y|e|és|en|och|og|ja|ve|dan|и)\s+"
                  rf"|\s*&\s*(?!\s*{_FIRM_WORD})|,\s*(?:(?i:and)|&)\s+")
_ET_AL = re.compile(r"[,;]?\s*\b(?:et\.?\s*al\b\.?|and others|u\.\s*a\.|\.\.\.|…)\s*", re.I)
_INITIAL = re.compile(r"^(?:[A-ZÀ-Þ](?:[a-z]?\.)?)(?:-?[A-ZÀ-Þ](?:[a-z]?\.)?)*$|^[A-Z]{1,3}$")
# Words that make a name an organisation's, which has no given and family names to split (and
# which author_rules.py reads an organisation by), and the same words in the languages of the public
# bodies most cited in them.
_GROUP_WORDS = (
    "collaborations? consortium group team committee association society organi[sz]ation network foundation "
    "council institute corporation corp inc ltd llc gmbh technologies laboratory administration agency "
    "commission ministry department office board forum alliance project community company university centre "
    "center initiative programme federation labs? contributors developers "
    "istituto instituto institut ministero ministerio minist[eè]re bundesministerium ministerium dipartimento "
    "departamento d[eé]partement presidenza agenzia agencia consiglio consejo conseil universidad "
    "universit[àäé]t? universidade zentrum fondazione fundaci[oó]n stiftung gesellschaft").split()


def _by_first_letter(words: list[str]) -> str:
    """The words as one alternation grouped by their first letter, which a regex tries once a group,
    not once a word: names are searched for these words at every word's start."""
    groups: dict[str, list[str]] = {}
    for word in words:
        groups.setdefault(word[0], []).append(word[1:])
    return "|".join(f"{first}(?:{'|'.join(rests)})" for first, rests in groups.items())


GROUP = re.compile(rf"\b(?:{_by_first_letter(_GROUP_WORDS)})\b", re.I)
_CAPITALS = re.compile(r"[A-ZÀ-Þ][A-ZÀ-Þ'’-]+")
_ACRONYM = re.compile(r"[A-Z]{4,}")
PARTICLES = {"van", "von", "de", "der", "den", "da", "di", "del", "della", "la", "le", "du", "dos", "des", "ten",
             "ter", "el", "al", "bin", "ibn", "st", "st.", "zur", "zum", "zu", "vom", "las", "los", "das", "do",
             "dei", "degli", "delle", "op", "het"}
_SUFFIXES = {"jr", "jr.", "sr", "sr.", "ii", "iii", "iv"}


def _initials_only(part: str) -> bool:
    # "K.-C." is one hyphenated pair of initials, as "K-C." is.
    words = part.replace(".-", "-").replace(".", ". ").split()
    return bool(words) and all(_INITIAL.match(w) or w.lower() in _SUFFIXES for w in words)


def _given_like(part: str) -> bool:
    """Given names after a comma: initials, or one to three capitalised words."""
    words = part.split()
    return _initials_only(part) or (0 < len(words) <= 3 and all(w[:1].isupper() for w in words))


def split_names(text: str) -> list[PersonName]:
    """The names in one author or editor list, in order ("et al." dropped)."""
    text = _ET_AL.sub(" ", text).strip(" ,;")
    if text.endswith(".") and not re.search(r"(?:^|[\s.-])[A-ZÀ-Þ][a-z]?\.$", text):
        text = text[:-1]              # a sentence's period, not an initial's
    names: list[PersonName] = []
    for piece in _AND.split(text):
        parts = [p.strip() for p in piece.split(",") if p.strip(" .")]
        i = 0
        while i < len(parts):
            part = parts[i]
            nxt = parts[i + 1] if i + 1 < len(parts) else None
            if names and names[-1].text and part.strip(" .").lower() in _SUFFIXES:
                # "J. L. Kelly, Jr.": the suffix ends the name before it; it is no name of its own
                names[-1] = replace(names[-1], text=f"{names[-1].text}, {part}")
                i += 1
            elif nxt and (_family_only(part) or _capitals_before_initials(part, nxt) or _family_of_words(part, nxt)) \
                    and _given_like(nxt) and \
                    (_initials_only(nxt) or len(parts) == 2 or _inverted_list(parts)):
                names.append(_name(f"{part}, {nxt}", family=part, given=nxt))
                i += 2
            else:
                names.append(_name(part))
                i += 1
    return [n for n in names if n.text]


def _family_only(part: str) -> bool:
    """A family name standing alone: no initials in it ("Toroser D" is a whole name), one word
    or a word with its particles ("van der Berg")."""
    words = part.split()
    if not words or any(_initials_only(w) for w in words):
        return False
    return all(w.lower() in PARTICLES for w in words[:-1]) and len(words) <= 4


def _family_of_words(part: str, nxt: str) -> bool:
    """A family name of two or three words ("Foygel Barber, R.", "de Sousa Ribeiro, F.", "Lin Shang, H."),
    known from the initials with stops after its comma: written given name first, a name is followed by
    another name, not by initials ("John Kelly, Jr." is a suffix)."""
    words = part.split()
    return (1 < len(words) <= 3 and "." in nxt and _initials_only(nxt) and nxt.strip(" .").lower() not in _SUFFIXES
            and _family_words(words))


def _family_words(words: list[str]) -> bool:
    """Whether words can make a family name: capitalised or particles, and none a run of initials."""
    return all(w[:1].isupper() or w.lower() in PARTICLES for w in words) and not any(_initials_only(w) for w in words)


def _capitals_before_initials(part: str, nxt: str) -> bool:
    """A family name set in capitals (small capitals come out of a PDF as capitals: "GOLDSMITH, J.",
    "LIU, H."), known from the initials with stops after its comma: undotted, a word of capitals
    would read as initials ("Smith JK"). A family name of two or three words is set so too ("LIN SHANG, H.")."""
    words = part.split()
    return 0 < len(words) <= 3 and all(_CAPITALS.fullmatch(w) for w in words) and "." in nxt and _initials_only(nxt)


def _inverted_list(parts: list[str]) -> bool:
    """ "Smith, John, Jones, Kate": an even count of parts, alternating one family and given words."""
    return len(parts) % 2 == 0 and all(len(p.split()) == 1 for p in parts[::2])


def _name(text: str, family: str | None = None, given: str | None = None) -> PersonName:
    text = text.strip(" ,;:")
    if family is not None:
        return PersonName(text, family.strip(" .,") or None, (given or "").strip(" ,") or None)
    words = text.split()
    if GROUP.search(text) or "&" in text or _opens_with_an_acronym(words):   # "&": "Johnson & Co."
        return PersonName(text, text, None)
    if not words:
        return PersonName("", None, None)
    core = [w for w in words if w.lower().strip(",") not in _SUFFIXES] or words
    family_words = _family_before_initials(core)
    if family_words:                                    # "Smith JK", "Dalla Vecchia C.", "van Dokkum P. G."
        return PersonName(text, " ".join(core[:family_words]), " ".join(core[family_words:]))
    start = len(core) - 1
    # A particle opening a name of two words is its given name where it is capitalised ("Bin Ji",
    # "Da Huang"): a name written given name first has one; "van Dyk" alone keeps its particle.
    while start > 0 and core[start - 1].lower() in PARTICLES and (start > 1 or core[0][:1].islower()):
        start -= 1
    family, given = " ".join(core[start:]), " ".join(core[:start])
    return PersonName(text, family.strip(" .") or None, given or None)


def _opens_with_an_acronym(words: list[str]) -> bool:
    """ "NASA CCMC", "NOAA Space Weather Prediction Center", "SWORM Subcommittee": a name whose first word
    is an acronym of four letters or more, and no given or family name set in capitals ("JOHN SMITH",
    as small capitals come out of a PDF), is an organisation's."""
    if len(words) < 2 or not _ACRONYM.fullmatch(words[0]):
        return False
    if all(_CAPITALS.fullmatch(w) for w in words) and any(len(w) > 5 for w in words):
        return False               # "WOJCIECH ZAREMBA": acronyms are short
    known = shipped_lexicon().words
    return words[0].lower() not in known["first"] and words[0].lower() not in known["family"]


def _family_before_initials(words: list[str]) -> int:
    """How many words a family name written before its initials holds ("Dalla Vecchia C.", as
    MNRAS and A&A print names), or 0 where the name is not written so: the initials end it (words
    of at most three letters: "GOYAL" is a name in capitals), and before them stand one to four
    words that are no initials, capitalised or particles."""
    end = len(words)
    while end > 0 and _initials_only(words[end - 1]) and sum(c.isalpha() for c in words[end - 1]) <= 3:
        end -= 1
    if end == len(words) or not 0 < end <= 4:
        return 0
    return end if _family_words(words[:end]) else 0
