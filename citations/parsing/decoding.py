"""A CRFsuite model's weights as arrays, and the best label sequence of many strings at once.

It computes what CRFsuite's tagger computes (each token's label scores are the sums of its
features' weights; Viterbi over those and the label-to-label weights), but CRFsuite's Python
binding takes every feature of every token as a string on every call, which was most of the
parser's time. Here the features a token's text contributes at each place of the window are
summed into a score vector once per distinct text and kept, and so are the features every token
of a comma-delimited piece shares, once per kind of piece, and those of a token's place in the
string (its tenth, brackets, glue, known names: a few thousand kinds of row); only the features a
pair of neighbouring words gives each of them are looked up per call. Viterbi runs over a batch of strings
of similar length in lock step, so its steps are array operations over the batch. Ties break
as CRFsuite breaks them (the first label of the highest score), and a test checks the labels
are CRFsuite's own.
"""
from itertools import accumulate, chain, repeat

import numpy as np

from citations.parsing.features import WINDOW, Featuriser, pairs
from citations.parsing.identifiers import Identifier
from citations.parsing.tokens import Token

_BATCH = 64                 # strings decoded in lock step, sorted by length to share few padding steps
_WINDOWS_KEPT = 50_000      # distinct token texts whose window scores are kept (7 x labels floats each)
_PLACES_KEPT = 20_000       # distinct rows of place features whose scores are kept
_PIECES_KEPT = 20_000       # distinct piece descriptions whose scores are kept


class Weights:
    """The model's labels, each feature's weight per label, and the transition weights."""

    def __init__(self, info):
        """From a model's `pycrfsuite.Tagger().info()`."""
        self.labels = list(info.labels)
        index = {label: i for i, label in enumerate(self.labels)}
        self.row = {}
        for attribute, _ in info.state_features:
            self.row.setdefault(attribute, len(self.row))
        self.none = len(self.row)                                     # a row of zeros: no feature
        self.state = np.zeros((len(self.row) + 1, len(self.labels)))
        for (attribute, label), weight in info.state_features.items():
            self.state[self.row[attribute], index[label]] = weight
        # to x from, so that the best previous label is a reduction along the last axis
        self.incoming = np.zeros((len(self.labels), len(self.labels)))
        for (before, after), weight in info.transitions.items():
            self.incoming[index[after], index[before]] = weight

    def sums(self, groups: list[list[str]]) -> np.ndarray:
        """For each group of feature names, the sum of their weights per label (groups x labels);
        names the model does not know weigh nothing."""
        counts = [len(names) for names in groups]
        rows = list(map(self.row.get, chain.from_iterable(groups), repeat(self.none, sum(counts))))
        rows.append(self.none)               # so that an empty last group still has a start inside
        starts = [0, *accumulate(counts[:-1])]
        sums = np.add.reduceat(self.state[rows], starts)
        if 0 in counts:                      # reduceat gives an empty group the row at its start
            sums[[k for k, c in enumerate(counts) if not c]] = 0.0
        return sums


class _Kept:
    """Values kept by key in two generations of at most `size` keys each: the keys in use stay,
    and the memory stays bounded."""

    def __init__(self, size: int):
        self._size = size
        self._new: dict = {}
        self._old: dict = {}

    def found(self, keys: list) -> tuple[list, list[int]]:
        """The kept value of each key (None where there is none), and the places of those with none."""
        get = self._new.get
        found = [get(key) for key in keys]
        missing = [i for i, f in enumerate(found) if f is None]
        if missing and self._old:
            old, still = self._old.get, []
            for i in missing:
                found[i] = old(keys[i])
                if found[i] is None:
                    still.append(i)
                else:
                    self.put(keys[i], found[i])
            missing = still
        return found, missing

    def put(self, key, value) -> None:
        if len(self._new) >= self._size:
            self._old, self._new = self._new, {}
        self._new[key] = value


class Decoder:
    """Labels for the tokens of strings, from a model's weights and the features of its training."""

    def __init__(self, info, featuriser: Featuriser):
        self.weights = Weights(info)
        self.features = featuriser
        self._windows = _Kept(_WINDOWS_KEPT)
        self._places = _Kept(_PLACES_KEPT)
        self._pieces = _Kept(_PIECES_KEPT)
        self._edges = self.weights.sums([["-1edge"], ["1edge"]])

    def _kept(self, kept: _Kept, keys: list, groups) -> list[np.ndarray]:
        """The kept score array of each key; those not kept are summed together from
        groups(key), the feature name groups of one key (one row of the array each)."""
        found, missing = kept.found(keys)
        if missing:
            unique = list(dict.fromkeys(keys[i] for i in missing))
            named = [groups(key) for key in unique]
            sums = self.weights.sums([group for each in named for group in each])
            at, new = 0, {}
            for key, each in zip(unique, named):
                new[key] = sums[at:at + len(each)].copy()       # a view would keep all of sums
                at += len(each)
                kept.put(key, new[key])
            for i in missing:
                found[i] = new[keys[i]]
        return found

    def _pair_rows(self, texts: list[str]) -> np.ndarray:
        """Each pair of neighbours' three feature rows (see features.pairs), (tokens - 1) x 3; most
        pairs' features are not the model's and have the row of zeros. Not kept: most pairs are
        seen once."""
        names = list(chain.from_iterable(pairs(texts)))
        rows = np.fromiter(map(self.weights.row.get, names, repeat(self.weights.none, len(names))),
                           dtype=np.intp, count=len(names))
        return rows.reshape(-1, 3)

    def scores(self, text: str, tokens: list[Token], identifiers: list[Identifier]) -> np.ndarray:
        """Each token's score for each label (tokens x labels)."""
        n = len(tokens)
        texts = [t.text for t in tokens]
        features = self.features
        # tokens x window x labels: what each token's text adds to each place of its window
        windows = np.array(self._kept(self._windows, texts, features.windowed))
        places = [tuple(row) for row in features.places(text, tokens, identifiers)]
        scores = np.array(self._kept(self._places, places, lambda row: [row]))[:, 0]
        if n > 1:
            # for each pair of neighbours, the rows of what it gives the later and the earlier token
            rows = self._pair_rows(texts)
            state = self.weights.state
            scores[1:] += state[rows[:, 0]] + state[rows[:, 1]]
            scores[:-1] += state[rows[:, 2]]
        pieces = features.pieces(tokens)
        for (a, b, _), shared in zip(pieces, self._kept(self._pieces, [p[2] for p in pieces], lambda f: [f])):
            scores[a:b] += shared[0]
        for offset in range(-WINDOW, WINDOW + 1):
            if abs(offset) < n:
                # token k sees token k + offset through that token's row WINDOW + offset
                lo, hi = max(0, -offset), min(n, n - offset)
                scores[lo:hi] += windows[lo + offset:hi + offset, WINDOW + offset]
        scores[0] += self._edges[0]
        scores[n - 1] += self._edges[1]
        return scores

    def labels(self, strings: list[tuple[str, list[Token], list[Identifier]]]) -> list[list[str]]:
        """The labels of each string's tokens (an empty list for a string with no tokens)."""
        found: list[list[str]] = [[] for _ in strings]
        order = sorted((i for i, s in enumerate(strings) if s[1]), key=lambda i: len(strings[i][1]))
        names = self.weights.labels
        for start in range(0, len(order), _BATCH):
            batch = order[start:start + _BATCH]
            for i, path in zip(batch, self._viterbi([self.scores(*strings[i]) for i in batch])):
                found[i] = [names[y] for y in path]
        return found

    def _viterbi(self, scores: list[np.ndarray]) -> list[list[int]]:
        """The best label path of each score matrix (sorted shortest first), all advanced one
        token at a time; a string that has ended keeps its best scores from its last token."""
        lengths = [len(s) for s in scores]
        size, count, longest = len(self.weights.labels), len(scores), lengths[-1]
        padded = np.zeros((count, longest, size))
        for b, s in enumerate(scores):
            padded[b, :len(s)] = s
        best = padded[:, 0].copy()
        back = np.zeros((longest, count, size), dtype=np.intp)
        candidates = np.empty((count, size, size))
        incoming = self.weights.incoming[None]
        running = 0                                   # strings [0, running) have ended
        for t in range(1, longest):
            while lengths[running] <= t:
                running += 1
            live = candidates[running:]
            np.add(best[running:, None, :], incoming, out=live)                # batch x to x from
            back[t, running:] = live.argmax(axis=2)
            best[running:] = live.max(axis=2) + padded[running:, t]
        label = best.argmax(axis=1)
        paths = np.empty((count, longest), dtype=np.intp)
        paths[:, longest - 1] = label
        batch = np.arange(count)
        for t in range(longest - 1, 0, -1):
            while running and lengths[running - 1] > t:
                running -= 1
            # strings [0, running) end before t and keep their last label until they start
            label[running:] = back[t, batch[running:], label[running:]]
            paths[:, t - 1] = label
        return [path[:n] for path, n in zip(paths.tolist(), lengths)]
