"""Segmentation corrections: a curator splits one extracted reference in two, or joins one with the next.

An extracted list is an observation and is never edited. A correction writes a new list for the
same version and source (origin `curation`, `corrects` naming the list it corrects): every
reference again, under new observation ids, each naming the one it comes from (`derived_from`).
The corrected references are parsed anew and resolved after the commit; the others are carried
over as they were, with their newest resolution (the link copied with its time and evidence) and
their overrides in force (new audit entries, each naming the entry it carries). The audit entry of
the correction itself is an Override of field `split` or `join` naming the new list.

The new list keeps the digest of the list it corrects, so ingesting the same file again changes
nothing and the correction stands; a different extraction (another file, a better extractor)
replaces the list, correction included, as any new extraction replaces the one before it.
A correction is not withdrawn: the opposite correction (a join of the two parts, a split of the
joined one) undoes it, with its own audit entry.
"""
import re
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from citations.current.papers import papers_changed
from citations.extraction.pdf_references import is_word_break
from citations.jobs.dispatch import dispatch_task
from citations.models import (
    LeafKind,
    Override,
    OverrideAction,
    OverrideField,
    PaperReference,
    PaperReferenceLink,
    PaperVersion,
    ReferenceExtraction,
    ResolutionState,
    note_written,
)
from citations.models.references import ExtractionOrigin
from citations.parsing.reader import STORED_FIELDS, read_reference, stored_fields
from citations.resolution.links import write_links
from citations.sources.reference_lists import MAX_RAW_TEXT
from citations.sources.successor_lists import carried_link, carry_overrides, newest_links
from curation.services import OverrideRefused, can_curate, clean_reason, lock_reference, refuse_unless_newest

SHOWN_OPENING = 80          # characters of the other part kept on the audit entry, for people to read


@dataclass(frozen=True)
class _Part:
    """One reference of the corrected list: where it comes from, and its text when it is new."""

    source: PaperReference
    index: int                          # its reference_index in the corrected list
    raw_text: str | None = None         # None: carried over unchanged


def split_point(raw_text: str, before: str) -> int:
    """Where in `raw_text` the words `before` begin (spaces and line breaks between them may differ).

    Refused unless they occur exactly once and something precedes them."""
    words = str(before or "").split()
    if not words:
        raise OverrideRefused("Say where to split: the words the second reference begins with.", field="value")
    # From a word's start: "In" names "In SC20", not the inside of "Information".
    pattern = r"(?<!\w)" + r"\s+".join(re.escape(word) for word in words)
    starts = [match.start() for match in re.finditer(pattern, raw_text)]
    quoted = " ".join(words)[:60]
    if not starts:
        raise OverrideRefused(f"“{quoted}” is not in this reference's raw text: copy the words the second "
                              "reference begins with from the text shown.", field="value")
    if len(starts) > 1:
        raise OverrideRefused(f"“{quoted}” occurs {len(starts)} times in the raw text: give more of the words, "
                              "so that they name one place.", field="value")
    if not raw_text[:starts[0]].strip():
        raise OverrideRefused("The reference already begins there: nothing would be split off.", field="value")
    return starts[0]


def joined_text(first: str, second: str) -> str:
    """Two raw texts as one, with a word the extractor broke at the seam put back together
    ("Vijay Va-" + "sudevan, ..." → "Vijay Vasudevan, ..."), and real hyphens kept ("Multi-" + "Head")."""
    left, right = first.rstrip(), second.lstrip()
    last = left.rsplit(None, 1)[-1] if left else ""
    following = right.split(None, 1)[0] if right else ""
    if len(last) > 1 and last.endswith("-"):
        return left[:-1] + right if is_word_break(last[:-1], following) else left + right
    return f"{left} {right}"


def split_reference(*, reference_id, before: str, reason: str, curator, expected_revision: int) -> Override:
    """Split one reference in two where the words `before` begin; the correction's audit entry.

    Raise OverrideRefused (nothing written) when it cannot be done."""
    def parts(reference: PaperReference, in_order: list[PaperReference]) -> tuple[list[_Part], Override]:
        if not reference.raw_text:
            raise OverrideRefused("This reference has no raw text to split: the source gave only parsed fields.")
        at = split_point(reference.raw_text, before)
        first, second = reference.raw_text[:at].rstrip(), reference.raw_text[at:].strip()
        entry = Override(field=OverrideField.SPLIT, split_at=at, value_text=_opening(second))
        # Indexes keep their order and gaps: those after the split move one up.
        corrected, shift = [], 0
        for other in in_order:
            if other.pk == reference.pk:
                corrected += [_Part(other, other.reference_index, first), _Part(other, other.reference_index + 1, second)]
                shift = 1
            else:
                corrected.append(_Part(other, other.reference_index + shift))
        return corrected, entry

    return _correct(reference_id=reference_id, reason=reason, curator=curator, expected_revision=expected_revision,
                    parts_of=parts)


def join_with_next(*, reference_id, reason: str, curator, expected_revision: int) -> Override:
    """Join one reference with the next of its list (one reference the extractor cut in two)."""
    def parts(reference: PaperReference, in_order: list[PaperReference]) -> tuple[list[_Part], Override]:
        position = next(i for i, other in enumerate(in_order) if other.pk == reference.pk)
        if position + 1 == len(in_order):
            raise OverrideRefused("This is the last reference of its list: there is no next one to join it with.")
        following = in_order[position + 1]
        if not reference.raw_text or not following.raw_text:
            raise OverrideRefused("Only references with raw text can be joined: the source gave only parsed fields.")
        text = joined_text(reference.raw_text, following.raw_text)
        if len(text) > MAX_RAW_TEXT:
            raise OverrideRefused(f"Joined, the reference would be longer than {MAX_RAW_TEXT:,} characters.")
        entry = Override(field=OverrideField.JOIN, join_with=following, value_text=_opening(following.raw_text))
        corrected, shift = [], 0
        for other in in_order:
            if other.pk == following.pk:
                shift = -1                      # those after the join move one down
            elif other.pk == reference.pk:
                corrected.append(_Part(other, other.reference_index, text))
            else:
                corrected.append(_Part(other, other.reference_index + shift))
        return corrected, entry

    return _correct(reference_id=reference_id, reason=reason, curator=curator, expected_revision=expected_revision,
                    parts_of=parts)


def successors(reference: PaperReference) -> list[PaperReference]:
    """Where a reference of a corrected list went: its reference(s) in the list that corrects it."""
    return list(PaperReference.objects.filter(derived_from=reference).order_by("reference_index", "id"))


def correction_of(extraction_id) -> Override | None:
    """The audit entry of the correction that replaced this list, None while it stands."""
    return (Override.objects.select_related("curator")
            .filter(field__in=(OverrideField.SPLIT, OverrideField.JOIN), result_list__corrects_id=extraction_id)
            .first())


# --- the one writer --------------------------------------------------------------------------------


def _correct(*, reference_id, reason: str, curator, expected_revision: int, parts_of) -> Override:
    if not can_curate(curator):
        raise OverrideRefused("Only curators can correct how a reference list is cut.")
    reason = clean_reason(reason)
    with transaction.atomic():
        listed = (PaperReference.objects.filter(pk=reference_id)
                  .values_list("extraction_id", "extraction__paper_version_id").first())
        if listed is None:
            raise OverrideRefused("There is no such reference.", field="reference")
        # The version first, as an ingest locks it: a new list and a correction cannot cross.
        PaperVersion.objects.select_for_update().filter(pk=listed[1]).first()
        reference = lock_reference(reference_id, expected_revision)
        extraction = ReferenceExtraction.objects.select_related("paper_version__paper").get(pk=listed[0])
        refuse_unless_newest(extraction)
        in_order = list(PaperReference.objects.filter(extraction=extraction).order_by("reference_index", "id"))
        parts, entry = parts_of(reference, in_order)
        now = timezone.now()
        corrected = ReferenceExtraction.objects.create(
            paper_version=extraction.paper_version, source=extraction.source, origin=ExtractionOrigin.CURATION,
            observed_at=now, content_digest=extraction.content_digest, corrects=extraction)
        new_references = _write_references(corrected, parts)
        entry.reference, entry.action, entry.reason, entry.curator, entry.created_at = (
            reference, OverrideAction.SET, reason, curator, now)
        entry.previous_text, entry.result_list = reference.raw_text, corrected
        entry.save()
        note_written(LeafKind.OVERRIDE, [entry.pk])         # for the log, in this transaction
        entry.not_carried = _carry_overrides(parts, new_references, now)
        _write_links(parts, new_references, entry, now)
        papers_changed([extraction.paper_version.paper_id])
        entry.parts = [new for part, new in zip(parts, new_references) if part.raw_text is not None]
        entry.follow_up_job = _resolve_after_commit(entry.parts)
    return entry


def _write_references(corrected: ReferenceExtraction, parts: list[_Part]) -> list[PaperReference]:
    rows = []
    for part in parts:
        old = part.source
        if part.raw_text is None:
            fields = {name: getattr(old, name) for name in ("raw_text", *STORED_FIELDS)}
        else:
            fields = {"raw_text": part.raw_text, **stored_fields(read_reference(part.raw_text))}
        # The text was observed when the extractor read it; only its cut is the curator's.
        rows.append(PaperReference(extraction=corrected, reference_index=part.index, page=old.page,
                                   observed_at=old.observed_at, derived_from=old, **fields))
    return PaperReference.objects.bulk_create(rows)


def _carry_overrides(parts: list[_Part], new_references: list[PaperReference], now) -> list[Override]:
    """Overrides in force on carried references, carried to their successors; returns those left
    behind on the references that were cut or joined (their values were about another text)."""
    carried_to = {part.source.pk: new for part, new in zip(parts, new_references) if part.raw_text is None}
    in_force = Override.objects.in_force().filter(reference__extraction_id=parts[0].source.extraction_id)
    return carry_overrides(carried_to, in_force, now)


def _write_links(parts: list[_Part], new_references: list[PaperReference], entry: Override, now) -> None:
    """Each carried reference's newest link, copied; an unresolved first link for each new one (the
    link writer tells the records of the citing paper and of the papers they cite)."""
    old_ids = [part.source.pk for part in parts]
    newest = newest_links(old_ids)
    links = []
    for part, new in zip(parts, new_references):
        old = newest.get(part.source.pk)
        if part.raw_text is None and old is not None:
            links.append(carried_link(new, old, {"correction": entry.pk}))
        else:
            links.append(PaperReferenceLink(
                reference=new, state=ResolutionState.UNRESOLVED, observed_at=now, resolver_version="",
                evidence={"stage": f"cut anew by a curator ({entry.get_field_display()}, #{entry.pk}), "
                                   "not yet resolved"}))
    write_links(links, replaced=[*old_ids, *([entry.join_with_id] if entry.join_with_id else [])])


def _resolve_after_commit(references: list[PaperReference]):
    return dispatch_task("curation.re_resolve_references", args=[[str(r.pk) for r in references]])


def _opening(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= SHOWN_OPENING else text[:SHOWN_OPENING - 1].rstrip() + "…"
