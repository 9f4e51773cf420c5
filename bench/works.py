"""Benchmark: the works store at scale: import throughput, disk, and DOI resolution of real strings.

    python bench/works.py [--distractors 1000000] [--database-url postgres://root@127.0.0.1:5432/pith_bench_works]
                          [--limit N] [--waiting 20000000]

The store (one PostgreSQL database, filled once and reused while its size matches) holds:
  - the 17,015 target works of the biblio-glutton set (../shared/data/biblio-glutton-doi-matching), from
    their gold metadata: DOI, article title, first author, journal, volume, first page; no year (the set
    gives none);
  - --distractors generated works, written as Crossref JSON lines and read by `import_works crossref`
    exactly as an operator's file would be:
      * near-duplicates of the targets, one per target: the same title by another first author and
        with a year ("same title other year"), an erratum of it ("Erratum: <title>", same journal,
        other page), the same journal and volume at another page with another title;
      * the rest: titles made of the targets' own vocabulary (so blocking keys collide as in real
        data), with authors, journals, volumes and pages drawn from the targets'.
Before the import the store is given --waiting keys of references waiting for a work (waiting.py), among
them one reference citing each target by its title; the import queues a job per batch to find the ones its
works resolve (on Redis db 14, as in production), and those jobs are then timed as a worker runs them.
Prints: import throughput (works/s, the import_works command's own path, COPY on PostgreSQL) and disk
per million works; then the 17,015 real reference strings (GROBID-extracted from PMC PDFs) parsed and
resolved against the store by the production resolver and DatabaseStore, in batches of 200 as the
resolution service does; precision and recall of the DOI links, side by side with biblio-glutton's own
published figures on the same set (precision 0.973, recall 0.955).
"""
import argparse
import gzip
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data" / "biblio-glutton-doi-matching" / "references-doi-matching.json.gz"
GLUTTON = {"precision": 0.973, "recall": 0.955}


BENCH_BROKER = "redis://127.0.0.1:6379/14"


def setup(database_url: str) -> None:
    os.environ["DATABASE_URL"] = database_url
    # The production shape: the import queues its follow-up jobs for the workers (none run here; the
    # search for waiting references is timed on its own below, and the queue emptied).
    os.environ.setdefault("CELERY_BROKER_URL", BENCH_BROKER)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pith.settings")
    sys.path.insert(0, str(ROOT))
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)


def ensure_database(database_url: str) -> None:
    import psycopg

    base, name = database_url.rsplit("/", 1)
    with psycopg.connect(f"{base}/postgres", autocommit=True) as connection:
        if not connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            connection.execute(f'CREATE DATABASE "{name}"')


def crossref_item(doi, title, author, journal, volume, page, year=None) -> dict:
    item = {"DOI": doi, "title": [title] if title else [], "author": [{"family": author, "sequence": "first"}]
            if author else [], "container-title": [journal] if journal else [], "volume": volume, "page": page,
            "type": "journal-article"}
    if year:
        item["issued"] = {"date-parts": [[year]]}
    return item


def write_store_file(path: Path, items: list[dict], distractors: int, seed: int = 7) -> int:
    """The targets and the distractors, as Crossref JSON lines; returns the number of lines."""
    rng = random.Random(seed)
    words = sorted({w for item in items for w in (item.get("atitle") or "").split() if len(w) > 3})
    authors = sorted({item["firstAuthor"] for item in items if item.get("firstAuthor")})
    journals = sorted({item["jtitle"] for item in items if item.get("jtitle")})
    lines = 0
    with gzip.open(path, "wt", encoding="utf-8") as out:
        def put(record):
            nonlocal lines
            out.write(json.dumps(record) + "\n")
            lines += 1

        for item in items:
            put(crossref_item(item["doi"].lower(), item.get("atitle"), item.get("firstAuthor"), item.get("jtitle"),
                              item.get("volume"), item.get("firstPage")))
        near = 0
        for n, item in enumerate(items):
            if near >= distractors:
                break
            title = item.get("atitle")
            if not title:
                continue
            put(crossref_item(f"10.99999/same-title.{n}", title, rng.choice(authors), item.get("jtitle"),
                              str(rng.randint(1, 300)), str(rng.randint(1, 2000)), rng.randint(1950, 2024)))
            put(crossref_item(f"10.99999/erratum.{n}", f"Erratum: {title}", item.get("firstAuthor"),
                              item.get("jtitle"), item.get("volume"), str(rng.randint(1, 2000))))
            put(crossref_item(f"10.99999/same-journal.{n}", " ".join(rng.sample(words, 9)), rng.choice(authors),
                              item.get("jtitle"), item.get("volume"), str(rng.randint(1, 2000))))
            near += 3
        for n in range(distractors - near):
            put(crossref_item(f"10.99998/generated.{n}", " ".join(rng.sample(words, rng.randint(6, 14))).capitalize(),
                              rng.choice(authors), rng.choice(journals), str(rng.randint(1, 300)),
                              str(rng.randint(1, 3000)), rng.randint(1950, 2025)))
    return lines


def fill_waiting(items: list[dict], waiting: int) -> int:
    """References waiting for a work, as a large store holds them before the works arrive (the default,
    20 million keys, is about 5 million unresolved references of 4 to 5 keys): `waiting` keys of references no import
    here resolves, and those of one reference citing each target by its title, which the import sends
    to resolution. The references themselves are not in the store (the rows have no foreign key), so
    the jobs sent find nothing to do: what is timed is finding them, not resolving them (workers do that)."""
    import uuid

    from django.db import connection

    from citations.parsing.text import title_fingerprints

    rows = [f"{key}\t{reference}\n" for item in items if item.get("atitle")
            for reference in [uuid.uuid4()] for key in title_fingerprints(item["atitle"])]
    with connection.cursor() as cursor:
        cursor.execute("INSERT INTO waiting_reference_keys (key, reference_id) SELECT ((random() - 0.5) * 1.8e19)::bigint,"
                       " gen_random_uuid() FROM generate_series(1, %s)", [waiting])
        with cursor.cursor.copy("COPY waiting_reference_keys (key, reference_id) FROM STDIN") as copy:
            copy.write("".join(rows))
        # A store holding millions of waiting references has long since vacuumed them and written them
        # out: do both now, so that the timed import does not share the machine with the autovacuum and
        # the checkpoint that 20 million new rows call for.
        cursor.execute("VACUUM (ANALYZE) waiting_reference_keys")
        cursor.execute("CHECKPOINT")
        cursor.execute("SELECT count(*) FROM waiting_reference_keys")
        return cursor.fetchone()[0]


def find_waiting() -> dict:
    """The jobs the import queued to find the references waiting for its works, run here one after the
    other as a worker would (the resolution jobs they send are not run), then the bench's queue emptied."""
    from citations.models import Job
    from citations.resolution.waiting import resolve_waiting_for_works

    jobs = list(Job.objects.filter(task_name="citations.resolve_waiting_for_works").order_by("pk"))
    started = time.perf_counter()
    sent = sum(resolve_waiting_for_works(**job.arguments["kwargs"])["references"] for job in jobs)
    seconds = time.perf_counter() - started
    if os.environ["CELERY_BROKER_URL"] == BENCH_BROKER:
        import redis

        redis.Redis.from_url(BENCH_BROKER).flushdb()
    return {"waiting_jobs": len(jobs), "waiting_s": seconds, "sent": sent}


def postgres_cpu_seconds() -> float | None:
    """CPU seconds PostgreSQL has used, when it runs on this machine: its processes (the import's two
    connections, the WAL writer, the checkpointer...), those that ended included (their parent, the
    postmaster, counts them once it has waited for them)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        backend = cursor.fetchone()[0]

    def stat(pid) -> list[str]:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()

    try:
        postmaster = int(stat(backend)[1])
        fields = stat(postmaster)
        ticks = int(fields[11]) + int(fields[12]) + int(fields[13]) + int(fields[14])     # its own and its children's
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    child = stat(entry.name)
                except OSError:
                    continue
                if child[1] == str(postmaster):
                    ticks += int(child[11]) + int(child[12])
    except OSError:
        return None
    return ticks / os.sysconf("SC_CLK_TCK")


def cpu_per_work(before, after, postgres_before, postgres_after, works: int) -> str:
    """Where the import's CPU went, in µs a work: the importing process (its threads), the child reading
    the file (joined by then) and PostgreSQL. Steadier than works/s on a shared machine, whose speed
    varies from minute to minute."""
    def used(user, system):
        return (getattr(after, user) - getattr(before, user) + getattr(after, system) - getattr(before, system))

    parts = [f"importer {used('user', 'system') / works * 1e6:.1f}",
             f"reader {used('children_user', 'children_system') / works * 1e6:.1f}"]
    if postgres_before is not None and postgres_after is not None:
        parts.append(f"PostgreSQL {(postgres_after - postgres_before) / works * 1e6:.1f}")
    return ", ".join(parts)


def fill(items: list[dict], distractors: int, waiting: int) -> dict:
    from django.db import connection

    from citations.models import CitedWork
    from citations.works.importer import import_works

    held = CitedWork.objects.count()
    generated = CitedWork.objects.filter(doi__startswith="10.9999").count()     # the distractors' prefixes
    if held and generated == distractors:
        return {"reused": True, "works": held}
    if held:
        sys.exit(f"the bench database holds {generated:,} distractors, not {distractors:,}: drop it or pick another "
                 "--database-url")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "works.jsonl.gz"
        started = time.perf_counter()
        lines = write_store_file(path, items, distractors)
        waiting_rows = fill_waiting(items, waiting)
        generated = time.perf_counter() - started
        postgres, own = postgres_cpu_seconds(), os.times()
        started = time.perf_counter()
        report = import_works(gzip.open(path, "rb"), source="crossref")
        seconds = time.perf_counter() - started
        cpu = cpu_per_work(own, os.times(), postgres, postgres_cpu_seconds(), report.created["works"])
    follow_up = find_waiting()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_total_relation_size('cited_works') + pg_total_relation_size('work_identifiers') "
                       "+ pg_total_relation_size('work_title_keys')")
        size = cursor.fetchone()[0]
    return {"reused": False, "works": report.created["works"], "lines": lines, "rejected": sum(report.rejected.values()),
            "waiting": waiting_rows, **follow_up,
            "generate_s": generated, "import_s": seconds, "cpu": cpu, "works_per_s": report.created["works"] / seconds,
            "bytes_per_million": size / (report.created["works"] / 1e6)}


def resolve_all(items: list[dict]) -> dict:
    from citations.evaluation.runner import reference_fields
    from citations.models import CitedWork
    from citations.parsing.parser import parse_reference
    from citations.resolution.matching import resolve
    from citations.resolution.store import DatabaseStore

    correct = wrong = missed = 0
    started = time.perf_counter()
    for start in range(0, len(items), 200):
        batch = items[start:start + 200]
        fields = [reference_fields(parse_reference(item["reference"])) for item in batch]
        store = DatabaseStore()
        store.prefetch(fields)
        results = [resolve(f, store) for f in fields]
        work_ids = {r.work_id for r in results if r.work_id}
        dois = {str(w): d for w, d in CitedWork.objects.filter(id__in=work_ids).values_list("id", "doi")}
        for item, result in zip(batch, results):
            if result.state not in ("verified_exact", "verified_fuzzy") or not result.work_id:
                missed += 1
            elif dois.get(result.work_id) == item["doi"].lower():
                correct += 1
            else:
                wrong += 1
    seconds = time.perf_counter() - started
    linked = correct + wrong
    return {"references": len(items), "correct": correct, "wrong": wrong, "missed": missed,
            "precision": correct / linked if linked else 0.0, "recall": correct / len(items),
            "references_per_s": len(items) / seconds}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--distractors", type=int, default=1_000_000)
    parser.add_argument("--database-url", default="postgres://root@127.0.0.1:5432/pith_bench_works")
    parser.add_argument("--limit", type=int, default=None, help="Resolve only the first N strings.")
    parser.add_argument("--waiting", type=int, default=20_000_000,
                        help="Keys of references waiting for a work, in the store before the import (default: "
                             "about 5 million unresolved references' worth).")
    args = parser.parse_args()
    if not DATA.exists():
        sys.exit(f"{DATA} is missing")
    ensure_database(args.database_url)
    setup(args.database_url)
    items = json.load(gzip.open(DATA, "rt"))
    store = fill(items, args.distractors, args.waiting)
    if store["reused"]:
        print(f"store: {store['works']:,} works (reused)")
    else:
        print(f"store: {store['works']:,} works from {store['lines']:,} Crossref lines ({store['rejected']} rejected); "
              f"generated in {store['generate_s']:.0f} s")
        print(f"import_works crossref: {store['import_s']:.1f} s, {store['works_per_s']:,.0f} works/s; "
              f"disk {store['bytes_per_million'] / 1e9:.2f} GB per million works (works, identifiers, title keys)")
        print(f"  CPU a work, µs: {store['cpu']}")
        print(f"then the {store['waiting_jobs']} jobs it queued found, among {store['waiting']:,} waiting references' "
              f"keys, {store['sent']:,} references to resolve again, in {store['waiting_s']:.1f} s of worker time "
              f"({store['works'] / store['waiting_s']:,.0f} works/s)")
    found = resolve_all(items[:args.limit] if args.limit else items)
    print(f"resolution of {found['references']:,} real strings: {found['references_per_s']:,.0f} references/s")
    print(f"{'':14}{'precision':>10}{'recall':>8}")
    print(f"{'Pith':14}{found['precision']:>10.3f}{found['recall']:>8.3f}   "
          f"(correct {found['correct']:,}, wrong {found['wrong']:,}, not linked {found['missed']:,})")
    print(f"{'biblio-glutton':14}{GLUTTON['precision']:>10.3f}{GLUTTON['recall']:>8.3f}   (published, same set)")


if __name__ == "__main__":
    main()
