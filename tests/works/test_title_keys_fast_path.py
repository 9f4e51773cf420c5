"""The fast paths of fold() / comparable_title() / title_blocking_keys() (citations/parsing/text.py), for
ASCII and for text that folds to ASCII, give byte-identical results to the Unicode path they shortcut (the
fingerprints of stored keys depend on it), on every real title at hand: the
biblio-glutton set (titles, journals, authors, reference strings) and the GROBID citation corpus."""
import gzip
import json
import re
import unicodedata
from pathlib import Path
from xml.etree import ElementTree

import pytest

from citations.parsing import text

SHARED = Path(__file__).resolve().parents[3] / "shared" / "data"
GLUTTON = SHARED / "biblio-glutton-doi-matching" / "references-doi-matching.json.gz"
GROBID = SHARED / "grobid-citation-corpus"
_NON_WORD = re.compile(r"[\W_]+")


def reference_fold(value: str) -> str:
    decomposed = unicodedata.normalize("NFKD", value.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def reference_comparable_title(title: str) -> str:
    return _NON_WORD.sub(" ", reference_fold(title)).strip()


def reference_blocking_keys(title: str) -> set[str]:
    tokens = [t for t in reference_comparable_title(title).split() if t not in text.STOPWORDS]
    if not tokens:
        return set()
    keys = {"f:" + " ".join(tokens)}
    words = [token for token in tokens if not token.isdigit()]
    if len(words) >= 4:
        keys.add("h:" + " ".join(words[:4]))
        keys.add("t:" + " ".join(words[-4:]))
    if len(words) >= 5:
        keys.add("h:" + " ".join(words[1:5]))
    return {key[:200] for key in keys}


def real_strings() -> list[str]:
    strings = []
    if GLUTTON.exists():
        for item in json.load(gzip.open(GLUTTON, "rt")):
            strings += [v for k in ("atitle", "jtitle", "firstAuthor", "reference") if isinstance(v := item.get(k), str)]
    for path in sorted(GROBID.glob("*/*.xml")):
        try:
            root = ElementTree.parse(path).getroot()
        except ElementTree.ParseError:
            continue
        for element in root.iter():
            if element.tag.rsplit("}", 1)[-1] in ("title", "bibl", "author"):
                strings.append(" ".join("".join(element.itertext()).split()))
    return strings


EDGES = ["", " ", "_", "a_b", "A-B", "\t x \x0b\x0c\x1c\x1d\x1e\x1f y \x7f", "Ünïcode", "straße", "ﬁne ﬂow",
         "x\u0301", "İstanbul", "ΣΑΣ", "１２３ ＡＢＣ", "ZeRO-Infinity: 3D+ A_B of the Models (v2)", "a" * 300,
         "The of and", "1 2 3 4 5 6", "Deep learning for the 2 3 of big data sets now", "".join(map(chr, range(128))),
         # non-ASCII that folds to ASCII, and that does not
         "Nguyễn Văn Ａ", "85\u00a0years", "a\u0301\u0323b\u0300", "\u0301", "children’s β-amyloid", "한국어 논문",
         "日本語の題名", "Ωmega 😀 ǅ", "ﬁrst-order Å"]


def test_the_ascii_fast_path_gives_identical_folds_titles_and_keys():
    strings = real_strings()
    if len(strings) < 1000:
        pytest.skip("../shared/data is not on this machine")
    assert sum(s.isascii() for s in strings) > 1000 and sum(not s.isascii() for s in strings) > 100
    for value in strings + EDGES:
        assert text.fold(value) == reference_fold(value), value
        assert text.comparable_title(value) == reference_comparable_title(value), value
        assert text.title_blocking_keys(value) == reference_blocking_keys(value), value


def test_the_fast_path_agrees_on_edge_cases_without_the_shared_data():
    for value in EDGES:
        assert text.fold(value) == reference_fold(value), value
        assert text.significant_tokens(value) == [
            t for t in reference_comparable_title(value).split() if t not in text.STOPWORDS], value
        assert text.title_blocking_keys(value) == reference_blocking_keys(value), value
