"""Load benchmark: record JSON pages of 1,000 papers against a static file, on one gunicorn.

    python bench/load.py [--duration 30] [--connections 16] [--workers 3]
                         [--database-url postgres://root@127.0.0.1:5432/pith_bench]

Serves the app with gunicorn on PostgreSQL (the bench/record.py store: 20,000 papers, a million
reference observations; filled first if absent) and a shared Redis cache, on a loopback port.
From a second process, wrk sends concurrent requests for 30 s to the record JSON pages of 1,000
different papers, then for 30 s to a static file of the same size served by the same server.
Prints requests per second, p50 and p99 latency of both, and their ratios.
Goal: record pages at least half the static rate, and their p99 under 5 times the static p99.

Bounded and local: wrk runs for --duration seconds against 127.0.0.1 only; the server is stopped
at the end whatever happens. Needs Debian's wrk (apt-get install wrk).
"""
import argparse
import os
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
PAPERS = 1000
REDIS_CACHE = "redis://127.0.0.1:6379/14"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def ensure_store(database_url: str) -> list[str]:
    """The arXiv ids of 1,000 papers of the bench store (filling it as bench/record.py does)."""
    os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pith.settings")
    import django

    from bench import record as record_bench

    record_bench.ensure_database(database_url)
    django.setup()
    import psycopg
    from django.core.management import call_command

    from citations.models import PaperReference, ReferenceExtraction

    call_command("migrate", verbosity=0)
    if PaperReference.objects.count() < record_bench.REFERENCES:
        print("filling the bench store (as bench/record.py)...", flush=True)
        with psycopg.connect(database_url) as raw:
            record_bench.fill(raw)
    ids = sorted(set(ReferenceExtraction.objects.values_list("paper_version__paper__arxiv_id", flat=True)))
    return random.Random(11).sample(ids, PAPERS)


def wrk(url: str, *, duration: int, connections: int, script: str | None = None) -> dict:
    command = ["wrk", "-t2", f"-c{connections}", f"-d{duration}s", "--latency", "--timeout", "10s"]
    if script:
        command += ["-s", script]
    output = subprocess.run(command + [url], capture_output=True, text=True, timeout=duration + 60, check=True).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
    latency = dict(re.findall(r"^\s+(50|99)%\s+([\d.]+\w+)", output, re.M))
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    return {"rate": rate, "p50": to_ms(latency["50"]), "p99": to_ms(latency["99"]),
            "non_2xx": int(errors.group(1)) if errors else 0, "raw": output}


def to_ms(text: str) -> float:
    value, unit = re.match(r"([\d.]+)(\w+)", text).groups()
    return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}[unit]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database-url", default=os.environ.get("BENCH_DATABASE_URL",
                                                                 "postgres://root@127.0.0.1:5432/pith_bench"))
    parser.add_argument("--duration", type=int, default=30)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--workers", type=int, default=3)
    args = parser.parse_args()
    if not shutil.which("wrk"):
        sys.exit("wrk is not installed: apt-get install wrk")

    papers = ensure_store(args.database_url)
    work = Path(tempfile.mkdtemp(prefix="pith-load-"))
    static_root = work / "static"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {**os.environ, "DATABASE_URL": args.database_url, "REDIS_CACHE_URL": REDIS_CACHE, "DEBUG": "0",
           "ALLOWED_HOSTS": "127.0.0.1,localhost", "PITH_VAR_DIR": str(work), "WHITENOISE_USE_FINDERS": "0",
           "DATABASE_CONN_MAX_AGE": "600"}
    subprocess.run(["redis-cli", "-n", "14", "FLUSHDB"], check=False, capture_output=True)
    server = None
    try:
        # A static file as large as a typical record body, collected where the server serves from.
        body = record_body(papers[0])
        (static_root / "bench").mkdir(parents=True)
        (static_root / "bench" / "record-sized.json").write_bytes(b"{" + b" " * (len(body) - 2) + b"}")
        server = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "pith.wsgi", "--workers", str(args.workers), "--bind",
             f"127.0.0.1:{port}", "--log-level", "warning", "--access-logfile", "/dev/null"],
            cwd=ROOT, env=env, start_new_session=True)
        wait_for(f"{base}/api/v1/health")
        print(f"gunicorn: {args.workers} workers on {base}; record body of arXiv:{papers[0]}: {len(body):,} bytes")

        started = time.perf_counter()
        sizes = [len(urllib.request.urlopen(f"{base}/paper/{p}/citation-record.json", timeout=30).read())
                 for p in papers]
        print(f"warm-up: {PAPERS} records built once each into the shared cache in "
              f"{time.perf_counter() - started:.1f} s (bodies {min(sizes):,}–{max(sizes):,} bytes, "
              f"median {int(statistics.median(sizes)):,})")

        script = work / "records.lua"
        script.write_text("paths = {" + ",".join(f'"/paper/{p}/citation-record.json"' for p in papers) + "}\n"
                          "request = function() return wrk.format('GET', paths[math.random(#paths)]) end\n")
        records = wrk(base, duration=args.duration, connections=args.connections, script=str(script))
        static = wrk(f"{base}/static/bench/record-sized.json", duration=args.duration, connections=args.connections)
    finally:
        if server is not None and server.poll() is None:
            os.killpg(server.pid, signal.SIGTERM)
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)
        shutil.rmtree(work, ignore_errors=True)

    print(f"{'':24}{'req/s':>10}{'p50 ms':>10}{'p99 ms':>10}{'non-2xx':>10}")
    for name, run in (("record JSON (1,000)", records), ("static file", static)):
        print(f"{name:24}{run['rate']:>10.0f}{run['p50']:>10.2f}{run['p99']:>10.2f}{run['non_2xx']:>10}")
    rate_ratio = records["rate"] / static["rate"]
    p99_ratio = records["p99"] / static["p99"]
    print(f"rate ratio record/static: {rate_ratio:.2f} (goal >= 0.5): {'met' if rate_ratio >= 0.5 else 'NOT met'}")
    print(f"p99 ratio record/static: {p99_ratio:.2f} (goal < 5): {'met' if p99_ratio < 5 else 'NOT met'}")


def record_body(arxiv_id: str) -> bytes:
    from citations.records.build import build_record

    return build_record(arxiv_id=arxiv_id).body


def wait_for(url: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(url, timeout=2)
            return
        except OSError:
            time.sleep(0.5)
    raise SystemExit(f"the server did not answer at {url}")


if __name__ == "__main__":
    main()
