"""Writing resolution links: the one writer of a reference's state, and of every write that follows it.

A link is an append-only observation: what a reference names (a held paper, a work, or nothing),
in which state, decided by what, when. Every path that decides one (the resolver, an ingest's
first "not yet resolved", a v1 record read back, a curator's link, a curator's corrected list)
hands its links to `write_links()`, which stores them and, in the caller's transaction, does what
follows from them, so no path can forget a follow-up:

- the current resolution of each reference (citations/current/resolutions.py), which the API lists
  and admin queues read;
- the waiting keys: a reference that now names a paper or work no longer waits for one
  (citations/resolution/waiting.py); the resolver also files the keys its unresolved ones wait under;
- the standing of each newly named work, checked against every synchronised source now, so a record
  says "cites a retracted work" as soon as it says whom it cites, not at the next daily sync;
- the records that show them: the citing papers' (outbound), and the inbound lists of the papers
  named before and after (record generations, citations/models/generations.py).
"""
from collections.abc import Iterable

from citations.current.resolutions import links_written
from citations.models import CurrentResolution, PaperReference, PaperReferenceLink
from citations.models.generations import records_of_papers_changed
from citations.resolution.waiting import file_waiting
from citations.standing.checks import check_works
from citations.transparency.sequencer import note_links_written


def write_links(links: Iterable[PaperReferenceLink], *, waiting: dict | None = None, replaced: Iterable = (),
                check_standing: bool = True) -> list[PaperReferenceLink]:
    """Store these links (at most one per reference) and every write that follows from them, in the
    caller's transaction. `waiting`: reference id -> the keys it waits under from now on, for
    references this caller resolved (the resolver's, whether or not their link changed).
    `replaced`: references of an older list these links' references take the place of (a curator's
    corrected list): the papers they named see their inbound lists change too.
    `check_standing=False` only for a v1 record read back: it brings its own dated receipts, and a
    check now would add observations the record never made (and so change it)."""
    links = list(links)
    waiting = dict(waiting or {})
    if not links:
        file_waiting(waiting)
        return links
    reference_ids = {link.reference_id for link in links}
    citing = set(PaperReference.objects.filter(pk__in=reference_ids)
                 .values_list("extraction__paper_version__paper_id", flat=True))
    named_before = set(CurrentResolution.objects.filter(reference_id__in=reference_ids | set(replaced),
                                                        cited_paper__isnull=False)
                       .values_list("cited_paper_id", flat=True))
    links = PaperReferenceLink.objects.bulk_create(links)
    links_written(link.pk for link in links)
    note_links_written(link.pk for link in links)        # for the transparency log, in this transaction
    for link in links:
        if link.cited_paper_id or link.cited_work_id:
            waiting[link.reference_id] = set()          # it names its work: it waits for none
    file_waiting(waiting)
    work_ids = {link.cited_work_id for link in links if link.cited_work_id}
    if work_ids and check_standing:
        check_works(work_ids=work_ids)
    named_now = {link.cited_paper_id for link in links if link.cited_paper_id}
    records_of_papers_changed(paper_ids=citing | named_before | named_now)
    return links
