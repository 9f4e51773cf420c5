"""The parser's own decoding gives the labels CRFsuite's tagger gives with the same model."""
import pycrfsuite

from citations.parsing.crf import _text, parse_reference, parse_references
from citations.parsing.datasets import load
from citations.parsing.identifier_repair import read_identifiers
from citations.parsing.tagger import MODEL_PATH, shipped
from citations.parsing.tokens import tokenise
from tests.parsing.conftest import DATA_DIR, needs_data

ODD = ["", "   ", "Nature", "(2001)", "A. B.", "x" * 3000, " ".join(["Smith, J."] * 400),
       "Ñandú, J. “Quoted title,” Rev. Mod. Phys. 1, 2 (1999). doi:10.1103/RevModPhys.1.2",
       # pair features' names hold "|" between their two words; pieces of none but breaks
       "A | B || C ||| D. J. Phys. 1|2", "||", ",", "( )", "“ ” ,"]


def _strings(raws):
    return [(text, tokenise(text), read_identifiers(text)) for text in map(_text, raws)]


def _crfsuite_labels(strings):
    tagger = pycrfsuite.Tagger()
    tagger.open(str(MODEL_PATH))
    features = shipped()._decoder.features
    return [tagger.tag(features.string(*s)) if s[1] else [] for s in strings]


def test_odd_strings_get_crfsuites_labels():
    strings = _strings(ODD)
    assert shipped().labels(strings) == _crfsuite_labels(strings)


@needs_data
def test_every_held_out_string_gets_crfsuites_labels():
    # Lengths from 1 token to hundreds, in one call and one at a time: batches of mixed lengths
    # must not leak one string's path into another's.
    raws = [s.text for s in load(DATA_DIR).grobid_evaluation] + ODD
    strings = _strings(raws)
    expected = _crfsuite_labels(strings)
    assert shipped().labels(strings) == expected
    assert [shipped().labels([s])[0] for s in strings[:40]] == expected[:40]


def test_a_list_of_long_strings_in_many_batches_gets_crfsuites_labels():
    # Long strings fill a batch by their tokens before its count of strings: no label may leak
    # from one string into the next, within a batch or across one.
    strings = _strings([" ".join([f"Smith{k}, J. {k}. Title {k}. Nature {k}, {k} (2001)."] * (60 * k))
                        for k in range(1, 12)] + ODD)
    assert shipped().labels(strings) == _crfsuite_labels(strings)


def test_a_list_is_read_as_each_string_alone():
    raws = ODD + ["L. Blum, F. Cucker, M. Shub, and S. Smale. Complexity and Real Computation. Springer, 1997."]
    assert parse_references(raws) == [parse_reference(raw) for raw in raws]
