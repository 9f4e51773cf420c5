"""A CRFsuite model's weights as arrays, and the best label sequence of many strings at once.

It computes what CRFsuite's tagger computes (each token's label scores are the sums of its
features' weights; Viterbi over those and the label-to-label weights), but CRFsuite's Python
binding takes every feature of every token as a string on every call, which was most of the
parser's time. Here the features a token's text contributes at each place of the window are
summed into a score vector once per distinct text and kept, and so are the features every token
of a comma-delimited piece shares, once per kind of piece; only the features that depend on the
token's own place in the string are looked up per call. Viterbi runs over a batch of strings
of similar length in lock step, so its steps are array operations over the batch. Ties break
as CRFsuite breaks them (the first label of the highest score), and a test checks the labels
are CRFsuite's own.
"""
from itertools import accumulate, chain, repeat

import numpy as np

from citations.parsing.features import WINDOW, Featuriser
from citations.parsing.identifiers import Identifier
from citations.parsing.tokens import Token

_BATCH = 64                 # strings decoded in lock step, sorted by length to share few padding steps
_WINDOWS_KEPT = 50_000      # distinct token texts whose window scores are kept (7 x labels floats each)
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


class Decoder:
    """Labels for the tokens of strings, from a model's weights and the features of its training."""

    def __init__(self, info, featuriser: Featuriser):
        self.weights = Weights(info)
        self.features = featuriser
        self._windows: dict[str, np.ndarray] = {}
        self._older: dict[str, np.ndarray] = {}
        self._pieces: dict[tuple[str, ...], np.ndarray] = {}
        self._edges = self.weights.sums([["-1edge"], ["1edge"]])

    def _piece(self, features: tuple[str, ...]) -> np.ndarray:
        """What a piece's shared features add to each of its tokens (a few thousand kinds of piece)."""
        found = self._pieces.get(features)
        if found is None:
            found = self.weights.sums([list(features)])[0]
            if len(self._pieces) < _PIECES_KEPT:
                self._pieces[features] = found
        return found

    def _window(self, text: str) -> np.ndarray:
        """What a token's text adds to the scores of each place of the window around it:
        row WINDOW + offset is what it adds to the token `offset` places before it. Kept in two
        generations, so the texts in use stay and the memory stays bounded."""
        found = self._windows.get(text)
        if found is None:
            found = self._older.get(text)
            if found is None:
                found = self.weights.sums(self.features.windowed(text))
            if len(self._windows) >= _WINDOWS_KEPT:
                self._older, self._windows = self._windows, {}
            self._windows[text] = found
        return found

    def scores(self, text: str, tokens: list[Token], identifiers: list[Identifier]) -> np.ndarray:
        """Each token's score for each label (tokens x labels)."""
        n = len(tokens)
        windows = np.array([self._window(t.text) for t in tokens])           # tokens x window x labels
        scores = self.weights.sums(self.features.positional(text, tokens, identifiers))
        for a, b, features in self.features.pieces(tokens):
            scores[a:b] += self._piece(features)
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
