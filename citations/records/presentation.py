"""Shaping a built record for people: labels, rows and summaries the HTML pages show.

Pure functions over the record dict; nothing here reads the database.
"""
import re
import unicodedata
from dataclasses import dataclass
from datetime import UTC, date, datetime

from citations.models.resolution import LINKING_STATES
from citations.records.canonical import context_digest, observation_digest

STATE_LABELS = {
    "verified_exact": "Verified by identifier",
    "verified_fuzzy": "Verified by title and year",
    "metadata_mismatch": "Identifier contradicts title",
    "malformed_identifier": "Malformed identifier",
    "parse_uncertain": "Parse uncertain",
    "unresolved": "Unresolved",
}

STATE_MEANINGS = {
    "verified_exact": "An identifier in the reference (arXiv id or DOI) names a held paper or work, and nothing "
                      "in the reference contradicts it.",
    "verified_fuzzy": "The reference has no usable identifier; its title and year agree with exactly one held "
                      "paper, by a clear margin over any other (years may differ by one between preprint and venue).",
    "metadata_mismatch": "An identifier in the reference resolves, but its title contradicts every known title "
                         "of that paper. No link is claimed.",
    "malformed_identifier": "The reference carries an identifier that cannot exist (an arXiv id with month 13, "
                            "a DOI with no suffix...). No link is claimed.",
    "parse_uncertain": "The parsed fields cannot be trusted: no title, a title that is an access date, an author "
                       "list or a venue, or an impossible year. No link is claimed.",
    "unresolved": "The reference was read, but nothing held in this store matches it (or it has not been "
                  "checked yet: then no resolver is named).",
}

NOTICE_REASONS = {
    "canonical_work_link_unavailable": "Not checked: the reference is not linked to a canonical work, so there is "
                                       "no DOI to look up.",
    "standing_sources_never_synchronised": "Not checked: no standing source has been synchronised yet.",
    "standing_check_pending": "Not checked yet: the work is linked, but no source has been queried for it.",
    "not_a_scholarly_work": "Not checked: a curator marked this reference as not a scholarly work.",
}


# Short forms for the record's tables; /evidence gives the long ones.
NOTICE_SHORT = {
    "canonical_work_link_unavailable": "Not checked: no canonical work linked.",
    "standing_sources_never_synchronised": "Not checked: no source synchronised yet.",
    "standing_check_pending": "Not checked yet.",
    "not_a_scholarly_work": "Not checked: not a scholarly work.",
}


# What decided a state, in words ("by" reads before each); /evidence#states has the field's values.
RESOLVER_WORDS = {
    "arxiv_id": "by the arXiv id it prints",
    "doi": "by the DOI it prints",
    "title_year": "by its title, with its year or first author",
    "journal_volume_page": "by journal, volume and first page",
    "parser": "by checking its parsed fields",
    "curation": "by a curator",
}

# Named sources, for people; the record names them by these keys.
SOURCE_NAMES = {"retraction_watch": "Retraction Watch", "crossref": "Crossref", "openalex": "OpenAlex",
                "arxiv_reference": "arXiv reference lists, as the imported record counted them"}
# An event's date when its source gives none (OpenAlex never does; Crossref sometimes): said, not guessed.
NO_DATE = "date not given by the source"


def state_count_rows(record: dict) -> list[tuple[str, str, int]]:
    counts = record["reference_resolution"]["state_counts"]
    return [(state, STATE_LABELS[state], counts[state]) for state in STATE_LABELS]


@dataclass(frozen=True)
class DigestCheck:
    where: str              # as the record numbers it: "Ref. 12", "Citation by arXiv:2212.11773, ref. 94"
    declared: str
    recomputed: str
    observation_id: str | None = None

    @property
    def holds(self) -> bool:
        return self.declared == self.recomputed


def recompute_digests(record: dict) -> list[DigestCheck]:
    """Every digest the record declares, next to the digest recomputed from its content."""
    checks = [DigestCheck("The record as a whole (its context digest)", record["context_digest"],
                          context_digest(record))]
    for direction in ("outbound", "inbound"):
        for observation in record[direction]:
            citation = observation["citation"]
            where = (f"Ref. {citation['reference_index']}" if direction == "outbound" else
                     f"Citation by arXiv:{citation['citing_paper']['arxiv_id']}, ref. {citation['reference_index']}")
            checks.append(DigestCheck(where, observation["observation_digest"], observation_digest(observation),
                                      observation["observation_id"]))
    return checks


RETRACTING = ("retraction", "partial_retraction", "withdrawal", "removal")
CONCERNING = ("expression_of_concern",)
CORRECTING = ("correction", "erratum", "corrigendum", "addendum", "clarification")


@dataclass(frozen=True)
class StandingItem:
    reference_index: int
    observation_id: str
    title: str | None
    doi: str | None
    event_type: str
    source: str
    notice_doi: str | None
    occurred_on: str | None


@dataclass(frozen=True)
class StandingSummary:
    retracted: list
    concerns: list
    corrected: list
    reinstated: list
    measured: int
    unavailable: int
    total: int = 0          # references of the list, itemized in the record or not

    @property
    def cites_retracted(self) -> bool:
        return bool(self.retracted)

    @property
    def not_itemized(self) -> int:
        return max(0, self.total - self.measured - self.unavailable)

    @property
    def line(self) -> str:
        """'1 retracted · 30 of 68 checked · 38 could not be checked': what a reader sees first."""
        return standing_line(retracted=len({i.observation_id for i in self.retracted}), checked=self.measured,
                             unchecked=self.unavailable, not_itemized=self.not_itemized)

    @property
    def groups(self) -> list[tuple[str, list]]:
        """The groups in the order a reader should see them: retractions first."""
        return [("retracted", self.retracted), ("concerns", self.concerns), ("corrected", self.corrected),
                ("reinstated", self.reinstated)]


def standing_summary(record: dict) -> StandingSummary:
    """What a reader should see first: the cited works retracted, under concern or corrected.

    A retraction followed by a later reinstatement from the same source is listed as reinstated,
    not as retracted; every other event stays what its source calls it.
    """
    groups = {"retracted": [], "concerns": [], "corrected": [], "reinstated": []}
    measured = unavailable = 0
    for observation in record["outbound"]:
        notice = observation["standing_notice"]
        if notice["state"] != "measured":
            unavailable += 1
            continue
        measured += 1
        work = observation["citation"]["cited_work"]
        events = notice["events"]
        reinstated = {e["source"]: e["occurred_on"] or "" for e in events if e["event_type"] == "reinstatement"}
        for event in events:
            item = StandingItem(observation["citation"]["reference_index"], observation["observation_id"],
                                work["title"], work["doi"], event["event_type"], event["source"],
                                event["notice_doi"], event["occurred_on"])
            kind = event["event_type"]
            if kind in RETRACTING:
                undone = event["source"] in reinstated and reinstated[event["source"]] >= (event["occurred_on"] or "")
                groups["reinstated" if undone else "retracted"].append(item)
            elif kind in CONCERNING:
                groups["concerns"].append(item)
            elif kind in CORRECTING:
                groups["corrected"].append(item)
    return StandingSummary(**groups, measured=measured, unavailable=unavailable,
                           total=record["reference_resolution"]["total_outbound_references"])


def standing_line(*, retracted: int, checked: int, unchecked: int, not_itemized: int = 0) -> str:
    """The standing of a paper's references in one line, the same on the record, the paper and the lists."""
    listed = checked + unchecked
    if not listed and not not_itemized:
        return "No reference listed"
    parts = [f"{retracted:,} retracted"] if retracted else []
    parts.append(f"{checked:,} of {listed:,} checked" if checked else f"none of {listed:,} checked")
    if unchecked:
        parts.append(f"{unchecked:,} could not be checked")
    if not_itemized:
        parts.append(f"{not_itemized:,} past the record's cap, not counted here")
    return " · ".join(parts)


# --- times ---------------------------------------------------------------------------------------------

MONTH_ABBREVIATIONS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def parse_time(value) -> datetime | None:
    """A record's time in either rendering (…Z or …+00:00), or a datetime; None for anything else."""
    if isinstance(value, datetime):
        return value if value.tzinfo else None
    if not isinstance(value, str):
        return None
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        return None
    return parsed if parsed.tzinfo else None


def minute_text(value) -> str:
    """'8 Aug 2026, 11:07 UTC': a time to the minute (cut, as as_of is), with its zone."""
    moment = parse_time(value)
    if moment is None:
        return "" if value is None else str(value)
    moment = moment.astimezone(UTC)
    return f"{moment.day} {MONTH_ABBREVIATIONS[moment.month - 1]} {moment.year}, {moment:%H:%M} UTC"


def day_text(value) -> str:
    """'1 May 2020' for a date ('2020-05-01'), or for the day of a time."""
    if isinstance(value, str) and len(value) == 10:
        try:
            value = date.fromisoformat(value)
        except ValueError:
            return value
    elif not isinstance(value, date):
        moment = parse_time(value)
        if moment is None:
            return "" if value is None else str(value)
        value = moment.astimezone(UTC).date()
    return f"{value.day} {MONTH_ABBREVIATIONS[value.month - 1]} {value.year}"


# --- what changed, in words (the history's compare page) ---------------------------------------------

FIELD_WORDS = {
    "as_of": "the record's time", "thesis": "the record's sentence", "context_digest": "the context digest",
    "observation_digest": "the observation's digest", "observation_id": "the observation's id",
    "resolution.status": "resolution state", "resolution.observed_at": "when it was resolved",
    "resolution.resolver_source": "what decided it", "citation.cited_work.title": "title",
    "citation.cited_work.year": "year", "citation.cited_work.doi": "DOI", "citation.cited_work.venue": "venue",
    "citation.cited_work.metadata_source": "where the cited work's details come from",
    "citation.cited_paper.arxiv_id": "held paper it cites", "citation.source_observed_at": "when it was read",
    "standing_notice.state": "standing notice", "standing_notice.reason": "why no standing notice",
    "reference_resolution.displayed": "references listed",
    "reference_resolution.total_outbound_references": "references in the paper",
}


def field_words(path: str) -> str:
    """A record's JSON path in words: 'citation.cited_work.title' is 'title'; others as their names read."""
    bare = re.sub(r"\[[^\]]*\]", "", path)
    if bare in FIELD_WORDS:
        return FIELD_WORDS[bare]
    named = re.findall(r"\[([^\]:]+)[^\]]*\]", path)
    words = " › ".join(part.replace("_", " ") for part in bare.split(".") if part)
    return f"{words} ({', '.join(SOURCE_NAMES.get(n, n.replace('_', ' ')) for n in named)})" if named else words


def value_words(value) -> str:
    """A value of the record as a reader reads it: times to the minute, none for null."""
    if value is None:
        return "none"
    if isinstance(value, str) and parse_time(value) is not None:
        return minute_text(value)
    if isinstance(value, str):
        return STATE_LABELS.get(value) or RESOLVER_WORDS.get(value) or value
    return str(value)


# --- papers ---------------------------------------------------------------------------------------------

# arXiv metadata writes accents in TeX: F\"arber, Chru\'sciel, Przemys{\l}aw.
_TEX_ACCENTS = {'"': "\u0308", "'": "\u0301", "`": "\u0300", "^": "\u0302", "~": "\u0303", "=": "\u0304",
                ".": "\u0307", "c": "\u0327", "v": "\u030c", "H": "\u030b", "u": "\u0306", "k": "\u0328",
                "r": "\u030a"}
_TEX_LETTERS = {"l": "ł", "L": "Ł", "o": "ø", "O": "Ø", "ss": "ß", "aa": "å", "AA": "Å", "ae": "æ", "AE": "Æ",
                "oe": "œ", "OE": "Œ", "i": "ı"}
_ACCENT = re.compile(r"""\{?\\(["'`^~=.]|[cvHukr](?=[\s{]))\s*\{?\\?([A-Za-z])\}?\}?""")
_LETTER = re.compile(r"\{\\(ss|aa|AA|ae|AE|oe|OE|[lLoOi])\}|\\(ss|aa|AA|ae|AE|oe|OE|[lLoO])\b")


def tex_text(value: str | None) -> str | None:
    """Names as people write them: TeX accents and letters of arXiv metadata decoded (F\\"arber: Färber)."""
    if not value or "\\" not in value:
        return value

    def accent(match):
        letter = "ı" if match[2] == "i" and match[1] != "c" else match[2]
        return unicodedata.normalize("NFC", letter + _TEX_ACCENTS[match[1]])

    value = _ACCENT.sub(accent, value)
    return _LETTER.sub(lambda m: _TEX_LETTERS[m[1] or m[2]], value)


def author_names(authors: str | None) -> list[str]:
    """The authors of an arXiv metadata snapshot ('A, B and C'), one name each, TeX decoded."""
    if not authors or not authors.strip():
        return []
    names = re.split(r",\s*(?:and\s+)?|\s+and\s+", tex_text(" ".join(authors.split())))
    return [name.strip() for name in names if name.strip()]


def paper_categories(primary: str | None, categories: str) -> list[tuple[str, bool]]:
    """(category, is the primary one) as a snapshot stores them: the primary first, each once."""
    ordered = ([primary] if primary else []) + [c for c in categories.split() if c != primary]
    return [(category, category == primary) for category in ordered]


def state_summary(counts: dict[str, int]) -> list[tuple[str, str, int]]:
    """(state, label, count) of the states present, in the order of STATE_LABELS (verified first)."""
    return [(state, STATE_LABELS[state], counts[state]) for state in STATE_LABELS if counts.get(state)]


def inbound_state_counts(record: dict) -> list[tuple[str, str, int]]:
    """The itemized inbound citations of a record, by state."""
    counts: dict[str, int] = {}
    for observation in record["inbound"]:
        state = observation["resolution"]["status"]
        counts[state] = counts.get(state, 0) + 1
    return state_summary(counts)


# --- coverage lanes -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Lane:
    """A coverage lane for people: what it counts, from what, as of when."""

    lane: str
    label: str
    state: str
    records_observed: int
    denominator: int
    counts: str           # what the two numbers count, in words
    source_words: str     # what was read, in words
    source: str           # the record's own value (table or source names)
    source_observed_at: str | None


LANE_LABELS = {
    "reference_resolution": "Reference resolution",
    "standing_notices": "Standing notices",
    "inbound_itemization": "Citations listed",
    "external_citation_measurements": "Citation counts from outside sources",
}

# Short reasons, counted in the standing lane's sentence.
NOTICE_COUNTED = {
    "canonical_work_link_unavailable": "no canonical work is linked, so there was nothing to look up",
    "standing_sources_never_synchronised": "no standing source had been synchronised",
    "standing_check_pending": "the work is linked but not yet looked up",
    "not_a_scholarly_work": "a curator marked the reference as not a scholarly work",
}


def plain_thesis(record: dict) -> str:
    """The thesis in a reader's words (the record's own sentence is the JSON's, shown beside it)."""
    resolution, inbound = record["reference_resolution"], record["coverage"][2]
    shown, total = resolution["displayed"], resolution["total_outbound_references"]
    references = (f"all {_of(total, 'reference')} of this paper" if shown == total and total != 1 else
                  "the one reference of this paper" if shown == total else
                  f"{shown:,} of the {total:,} references of this paper")
    cited_by, cited_total = inbound["records_observed"], inbound["denominator"]
    citations = (_of(cited_total, "citation") if cited_by == cited_total else
                 f"{cited_by:,} of the {cited_total:,} citations")
    return (f"As of {day_text(record['as_of'])}, this record lists {references if total else 'no reference of this paper'}"
            f" and {citations} of it from papers held here.")


def _of(n: int, noun: str) -> str:
    return f"{n:,} {noun}" if n == 1 else f"{n:,} {noun}s"


def coverage_lanes(record: dict) -> list[Lane]:
    """The record's four coverage lanes, each with a sentence saying what its numbers count."""
    lanes = {lane["lane"]: lane for lane in record["coverage"]}
    sentences = {
        "reference_resolution": _resolution_sentence(record),
        "standing_notices": _standing_sentence(record),
        "inbound_itemization": _inbound_sentence(record, lanes["inbound_itemization"]),
        "external_citation_measurements": _external_sentence(record),
    }
    sources = {
        "reference_resolution": "this paper's reference list, and the newest resolution of each reference",
        "standing_notices": "the notices read from the standing sources, and the receipt each check left",
        "inbound_itemization": "the reference lists of the other papers held here, and their resolutions",
        "external_citation_measurements": (
            "the counts reported by " + ", ".join(SOURCE_NAMES.get(m["source"], m["source"])
                                                  for m in record["external_citation_measurements"])
            if record["external_citation_measurements"] else "nothing: no outside source has been measured"),
    }
    return [
        Lane(lane=lane["lane"], label=LANE_LABELS.get(lane["lane"], lane["lane"]), state=lane["state"],
             records_observed=lane["records_observed"], denominator=lane["denominator"],
             counts=sentences.get(lane["lane"], lane["note"]), source_words=sources.get(lane["lane"], lane["source"]),
             source=lane["source"], source_observed_at=lane["source_observed_at"])
        for lane in record["coverage"]
    ]


def _resolution_sentence(record: dict) -> str:
    displayed = record["reference_resolution"]["displayed"]
    if not displayed:
        return "No reference of this paper is listed, so none has a state."
    counts = record["reference_resolution"]["state_counts"]
    linked = sum(counts.get(state, 0) for state in LINKING_STATES)
    return (f"Every one of the {_of(displayed, 'listed reference')} was given a state: {linked:,} verified as "
            f"citing a held paper or work, {displayed - linked:,} not linked (the states table above). "
            "It counts references given a state, not references matched.")


def _standing_sentence(record: dict) -> str:
    observations = record["outbound"] + record["inbound"]
    if not observations:
        return "No reference or citation is listed, so no standing notice is stated."
    checked = sum(1 for o in observations if o["standing_notice"]["state"] == "measured")
    reasons: dict[str, int] = {}
    for o in observations:
        if o["standing_notice"]["state"] != "measured":
            reason = o["standing_notice"]["reason"]
            reasons[reason] = reasons.get(reason, 0) + 1
    unchecked = len(observations) - checked
    sentence = (f"Each of the {len(observations):,} listed references and citations carries a standing notice. "
                if len(observations) > 1 else "The one listed observation carries a standing notice. ")
    if checked:
        sentence += f"{checked:,} {'was' if checked == 1 else 'were'} looked up in the standing sources"
        if unchecked:
            sentence += f"; {unchecked:,} {'was' if unchecked == 1 else 'were'} not"
    else:
        sentence += "None was looked up in the standing sources"
    if len(reasons) == 1:
        (reason,) = reasons
        sentence += ", because " + NOTICE_COUNTED.get(reason, reason)
    elif reasons:
        sentence += ": " + "; ".join(f"{n:,} because {NOTICE_COUNTED.get(reason, reason)}"
                                     for reason, n in sorted(reasons.items(), key=lambda item: (-item[1], item[0])))
    return sentence + ". The lane counts notices stated, not works looked up."


def _inbound_sentence(record: dict, lane: dict) -> str:
    shown, total = lane["records_observed"], lane["denominator"]
    if not total:
        return "No paper held here has a reference verified as citing this one."
    if shown == total:
        return (f"All {_of(total, 'citation')} from papers held here (references verified as citing this paper) "
                "are listed below." if total > 1 else
                "The one citation from a paper held here (a reference verified as citing this paper) is listed below.")
    return (f"{shown:,} of the {_of(total, 'citation')} from papers held here are listed below "
            f"(at most {record['caps']['inbound']} are).")


def _external_sentence(record: dict) -> str:
    measurements = record["external_citation_measurements"]
    if not measurements:
        return "No citation count from an outside source is recorded for this paper."
    return (f"{_of(len(measurements), 'count')} from named outside sources, each dated and never added to another: "
            + "; ".join(f"{m['count']:,} according to {SOURCE_NAMES.get(m['source'], m['source'])}"
                        for m in measurements) + ".")
