"""A CRFsuite model's weights as arrays, and the best label sequence of many strings at once.

It computes what CRFsuite's tagger computes (each token's label scores are the sums of its
features' weights; Viterbi over those and the label-to-label weights), but CRFsuite's Python
binding takes every feature of every token as a string on every call, which was most of the
parser's time. Here the features a token's text contributes at each place of the window are
summed into a score vector once per distinct text and kept, and so are the features every token
of a comma-delimited piece shares, once per kind of piece, and those of a token's place in the
string (its tenth, brackets, glue, known names: a few thousand kinds of row). The features a pair
of neighbouring words gives them, most of which the model does not have, are found by array
look-ups of the two words' numbers, not by their names. A batch of strings of similar length is
scored as one run of tokens, and its Viterbi steps advance every string of it at once, so each
step is a few array operations over the batch, not a few per string. Ties break as CRFsuite
breaks them (the first label of the highest score), and a test checks the labels are CRFsuite's
own.
"""
from itertools import accumulate, chain, repeat

import numpy as np

from citations.parsing.features import SHAPES, WINDOW, WORD_AFTER, WORD_BEFORE, Featuriser, pair_named, shapes_of
from citations.parsing.identifiers import Identifier
from citations.parsing.tokens import Token

_BATCH = 64                 # strings decoded in lock step, sorted by length to share few padding steps
_BATCH_TOKENS = 8_192       # and at most this many tokens a batch (one longer string is a batch alone),
                            # so that a batch of long strings holds no more arrays than one such string
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


class _Pairs:
    """The pair features of some prefixes made of the same texts (words, or shapes), each keyed by
    the numbers of its two texts."""

    def __init__(self, prefixes: tuple[str, ...], weights: Weights):
        named = [(pair_named(name), row) for name, row in weights.row.items()]
        found = [(parts, row) for parts, row in named if parts and parts[0] in prefixes]
        texts = sorted({text for (_, before, after), _ in found for text in (before, after)})
        self.number = {text: k for k, text in enumerate(texts, start=1)}    # 0: a text in no pair feature
        self._size = len(texts) + 1
        keys = sorted({self._key(before, after) for (_, before, after), _ in found})
        self.keys = np.array(keys or [-1], dtype=np.int64)
        at = {key: k for k, key in enumerate(keys)}
        self.rows = {prefix: np.full(len(self.keys), weights.none, dtype=np.intp) for prefix in prefixes}
        for (prefix, before, after), row in found:
            self.rows[prefix][at[self._key(before, after)]] = row
        self._none = weights.none

    def _key(self, before: str, after: str) -> int:
        return self.number[before] * self._size + self.number[after]

    def found(self, texts: list[str]) -> list[np.ndarray]:
        """For each prefix, the row of each neighbouring pair's feature (the row of zeros where the
        model has none); a pair with an unnumbered text has a key no feature has."""
        numbers = np.fromiter(map(self.number.get, texts, repeat(0, len(texts))), dtype=np.int64, count=len(texts))
        keys = numbers[:-1] * self._size + numbers[1:]
        keys[(numbers[:-1] == 0) | (numbers[1:] == 0)] = -2
        at = np.searchsorted(self.keys, keys).clip(max=len(self.keys) - 1)
        hit = self.keys[at] == keys
        return [np.where(hit, rows[at], self._none) for rows in self.rows.values()]


class _PairRows:
    """The rows of the features each pair of neighbouring tokens gives (features.pairs), found
    by array lookups of the pair's two numbers instead of by building three names a pair: most
    pairs' features are not the model's and have the row of zeros, and most pairs are seen once."""

    def __init__(self, weights: Weights):
        self._words = _Pairs((WORD_BEFORE, WORD_AFTER), weights)
        self._shapes = _Pairs((SHAPES,), weights)

    def rows(self, texts: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """For tokens - 1 pairs, the row of the word before, of the two shapes, and of the word after."""
        before, after = self._words.found([t.lower() for t in texts])
        (shapes,) = self._shapes.found(shapes_of(texts))
        return before, shapes, after


class Decoder:
    """Labels for the tokens of strings, from a model's weights and the features of its training."""

    def __init__(self, info, featuriser: Featuriser):
        self.weights = Weights(info)
        self.features = featuriser
        self._windows = _Kept(_WINDOWS_KEPT)
        self._places = _Kept(_PLACES_KEPT)
        self._pieces = _Kept(_PIECES_KEPT)
        self._pairs = _PairRows(self.weights)
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

    def scores(self, strings: list[tuple[str, list[Token], list[Identifier]]]) -> np.ndarray:
        """Each token's score for each label, for the tokens of all the strings (none empty) one
        after another (tokens x labels): scored together, a batch costs a few array operations,
        not a few per string. Each token's sum is added up in the same order as it would be alone."""
        lengths = [len(tokens) for _, tokens, _ in strings]
        total = sum(lengths)
        starts = np.fromiter(accumulate([0, *lengths[:-1]]), dtype=np.intp, count=len(lengths))
        ends = starts + lengths - 1
        texts = [t.text for _, tokens, _ in strings for t in tokens]
        features, state = self.features, self.weights.state
        places = [tuple(row) for s in strings for row in features.places(*s)]
        # concatenated, not np.array(list): one copy of the rows, without numpy sizing up the list first
        scores = np.concatenate(self._kept(self._places, places, lambda row: [row]))
        if total > 1:
            # what each pair of neighbours gives the later and the earlier token; a "pair" of one
            # string's last token and the next one's first gives nothing
            before, shapes, after = self._pairs.rows(texts)
            before[ends[:-1]] = shapes[ends[:-1]] = after[ends[:-1]] = self.weights.none
            scores[1:] += state[before] + state[shapes]
            scores[:-1] += state[after]
        pieces = [(a + at, b + at, described) for s, at in zip(strings, starts.tolist())
                  for a, b, described in features.pieces(s[1])]
        if pieces:
            # each token gets its piece's row; a token in no piece (a comma, a bracket) the row of zeros
            shared = np.concatenate([*self._kept(self._pieces, [p[2] for p in pieces], lambda f: [f]),
                                     np.zeros((1, state.shape[1]))])
            piece_of = np.full(total, len(pieces), dtype=np.intp)
            for k, (a, b, _) in enumerate(pieces):
                piece_of[a:b] = k
            scores += shared[piece_of]
        # what each token's text adds to each place of its window, with WINDOW empty places between
        # strings so that a window shifted across the whole batch never reaches into the next string
        padded_at = np.arange(total) + WINDOW * (1 + np.repeat(np.arange(len(lengths)), lengths))
        windows = np.zeros((total + WINDOW * (len(lengths) + 1), 2 * WINDOW + 1, state.shape[1]))
        windows[padded_at] = np.concatenate(self._kept(self._windows, texts, features.windowed)).reshape(
            total, 2 * WINDOW + 1, state.shape[1])
        for offset in range(-WINDOW, WINDOW + 1):
            # token k sees token k + offset through that token's row WINDOW + offset
            scores += windows[padded_at + offset, WINDOW + offset]
        scores[starts] += self._edges[0]
        scores[ends] += self._edges[1]
        return scores

    def labels(self, strings: list[tuple[str, list[Token], list[Identifier]]]) -> list[list[str]]:
        """The labels of each string's tokens (an empty list for a string with no tokens)."""
        found: list[list[str]] = [[] for _ in strings]
        order = sorted((i for i, s in enumerate(strings) if s[1]), key=lambda i: len(strings[i][1]))
        names = self.weights.labels
        for batch in _batches(order, strings):
            lengths = [len(strings[i][1]) for i in batch]
            for i, path in zip(batch, self._viterbi(self.scores([strings[i] for i in batch]), lengths)):
                found[i] = [names[y] for y in path]
        return found

    def _viterbi(self, scores: np.ndarray, lengths: list[int]) -> list[list[int]]:
        """The best label path of each string (sorted shortest first) whose tokens' scores follow
        one another in scores, all advanced one token at a time; a string that has ended keeps its
        best scores from its last token."""
        size, count, longest = len(self.weights.labels), len(lengths), lengths[-1]
        padded = np.zeros((count, longest, size))
        padded[np.repeat(np.arange(count), lengths), np.concatenate([np.arange(n) for n in lengths])] = scores
        best = padded[:, 0].copy()
        back = np.zeros((longest, count, size), dtype=np.intp)
        candidates = np.empty((count, size, size))
        incoming = self.weights.incoming[None]
        # where each (string, label) row of candidates starts, flattened: the best score is read
        # back at the place argmax chose, a gather, not found by a second reduction
        row_starts = np.arange(count * size) * size
        running = 0                                   # strings [0, running) have ended
        for t in range(1, longest):
            while lengths[running] <= t:
                running += 1
            live = candidates[running:]
            np.add(best[running:, None, :], incoming, out=live)                # batch x to x from
            chosen = live.argmax(axis=2)
            back[t, running:] = chosen
            best[running:] = live.reshape(-1)[row_starts[:chosen.size] + chosen.reshape(-1)].reshape(chosen.shape)
            best[running:] += padded[running:, t]
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


def _batches(order: list[int], strings: list) -> list[list[int]]:
    """The places of the strings, in this order, cut into batches of at most _BATCH strings and
    _BATCH_TOKENS tokens (a longer string alone)."""
    batches, batch, tokens = [], [], 0
    for i in order:
        n = len(strings[i][1])
        if batch and (len(batch) == _BATCH or tokens + n > _BATCH_TOKENS):
            batches.append(batch)
            batch, tokens = [], 0
        batch.append(i)
        tokens += n
    return batches + [batch] if batch else batches
