"""Where a reference is now: an audit entry names the observation it was written on, and a later split or
join of the list writes every reference again under new ids (curation/segmentation.py, derived_from); the
reference's address follows those successors to the row of the current list that carries it."""
from django.db.models import Q

from citations.models import CurrentResolution, PaperReference
from citations.pages.listing import PAGE_SIZE

MAX_CORRECTIONS = 1000     # successors followed; a list corrected more often than this is not real


def reference_address(*, arxiv_id: str, reference_id) -> str | None:
    """The record page's address of the reference's row now (its page and anchor), following splits
    and joins; the record's list when the reference's list was replaced by another extraction; None
    when the paper holds no such reference."""
    reference = (PaperReference.objects.filter(pk=reference_id, extraction__paper_version__paper__arxiv_id=arxiv_id)
                 .only("id", "extraction_id", "reference_index").first())
    if reference is None:
        return None
    for _ in range(MAX_CORRECTIONS):
        successor = (PaperReference.objects.filter(derived_from=reference).order_by("reference_index", "id")
                     .only("id", "extraction_id", "reference_index").first())
        if successor is None:
            break
        reference = successor
    record = f"/paper/{arxiv_id}/citation-record"
    if not CurrentResolution.objects.filter(reference_id=reference.pk).exists():
        return record + "#outbound"
    before = PaperReference.objects.filter(
        Q(reference_index__lt=reference.reference_index) | Q(reference_index=reference.reference_index,
                                                             id__lt=reference.pk),
        extraction_id=reference.extraction_id).count()
    page = before // PAGE_SIZE + 1
    return f"{record}{f'?page={page}' if page > 1 else ''}#obs-{reference.pk}"
