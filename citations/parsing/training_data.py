"""The labelled training sets read into (text, tokens, labels): GROBID's citation TEI and AnyStyle's XML.

Each string's text is cleaned the way parse_reference cleans its input (per field, so labels keep
their characters), then tokenised; a token takes the label of its first character. Labels are then
harmonised: AnyStyle keeps punctuation and words like "In", "pp." or "ed." inside its fields where
GROBID leaves them outside, and a model learning from both needs one convention (GROBID's).
"""
import hashlib
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

from citations.parsing.label_runs import book_cited_whole
from citations.parsing.labels import OTHER, anystyle_label, grobid_label
from citations.parsing.text import clean_reference_text
from citations.parsing.tokens import Token, tokenise


class MissingTrainingData(FileNotFoundError):
    """A training data directory or file is not where it should be."""


@dataclass(frozen=True)
class LabelledString:
    """One training string: its text, tokens and a label per token."""

    source: str            # "grobid-corpus", "grobid-evaluation", "anystyle"
    text: str
    tokens: list[Token]
    labels: list[str]

    @property
    def key(self) -> str:
        """The string with all whitespace removed: copies of one string share it."""
        return "".join(self.text.split())


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _inner_text(element: ET.Element) -> str:
    parts = [element.text or ""]
    for child in element:
        parts.append(" " if _local(child.tag) == "lb" else _inner_text(child))
        parts.append(child.tail or "")
    return "".join(parts)


def _clean_segment(text: str) -> str:
    core = clean_reference_text(text)
    if not core:
        return " " if text else ""
    return (" " if text[:1].isspace() else "") + core + (" " if text[-1:].isspace() else "")


def _labelled(source: str, segments: list[tuple[str, str]]) -> LabelledString | None:
    chars: list[str] = []
    char_labels: list[str] = []
    for text, label in segments:
        for ch in _clean_segment(text):
            if ch.isspace():
                if not chars or chars[-1] == " ":
                    continue
                ch = " "
            chars.append(ch)
            char_labels.append(label)
    while chars and chars[-1] == " ":
        chars.pop()
        char_labels.pop()
    text = "".join(chars)
    if not text:
        return None
    tokens = tokenise(text)
    glued = [k + 1 < len(tokens) and tokens[k + 1].start == t.end for k, t in enumerate(tokens)]
    labels = harmonise([t.text for t in tokens], [char_labels[t.start] for t in tokens], glued)
    return LabelledString(source, text, tokens, labels)


def read_grobid(path: Path, source: str) -> list[LabelledString]:
    """Every <bibl> of one GROBID TEI file."""
    root = ET.parse(path).getroot()
    found = []
    for bibl in (e for e in root.iter() if _local(e.tag) == "bibl"):
        segments = [(bibl.text or "", OTHER)]
        for child in bibl:
            tag, text = _local(child.tag), _inner_text(child)
            segments.append((text, OTHER if tag == "lb" else grobid_label(tag, child.attrib, text)))
            segments.append((child.tail or "", OTHER))
        labelled = _labelled(source, segments)
        if labelled and "title" not in labelled.labels and book_cited_whole(labelled.tokens, labelled.labels):
            # A book or proceedings cited whole: its title is the work's title, as in AnyStyle and
            # as fields.build reads it.
            labelled.labels[:] = ["title" if label == "booktitle" else label for label in labelled.labels]
        if labelled:
            found.append(labelled)
    return found


def read_anystyle(path: Path) -> list[LabelledString]:
    """Every <sequence> of one AnyStyle file (its fields are joined with single spaces)."""
    found = []
    for sequence in ET.parse(path).getroot().iter("sequence"):
        segments = []
        for child in sequence:
            if (child.text or "").strip():
                segments.append((child.text + " ", anystyle_label(child.tag)))
        labelled = _labelled("anystyle", segments)
        if labelled:
            found.append(labelled)
    return found


# Words that introduce a field rather than belong to it.
_LEADING = {
    "booktitle": {"In", "in", "IN"}, "journal": {"In", "in"}, "series": {"In", "in"},
    "pages": {"pp", "p", "pages", "page", "Pp", "P", "S", "pgs"},
    "volume": {"vol", "Vol", "VOL", "volume", "Volume", "vols", "Vols", "Bd", "v", "V"},
    "issue": {"no", "No", "NO", "nr", "Nr", "issue", "Issue", "n", "num"},
    "editor": {"ed", "eds", "Ed", "Eds", "edited", "Edited", "by", "editor", "editors", "Hrsg", "hrsg", "In", "in"},
}
# "(Eds.)" closes an editor list in AnyStyle's labels and follows it in GROBID's.
_TRAILING = {"editor": {"ed", "eds", "Ed", "Eds", "editor", "editors", "Editors", "Hrsg", "hrsg", "(", ")"}}
_EDGE_PUNCTUATION = set(".,;:\"“”‘’'`")


def _closing(words, start, end) -> int | None:
    """The index of the bracket closing the one at start, within [start, end)."""
    depth = 0
    for k in range(start, end):
        depth += words[k] in ("(", "[")
        depth -= words[k] in (")", "]")
        if depth == 0:
            return k
    return None


def harmonise(words: list[str], labels: list[str], glued: list[bool] | None = None) -> list[str]:
    """Labels with the edges of each field trimmed to GROBID's convention (see the module docstring)."""
    labels = list(labels)
    i = 0
    while i < len(labels):
        j = i
        while j < len(labels) and labels[j] == labels[i]:
            j += 1
        if labels[i] != OTHER:
            for _ in range(2):          # trimming one end can unbalance brackets at the other
                _trim(words, labels, i, j, glued or [False] * len(words))
                while i < j and labels[i] == OTHER:
                    i += 1
                while j > i and labels[j - 1] == OTHER:
                    j -= 1
        i = j
    return labels


_ISSUE_CUES = {"no", "No", "NO", "nr", "Nr", "issue", "Issue", "n", "num", "Heft"}


def _split_issue(words, labels, start, end):
    """AnyStyle's volume holds the issue too ("36(3)", "36, no. 9"), and at times the pages after a colon
    ("175(7):4769–76", "51:197–204"): each is labelled apart, as in GROBID."""
    _split_pages(words, labels, start, end)
    for k in range(start, end - 2):
        if words[k] == "(" and words[k + 2] == ")" and words[k + 1].isalnum():
            labels[k], labels[k + 1], labels[k + 2] = OTHER, "issue", OTHER
            return
    for k in range(start + 1, end - 1):
        if words[k] in _ISSUE_CUES:
            first = k
            while first > start and words[first - 1] in ",;.":
                first -= 1
            for m in range(first, end):
                labels[m] = "issue" if m > k and words[m].isalnum() else OTHER
            return


_DASHES = {"-", "–", "—"}


def _series_letter(words, labels, start, end) -> bool:
    """A journal's series letter that a volume run opens with ("Nucl. Phys. B262", "Phys. Rev. D22"):
    the journal's, as most labels have it ("Phys. Rev. D 65"), and as the journal is named ("Physical
    Review D"). "V69" is a volume's cue, not a series."""
    return (end - start >= 2 and len(words[start]) == 1 and words[start].isupper() and words[start] != "V"
            and words[start + 1].isdigit()
            and (start >= 1 and labels[start - 1] == "journal"
                 or start >= 2 and labels[start - 2] == "journal" and words[start - 1] in ".,"))


def _split_pages(words, labels, start, end):
    """The pages after the colon of a volume run: a range ("197–204") or an article number of three digits
    or more ("044005"); "33:3" is a volume and its issue, left to the tagger's convention for the issue."""
    colon = next((k for k in range(start + 1, end - 1) if words[k] == ":" and words[k + 1][:1].isdigit()), None)
    if colon is None:
        return
    last = colon + 1
    while last + 2 < end and words[last + 1] in _DASHES and words[last + 2].isalnum():
        last += 2
    if last == colon + 1 and len(words[last]) < 3:
        return
    labels[colon] = OTHER
    for k in range(colon + 1, last + 1):
        labels[k] = "pages"
    for k in range(last + 1, end):
        labels[k] = OTHER


def _trim(words, labels, start, end, glued):
    if start >= end:
        return
    label = labels[start]
    if end - start >= 3 and words[start] in ("(", "[") and words[end - 1] in (")", "]") and \
            _closing(words, start, end) == end - 1:
        labels[start] = labels[end - 1] = OTHER      # a whole field in brackets: "(2000)"
        start, end = start + 1, end - 1
    if label == "volume":
        if _series_letter(words, labels, start, end):
            labels[start] = "journal"
            start += 1
        _split_issue(words, labels, start, end)
    leading, trailing = _LEADING.get(label, set()), _TRAILING.get(label, set())
    while start < end:
        word = words[start]
        opens = sum(w in "([" for w in words[start:end]) > sum(w in ")]" for w in words[start:end])
        cue = word in leading and not (glued[start] and start + 1 < end and words[start + 1][:1].isdigit())
        if word in _EDGE_PUNCTUATION or cue or word in (")", "]") or (word in ("(", "[") and opens):
            labels[start] = OTHER
            start += 1
        else:
            break
    while end > start:
        word = words[end - 1]
        closes = sum(w in ")]" for w in words[start:end]) > sum(w in "([" for w in words[start:end])
        if word in _EDGE_PUNCTUATION or word in trailing or word in ("(", "[") or (word in (")", "]") and closes):
            end -= 1
            labels[end] = OTHER
        else:
            break


def sha256(path: Path) -> str:
    """The hex sha256 digest of a file's bytes."""
    return hashlib.sha256(path.read_bytes()).hexdigest()
