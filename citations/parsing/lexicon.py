"""Known names the tagger may look up, as GROBID's citation model does: journal titles (full and
abbreviated), proceedings, publishers and collaborations, matched as phrases; first names, family
names and English word forms, looked up one token at a time.

A title and a journal often look alike token by token ("Q-balls, Nucl. Phys. B262"), and an author
and a title word alike ("Bohm"); whether a run of words is a known journal, or a word is an English
one, tells them apart where the training strings never showed that name. The lists are GROBID's
(see LEXICON_SOURCE); `manage.py build_reference_lexicon` writes them into one shipped file, and the
model's metadata names that file's digest, since a model is trained with the lexicon it reads.
"""
import gzip
import json
from functools import lru_cache
from pathlib import Path

from citations.parsing.tokens import tokenise

LEXICON_PATH = Path(__file__).resolve().parent / "model" / "lexicon.json.gz"
# Where each list comes from, under GROBID's grobid-home/lexicon/ (Apache-2.0).
LEXICON_SOURCE = {
    "journal": ["journals/journals.txt", "journals/abbrev_journals.txt"],
    "proceedings": ["journals/proceedings.txt"],
    "publisher": ["publishers/publishers.txt"],
    "collaboration": ["organisations/collaborations.txt", "organisations/inspire_collaborations.txt"],
    "first": ["names/firstname.5k"],
    "family": ["names/lastname.5k"],
    "english": ["wordforms/english.wf"],
}
PHRASES = ("journal", "proceedings", "publisher", "collaboration")
WORDS = ("first", "family", "english")
_LONGEST = 12            # words; longer names are left out of the phrase lists


def phrase_key(text: str) -> tuple[str, ...]:
    """A name as the words it is matched by: lower case, letters and digits only."""
    return tuple(t.text.lower() for t in tokenise(text) if t.text.isalnum())


def read_source(folder: Path) -> dict[str, list[str]]:
    """The lists out of a GROBID lexicon folder, normalised, de-duplicated and sorted."""
    lists = {}
    for name, paths in LEXICON_SOURCE.items():
        entries = set()
        for relative in paths:
            path = Path(folder) / relative
            if not path.is_file():
                raise FileNotFoundError(f"{path} is missing: pass GROBID's grobid-home/lexicon folder")
            for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
                line = line.split("\t", 1)[0].strip()      # word forms: the form, then its lemma and tag
                if name in PHRASES:
                    key = phrase_key(line)
                    if key and len(key) <= _LONGEST and not (len(key) == 1 and len(key[0]) < 3):
                        entries.add(" ".join(key))
                elif line.isalpha() and len(line) > 1:
                    entries.add(line.lower())
        lists[name] = sorted(entries)
    return lists


def write(lists: dict[str, list[str]], path: Path = LEXICON_PATH) -> Path:
    """The lists as one gzipped JSON file whose bytes depend on the lists alone."""
    data = json.dumps(lists, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode()
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", filename="", mtime=0) as file:
        file.write(data)
    return path


class Lexicon:
    """The lists, ready for lookups: words by set membership, names by their first word."""

    def __init__(self, lists: dict[str, list[str]]):
        self.words = {name: frozenset(lists.get(name, ())) for name in WORDS}
        self._names: dict[tuple[str, ...], tuple[str, ...]] = {}
        lengths: dict[str, set[int]] = {}
        for name in PHRASES:
            for entry in lists.get(name, ()):
                key = tuple(entry.split())
                self._names[key] = self._names.get(key, ()) + (name,)
                lengths.setdefault(key[0], set()).add(len(key))
        self._lengths = {first: sorted(found, reverse=True) for first, found in lengths.items()}

    def word_features(self, lower: str) -> list[str]:
        """The lists a single word (lower case) is in."""
        return ["L=" + name for name, words in self.words.items() if lower in words]

    def phrase_matches(self, words: list[str]) -> list[tuple[int, int, tuple[str, ...]]]:
        """(start, end, lists) of the known names in words (lower case, letters and digits only):
        from left to right, the longest name starting at a word, then on after it."""
        found = []
        n = len(words)
        i = 0
        names, known_lengths = self._names, self._lengths
        while i < n:
            end = i + 1
            for length in known_lengths.get(words[i], ()):
                if i + length <= n:
                    lists = names.get(tuple(words[i:i + length]))
                    if lists:
                        found.append((i, i + length, lists))
                        end = i + length
                        break
            i = end
        return found


@lru_cache(maxsize=1)
def shipped() -> Lexicon:
    """The shipped lexicon (empty where the file is absent, so a model trained without it still reads)."""
    if not LEXICON_PATH.is_file():
        return Lexicon({})
    with gzip.open(LEXICON_PATH, "rb") as file:
        return Lexicon(json.loads(file.read()))
