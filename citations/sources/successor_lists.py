"""A list that takes another's place for the same version and source, reference by reference.

Two writes make one: a curator's corrected cut (curation/segmentation.py) and the same list read
again by a newer parser (citations/sources/rereading.py). Each new reference names the one it
succeeds (`derived_from`), and what stood on that one carries over, so neither a curator's work
nor a resolution is lost when the list under it is replaced:
- the overrides in force, copied as new audit entries naming the entry they carry (`carried_from`);
- the newest link, copied with its own time and evidence, for a successor whose fields are the same.
"""
from django.db.models import QuerySet

from citations.models import LeafKind, Override, PaperReference, PaperReferenceLink, ReferenceExtraction, note_written


def newer_list(extraction: ReferenceExtraction) -> ReferenceExtraction | None:
    """The newest list of the same version and source written after this one, if any (the one its
    record shows instead)."""
    return (ReferenceExtraction.objects.filter(paper_version_id=extraction.paper_version_id, source=extraction.source)
            .exclude(pk=extraction.pk)
            .filter(observed_at__gte=extraction.observed_at)
            .exclude(observed_at=extraction.observed_at, pk__lt=extraction.pk)
            .order_by("-observed_at", "-id").first())


# Every field of an entry a carried copy repeats: all but its identity, the reference it is on, what
# it carries, and when it was written (a new field of the model is carried without a change here).
_CARRIED_FIELDS = tuple(f.attname for f in Override._meta.concrete_fields
                        if f.name not in ("id", "reference", "carried_from", "withdraws", "created_at"))


def carry_overrides(successors: dict, in_force: QuerySet, now) -> list[Override]:
    """Copy the entries in force (`in_force`, over the old list) onto the successors of their
    references (`successors`: old reference id -> new reference); returns the entries left behind
    on references that have no successor here (their values were about another text)."""
    entries = list(in_force.order_by("id"))
    copies = [Override(**{name: getattr(entry, name) for name in _CARRIED_FIELDS},
                       reference=successors[entry.reference_id], carried_from=entry, created_at=now)
              for entry in entries if entry.reference_id in successors]
    Override.objects.bulk_create(copies)
    note_written(LeafKind.OVERRIDE, [copy.pk for copy in copies])      # for the log, in the caller's transaction
    return [entry for entry in entries if entry.reference_id not in successors]


def newest_links(reference_ids) -> dict:
    """Each reference's newest link (the latest written, whatever its time)."""
    newest = {}
    for link in PaperReferenceLink.objects.filter(reference_id__in=list(reference_ids)).order_by(
            "reference_id", "observed_at", "id"):
        newest[link.reference_id] = link
    return newest


def carried_link(new: PaperReference, old: PaperReferenceLink, why: dict) -> PaperReferenceLink:
    """The old reference's newest link, for its successor: same decision, same time, and evidence
    that says where it was carried from (`why`: what replaced the list)."""
    return PaperReferenceLink(
        reference=new, state=old.state, resolver_source=old.resolver_source, cited_paper_id=old.cited_paper_id,
        cited_work_id=old.cited_work_id, observed_at=old.observed_at, resolver_version=old.resolver_version,
        evidence={**old.evidence, "carried_over": {"link": old.pk, **why}})
