"""Shaping a built record for people: labels, rows and summaries the HTML pages show.

Pure functions over the record dict; nothing here reads the database.
"""
from dataclasses import dataclass

from citations.canonical import context_digest, observation_digest

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


@dataclass(frozen=True)
class ObservationRow:
    observation_id: str
    reference_index: int
    title: str | None
    year: int | None
    citing_arxiv_id: str
    citing_version: int
    cited_arxiv_id: str | None
    cited_title: str | None
    work_id: str | None
    doi: str | None
    state: str
    state_label: str
    resolver_source: str | None
    resolved_at: str
    observed_at: str
    notice_state: str
    notice_text: str
    events: list
    raw_text: str | None
    digest: str
    curated: dict          # field -> audit entry id of the override in force


def observation_rows(built, direction: str) -> list[ObservationRow]:
    """One display row per itemized observation of a direction ("outbound" or "inbound")."""
    rows = []
    for observation in built.record[direction]:
        citation = observation["citation"]
        work, cited, citing = citation["cited_work"], citation["cited_paper"], citation["citing_paper"]
        notice = observation["standing_notice"]
        details = built.details.get(observation["observation_id"], {})
        rows.append(ObservationRow(
            observation_id=observation["observation_id"],
            reference_index=citation["reference_index"],
            title=work["title"],
            year=work["year"],
            citing_arxiv_id=citing["arxiv_id"],
            citing_version=citing["version"],
            cited_arxiv_id=cited["arxiv_id"] if cited else None,
            cited_title=cited["title"] if cited else None,
            work_id=work["work_id"],
            doi=work["doi"],
            state=observation["resolution"]["status"],
            state_label=STATE_LABELS[observation["resolution"]["status"]],
            resolver_source=observation["resolution"]["resolver_source"],
            resolved_at=observation["resolution"]["observed_at"],
            observed_at=citation["source_observed_at"],
            notice_state=notice["state"],
            notice_text=notice.get("observation") or NOTICE_SHORT.get(notice["reason"], notice["reason"]),
            events=notice["events"],
            raw_text=details.get("raw_text"),
            digest=observation["observation_digest"],
            curated=details.get("curated", {}),
        ))
    return rows


def state_count_rows(record: dict) -> list[tuple[str, str, int]]:
    counts = record["reference_resolution"]["state_counts"]
    return [(state, STATE_LABELS[state], counts[state]) for state in STATE_LABELS]


@dataclass(frozen=True)
class DigestCheck:
    where: str
    declared: str
    recomputed: str

    @property
    def holds(self) -> bool:
        return self.declared == self.recomputed


def recompute_digests(record: dict) -> list[DigestCheck]:
    """Every digest the record declares, next to the digest recomputed from its content."""
    checks = [DigestCheck("context_digest", record["context_digest"], context_digest(record))]
    for direction in ("outbound", "inbound"):
        for index, observation in enumerate(record[direction]):
            checks.append(DigestCheck(f"{direction}[{index}] {observation['observation_id']}",
                                      observation["observation_digest"], observation_digest(observation)))
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

    @property
    def cites_retracted(self) -> bool:
        return bool(self.retracted)


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
    return StandingSummary(**groups, measured=measured, unavailable=unavailable)
