"""Benchmark: a bulk `ingest_pdf --dir` through Celery workers: pages/s end to end, and memory.

    python bench/ingest_files.py [--pages 1000] [--concurrency 2]
                                 [--database-url postgres://root@127.0.0.1:5432/pith_bench_ingest]
                                 [--broker redis://127.0.0.1:6379/14]

Builds PDFs (bench/extraction.py: the unarXive sample's real reference lists typeset in one and two
columns, numbered and author-year) until they hold --pages pages, names them after held papers
(2601.00001v1.pdf...), and runs `manage.py ingest_pdf --dir` against a fresh PostgreSQL database
with one Celery worker of --concurrency processes on Redis: one job, a PDF a chunk, each read,
stored and resolved. Prints the run's wall time, pages/s and references/s, and the peak resident
memory of the worker's processes (sampled every 0.2 s), with the job's own counts.
"""
import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def fresh_database(url: str) -> None:
    import psycopg

    base, name = url.rsplit("/", 1)
    with psycopg.connect(f"{base}/postgres", autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}"')
        connection.execute(f'CREATE DATABASE "{name}"')


def build_pdfs(folder: Path, pages_wanted: int) -> tuple[int, int]:
    """PDFs named 2601.NNNNNv1.pdf holding at least pages_wanted pages; returns (files, pages)."""
    import pypdfium2

    from bench.extraction import build_paper_pdf, load_papers

    papers = [paper for paper in load_papers() if paper.references]
    pages = files = 0
    while pages < pages_wanted:
        paper = papers[files % len(papers)]
        layout = ("one-column", "two-column")[files % 2]
        style = ("numbered", "author-year")[(files // 2) % 2]
        data = build_paper_pdf(paper, files, layout, style)
        pages += len(pypdfium2.PdfDocument(data))
        files += 1
        (folder / f"2601.{files:05d}v1.pdf").write_bytes(data)
    return files, pages


def hold_papers(files: int) -> None:
    from datetime import UTC, datetime

    from citations.models import Paper, PaperSnapshot, PaperVersion

    when = datetime(2026, 1, 2, tzinfo=UTC)
    papers = Paper.objects.bulk_create([Paper(arxiv_id=f"2601.{n:05d}", first_seen_at=when) for n in range(1, files + 1)])
    PaperSnapshot.objects.bulk_create([PaperSnapshot(paper=p, observed_at=when, title=f"Paper {p.arxiv_id}",
                                                     submitted_at=when, last_updated=when, latest_version=1,
                                                     primary_category="cs.DC", categories="cs.DC", authors="A. Author",
                                                     source="arxiv_metadata") for p in papers])
    PaperVersion.objects.bulk_create([PaperVersion(paper=p, version=1) for p in papers])


def tree_rss(pid: int) -> int:
    """Resident bytes of a process and its children (the worker and its pool)."""
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text().split()
            if int(entry.name) == pid or int(stat[3]) == pid:
                total += int(stat[23]) * os.sysconf("SC_PAGE_SIZE")
        except (OSError, IndexError, ValueError):
            continue
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pages", type=int, default=1000)
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--database-url", default="postgres://root@127.0.0.1:5432/pith_bench_ingest")
    parser.add_argument("--broker", default="redis://127.0.0.1:6379/14")
    args = parser.parse_args()
    fresh_database(args.database_url)
    env = {**os.environ, "DATABASE_URL": args.database_url, "CELERY_BROKER_URL": args.broker,
           "CELERY_RESULT_BACKEND": args.broker, "CELERY_TASK_ALWAYS_EAGER": "0", "PYTHONPATH": str(ROOT),
           "DJANGO_SETTINGS_MODULE": "pith.settings"}
    os.environ.update(env)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    import redis

    redis.Redis.from_url(args.broker).flushdb()
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        files, pages = build_pdfs(Path(folder), args.pages)
        print(f"{files} PDFs, {pages} pages built in {time.perf_counter() - started:.0f} s")
        hold_papers(files)
        worker = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "pith", "worker", "--loglevel=WARNING", "--without-gossip",
             "--without-mingle", "--without-heartbeat", f"--concurrency={args.concurrency}"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        try:
            time.sleep(3)
            peak = 0
            command = subprocess.Popen([sys.executable, "manage.py", "ingest_pdf", "--dir", folder], cwd=ROOT, env=env,
                                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            started = time.perf_counter()
            while command.poll() is None:
                peak = max(peak, tree_rss(worker.pid))
                time.sleep(0.2)
            seconds = time.perf_counter() - started
            out = command.stdout.read()
        finally:
            os.killpg(worker.pid, signal.SIGTERM)
            worker.wait(timeout=30)
    from citations.models import Job

    job = Job.objects.get(kind="ingest_files")
    counts = job.counts
    print(out.strip().splitlines()[-1] if out.strip() else "(no output)")
    print(f"worker with {args.concurrency} processes: {seconds:.1f} s for {pages} pages in {files} PDFs: "
          f"{pages / seconds:.1f} pages/s, {counts.get('references', 0) / seconds:.0f} references/s "
          f"(read, stored and resolved); job #{job.pk} {job.state}, {counts.get('created', 0)} lists stored, "
          f"{counts.get('refused', 0)} refused")
    print(f"peak resident memory of the worker's processes: {peak / 2**20:.0f} MiB")


if __name__ == "__main__":
    main()
