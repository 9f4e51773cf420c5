"""What build() makes of a text labelled by hand, run by run: the label rules' tests give the
tagger's labels this way, so that they test the rule and not the model."""
from citations.parsing.fields import build
from citations.parsing.identifier_repair import read_identifiers
from citations.parsing.tokens import tokenise


def read_as(text: str, **runs: str):
    """What build() makes of text when the tagger labels each given run so (the rest: other)."""
    return read_runs(text, list(runs.items()), in_order=False)


def read_runs(text: str, runs: list[tuple[str, str]], in_order: bool = True):
    """read_as for runs given in order (each found after the one before), so that one label may
    label two runs."""
    tokens = tokenise(text)
    labels = ["other"] * len(tokens)
    position = 0
    for label, run in runs:
        start = text.index(run, position)
        end = start + len(run)
        position = end if in_order else 0
        labels = [label if start <= t.start < end else old for t, old in zip(tokens, labels)]
    return build(text, text, tokens, labels, read_identifiers(text))
