"""Label rules for an organisation that wrote a reference, where the tagger read its name into the
title or a title into its name ("Python Software Foundation. asyncio: ...", "OpenAI. Introducing
ChatGPT"). `relabel` (relabelling.py) applies them, in its order."""
import re

from citations.parsing.cues import CUES
from citations.parsing.label_runs import YEAR, first_run, holds_a_persons_initial, is_initial
from citations.parsing.labels import OTHER
from citations.parsing.names import GROUP, PARTICLES
from citations.parsing.rule_needs import needs
from citations.parsing.tokens import Token

# Lower-case words inside an organisation's name: English connectors and the particles that join the
# words of names in other languages ("Istituto Superiore di Sanità", "Presidenza del Consiglio dei Ministri").
_NAME_CONNECTORS = {"of", "for", "and", "on", "the", "&", "/", "-"} | PARTICLES
# "Joint Committee for Guides in Metrology": an organisation's name may hold these too, but a title in
# title case does as often ("Deep Learning in Medicine."), so only the rule that asks for an
# organisation's word (names.GROUP) reads them as part of a name.
_GROUP_CONNECTORS = _NAME_CONNECTORS | {"in", "at"}


@needs("title", absent=("author",))
def organisation_opening_a_title(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "Python Software Foundation. asyncio: Asynchronous I/O in CPython." and "The Cancer Genome Atlas
    Research Network. Comprehensive molecular characterization...": with no author labelled, a short
    sentence of capitalised words opening the reference, read as the title with more title after it,
    is the organisation that wrote it (styles print the authors first, a title never opens with a
    sentence of its own before more title). Its words are capitalised but for connectors and the word
    that says it is an organisation ("Federal office of Public Health.", "Qdrant contributors."); a
    number opens one only where such a word closes it ("1000 Genomes Project Consortium.")."""
    if "author" in labels or "title" not in labels:
        return labels
    start = labels.index("title")
    text = [t.text for t in tokens]
    if any(t[:1].isalnum() for t in text[:start]) or not (text[start][:1].isupper() or text[start].isdigit()):
        return labels
    stop = next((k for k in range(start + 1, min(start + 10, len(text)))
                 if text[k] == "." and len(text[k - 1]) > 1 and text[k - 1].lower() not in CUES
                 and (k + 1 == len(text) or tokens[k + 1].start > tokens[k].end)), None)
    if stop is None or stop + 2 >= len(text) or "title" not in labels[stop + 1:stop + 3]:
        return labels
    words = text[start:stop]
    if words[0].isdigit() and not GROUP.fullmatch(words[-1]):
        return labels              # "100 Great Ideas. A History of Thought": a title opening with a number
    if any(labels[k] not in ("title", OTHER) for k in range(start, stop)) or not all(
            (w[:1].isupper() or w[:1].isdigit() or w in _NAME_CONNECTORS or GROUP.fullmatch(w))
            and not YEAR.fullmatch(w) for w in words):
        return labels              # "Programa Sectorial de Salud 2007-2012. Secretaría de Salud.": a dated title
    return labels[:start] + ["author"] * (stop - start) + [OTHER] + labels[stop + 1:]


@needs("title", absent=("author",))
def organisation_before_a_quoted_title(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "Cloud Native Computing Foundation, “Gitops best practices ...,” CNCF, Tech. Rep.": with no
    author labelled, a few capitalised words opening the reference, read into the title, then a comma
    and a title in quotes closed later on, are the organisation that wrote it (IEEE's styles print
    the authors, a comma, then the title in quotes)."""
    if "author" in labels:
        return labels
    text = [t.text for t in tokens]
    quote = next((k for k in range(2, min(len(text) - 2, 12)) if text[k] in ("“", "\"") and text[k - 1] == ","), None)
    if quote is None or ("”" if text[quote] == "“" else "\"") not in text[quote + 2:]:
        return labels
    words = text[:quote - 1]
    if "title" not in labels[:quote - 1] or any(label not in ("title", OTHER) for label in labels[:quote - 1]):
        return labels              # a magazine's name before its article's title is its container
    if not words[0][:1].isupper() and not words[0][:1].isdigit():
        return labels
    if not all((w[:1].isupper() or w[:1].isdigit() or w in _NAME_CONNECTORS) and not YEAR.fullmatch(w)
               for w in words) or any(is_initial(tokens, k) for k in range(len(words))):
        return labels              # "J. Smith, “Title,”" is a person's name the tagger missed
    return ["author"] * len(words) + [OTHER] + labels[quote:]


@needs("title", absent=("author",))
def organisation_before_a_comma_opening_a_title(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "Joint Committee for Guides in Metrology, Evaluation of measurement data ..." and "Langfuse GmbH:
    Langfuse: Open-source LLM engineering platform" (Springer's styles put a colon after the authors):
    with no author labelled, the title's first piece before a comma or a colon, of capitalised words
    and connectors only and naming an organisation (a committee, an office, a foundation, a company:
    names.py's words), with more title after it, is the organisation that wrote it."""
    found = first_run(labels, "title")
    if "author" in labels or found is None:
        return labels
    i, j = found
    text = [t.text for t in tokens]
    if any(t[:1].isalnum() for t in text[:i]):
        return labels
    comma = next((k for k in range(i + 2, min(j - 2, i + 20)) if text[k] in (",", ":")), None)
    if comma is None:
        return labels
    words = text[i:comma]
    after = text[comma + 1]            # the title's first word: capitalised, or a model's number, not a year
    if not all(w[:1].isupper() or w in _GROUP_CONNECTORS for w in words) \
            or not (after[:1].isupper() or after.isdigit() and not YEAR.fullmatch(after)) \
            or not GROUP.search(" ".join(words)) or sum(w[:1].isupper() for w in words) < 2:
        return labels
    return labels[:i] + ["author"] * (comma - i) + [OTHER] + labels[comma + 1:]


@needs("author", absent=("title",))
def title_read_into_an_organisation(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "OpenAI. Introducing ChatGPT, 2022." and "xAI. Grok 4, 2025.": with no title labelled, an
    author run that opens with a name of no initials and goes on past a sentence's stop after a word
    of three letters or more ("al.", "Jr." aside) into capitalised words holds the title after the
    stop: an organisation's name is cut by no such stop."""
    found = first_run(labels, "author")
    if "title" in labels or found is None:
        return labels
    i, j = found
    text = [t.text for t in tokens]
    stop = next((k for k in range(i + 1, j - 1) if text[k] == "." and len(text[k - 1]) > 2
                 and text[k - 1].isalnum() and text[k - 1].lower() not in _NOT_A_SENTENCE_END
                 and tokens[k + 1].start > tokens[k].end and text[k + 1][:1].isupper()), None)
    if stop is None or "," in text[i:stop] or any(is_initial(tokens, k) for k in range(i, stop)):
        return labels              # "E. Kh. Akhmedov", "P. SCRIBE. C.R. Acad.": a person's initials
    end = j
    # The title's own number, read as a volume or pages after the names: "Grok 4", "GPT 4.5".
    while (end < len(text) and not YEAR.fullmatch(text[end]) and text[end] not in (",", ";")
           and (labels[end] in _NUMBERS_AFTER or labels[end] == "date" and _VERSION.fullmatch(text[end]))
           and not (text[end] == "." and end + 1 < len(text) and tokens[end + 1].start > tokens[end].end)):
        end += 1
    while end > stop + 1 and text[end - 1] in (",", ".", ";", ":"):
        end -= 1
    return labels[:stop] + [OTHER] + ["title"] * (end - stop - 1) + labels[end:]


_NUMBERS_AFTER = {"volume", "issue", "pages", OTHER}
# A version's parts the tagger read as a date ("GPT 4.5": "4", ".", "5"), which no year is.
_VERSION = re.compile(r"[0-9]{1,2}|\.")


_NOT_A_SENTENCE_END = {"al", "jr", "sr", "st", "ed", "eds", "dr", "mr", "mrs", "ms", "prof"}


# Words that point to a work rather than name who wrote it ("Vgl. Jürgen Mansel, ...": compare).
_POINTERS = {"cf", "vgl", "see", "siehe", "voir", "ibid", "ibidem", "also"}


# What the tagger read an organisation's name opening the reference as: a note, nothing, or the imprint
# ("Amazon Web Services.", "Wikipedia, .", "Qwen Team:"), which no style prints first.
_READ_FOR_A_NAME = {"note", OTHER, "publisher", "place"}


@needs("title", absent=("author",))
def organisation_read_as_a_note(tokens: list[Token], labels: list[str]) -> list[str]:
    """ "OpenAI. GPT-4o system card, 2024." and "xAI. Grok 3 Beta — The Age of Reasoning Agents, 2025.":
    with no author labelled, a sentence of a few words opening the reference straight before the title,
    which the tagger read as a note, as nothing or as the imprint ("Amazon Web Services. Add memory to your
    ...", "Qwen Team: QwQ: Reflect, reason, respond", Springer's colon after the authors), names the
    organisation that wrote it (styles print the authors first). Not a cue ("Online.", "Available."), a
    pointer ("Vgl.", "Cf.") or a date."""
    if "author" in labels or "title" not in labels:
        return labels
    start = labels.index("title")
    stop = start - 1
    if stop < 1 or tokens[stop].text not in (".", ":") or tokens[start].start == tokens[stop].end:
        return labels
    end = stop - (tokens[stop - 1].text == ",")          # "Wikipedia, .": the style's empty piece after it
    words = [t.text for t in tokens[:end]]
    if (not words or len(words) > 4 or any(label not in _READ_FOR_A_NAME for label in labels[:stop])
            or not all(w.isalnum() or w in _NAME_CONNECTORS for w in words)
            or not any(c.isupper() for c in words[0])
            or any(w.lower() in CUES or w.lower() in _POINTERS or YEAR.fullmatch(w) for w in words)
            or holds_a_persons_initial(tokens, labels, 0, end)):
        return labels
    return ["author"] * end + [OTHER] * (stop - end) + labels[stop:]
