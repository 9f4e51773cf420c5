"""Curation's background work: re-resolving references after their overrides change."""
from celery import shared_task

from citations.resolution.service import resolve_references
from citations.tasks import RETRY


@shared_task(name="curation.re_resolve_references", **RETRY)
def re_resolve_references(reference_ids: list[str]) -> dict:
    """Resolve these references again, with the overrides now in force."""
    return resolve_references(reference_ids=reference_ids).as_json()
