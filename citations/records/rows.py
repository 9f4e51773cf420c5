"""The record's observations as rows of the HTML pages: what each reference is in its own words, the
identifiers it prints, its resolution and standing notice in words.

Pure functions over a built record (or an outbound window of one); nothing here reads the database.
"""
from dataclasses import dataclass

from citations.models.resolution import LINKING_STATES
from citations.records.presentation import NOTICE_SHORT, RESOLVER_WORDS, STATE_LABELS, parse_time

NOTHING_READ = "Only its number was read: no title, text or author."


@dataclass(frozen=True)
class ObservationRow:
    observation_id: str
    reference_index: int
    index_is_year: bool    # the parser read a year as the reference's number (2020 in a list of 68)
    title: str | None
    year: int | None
    citing_arxiv_id: str
    citing_version: int
    cited_arxiv_id: str | None
    cited_title: str | None
    cited_role: str | None  # "cited": the reference cites this held paper; "candidate": named, not claimed
    work_id: str | None
    doi: str | None
    state: str
    state_label: str
    resolver_source: str | None
    resolver_words: str
    resolved_at: str
    observed_at: str
    notice_state: str
    notice_text: str
    notice_receipts: list  # (source, observed_at) of the checks behind a measured notice
    notice_checked_at: str | None   # the newest of them, as the record's sentence says
    events: list
    raw_text: str | None
    digest: str
    curated: dict          # field -> audit entry id of the override in force
    own_title: str | None = None     # the reference's own title: a curator's, else the parsed one
    known: str = ""                  # what is known of a reference with neither title nor text
    printed_ids: tuple = ()          # PrintedId: the identifiers the reference prints
    matched: bool = False            # a work is linked: cited_work describes it, not the reference
    correction: tuple | None = None  # ("split" or "join", audit entry id) of the correction that made it

    @property
    def words(self) -> str:
        """What the reference is, in its own words: its title, else its printed text, else what was read of it."""
        title = self.own_title if self.matched else self.title
        return title or self.raw_text or self.known or NOTHING_READ

    @property
    def words_are_title(self) -> bool:
        return bool(self.own_title if self.matched else self.title)

    @property
    def printed_text(self) -> str | None:
        """The printed text under a title, when it says more than the title."""
        return self.raw_text if self.raw_text and self.words_are_title and self.raw_text != self.words else None


def observation_rows(built, direction: str, window=None) -> list[ObservationRow]:
    """One display row per itemized observation of a direction ("outbound" or "inbound"), or per
    reference of an outbound window (build.outbound_window: the page's references past the cap or by state)."""
    rows = []
    list_length = built.record["reference_resolution"]["total_outbound_references"]
    observations, all_details = (window.outbound, window.details) if window else (built.record[direction],
                                                                                  built.details)
    for observation in observations:
        citation = observation["citation"]
        work, cited, citing = citation["cited_work"], citation["cited_paper"], citation["citing_paper"]
        notice = observation["standing_notice"]
        details = all_details.get(observation["observation_id"], {})
        state = observation["resolution"]["status"]
        resolver = observation["resolution"]["resolver_source"]
        rows.append(ObservationRow(
            observation_id=observation["observation_id"],
            reference_index=citation["reference_index"],
            # Only outbound: there the list's length is known; an inbound index is of another list.
            index_is_year=direction == "outbound" and index_is_a_year(citation["reference_index"], list_length),
            title=work["title"],
            year=work["year"],
            citing_arxiv_id=citing["arxiv_id"],
            citing_version=citing["version"],
            cited_arxiv_id=cited["arxiv_id"] if cited else None,
            cited_title=cited["title"] if cited else None,
            cited_role=("cited" if state in LINKING_STATES else "candidate") if cited else None,
            work_id=work["work_id"],
            doi=work["doi"],
            state=state,
            state_label=STATE_LABELS[state],
            resolver_source=resolver,
            resolver_words=RESOLVER_WORDS.get(resolver, f"by {resolver}") if resolver else "",
            resolved_at=observation["resolution"]["observed_at"],
            observed_at=citation["source_observed_at"],
            notice_state=notice["state"],
            notice_text=NOTICE_SHORT.get(notice["reason"], notice["reason"]) if notice["state"] != "measured" else "",
            notice_receipts=[(r["source"], r["observed_at"]) for r in notice["source_receipts"]],
            notice_checked_at=max((r["observed_at"] for r in notice["source_receipts"]), key=parse_time, default=None),
            events=notice["events"],
            raw_text=details.get("raw_text"),
            digest=observation["observation_digest"],
            curated=details.get("curated", {}),
            own_title=_own_title(work, details),
            known=known_fields(details),
            printed_ids=printed_identifiers(details),
            matched=work["work_id"] is not None,
            correction=details.get("correction"),
        ))
    return rows


def _own_title(work: dict, details: dict) -> str | None:
    if details.get("curated", {}).get("title"):
        return work["title"]
    title = details.get("parsed_title")
    return title if title and title.strip() else None


def known_fields(details: dict) -> str:
    """A reference with no title and no text, as what was read of it: authors, venue, year, page."""
    parts = []
    authors = [a for a in details.get("parsed_authors") or [] if isinstance(a, str) and a.strip()]
    if authors:
        parts.append(", ".join(authors[:3]) + (f" and {len(authors) - 3} more" if len(authors) > 3 else ""))
    if details.get("parsed_venue"):
        parts.append(details["parsed_venue"])
    if details.get("parsed_year"):
        parts.append(str(details["parsed_year"]))
    return "No title or text was recorded; what is known: " + ", ".join(parts) if parts else ""


@dataclass(frozen=True)
class PrintedId:
    """An identifier a reference prints, with where it leads (None when it cannot exist)."""

    kind: str          # "arXiv", "DOI" or "URL"
    value: str
    url: str | None
    problem: str | None = None


_ID_KINDS = {"arxiv": "arXiv", "doi": "DOI", "url": "URL"}


def printed_identifiers(details: dict) -> tuple[PrintedId, ...]:
    """The arXiv ids, DOIs and URLs a reference prints, each once, linked to arxiv.org or doi.org."""
    found: dict[tuple[str, str], PrintedId] = {}

    def add(kind: str, value: str | None, valid: bool = True, problem: str | None = None):
        if not value or (kind, value.lower()) in found:
            return
        url = None
        if valid:
            url = {"arxiv": f"https://arxiv.org/abs/{value}", "doi": f"https://doi.org/{value}"}.get(kind)
            if kind == "url" and value.startswith(("http://", "https://")):
                url = value
        found[(kind, value.lower())] = PrintedId(_ID_KINDS.get(kind, kind), value, url,
                                                 None if valid else (problem or "it cannot exist"))

    add("arxiv", details.get("printed_arxiv_id"))
    add("doi", details.get("printed_doi"))
    for identifier in details.get("identifiers") or []:
        if isinstance(identifier, dict) and identifier.get("kind") in _ID_KINDS:
            add(identifier["kind"], identifier.get("value"), bool(identifier.get("valid")), identifier.get("problem"))
    return tuple(found.values())


def index_is_a_year(index: int, list_length: int) -> bool:
    """A reference number that is a year the parser read as one: 2020 in a list of 68 references."""
    return 1900 <= index <= 2100 and index > list_length
