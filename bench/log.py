"""Benchmark: what the transparency log (citations/transparency/) costs writers, and what it costs to keep.

    python bench/log.py [--database-url postgres://root@127.0.0.1:5432/pith_bench_log] [--papers 300]
                        [--works 200000] [--leaves 1000000]

1. Writers: `ingest_reference_list` (parse, write the references and their first links through
   write_links, as ingest_references does) for --papers synthetic lists of 40 references, with
   PITH_LOG_OBSERVATIONS off and on, side by side, in one PostgreSQL database; then the sequencer
   (publish_checkpoint) appends what was written: its leaves/s must exceed the writers' own rate.
   Then `import_works crossref` (the command's own path: pipelined COPY batches) of --works synthetic
   Crossref works, in interleaved files of 10,000 with the log off and on: each batch it stores notes
   its works in one pending row, ids only. The sequencer then reads and appends them (leaves/s).
2. Keeping it: --leaves leaves of a typical entry size appended to tiles in a temporary directory
   in batches of 10,000, as the sequencer does: tile storage per million leaves and the time of a
   checkpoint (root from the tiles and an Ed25519 signed note) at that size.
"""
import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def tiles_part(leaves: int) -> None:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from citations.transparency.tiles import TileStore
    from pith_verify.merkle import leaf_hash
    from pith_verify.note import Checkpoint

    entry = (b'{"citing_arxiv_id":"2601.00042","citing_version":1,"content":"sha256:' + b"0" * 64
             + b'","id":"a334c39c-19a4-4655-a151-2b361c7a81a4","kind":"reference","observed_at":'
             b'"2026-08-04T14:42:56.314240Z","reference_index":%d,"source":"pdf_text"}')
    with tempfile.TemporaryDirectory() as where:
        store, size, started = TileStore(Path(where)), 0, time.perf_counter()
        while size < leaves:
            batch = [entry % (size + i) for i in range(min(10_000, leaves - size))]
            size = store.append(size, [leaf_hash(e) for e in batch], batch)
        appended = time.perf_counter() - started
        hashes = sum(p.stat().st_size for p in Path(where, "tile").rglob("*") if p.is_file() and "entries" not in p.parts)
        bundles = sum(p.stat().st_size for p in Path(where, "tile", "entries").rglob("*") if p.is_file())
        key = Ed25519PrivateKey.generate()
        samples = []
        for _ in range(20):
            begun = time.perf_counter()
            text = Checkpoint("bench/log", size, store.root_hash(size)).text()
            key.sign(text.encode())
            samples.append(time.perf_counter() - begun)
    per_million = 1_000_000 / size
    print(f"tiles: {size:,} leaves appended in {appended:.1f} s ({size / appended:,.0f} leaves/s)")
    print(f"storage per million leaves: hash tiles {hashes * per_million / 1e6:.1f} MB, entry bundles "
          f"{bundles * per_million / 1e6:.1f} MB ({len(entry):,}-byte entries)")
    print(f"a checkpoint at {size:,} leaves (root from the tiles + signature): median "
          f"{statistics.median(samples) * 1000:.2f} ms")


def writers_part(database_url: str, papers: int) -> None:
    os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pith.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.utils import timezone

    from citations.models import Paper
    from citations.signing import create_signing_key
    from citations.sources.reference_lists import ReferenceList, ingest_reference_list

    call_command("migrate", verbosity=0)
    work = Path(tempfile.mkdtemp())
    settings.LOG_DIR = work / "log"
    settings.SIGNING_KEY_FILE, settings.SIGNING_PUBLIC_KEYS_FILE = work / "key.pem", work / "keys.json"
    create_signing_key(now=timezone.now())
    from tests.factories import make_paper  # a held paper with a metadata snapshot, as the tests make them

    base = Paper.objects.count()
    ids = [f"27{(n // 99_999) % 12 + 1:02d}.{n % 99_999 + 1:05d}" for n in range(base, base + 2 * papers)]
    for arxiv_id in ids:
        make_paper(arxiv_id)

    def ingest(batch, log_on: bool) -> float:
        settings.LOG_OBSERVATIONS = log_on
        started = time.perf_counter()
        for arxiv_id in batch:
            ingest_reference_list(ReferenceList(arxiv_id=arxiv_id, version=1, source="pdf_text", references=[
                (n, f"A. Author and B. Writer. On pipeline parallel training number {n}. In Proc. ICML, 20{n % 25:02d}.")
                for n in range(1, 41)]))
        return len(batch) * 40 / (time.perf_counter() - started)

    ingest(ids[:10], True)                       # warm the parser
    # Interleaved halves, so a drift of the machine's load falls on both sides alike.
    rates = {True: [], False: []}
    for n, start in enumerate(range(10, 2 * papers, 50)):
        log_on = n % 2 == 0
        rates[log_on].append(ingest(ids[start:start + 50], log_on))
    on, off = statistics.median(rates[True]), statistics.median(rates[False])
    print(f"ingest_reference_list: {off:,.0f} references/s with the log off, {on:,.0f} with it on "
          f"({(off - on) / off:+.1%} lost; goal <= 10%)")
    sequence("sequencer")


def sequence(label: str) -> None:
    """Sequence what the writers noted, with the log on, and print the sequencer's rate."""
    from django.conf import settings

    from citations.models import LogPending
    from citations.transparency.sequencer import log_size, publish_checkpoint

    pending, size = LogPending.objects.count(), log_size()
    settings.LOG_OBSERVATIONS = True
    started = time.perf_counter()
    published = publish_checkpoint()
    spent = time.perf_counter() - started
    print(f"{label}: {pending} pending writes, {published.leaves} sequenced, the log now {published.size:,} "
          f"leaves, in {spent:.2f} s ({(published.size - size) / spent:,.0f} leaves/s, checkpoint included)")


def works_part(works: int) -> None:
    """import_works with the log off and on, side by side, then the sequencer on what it noted."""
    import json
    import random

    from django.conf import settings

    from citations.works.importer import import_works

    rng = random.Random(11)
    words = ["pipeline", "parallel", "training", "scheduling", "heterogeneous", "models", "placement", "memory",
             "bubbles", "partitioning", "networks", "graphs", "learning", "sparse", "attention", "inference"]
    files = works // 10_000

    def lines(n: int) -> list[bytes]:
        return [json.dumps({"DOI": f"10.77777/bench.{n}.{i}", "title": [" ".join(rng.sample(words, 8)).capitalize()],
                            "author": [{"family": f"Author{rng.randint(1, 5000)}", "sequence": "first"}],
                            "container-title": [f"Journal {rng.randint(1, 300)}"], "volume": str(rng.randint(1, 90)),
                            "page": str(rng.randint(1, 3000)), "issued": {"date-parts": [[rng.randint(1990, 2025)]]},
                            "type": "journal-article"}).encode() for i in range(10_000)]

    stamp = int(time.time())
    rates = {True: [], False: []}
    for n in range(files):
        log_on = n % 2 == 1             # interleaved, so a drift of the machine's load falls on both sides alike
        data = lines(stamp * 1000 + n)
        settings.LOG_OBSERVATIONS = log_on
        started = time.perf_counter()
        report = import_works(iter(data), source="crossref")
        rates[log_on].append(report.created["works"] / (time.perf_counter() - started))
    on, off = statistics.median(rates[True]), statistics.median(rates[False])
    print(f"import_works crossref: {off:,.0f} works/s with the log off, {on:,.0f} with it on "
          f"({(off - on) / off:+.1%} lost; goal <= 10%; medians of {len(rates[False])} and {len(rates[True])} "
          f"files of 10,000)")
    sequence("sequencer (works)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database-url", default="postgres://root@127.0.0.1:5432/pith_bench_log")
    parser.add_argument("--papers", type=int, default=300)
    parser.add_argument("--works", type=int, default=200_000)
    parser.add_argument("--leaves", type=int, default=1_000_000)
    args = parser.parse_args()
    tiles_part(args.leaves)
    if args.database_url.startswith("postgres"):
        import psycopg

        name = args.database_url.rsplit("/", 1)[1]
        # A new database each run: its log starts empty, with the new tile directory.
        with psycopg.connect(args.database_url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
            conn.execute(f'CREATE DATABASE "{name}"')
    writers_part(args.database_url, args.papers)
    if args.works:
        works_part(args.works)


if __name__ == "__main__":
    main()
