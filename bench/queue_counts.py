"""Benchmark: the curation queues at the size of the store, on PostgreSQL.

    python bench/api.py --references 2000000 --papers 50000 --fill-only \
        --database-url postgres://root@127.0.0.1:5432/pith_bench_api_2m
    python bench/queue_counts.py [--database-url postgres://root@127.0.0.1:5432/pith_bench_api_2m] [--runs 3]

On a store filled by bench/api.py (references with their current resolutions, a few per cent in the
doubtful states, a thousand curated by override), prints for each queue the first page of its list
(25 rows in the list's order, best of --runs) and a count of its list; then count_queues() (what a
worker does after the lists change: every queue in one statement and the papers with the most
waiting in another), and counted() as a curator's page calls it once the counts are stored (the
lists' generation and the stored row). Pages never count: that is the point of the last two lines.
"""
import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def best_ms(run, runs: int) -> float:
    timings = []
    for _ in range(runs):
        started = time.perf_counter()
        run()
        timings.append(time.perf_counter() - started)
    return min(timings) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default="postgres://root@127.0.0.1:5432/pith_bench_api_2m")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    os.environ.update({"DJANGO_SETTINGS_MODULE": "pith.settings", "DATABASE_URL": args.database_url})
    os.environ.pop("CELERY_BROKER_URL", None)
    import django

    django.setup()
    from django.core.cache import cache

    from citations.models import PaperReference
    from curation.queues import QUEUE_ORDER, QUEUES, count_queues, counted, reference_queryset

    print(f"store: {PaperReference.objects.count():,} reference observations")
    for queue in QUEUES:
        rows = reference_queryset().filter(queue.waiting()).order_by(*QUEUE_ORDER)
        page = best_ms(lambda rows=rows: list(rows[:25]), args.runs)
        started = time.perf_counter()
        members = rows.count()
        print(f"  {queue.key:22} first page {page:8.1f} ms; its list counted: {members:>10,} "
              f"in {(time.perf_counter() - started) * 1000:8.1f} ms")
    started = time.perf_counter()
    count_queues()
    print(f"count_queues (a worker, after a change): {(time.perf_counter() - started) * 1000:,.0f} ms")
    cache.clear()
    cold = best_ms(lambda: (cache.clear(), counted()), args.runs)
    warm = best_ms(counted, args.runs)
    print(f"counted() on a page: {cold:.1f} ms reading the stored row, {warm:.1f} ms from the cache")


if __name__ == "__main__":
    main()
