"""Which labels a label rule needs to see to change anything, so that `relabel` (relabelling.py)
calls it only where it can: most rules act on a label's run ("title", "journal") or only where a
label is missing (no title read), and a string's labels hold few of the seventeen, so most rules
would only look and return the labels as they were. Some rules look for a word as well (a colon,
"In", "of"), which most strings do not hold. Each rule is marked with what its own code asks
first; tests/parsing/test_rule_needs.py checks that, where the mark says so, a rule changes
nothing."""
from collections.abc import Callable

Rule = Callable[[list, list[str]], list[str]]


def needs(*present: str, absent: tuple[str, ...] = (), words: tuple[str, ...] = (),
          one_of: tuple[str, ...] = ()) -> Callable[[Rule], Rule]:
    """Mark a rule: it changes no labels unless every label of `present` is among them, none of
    `absent` is, every token text of `words` is among the string's tokens, as written, and so is
    one of `one_of` at least (the rule itself is unchanged, and still works on any labels)."""
    def mark(rule: Rule) -> Rule:
        rule.present = frozenset(present)
        rule.absent = frozenset(absent)
        rule.words = frozenset(words)
        rule.one_of = frozenset(one_of)
        return rule
    return mark
