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


_END = ""          # the key, in a node of the name tree, of the lists a name ending there is in


class Lexicon:
    """The lists, ready for lookups: words by set membership, names in a tree of their words (a
    walk from a word goes only as far as some known name continues, usually a step or two)."""

    def __init__(self, lists: dict[str, list[str]]):
        self.words = {name: frozenset(lists.get(name, ())) for name in WORDS}
        self._tree: dict = {}
        for name in PHRASES:
            for entry in lists.get(name, ()):
                node = self._tree
                for word in entry.split():
                    node = node.setdefault(word, {})
                node[_END] = node.get(_END, ()) + (name,)

    def word_features(self, lower: str) -> list[str]:
        """The lists a single word (lower case) is in."""
        return ["L=" + name for name, words in self.words.items() if lower in words]

    def phrase_matches(self, words: list[str]) -> list[tuple[int, int, tuple[str, ...]]]:
        """(start, end, lists) of the known names in words (lower case, letters and digits only):
        from left to right, the longest name starting at a word, then on after it."""
        found = []
        n = len(words)
        i = 0
        tree = self._tree
        while i < n:
            node, j, longest = tree.get(words[i]), i, None
            while node is not None:
                j += 1
                if _END in node:
                    longest = (i, j, node[_END])
                node = node.get(words[j]) if j < n else None
            if longest:
                found.append(longest)
                i = longest[1]
            else:
                i += 1
        return found


@lru_cache(maxsize=1)
def shipped() -> Lexicon:
    """The shipped lexicon (empty where the file is absent, so a model trained without it still reads)."""
    if not LEXICON_PATH.is_file():
        return Lexicon({})
    with gzip.open(LEXICON_PATH, "rb") as file:
        return Lexicon(json.loads(file.read()))
