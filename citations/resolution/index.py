"""Keeping the title blocking keys in step with the titles the store knows."""
from collections.abc import Iterable

from citations.models import CitedWork, PaperSnapshot, TitleKey
from citations.resolution.text import title_blocking_keys

BATCH = 2000


def index_paper_titles(*, paper_ids: Iterable[int]) -> int:
    """File every known title (all snapshots) of these papers under its keys; returns keys added."""
    paper_ids = list(set(paper_ids))
    added = 0
    for start in range(0, len(paper_ids), BATCH):
        batch = paper_ids[start:start + BATCH]
        wanted = {(key, paper_id)
                  for paper_id, title in PaperSnapshot.objects.filter(paper_id__in=batch, title__isnull=False)
                  .values_list("paper_id", "title")
                  for key in title_blocking_keys(title)}
        held = set(TitleKey.objects.filter(paper_id__in=batch).values_list("key", "paper_id"))
        rows = [TitleKey(key=key, paper_id=paper_id) for key, paper_id in wanted - held]
        TitleKey.objects.bulk_create(rows, ignore_conflicts=True)
        added += len(rows)
    return added


def index_work_titles(*, work_ids: Iterable) -> int:
    """File the titles of canonical works that are not held papers (those are filed as papers)."""
    work_ids = list(set(work_ids))
    wanted = {(key, work_id)
              for work_id, title in CitedWork.objects.filter(id__in=work_ids, paper__isnull=True, title__isnull=False)
              .values_list("id", "title")
              for key in title_blocking_keys(title)}
    held = set(TitleKey.objects.filter(work_id__in=work_ids).values_list("key", "work_id"))
    rows = [TitleKey(key=key, work_id=work_id) for key, work_id in wanted - held]
    TitleKey.objects.bulk_create(rows, ignore_conflicts=True)
    return len(rows)
