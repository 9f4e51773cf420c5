"""The labels and words each label rule is marked as needing (rule_needs.py) are what it needs: where
they are not as marked, the rule changes nothing, so relabel may leave it uncalled. Checked on the
tagger's labels of labelled strings, each made to miss a label or a word a rule needs, or to hold a
label it needs absent."""
import random

import pytest

from citations.parsing.datasets import load
from citations.parsing.identifier_repair import read_identifiers
from citations.parsing.labels import LABELS
from citations.parsing.relabelling import _ORDER, relabel
from citations.parsing.tagger import shipped
from citations.parsing.tokens import Token, tokenise
from tests.parsing.conftest import DATA_DIR, needs_data

_STRINGS = 3000         # rules act on few strings: fewer would miss a wrong mark


@pytest.fixture(scope="module")
def tagged():
    """Tokens and the tagger's labels of a sample of GROBID's corpus and AnyStyle's strings."""
    sets = load(DATA_DIR)
    texts = [s.text for s in random.Random(0).sample(sets.grobid_corpus + sets.anystyle, _STRINGS)]
    strings = [(text, tokenise(text), read_identifiers(text)) for text in texts]
    return [(tokens, labels) for (_, tokens, _), labels in zip(strings, shipped().labels(strings)) if tokens]


def _unneeded(tokens, labels, needed, excluded, words, one_of):
    """Tokens and labels made not to be as a rule needs: each needed label replaced by another, each
    excluded label given to a token (at the start, middle and end), each needed word replaced, and
    all the words it needs one of."""
    for label in needed:
        for instead in random.Random(len(tokens)).sample([x for x in LABELS if x != label], 4):
            yield tokens, [instead if x == label else x for x in labels]
    for label in excluded:
        for k in {0, len(labels) // 2, len(labels) - 1}:
            yield tokens, labels[:k] + [label] + labels[k + 1:]
    for word in words:
        yield [Token("¤", t.start, t.end) if t.text == word else t for t in tokens], labels
    if one_of:
        yield [Token("¤", t.start, t.end) if t.text in one_of else t for t in tokens], labels


@needs_data
def test_a_rule_changes_nothing_where_its_labels_or_words_are_not_as_it_needs(tagged):
    checked = 0
    for tokens, labels in tagged:
        for rule, needed, excluded, words, one_of in _ORDER:
            for changed_tokens, unneeded in _unneeded(tokens, labels, needed, excluded, words, one_of):
                present, texts = set(unneeded), {t.text for t in changed_tokens}
                assert not (needed <= present and present.isdisjoint(excluded) and words <= texts
                            and (not one_of or not one_of.isdisjoint(texts)))
                assert rule(changed_tokens, list(unneeded)) == unneeded, (rule.__name__, [t.text for t in tokens])
                checked += 1
            labels = rule(tokens, labels)          # on to the labels the next rule sees
    assert checked > 10_000


@needs_data
def test_relabel_reads_as_every_rule_called_in_order(tagged):
    for tokens, labels in tagged:
        every = labels
        for rule, *_ in _ORDER:
            every = rule(tokens, every)
        assert relabel(tokens, labels) == every
