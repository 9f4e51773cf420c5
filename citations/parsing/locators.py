"""Where a reference says its work is printed: volume and first page, and the journal named before them.

A reference whose title is missing or too damaged to match ("Phys. Rev. Lett. 77, 3865 (1996)",
"Gastroenterology. 2004;127:1291-9.") still names its work by journal, volume and first page; the
resolver uses them as biblio-glutton does (matching.py). Only the forms that cannot be much else
are read, the last one in the string (the locator follows the title and the journal):

    127:1291-9   55(3):213-215   13:S245-S251   74(8):2424          volume[(issue)]:page
    111(6 Pt 1), e676-e682   172, 658-666                          volume[(issue)], page-range
    77, 3865 (1996)                                                 volume, page (year)
    vol. 12, no. 3, pp. 45-67                                       labelled

A number that reads as a year (1800-2099) is never a volume here: "Epidemiol 2002, 55(3):213" is
volume 55, and a Lecture Notes volume 1998 is a rare loss against many false locators.
"""
import re
from dataclasses import dataclass

from citations.parsing.text import clean_reference_text, comparable_title, key_fingerprint

# A page or article number as journals print it: "565", "S245", "L32", "A6", "e116".
PAGE = r"[A-Za-z]{0,2}[0-9]{1,7}[A-Za-z]?"
_LOCATOR = re.compile(
    rf"(?<![\w.\-/])(?!(?:1[89]|20)[0-9]{{2}}(?![0-9]))(?P<volume>[0-9]{{1,5}}[A-Za-z]?)\s*(?:\((?P<issue>[^()]{{1,15}})\))?\s*(?P<sep>[:,])\s*(?:pp?\.\s*)?"
    rf"(?P<page>{PAGE})(?![\w/])(?P<range>\s*[-–—]{{1,2}}\s*{PAGE}(?![\w/]))?(?P<year>\s*\((?:1[89]|20)[0-9]{{2}}\))?")
_LABELLED = re.compile(
    rf"\bvol(?:ume)?\.?\s*(?P<volume>[0-9]{{1,5}})\b.{{0,40}}?\bpp?\.\s*(?P<page>{PAGE})(?![\w/])", re.I)
_YEARLIKE = re.compile(r"^(?:1[89]|20)[0-9]{2}$")
# Identifiers and URLs hold digits and colons that are no locator.
_NOT_TEXT = re.compile(r"\b10\.[0-9]{4,9}/\S*|https?://\S+|www\.\S+|\barxiv\s*:\s*\S+", re.I)
_JOURNAL_STOPWORDS = frozenset({"of", "the", "and", "for", "in", "on", "de", "la", "und", "fur", "a", "an"})


@dataclass(frozen=True)
class Locator:
    volume: str
    first_page: str
    journal_words: tuple[str, ...]      # the comparable words just before the volume (the journal, if any)


def normal_page(page: str | None) -> str | None:
    """A page as it is compared: lower case, no leading zeros ("S245" -> "s245", "0123" -> "123")."""
    if not page:
        return None
    page = page.strip().lower()
    letters = page.rstrip("0123456789")
    digits = page[len(letters):].lstrip("0") or ("0" if page[len(letters):] else "")
    return (letters + digits) or None


def normal_volume(volume: str | None) -> str | None:
    if not volume:
        return None
    volume = volume.strip().lower().lstrip("0")
    return volume or None


def locator_key(volume: str | None, first_page: str | None) -> int | None:
    """The fingerprint of a (volume, first page) as a key, the same from a work's fields as printed
    and a reference's (citations/resolution/waiting.py); None without both."""
    volume, first_page = normal_volume(volume), normal_page(first_page)
    return key_fingerprint(f"l:{volume}:{first_page}") if volume and first_page else None


def find_locator(text: str | None) -> Locator | None:
    """The volume and first page a reference prints, if it prints them in a form read here."""
    if not text:
        return None
    text = _NOT_TEXT.sub(lambda m: " " * len(m.group(0)), clean_reference_text(text))
    text = _NOT_TEXT.sub(lambda m: " " * len(m.group(0)), text)
    found = None
    for match in _LOCATOR.finditer(text):
        volume = match.group("volume")
        # "volume, page" alone is any two numbers in a list; it needs an issue, a page range or a
        # year in brackets after it to be a locator.
        if match.group("sep") == "," and not (match.group("issue") or match.group("range") or match.group("year")):
            continue
        if match.group("sep") == "," and not match.group("page")[-1:].isdigit():
            continue
        found = (match, volume, match.group("page"))
    labelled = None
    for match in _LABELLED.finditer(text):
        labelled = (match, match.group("volume"), match.group("page"))
    if labelled and (found is None or labelled[0].start() >= found[0].start() - 60):
        found = labelled
    if found is None:
        return None
    match, volume, page = found
    volume, page = normal_volume(volume), normal_page(page)
    if not volume or not page:
        return None
    before = comparable_title(text[max(0, match.start() - 200):match.start()]).split()
    return Locator(volume, page, tuple(before[-20:]))


def journal_agrees(words: tuple[str, ...], journals: tuple[str, ...]) -> bool | None:
    """Whether the words before a locator end with one of these journal names, full or abbreviated
    ("J Biol Chem" for "Journal of Biological Chemistry"); None when either side is unknown."""
    journals = [j for j in journals if j]
    if not words or not journals:
        return None
    for journal in journals:
        tokens = [t for t in comparable_title(journal).split() if t not in _JOURNAL_STOPWORDS]
        if not tokens:
            continue
        mine = [t for t in words if t not in _JOURNAL_STOPWORDS]
        # The journal's words are the last words before the volume, give or take a year or an issue.
        for end in range(len(mine), max(len(mine) - 3, 0), -1):
            tail = mine[max(0, end - len(tokens)):end]
            if len(tail) == len(tokens) and all(_abbreviates(a, b) for a, b in zip(tail, tokens)):
                return True
    return False


def _abbreviates(written: str, full: str) -> bool:
    """'biol' for 'biological', 'j' for 'journal', or the same word."""
    if written == full:
        return True
    shorter, longer = sorted((written, full), key=len)
    return longer.startswith(shorter) and (len(shorter) >= 3 or shorter == longer[:1] and len(shorter) == 1)
