"""Curation's background work: re-resolving references after their overrides change, and counting the queues."""
from celery import shared_task

from citations.resolution.service import resolve_references
from citations.tasks import RETRY
from curation.queues import count_queues


@shared_task(name="curation.re_resolve_references", **RETRY)
def re_resolve_references(reference_ids: list[str]) -> dict:
    """Resolve these references again, with the overrides now in force."""
    return resolve_references(reference_ids=reference_ids).as_json()


@shared_task(name="curation.count_queues", acks_late=True, unrecorded=True)
def count_queues_task() -> dict:
    """Count the queues for the curators' pages (a page asks for it after the lists change). Not
    retried, and no job record: a count that failed is asked for again by the next page, and the
    pages say when the counts they show were taken."""
    return count_queues()
