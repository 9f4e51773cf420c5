"""Keeping held papers' title blocking keys in step with their titles (works are filed under theirs
by the importer that creates them, citations/works/batch_store.py). A paper filed under a new key sends
the references waiting under it to resolution (citations/resolution/waiting.py)."""
from collections.abc import Iterable

from citations.models import PaperSnapshot, PaperTitleKey
from citations.parsing.text import title_fingerprints
from citations.resolution.waiting import resolve_waiting

BATCH = 2000


def index_paper_titles(*, paper_ids: Iterable[int], send_waiting: bool = True) -> int:
    """File every known title (all snapshots) of these papers under its keys; returns keys added.
    The references waiting under an added key are sent to resolution unless send_waiting is False
    (a rebuild of the index, which adds back the keys it dropped)."""
    paper_ids = list(set(paper_ids))
    added = 0
    for start in range(0, len(paper_ids), BATCH):
        batch = paper_ids[start:start + BATCH]
        wanted = {(key, paper_id)
                  for paper_id, title in PaperSnapshot.objects.filter(paper_id__in=batch, title__isnull=False)
                  .values_list("paper_id", "title")
                  for key in title_fingerprints(title)}
        held = set(PaperTitleKey.objects.filter(paper_id__in=batch).values_list("key", "paper_id"))
        rows = [PaperTitleKey(key=key, paper_id=paper_id) for key, paper_id in wanted - held]
        PaperTitleKey.objects.bulk_create(rows, ignore_conflicts=True)
        added += len(rows)
        if send_waiting:
            filed: dict[int, set[int]] = {}
            for row in rows:
                filed.setdefault(row.paper_id, set()).add(row.key)
            resolve_waiting(filed.values())
    return added
