"""Text normalisation for references and titles: PDF artefacts, comparison forms, blocking keys."""
import re
import struct
import unicodedata
from hashlib import md5

# Hyphenated compounds whose hyphen is real: "self- attention" is "self-attention", while
# "mod- els" is "models". Outside this list a hyphen at a line break is taken as a word break.
_HYPHEN_PREFIXES = frozenset(
    "self non multi pre post co cross trade fine large high low long short real open end state zero one two three "
    "four few semi sub inter intra meta well data task model human peer time game closed".split()
)
# \b: a match starts where a word does (the only place one can start), not at every letter of it:
# without it a long word with no hyphen is tried from each of its letters, in time its length squared.
_BROKEN_HYPHEN = re.compile(r"\b(\w+)- +([a-z]\w*)")
_LIGATURES = {"ﬁ": "fi", "ﬂ": "fl", "ﬀ": "ff", "ﬃ": "ffi", "ﬄ": "ffl", "ﬅ": "st", "ﬆ": "st"}
_LIGATURE_PATTERN = re.compile("|".join(_LIGATURES))

STOPWORDS = frozenset(
    "a an the of for and in on to with via by from at is are as its into using toward towards or vs versus "
    "be we our their this that".split()
)


def clean_reference_text(text: str) -> str:
    """One line of reference text with PDF artefacts undone: ligatures, spacing, broken hyphenation."""
    text = unicodedata.normalize("NFKC", text)
    if not text.isascii():                            # ligatures and soft hyphens are not ASCII
        text = _LIGATURE_PATTERN.sub(lambda m: _LIGATURES[m.group(0)], text)
        text = text.replace("\u00ad", "")             # soft hyphens
    # each run of spaces one space, none at the ends: split and strip part at the characters a regex's \s
    # matches, without a regex substitution at every space
    text = " ".join(text.split())
    # a broken word's hyphen has a space after it, and most strings have none
    return _BROKEN_HYPHEN.sub(_join_broken_word, text) if "- " in text else text


def _join_broken_word(match: re.Match) -> str:
    left, right = match.group(1), match.group(2)
    if left.lower() in _HYPHEN_PREFIXES or left[-1].isdigit():
        return f"{left}-{right}"
    return f"{left}{right}"


def fold(text: str) -> str:
    """Lower case, accents removed: the form two spellings of one title share."""
    if text.isascii():              # the same result, fast: ASCII has no accents, and casefold is lower
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    # Accents are combining marks, never ASCII: only the runs of other characters are looked at (a
    # title's few), not each of its characters.
    return decomposed if decomposed.isascii() else _NON_ASCII.sub(_without_combining_marks, decomposed)


_NON_ASCII = re.compile(r"[^\x00-\x7f]+")


def _without_combining_marks(match: re.Match) -> str:
    return "".join(ch for ch in match.group() if not unicodedata.combining(ch))


_NON_WORD = re.compile(r"[\W_]+")
# For ASCII text, as bytes: letters in lower case, and what _NON_WORD removes (every character but a
# letter or a digit) as a space. A bytes table, not str.translate's dict: a title's blocking keys are
# worked out for every work imported, and the table is the cheaper of the two.
_ASCII_WORDS = bytes((ord(chr(code).lower()) if chr(code).isalnum() else 0x20) if code < 128 else code
                     for code in range(256))
# The same, case kept: for ASCII that fold() gave, which may hold capitals (NFKD of "™" is "TM").
_ASCII_NON_WORDS = bytes((code if chr(code).isalnum() else 0x20) if code < 128 else code for code in range(256))


def comparable_title(title: str) -> str:
    """A title reduced to lower-case words separated by single spaces (punctuation and hyphens gone).
    Letters of every script stay: a Japanese or Cyrillic title compares with itself."""
    return _NON_WORD.sub(" ", fold(title)).strip()


def _comparable_words(title: str) -> list[str]:
    """comparable_title(title).split(), faster for a title that is ASCII (most are) or folds to ASCII
    (accented letters, a no-break space)."""
    if title.isascii():
        return title.encode().translate(_ASCII_WORDS).decode().split()
    folded = fold(title)
    if folded.isascii():
        return folded.encode().translate(_ASCII_NON_WORDS).decode().split()
    return _NON_WORD.sub(" ", folded).split()


def significant_tokens(title: str) -> list[str]:
    """The words of a title that carry meaning (no stopwords), in order."""
    return [token for token in _comparable_words(title) if token not in STOPWORDS]


_NAME_PART = re.compile(r"^\s*([^:]{1,40}?)\s*:\s*\S")


def name_part(title: str) -> str | None:
    """The system name before a colon ("ZeRO-Infinity" in "ZeRO-Infinity: Breaking ..."), in a form
    that keeps what tells family members apart (digits, '+'); None when the title has none."""
    match = _NAME_PART.match(title)
    if not match or len(match.group(1).split()) > 4:
        return None
    return re.sub(r"[^0-9a-z+#]+", " ", fold(match.group(1))).strip() or None


def title_blocking_keys(title: str) -> set[str]:
    """Keys under which a title is filed so that candidates are found by index, never by scan.

    Each key is specific (a whole title, or four significant words in order), so the number of
    titles sharing one stays small however large the store grows. Several keys per title give
    recall when one end of a parsed title is damaged: a venue glued on the end, a stray token at
    the start.
    """
    tokens = significant_tokens(title)
    if not tokens:
        return set()
    keys = {_full_key(tokens)}
    # Partial keys skip numbers ("snn 2 76 tev"): four words of a stock phrase plus numbers are
    # shared by ever more titles as the store grows; four real words stay specific.
    words = [token for token in tokens if not token.isdigit()]
    if len(words) >= 4:
        keys.add("h:" + " ".join(words[:4]))
        keys.add("t:" + " ".join(words[-4:]))
    if len(words) >= 5:
        keys.add("h:" + " ".join(words[1:5]))
    return {key[:200] for key in keys}


def _full_key(tokens: list[str]) -> str:
    return "f:" + " ".join(tokens)


def full_title_key(title: str) -> str | None:
    """The blocking key of the whole title (one of title_blocking_keys'): two spellings of one title share it."""
    tokens = significant_tokens(title)
    return _full_key(tokens)[:200] if tokens else None


def key_fingerprint(key: str) -> int:
    """A blocking key as it is stored and looked up: the first 8 bytes of its MD5, as a signed 64-bit
    integer. Keys are up to 200 characters of text; their fingerprints index in a third of the space
    and three times faster (bench/works.py). Two keys sharing a fingerprint (about one pair in 2^64
    lookups) only add a candidate whose title is then compared like any other."""
    return _first_8_bytes(md5(key.encode(), usedforsecurity=False).digest())[0]


_first_8_bytes = struct.Struct(">q").unpack_from      # big-endian, signed: as int.from_bytes(..., signed=True)

# key_fingerprint in PostgreSQL, for SQL that files keys already stored as text (migration 0019).
KEY_FINGERPRINT_SQL = "('x' || left(md5({}), 16))::bit(64)::bigint"


def title_fingerprints(title: str) -> set[int]:
    """The fingerprints of a title's blocking keys: what the title is filed under."""
    return {key_fingerprint(key) for key in title_blocking_keys(title)}
