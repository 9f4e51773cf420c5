"""Benchmark: building a citation record against a store of a million reference observations.

    python bench/record.py [--database-url postgres://root@127.0.0.1:5432/pith_bench] [--runs 60]

Fills (once; later runs reuse it) 1,000,000 reference observations over 20,000 papers, each with
a resolution, about a fifth of them verified citations of other held papers. Then builds the
record of one paper with 120 outbound and 130 inbound observations (100 + 100 itemized) again and
again, and prints the median build time next to its floor: the very same SQL statements run raw
through psycopg, plus canonical serialization of the same record dict. Goal: ratio <= 2.0.
"""
import argparse
import os
import random
import statistics
import sys
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PAPERS = 20_000
REFERENCES = 1_000_000
TARGET = "2601.00042"
TARGET_OUTBOUND = 120
TARGET_INBOUND = 130
T0 = datetime(2026, 6, 1, tzinfo=UTC)


def arxiv_id(n: int) -> str:
    return f"26{(n // 99_999) % 12 + 1:02d}.{n % 99_999 + 1:05d}"


def ensure_database(url: str) -> None:
    import psycopg

    name = url.rsplit("/", 1)[1]
    admin = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


def fill(conn) -> None:
    """COPY the synthetic store in; each table in one pass."""
    rng = random.Random(7)
    ids = [arxiv_id(n) for n in range(PAPERS)]
    assert TARGET in ids
    target = ids.index(TARGET)
    with conn.cursor() as cur:
        print(f"filling {PAPERS:,} papers and {REFERENCES:,} references...", flush=True)
        with cur.copy("COPY papers (id, arxiv_id, first_seen_at) FROM STDIN") as copy:
            for n, aid in enumerate(ids, 1):
                copy.write_row((n, aid, T0))
        with cur.copy("COPY paper_snapshots (id, paper_id, observed_at, title, submitted_at, last_updated, "
                      "latest_version, primary_category, categories, authors, source, revision) FROM STDIN") as copy:
            for n in range(1, PAPERS + 1):
                copy.write_row((n, n, T0, f"Synthetic paper number {n} on pipeline parallel training", T0, T0, 1,
                                "cs.DC", "cs.DC", "A. Author", "arxiv_metadata", 0))
        with cur.copy("COPY paper_versions (id, paper_id, version) FROM STDIN") as copy:
            for n in range(1, PAPERS + 1):
                copy.write_row((n, n, 1))
        with cur.copy("COPY reference_extractions (id, paper_version_id, source, origin, observed_at, "
                      "content_digest) FROM STDIN") as copy:
            for n in range(1, PAPERS + 1):
                copy.write_row((n, n, "pdf_text", "ingest", T0, ""))
        # Reference counts per paper: the target gets its 120; the rest share what is left.
        counts = [REFERENCES // PAPERS] * PAPERS
        counts[target] = TARGET_OUTBOUND
        for n in range(counts[target] - REFERENCES // PAPERS):   # keep the total at REFERENCES
            counts[(target + 1 + n) % PAPERS] -= 1
        inbound_from = set(rng.sample([n for n in range(PAPERS) if n != target], TARGET_INBOUND))
        link_id = 0
        with cur.copy("COPY paper_references (id, extraction_id, reference_index, raw_text, title, year, authors, "
                      "venue, arxiv_id, doi, identifiers, parser, observed_at) FROM STDIN") as refs:
            rows = []
            for paper in range(PAPERS):
                at = T0 + timedelta(seconds=paper)
                for index in range(1, counts[paper] + 1):
                    ref = uuid.uuid4()
                    if paper in inbound_from and index == 1:
                        cited = target
                    elif rng.random() < 0.2:
                        cited = rng.randrange(PAPERS)
                        cited = None if cited == target else cited   # the target's inbound stays as planned
                    else:
                        cited = None
                    refs.write_row((ref, paper + 1, index, f"A. Author. Some work {index}. 2024.",
                                    f"Some work {index}", 2024, "[]", None, None, None, "[]", "bench", at))
                    rows.append((ref, cited, at))
        with cur.copy("COPY paper_reference_links (id, reference_id, state, resolver_source, cited_paper_id, "
                      "cited_work_id, observed_at, evidence, resolver_version) FROM STDIN") as links:
            for ref, cited, at in rows:
                link_id += 1
                if cited is None:
                    links.write_row((link_id, ref, "unresolved", None, None, None, at, "{}", "bench"))
                else:
                    links.write_row((link_id, ref, "verified_exact", "arxiv_id", cited + 1, None, at, "{}", "bench"))
        for table in ("papers", "paper_snapshots", "paper_versions", "reference_extractions",
                      "paper_reference_links"):
            cur.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT max(id) FROM {table}))")
    conn.commit()
    with conn.cursor() as cur:
        conn.autocommit = True
        cur.execute("VACUUM ANALYZE")
        conn.autocommit = False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database-url", default=os.environ.get("BENCH_DATABASE_URL",
                                                                 "postgres://root@127.0.0.1:5432/pith_bench"))
    parser.add_argument("--runs", type=int, default=60)
    args = parser.parse_args()

    ensure_database(args.database_url)
    os.environ["DATABASE_URL"] = args.database_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pith.settings")
    import django

    django.setup()
    import psycopg
    from django.core.management import call_command
    from django.db import connection

    from citations.models import PaperReference
    from citations.records.build import build_record
    from citations.records.canonical import canonical_bytes

    call_command("migrate", verbosity=0)
    if PaperReference.objects.count() < REFERENCES:
        if PaperReference.objects.exists():
            sys.exit("the bench database holds a partial fill; drop it and run again")
        started = time.perf_counter()
        with psycopg.connect(args.database_url) as raw:
            fill(raw)
        print(f"filled in {time.perf_counter() - started:.0f} s", flush=True)
    print(f"store: {PaperReference.objects.count():,} reference observations over "
          f"{PaperReference.objects.values('extraction__paper_version__paper').distinct().count():,} papers")

    as_of = datetime.now(UTC)
    # Capture the statements (with their parameters) of one build, to replay them raw.
    captured = []

    def capture(execute, sql, params, many, context):
        captured.append((sql, params))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(capture):
        built = build_record(arxiv_id=TARGET, as_of=as_of)
    record = built.record
    print(f"record of arXiv:{TARGET}: {len(record['outbound'])} + {len(record['inbound'])} itemized "
          f"(of {record['reference_resolution']['total_outbound_references']} + "
          f"{record['coverage'][2]['denominator']}), {len(captured)} statements, {len(built.body):,} bytes")

    def timed(fn, runs):
        samples = []
        for _ in range(runs):
            started = time.perf_counter()
            fn()
            samples.append(time.perf_counter() - started)
        return statistics.median(samples), samples

    for _ in range(5):
        build_record(arxiv_id=TARGET, as_of=as_of)
    build_median, _ = timed(lambda: build_record(arxiv_id=TARGET, as_of=as_of), args.runs)

    with psycopg.connect(args.database_url, autocommit=True) as raw:
        def floor():
            with raw.cursor() as cur:
                for sql, params in captured:
                    cur.execute(sql, params)
                    cur.fetchall()
            canonical_bytes(record)

        for _ in range(5):
            floor()
        floor_median, _ = timed(floor, args.runs)

    print(f"build_record median: {build_median * 1000:.2f} ms over {args.runs} runs")
    print(f"floor median (same {len(captured)} statements raw through psycopg + serialization): "
          f"{floor_median * 1000:.2f} ms")
    print(f"ratio: {build_median / floor_median:.2f} (goal <= 2.0)")

    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    key = Ed25519PrivateKey.generate()      # a throwaway key: the cost, not the key, is measured
    sign_median, _ = timed(lambda: key.sign(built.body), args.runs * 10)
    print(f"signing the {len(built.body):,} bytes: median {sign_median * 1000:.3f} ms, "
          f"{sign_median / build_median:.1%} of a build (goal <= 5%); a cached body is served with the "
          "signature made at its build, at no further cost")


if __name__ == "__main__":
    main()
