"""Applying and withdrawing overrides: every curation change goes through these functions.

Each writes its audit entry in the same transaction as the check that allows it, under a lock
on the reference, so two curators cannot both act on what they saw: the second is refused
(optimistic concurrency on the reference's revision, the id of its newest entry). After the
commit, the reference is re-resolved in the background: a corrected title or year can now match.
"""
import re
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from citations.arxiv_ids import ARXIV_DOI_PREFIX, InvalidArxivId, parse_arxiv_id
from citations.current.resolutions import curation_changed
from citations.jobs.dispatch import dispatch_task
from citations.models import (
    SEGMENTATION_FIELDS,
    VALUE_FIELDS,
    CitedWork,
    CurrentResolution,
    IdentifierKind,
    LeafKind,
    Override,
    OverrideAction,
    OverrideField,
    Paper,
    PaperReference,
    PaperReferenceLink,
    PaperVersion,
    ReferenceExtraction,
    ResolutionState,
    note_written,
)
from citations.models.generations import records_of_papers_changed
from citations.models.overrides import active_overrides
from citations.models.references import ExtractionOrigin
from citations.parsing.identifiers import normalise_doi
from citations.parsing.quality import title_problems
from citations.resolution.links import write_links
from citations.resolution.service import canonical_works
from citations.sources.successor_lists import newer_list
from citations.time_rules import EARLIEST_YEAR, is_plausible_year, latest_plausible_year
from citations.validation import OutOfRange, clean_text, has_visible_character, visible_text
from citations.works.named import work_from_identifier, work_named

CURATION_SOURCE = "curation"
MAX_TITLE = 1000
MAX_INDEX = 100_000
MAX_REASON = 2000       # the one cap: the API, the admin forms and the CLI all reach clean_reason()


class OverrideRefused(ValidationError):
    """The override cannot be saved; the message says why, for the curator, and `field` which
    input it is about (reason, value, revision...; None when the entry points choose)."""

    def __init__(self, message, *, field: str | None = None):
        super().__init__(message)
        self.field = field


class StaleRevision(OverrideRefused):
    """Someone else changed the reference since the curator loaded it.

    The message names that curator, which only staff may see (as in the API's serializers):
    message_for() gives everyone else the same sentence without the name."""

    def __init__(self, message, *, without_curator: str | None = None):
        super().__init__(message, field="revision")
        self.without_curator = without_curator or message

    def message_for(self, user) -> str:
        return " ".join(self.messages) if user is not None and user.is_staff else self.without_curator


@dataclass(frozen=True)
class LinkTarget:
    paper: Paper | None
    work: CitedWork | None
    # A DOI or arXiv id the store holds no work for yet, as (kind, value): the work is written from
    # it with the override (citations/works/named.py) and filled when a source's metadata arrives.
    identifier: tuple[str, str] | None = None

    @property
    def label(self) -> str:
        if self.identifier is not None:
            kind, value = self.identifier
            return f"DOI {value}" if kind == IdentifierKind.DOI else f"arXiv:{value}"
        return link_label(paper=self.paper, work=self.work)


def revision_of(reference_id) -> int:
    """The reference's curation revision: its newest audit entry's id, 0 when it has none."""
    newest = Override.objects.filter(reference_id=reference_id).order_by("-id").values_list("id", flat=True).first()
    return newest or 0


# --- validation -----------------------------------------------------------------------------------


def clean_title(value) -> str:
    title = " ".join(str(value or "").split())
    if not title:
        raise OverrideRefused("A title cannot be empty.", field="value")
    try:
        visible_text(title, what="A title")
    except OutOfRange as error:
        raise OverrideRefused(f"{error}.", field="value") from None
    if len(title) > MAX_TITLE:
        raise OverrideRefused(f"A title is at most {MAX_TITLE} characters.", field="value")
    if "title_is_access_date" in title_problems(title):
        raise OverrideRefused(f"“{title}” is an access date, not a title.", field="value")
    return title


def clean_year(value) -> int:
    latest = latest_plausible_year()
    try:
        year = int(str(value).strip())
    except (TypeError, ValueError):
        raise OverrideRefused(f"“{str(value)[:40]}” is not a year.", field="value") from None
    if not is_plausible_year(year):
        raise OverrideRefused(f"A year must be between {EARLIEST_YEAR} and {latest}.", field="value")
    return year


def clean_index(value) -> int:
    try:
        index = int(str(value).strip().strip("[]"))
    except (TypeError, ValueError):
        raise OverrideRefused(f"“{str(value)[:40]}” is not a reference number.", field="value") from None
    if not 1 <= index <= MAX_INDEX:
        raise OverrideRefused(f"A reference number is between 1 and {MAX_INDEX:,}.", field="value")
    return index


def clean_reason(value) -> str:
    reason = " ".join(str(value or "").split())
    if len(reason) < 3 or not has_visible_character(reason):
        raise OverrideRefused("Say why: a reason is required.", field="reason")
    try:
        clean_text(reason, what="A reason")
    except OutOfRange as error:
        raise OverrideRefused(f"{error}.", field="reason") from None
    if len(reason) > MAX_REASON:
        raise OverrideRefused(f"A reason is at most {MAX_REASON:,} characters.", field="reason")
    return reason


def link_target(value: str) -> LinkTarget:
    """What a curator names to link a reference to: a DOI or an arXiv id (of a held paper, of a work in
    the works store, or of a work the store does not hold yet, written from the identifier with the
    override), or a work id. Refused, with the reason, when it is none of these."""
    text = " ".join(str(value or "").split())
    if not text:
        raise OverrideRefused("Name what it cites: a DOI, an arXiv id or a work id.", field="value")
    doi = normalise_doi(text)
    arxiv_text = doi[len(ARXIV_DOI_PREFIX):] if doi and doi.startswith(ARXIV_DOI_PREFIX) else _ARXIV_URL.sub("", text)
    if doi is None or arxiv_text != text:
        arxiv_id = _arxiv_id(arxiv_text)
        if arxiv_id:
            paper = Paper.objects.filter(arxiv_id=arxiv_id).first()
            if paper is not None:
                return LinkTarget(paper=paper, work=None)
            work = work_named(IdentifierKind.ARXIV, arxiv_id)
            if work is None:
                return LinkTarget(paper=None, work=None, identifier=(IdentifierKind.ARXIV, arxiv_id))
            return LinkTarget(paper=work.paper, work=work)
    if doi is not None:
        work = work_named(IdentifierKind.DOI, doi)
        if work is not None:
            return LinkTarget(paper=work.paper, work=work)
        # A held paper's journal DOI, as its arXiv metadata gives it.
        paper = Paper.objects.filter(snapshots__doi__iexact=doi).first()
        if paper is not None:
            return LinkTarget(paper=paper, work=None)
        if len(doi) > 255:
            raise OverrideRefused("A DOI is at most 255 characters.", field="value")
        return LinkTarget(paper=None, work=None, identifier=(IdentifierKind.DOI, doi))
    try:
        work = CitedWork.objects.select_related("paper").filter(pk=text).first()
    except ValidationError:
        work = None
    if work is None:
        raise OverrideRefused(f"“{text[:100]}” is neither a DOI (10.…/…), an arXiv id nor a work id{_why_not_arxiv(text)}.",
                              field="value")
    return LinkTarget(paper=work.paper, work=work)


_ARXIV_URL = re.compile(r"^(?:https?://)?(?:www\.|export\.)?arxiv\.org/(?:abs|pdf)/|\.pdf$", re.I)


def _arxiv_id(text: str) -> str | None:
    """The canonical id (no version) of "2509.11076", "arXiv:2509.11076v2", "hep-th/9901001"."""
    try:
        return parse_arxiv_id(text).id
    except InvalidArxivId:
        return None


def _why_not_arxiv(text: str) -> str:
    # "2599.99999" looks like an arXiv id: say what makes it none.
    if not re.match(r"^(?:arxiv:)?(?:[a-z-]+(?:\.[A-Z]{2})?/)?[0-9]{4}", text, re.I):
        return ""
    try:
        parse_arxiv_id(text)
    except InvalidArxivId as error:
        return f" ({str(error).split(': ', 1)[-1]})" if ": " in str(error) else ""
    return ""


def entry_summary(entry: Override) -> str:
    """What an entry did, in words and without ids: "title → NVIDIA Megatron-LM", "link → DOI 10.1/x"."""
    if entry.action == OverrideAction.WITHDRAW:
        return f"withdrawal of #{entry.withdraws_id} ({entry.get_field_display()})"
    if entry.field == OverrideField.LINK:
        return f"link → {link_label(paper=entry.link_paper, work=entry.link_work)}"
    if entry.field in (OverrideField.NOT_A_WORK, OverrideField.CHECKED):
        return entry.shown_value
    return f"{entry.get_field_display()} → {entry.shown_value}"


def link_label(*, paper: Paper | None, work: CitedWork | None) -> str:
    """A link's target as curators name it: arXiv:ID for a held paper, else the work's DOI (or arXiv id)."""
    if paper is not None:
        return f"arXiv:{paper.arxiv_id}"
    if work is None:
        return "nothing"
    named = f"DOI {work.doi}" if work.doi else f"arXiv:{work.arxiv_id}" if work.arxiv_id else "a work"
    return f"{named} ({work.title[:80]})" if work.title else named


def can_curate(user) -> bool:
    return bool(user and user.is_active and user.has_perm("citations.add_override"))


# --- changes --------------------------------------------------------------------------------------


def apply_override(*, reference_id, field: str, value, reason: str, curator, expected_revision: int) -> Override:
    """Override one field of a reference; raise OverrideRefused (nothing written) when it cannot be."""
    if not can_curate(curator):
        raise OverrideRefused("Only curators can override references.")
    if field in SEGMENTATION_FIELDS:
        raise OverrideRefused("A split or a join is a correction of the list, not a value: use the reference's "
                              "“split here” or “join with next” (curation/segmentation.py).", field="field")
    if field not in VALUE_FIELDS:
        raise OverrideRefused(f"“{str(field)[:40]}” cannot be overridden ({', '.join(VALUE_FIELDS)}).",
                              field="field")
    reason = clean_reason(reason)
    entry = Override(field=field, action=OverrideAction.SET, reason=reason, curator=curator,
                     created_at=timezone.now())
    if field == OverrideField.TITLE:
        entry.value_text = clean_title(value)
    elif field == OverrideField.YEAR:
        entry.value_year = clean_year(value)
    elif field == OverrideField.INDEX:
        entry.value_index = clean_index(value)
    elif field == OverrideField.LINK:
        target = value if isinstance(value, LinkTarget) else link_target(value)
        entry.link_paper, entry.link_work = target.paper, target.work
    with transaction.atomic():
        # The version first, as an ingest and a correction lock it: a new list cannot cross the override.
        PaperVersion.objects.select_for_update().filter(
            pk__in=PaperReference.objects.filter(pk=reference_id).values("extraction__paper_version_id")).first()
        reference = lock_reference(reference_id, expected_revision)
        extraction = ReferenceExtraction.objects.select_related("paper_version").get(pk=reference.extraction_id)
        refuse_unless_newest(extraction)
        citing = extraction.paper_version.paper_id
        if field == OverrideField.LINK and citing in (entry.link_paper_id, entry.link_work and entry.link_work.paper_id):
            raise OverrideRefused("A paper is not its own citation: link the reference to the work it names, or "
                                  "mark it not a scholarly work.", field="value")
        entry.reference = reference
        current = active_overrides(reference_ids=[reference.pk]).get(reference.pk, {})
        entry.previous_text, entry.previous_year = _previous(reference, field, current)
        # An entry that changes nothing would only add noise to the audit trail.
        refuse_no_change(entry, reference, current)
        if field == OverrideField.LINK and target.identifier is not None:
            entry.link_work = work_from_identifier(kind=target.identifier[0], value=target.identifier[1],
                                                   observed_at=entry.created_at)
        entry.save()
        note_written(LeafKind.OVERRIDE, [entry.pk])         # for the log, in this transaction
        if field == OverrideField.LINK:
            _write_curated_link(reference, entry)
        _records_changed(reference, entry)
        entry.follow_up_job = _re_resolve_after_commit(reference.pk)
    return entry


def refuse_no_change(entry: Override, reference: PaperReference, current: dict) -> None:
    """Refuse an entry that would set what the reference already shows (a year of 1781 to 1781)."""
    field = entry.field
    if field == OverrideField.NOT_A_WORK and current.get("not_a_work"):
        raise OverrideRefused("This reference is already marked not a scholarly work.", field="field")
    if field == OverrideField.CHECKED and current.get("checked"):
        raise OverrideRefused("This reference is already checked as read correctly.", field="field")
    if field == OverrideField.TITLE and entry.value_text == current.get("title", reference.title):
        raise OverrideRefused(f"Not saved: the title is already “{entry.value_text[:100]}”; an override must "
                              "change it.", field="value")
    if field == OverrideField.YEAR and entry.value_year == current.get("year", reference.year):
        raise OverrideRefused(f"Not saved: the year is already {entry.value_year}; an override must change it.",
                              field="value")
    if field == OverrideField.INDEX and entry.value_index == current.get("index", reference.reference_index):
        raise OverrideRefused(f"Not saved: the reference number is already {entry.value_index}; an override must "
                              "change it.", field="value")
    if field == OverrideField.LINK and (entry.link_paper_id or entry.link_work_id):
        held = CurrentResolution.objects.filter(reference_id=reference.pk).values_list(
            "cited_paper_id", "cited_work_id").first()
        if held and (held[0] == entry.link_paper_id if entry.link_paper_id else held[1] == entry.link_work_id):
            raise OverrideRefused(f"Not saved: the reference is already linked to "
                                  f"{link_label(paper=entry.link_paper, work=entry.link_work)}.", field="value")


def withdraw_override(*, override_id: int, reason: str, curator, expected_revision: int) -> Override:
    """Withdraw an override in force: a new audit entry; the observed value shows again."""
    if not can_curate(curator):
        raise OverrideRefused("Only curators can withdraw overrides.")
    reason = clean_reason(reason)
    with transaction.atomic():
        target = Override.objects.select_related("reference").filter(pk=override_id).first()
        if target is None or target.action != OverrideAction.SET:
            raise OverrideRefused("There is no such override to withdraw.", field="override")
        if target.field in SEGMENTATION_FIELDS:
            raise OverrideRefused("A split or a join is not withdrawn: correct the list again (join the two parts, "
                                  "or split the joined reference), with its own reason.", field="override")
        if target.curator_id != curator.pk and not curator.has_perm("citations.withdraw_any_override"):
            raise OverrideRefused("Curators withdraw their own overrides; ask an editor to withdraw another's.")
        reference = lock_reference(target.reference_id, expected_revision)
        if not Override.objects.in_force().filter(pk=target.pk).exists():
            raise OverrideRefused("This override is no longer in force: it was withdrawn or replaced.",
                                  field="override")
        entry = Override.objects.create(
            reference=reference, field=target.field, action=OverrideAction.WITHDRAW, withdraws=target,
            previous_text=(str(target.value_index) if target.field == OverrideField.INDEX
                           else target.value_text if target.field != OverrideField.YEAR else None),
            previous_year=target.value_year, reason=reason, curator=curator, created_at=timezone.now())
        note_written(LeafKind.OVERRIDE, [entry.pk])
        _records_changed(reference, target)
        entry.follow_up_job = _re_resolve_after_commit(reference.pk)
    return entry


# Why a list's successor took its place, as a curator is told.
REPLACED_BECAUSE = {ExtractionOrigin.CURATION: "a curator corrected it",
                    ExtractionOrigin.REREAD: "it was read again by a newer parser"}


def refuse_unless_newest(extraction: ReferenceExtraction) -> None:
    """A correction or an override is made on the list its record shows: the newest of its version's
    lists from its source. An older list (replaced by a newer ingest, or corrected by a split or a
    join) is refused, with field="revision" (the entry points answer 409, as to a stale revision)."""
    newer = newer_list(extraction)
    if newer is not None:
        why = (REPLACED_BECAUSE.get(newer.origin, "a curator corrected it") if newer.corrects_id == extraction.pk
               else f"a newer {newer.source} list replaced it on {newer.observed_at:%Y-%m-%d %H:%M} UTC")
        raise OverrideRefused(f"Not saved: this list is no longer the one its record shows ({why}). Correct the "
                              "reference in the newest list.", field="revision")


def lock_reference(reference_id, expected_revision: int) -> PaperReference:
    """The reference, locked for this transaction; StaleRevision when its revision is no longer the one read."""
    reference = PaperReference.objects.select_for_update().filter(pk=reference_id).first()
    if reference is None:
        raise OverrideRefused("There is no such reference.", field="reference")
    revision = revision_of(reference.pk)
    if revision != expected_revision:
        if revision == 0:
            # No entry to name: the revision sent was never this reference's.
            raise StaleRevision("Not saved: this reference has no curation entries yet (its revision is 0), so the "
                                "revision sent is not one it had. Reload the page and try again.")
        newest = Override.objects.select_related("curator", "link_paper", "link_work").get(pk=revision)
        change = (f"changed this reference at {newest.created_at:%Y-%m-%d %H:%M:%S} UTC ({entry_summary(newest)}) after you "
                  "opened it. Reload the page, check their change, and try again.")
        raise StaleRevision(f"Not saved: {newest.curator.get_username()} {change}",
                            without_curator=f"Not saved: another curator {change}")
    return reference


def _previous(reference: PaperReference, field: str, current: dict) -> tuple[str | None, int | None]:
    if field == OverrideField.TITLE:
        return current.get("title", reference.title), None
    if field == OverrideField.YEAR:
        return None, current.get("year", reference.year)
    if field == OverrideField.INDEX:
        return str(current.get("index", reference.reference_index)), None
    if field == OverrideField.LINK:
        newest = reference.links.order_by("-observed_at", "-id").select_related("cited_paper").first()
        if newest and newest.cited_paper_id:
            return f"arXiv:{newest.cited_paper.arxiv_id} ({newest.state})", None
        return f"no link ({newest.state})" if newest else None, None
    return None, None


def _write_curated_link(reference: PaperReference, entry: Override) -> None:
    work_id = entry.link_work_id
    if work_id is None and entry.link_paper_id:
        work_id = canonical_works(paper_ids={entry.link_paper_id}).get(entry.link_paper_id)
    write_links([PaperReferenceLink(
        reference=reference, state=ResolutionState.VERIFIED_EXACT, resolver_source=CURATION_SOURCE,
        cited_paper_id=entry.link_paper_id, cited_work_id=work_id, observed_at=entry.created_at,
        evidence={"override": entry.pk, "reason": entry.reason}, resolver_version=CURATION_SOURCE)])


def _records_changed(reference: PaperReference, entry: Override) -> None:
    curation_changed([reference.pk])

    citing = PaperReference.objects.filter(pk=reference.pk).values_list("extraction__paper_version__paper_id",
                                                                        flat=True).first()
    records_of_papers_changed(paper_ids=[citing, entry.link_paper_id])


def _re_resolve_after_commit(reference_id):
    """The re-resolution job, committed with the audit entry; sent to the workers after the commit
    (and again by the sweep if the broker does not take it: citations/jobs/dispatch.py)."""
    return dispatch_task("curation.re_resolve_references", args=[[str(reference_id)]])
