"""Benchmark: the REST API's lists and filters at the scale of arXiv, against the record JSON in the same run.

    python bench/api.py [--references 10000000] [--papers 250000]
                        [--database-url postgres://root@127.0.0.1:5432/pith_bench_api_10m]
                        [--workers 2] [--duration 20] [--connections 50]

Fills (once; a later run with the same sizes reuses the database) --references reference
observations over --papers papers, 40 a paper, on PostgreSQL with COPY: each with its resolution (and
its row in reference_current_resolutions, and each paper's row in paper_current, as the writers keep
them), a fifth verified citations of other held papers, a few per cent in the rare states, a tenth
printing a DOI, and a thousand curated by override. Then serves the app with gunicorn (--workers) and, one request at a time, times a page of
every list endpoint and filter, after a warm-up on other filter values (--warm-up-rounds): the first
request (cold), a page deep in the list by following `next`, and --runs more (warm: median and p99;
500 by default, so p99 is the fifth-slowest sample, not the slowest), taken in rounds of one request
to each list and one record JSON of a random paper, so the record and the lists are timed under the
same conditions. PostgreSQL's checkpoints and autovacuum workers during those rounds are reported. Last, a
mixed load of every list and filter at --connections connections with a token (wrk), against the
same load of record JSON pages, the two in four alternating slices of --duration / 4 seconds each.

Goals (issue 11): every list page and filter median <= 2x the record JSON median and p99 <= 5x; the
list page at 10M no more than 1.5x slower than at 100k (run once with --references 100000 --papers 2500
and compare); the mixed load at least half the requests/s of the record JSON load.
"""
import argparse
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
T0 = datetime(2025, 1, 1, tzinfo=UTC)
PER_PAPER = 40
CURATED = 1000
STATES = [("verified_exact", "arxiv_id", 0.20), ("verified_fuzzy", "title_year", 0.002),
          ("metadata_mismatch", "doi", 0.005), ("malformed_identifier", "parser", 0.01),
          ("parse_uncertain", "parser", 0.03)]          # the rest: unresolved


def arxiv_id(n: int) -> str:
    return f"{20 + n // 1_200_000:02d}{(n // 99_999) % 12 + 1:02d}.{n % 99_999 + 1:05d}"


def ensure_database(url: str) -> None:
    import psycopg

    name = url.rsplit("/", 1)[1]
    with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


def ts(value: datetime) -> str:
    return value.isoformat()


class Copy:
    """Text COPY of a table, its rows spooled to a temporary file first: one COPY at a time per
    connection (psycopg cannot interleave them), written in large chunks. The values here hold no
    tab, newline or backslash."""

    def __init__(self, cursor, table: str, columns: str):
        self.cursor, self.sql = cursor, f"COPY {table} ({columns}) FROM STDIN"
        self.file = tempfile.TemporaryFile("w+", encoding="utf-8")
        self.rows = 0

    def row(self, *values) -> None:
        self.file.write("\t".join("\\N" if v is None else str(v) for v in values))
        self.file.write("\n")
        self.rows += 1

    def close(self) -> None:
        self.file.seek(0)
        with self.cursor.copy(self.sql) as copy:
            while chunk := self.file.read(8 * 1024 * 1024):
                copy.write(chunk)
        self.file.close()


def fill(url: str, papers: int, references: int) -> None:
    import psycopg

    rng = random.Random(11)
    per_paper = references // papers
    started = time.perf_counter()
    with psycopg.connect(url) as conn, conn.cursor() as cur:
        print(f"filling {papers:,} papers and {papers * per_paper:,} references...", flush=True)
        out = Copy(cur, "papers", "id, arxiv_id, first_seen_at")
        for n in range(1, papers + 1):
            out.row(n, arxiv_id(n), ts(T0))
        out.close()
        out = Copy(cur, "paper_snapshots", "id, paper_id, observed_at, title, submitted_at, last_updated, latest_version, "
                                           "primary_category, categories, authors, source, revision")
        for n in range(1, papers + 1):
            out.row(n, n, ts(T0), f"Synthetic paper {n} on pipeline parallel training", ts(T0), ts(T0), 1, "cs.DC",
                    "cs.DC", "A. Author", "arxiv_metadata", 1)
        out.close()
        out = Copy(cur, "paper_versions", "id, paper_id, version")
        for n in range(1, papers + 1):
            out.row(n, n, 1)
        out.close()
        out = Copy(cur, "reference_extractions", "id, paper_version_id, source, origin, observed_at, content_digest")
        for n in range(1, papers + 1):
            out.row(n, n, "pdf_text", "ingest", ts(T0 + timedelta(seconds=n)), "")
        out.close()
        out = Copy(cur, "paper_current", "paper_id, snapshot_id, reference_list_id, changed_at")    # as the writers keep it
        for n in range(1, papers + 1):
            out.row(n, n, n, ts(T0 + timedelta(seconds=n)))
        out.close()
        refs = Copy(cur, "paper_references", "id, extraction_id, reference_index, raw_text, title, year, authors, venue, "
                                             "arxiv_id, doi, identifiers, parser, observed_at")
        links = Copy(cur, "paper_reference_links", "id, reference_id, state, resolver_source, cited_paper_id, "
                                                   "cited_work_id, observed_at, evidence, resolver_version")
        current = Copy(cur, "reference_current_resolutions",
                       "reference_id, link_id, state, resolver_source, cited_paper_id, cited_work_id, resolved_at, "
                       "citing_paper_id, source, observed_at, reference_index, doi, curated, changed_at")
        curated = set(rng.sample(range(papers * per_paper), CURATED))
        curated_ids = []
        link_id = 0
        for paper in range(1, papers + 1):
            base = T0 + timedelta(seconds=paper)
            for index in range(1, per_paper + 1):
                link_id += 1
                ref = uuid.UUID(int=rng.getrandbits(128), version=4)
                at = base + timedelta(microseconds=index)
                draw, state, resolver, cited = rng.random(), "unresolved", None, None
                for name, source, share in STATES:
                    if draw < share:
                        state, resolver = name, source
                        break
                    draw -= share
                if state in ("verified_exact", "verified_fuzzy"):
                    cited = rng.randint(1, papers)
                doi = f"10.{1000 + paper % 9000}/bench.{paper}.{index}" if rng.random() < 0.1 else None
                is_curated = link_id - 1 in curated
                if is_curated:
                    curated_ids.append(ref)
                refs.row(ref, paper, index, f"A. Author. Some work {index} of paper {paper}. 2024.",
                         f"Some work {index} of paper {paper}", 2000 + index % 25, "[]", None, None, doi, "[]",
                         "bench", ts(at))
                links.row(link_id, ref, state, resolver, cited, None, ts(at), "{}", "bench")
                current.row(ref, link_id, state, resolver, cited, None, ts(at), paper, "pdf_text", ts(at), index, doi,
                            "t" if is_curated else "f", ts(at))
            if paper % 25_000 == 0:
                print(f"  {paper:,} papers, {time.perf_counter() - started:.0f} s", flush=True)
        for table in (refs, links, current):
            table.close()
        cur.execute("INSERT INTO auth_user (password, is_superuser, username, first_name, last_name, email, is_staff, "
                    "is_active, date_joined) VALUES ('!', false, 'bench-curator', '', '', '', true, true, now()) "
                    "RETURNING id")
        user = cur.fetchone()[0]
        out = Copy(cur, "curation_overrides", "reference_id, field, action, value_year, reason, curator_id, created_at")
        for ref in curated_ids:
            out.row(ref, "year", "set", 2024, "bench: the year printed", user, ts(T0 + timedelta(days=400)))
        out.close()
        for table in ("papers", "paper_snapshots", "paper_versions", "reference_extractions", "paper_reference_links"):
            cur.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT max(id) FROM {table}))")
        conn.commit()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE")
    print(f"filled in {time.perf_counter() - started:.0f} s", flush=True)


def store_size(url: str) -> tuple[int, int]:
    import psycopg

    with psycopg.connect(url) as conn:
        refs = conn.execute("SELECT reltuples::bigint FROM pg_class WHERE relname = 'paper_references'").fetchone()[0]
        papers = conn.execute("SELECT count(*) FROM papers").fetchone()[0]
        return max(refs, 0), papers


def background_activity(url: str, since: dict | None = None) -> dict | str:
    """PostgreSQL's own work that competes with the requests for this machine's cores: checkpoints
    (their count) and autovacuum workers (seen at either end). With since, what happened in between, in words."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        checkpoints = conn.execute("SELECT checkpoints_timed + checkpoints_req FROM pg_stat_bgwriter").fetchone()[0]
        vacuums = conn.execute("SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'autovacuum worker'"
                               ).fetchone()[0]
    now = {"checkpoints": checkpoints, "autovacuum": vacuums}
    if since is None:
        return now
    return (f"{checkpoints - since['checkpoints']} checkpoint(s); autovacuum workers running: "
            f"{since['autovacuum']} at the start, {vacuums} at the end")


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(url: str, headers: dict) -> tuple[float, bytes, float]:
    """(seconds the client waited, body, seconds the application took by its Server-Timing header)."""
    request = urllib.request.Request(url, headers=headers)
    started = time.perf_counter()
    with urllib.request.urlopen(request, timeout=60) as response:
        body = response.read()
        timing = response.headers.get("Server-Timing", "app;dur=nan")
    return time.perf_counter() - started, body, float(timing.split("dur=")[1]) / 1000


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def wrk(base: str, paths: list[str], token: str, *, duration: int, connections: int, work: Path) -> dict:
    script = work / f"paths-{len(paths)}-{abs(hash(paths[0]))}.lua"
    script.write_text("paths = {" + ",".join(f'"{p}"' for p in paths) + "}\n"
                      f'wrk.headers["Authorization"] = "Token {token}"\n'
                      "request = function() return wrk.format('GET', paths[math.random(#paths)]) end\n")
    command = ["wrk", "-t2", f"-c{connections}", f"-d{duration}s", "--latency", "--timeout", "20s", "-s", str(script),
               base]
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    rate = float(next(line.split()[1] for line in out.splitlines() if line.startswith("Requests/sec")))
    lat = {line.split()[0]: line.split()[1] for line in out.splitlines() if line.strip().startswith(("50%", "99%"))}
    non_2xx = next((int(line.split()[-1]) for line in out.splitlines() if "Non-2xx" in line), 0)
    return {"rate": rate, "p50": to_ms(lat["50%"]), "p99": to_ms(lat["99%"]), "non_2xx": non_2xx}


LOAD_SLICES = 4


def combined(runs: list[dict]) -> dict:
    """Slices of one load as one: the mean rate, the median slice's p50, the worst slice's p99."""
    return {"rate": statistics.mean(r["rate"] for r in runs), "p50": statistics.median(r["p50"] for r in runs),
            "p99": max(r["p99"] for r in runs), "non_2xx": sum(r["non_2xx"] for r in runs)}


def to_ms(text: str) -> float:
    for unit, factor in (("ms", 1), ("us", 0.001), ("s", 1000)):
        if text.endswith(unit):
            return float(text[: -len(unit)]) * factor
    return float(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--references", type=int, default=10_000_000)
    parser.add_argument("--papers", type=int, default=250_000)
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--duration", type=int, default=20)
    parser.add_argument("--connections", type=int, default=50)
    parser.add_argument("--runs", type=int, default=500)
    parser.add_argument("--warm-up-rounds", type=int, default=2,
                        help="Rounds of about 650 requests on untimed filter values first (0: a fresh server).")
    parser.add_argument("--fill-only", action="store_true", help="Fill the store (if empty) and stop.")
    args = parser.parse_args()
    url = args.database_url or f"postgres://root@127.0.0.1:5432/pith_bench_api_{args.references // 1000}k"
    if not shutil.which("wrk"):
        sys.exit("wrk is not installed: apt-get install wrk")
    ensure_database(url)
    env = {**os.environ, "DATABASE_URL": url, "DEBUG": "0", "ALLOWED_HOSTS": "127.0.0.1,localhost",
           "DATABASE_CONN_MAX_AGE": "600", "API_ANON_RATE": "100000000/minute", "API_USER_RATE": "100000000/minute",
           "REDIS_CACHE_URL": "redis://127.0.0.1:6379/13"}
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    held, papers = store_size(url)
    if papers == 0:
        fill(url, args.papers, args.references)
        held, papers = store_size(url)
    elif papers != args.papers:
        sys.exit(f"{url} holds {papers:,} papers, not {args.papers:,}: drop it or pass another --database-url")
    print(f"store: about {held:,} reference observations over {papers:,} papers")
    if args.fill_only:
        return
    token = subprocess.run([sys.executable, "manage.py", "shell", "-c",
                            "from django.contrib.auth.models import User; from rest_framework.authtoken.models import "
                            "Token; from django.contrib.auth.models import Permission; "
                            "u, _ = User.objects.get_or_create(username='bench-reader'); "
                            "u.user_permissions.add(Permission.objects.get(codename='view_job')); "
                            "print(Token.objects.get_or_create(user=u)[0].key)"],
                           cwd=ROOT, env=env, check=True, capture_output=True, text=True).stdout.split()[-1]
    subprocess.run(["redis-cli", "-n", "13", "FLUSHDB"], check=False, capture_output=True)

    rng = random.Random(5)
    some = [arxiv_id(rng.randint(1, papers)) for _ in range(200)]
    lists = {
        "papers": "/api/v1/papers/",
        "papers, search (one match)": f"/api/v1/papers/?search=paper+{papers // 2}+on",
        "observations": "/api/v1/observations/",
        "state=unresolved": "/api/v1/observations/?state=unresolved",
        "state=verified_exact": "/api/v1/observations/?state=verified_exact",
        "state=verified_fuzzy (rare)": "/api/v1/observations/?state=verified_fuzzy",
        "state=metadata_mismatch": "/api/v1/observations/?state=metadata_mismatch",
        "citing_paper": f"/api/v1/observations/?citing_paper={some[0]}",
        "citing_paper, list order": f"/api/v1/observations/?citing_paper={some[1]}&ordering=reference_index",
        "cited_paper": f"/api/v1/observations/?cited_paper={some[2]}",
        "doi": f"/api/v1/observations/?doi=10.{1000 + 77 % 9000}/bench.77.1",
        "has_override": "/api/v1/observations/?has_override=true",
        "changes since": f"/api/v1/changes/?since={(T0 + timedelta(days=30)).strftime('%Y-%m-%dT%H:%M:%SZ')}",
        "works": "/api/v1/works/",
        "standing events": "/api/v1/standing-events/",
        "overrides": "/api/v1/overrides/",
        "jobs (token)": "/api/v1/jobs/",
    }
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    work = Path(tempfile.mkdtemp(prefix="pith-api-"))
    server = subprocess.Popen([sys.executable, "-m", "gunicorn", "pith.wsgi", "--workers", str(args.workers),
                               "--bind", f"127.0.0.1:{port}", "--log-level", "warning", "--access-logfile", "/dev/null"],
                              cwd=ROOT, env={**env, "PITH_VAR_DIR": str(work)}, start_new_session=True)
    headers = {"Authorization": f"Token {token}"}
    try:
        for _ in range(120):
            try:
                get(f"{base}/api/v1/health", {})
                break
            except OSError:
                time.sleep(0.5)
        # A server that has been up a while: each worker past its first requests (and its heap frozen,
        # pith/heap.py), on the same views with other filter values than those timed below, so every
        # timed first request is still cold for its own cache entry.
        others = some[100:]
        warm_up = [f"/api/v1/observations/?citing_paper={p}" for p in others] + [
            f"/api/v1/observations/?cited_paper={p}" for p in others] + [
            f"/api/v1/papers/?search=paper+{n}+on" for n in range(1, 101)] + [
            f"/paper/{p}/citation-record.json" for p in others] + [
            f"/api/v1/observations/?doi=10.{1000 + n % 9000}/bench.{n}.1" for n in range(101, 201)] + [
            f"/api/v1/works/?metadata_source=bench{n}" for n in range(50)] + [
            f"/api/v1/standing-events/?event_type=bench{n}" for n in range(50)] + [
            f"/api/v1/overrides/?field={f}" for f in ("title", "year", "link")] + [
            f"/api/v1/changes/?since={(T0 + timedelta(days=40 + n)).strftime('%Y-%m-%dT%H:%M:%SZ')}" for n in range(50)]
        for _ in range(args.warm_up_rounds):
            for path in warm_up:
                get(base + path, headers)
        print(f"warm-up: {len(warm_up) * args.warm_up_rounds:,} requests on other filter values")
        # The record JSON of random papers, one request at a time: cold (built), and each list's first
        # request (cold) and five pages on by the cursors the API gives (deep).
        import json

        cold_records = [get(f"{base}/paper/{p}/citation-record.json", headers)[0] for p in some[3:33]]
        colds, deeps = {}, {}
        for name, path in lists.items():
            colds[name], body, _ = get(base + path, headers)
            page, deeps[name] = json.loads(body), None
            for _ in range(5):
                if not page.get("next"):
                    break
                deeps[name], raw, _ = get(page["next"], headers)
                page = json.loads(raw)
        # Then the warm samples, interleaved: each round asks for a record and every list once, so a
        # pause of the machine (another process scheduled on its two cores, a checkpoint) falls on the
        # record and the lists alike, not on whichever list happened to be timed then.
        background = background_activity(url)
        record_path = "__record__"
        timed: dict[str, list] = {record_path: [], **{name: [] for name in lists}}
        for n in range(args.runs):
            timed[record_path].append(get(f"{base}/paper/{some[3 + n % 30]}/citation-record.json", headers))
            for name, path in lists.items():
                timed[name].append(get(base + path, headers))
        background = background_activity(url, since=background)
        warm = timed.pop(record_path)
        warm_records = [seconds for seconds, _, _ in warm]
        record_median = statistics.median(warm_records)
        print(f"\nrecord JSON: cold median {statistics.median(cold_records) * 1000:.1f} ms; warm median "
              f"{record_median * 1000:.1f} ms, p99 {percentile(warm_records, 0.99) * 1000:.1f} ms "
              f"(server's own: median {statistics.median(s for _, _, s in warm) * 1000:.2f} ms, "
              f"p99 {percentile([s for _, _, s in warm], 0.99) * 1000:.2f} ms)")
        print(f"while timed: {background}")
        print(f"\n{'list page (50 rows)':30}{'cold ms':>9}{'median':>9}{'p99':>9}{'deep':>9}{'x rec':>7}{'p99 x':>7}"
              f"{'srv med':>9}{'srv p99':>9}")
        figures, server_figures = {}, {}
        for name in lists:
            samples, server_times = [seconds for seconds, _, _ in timed[name]], [s for _, _, s in timed[name]]
            median, p99 = statistics.median(samples), percentile(samples, 0.99)
            figures[name] = (median, p99)
            server_figures[name] = (statistics.median(server_times), percentile(server_times, 0.99))
            print(f"{name:30}{colds[name] * 1000:>9.1f}{median * 1000:>9.1f}{p99 * 1000:>9.1f}"
                  f"{(deeps[name] or 0) * 1000:>9.1f}{median / record_median:>7.2f}{p99 / record_median:>7.2f}"
                  f"{server_figures[name][0] * 1000:>9.2f}{server_figures[name][1] * 1000:>9.2f}")
        worst = max(m for m, _ in figures.values()) / record_median
        worst_p99 = max(p for _, p in figures.values()) / record_median
        print(f"worst list median / record median: {worst:.2f} (goal <= 2); worst p99 / record median: "
              f"{worst_p99:.2f} (goal <= 5)")
        # Where a slow sample spent its time: in the application (Server-Timing) or outside it.
        outside = max(p for _, p in figures.values()) - max(p for _, p in server_figures.values())
        print(f"worst server-side p99 (Server-Timing): {max(p for _, p in server_figures.values()) * 1000:.2f} ms; "
              f"the worst client p99 is {outside * 1000:.2f} ms above it")

        # The two loads in alternating slices, for the same reason as the rounds above.
        slices = {"mixed": [], "records": []}
        record_paths = [f"/paper/{p}/citation-record.json" for p in some[3:33]]
        for _ in range(LOAD_SLICES):
            for name, paths in (("mixed", list(lists.values())), ("records", record_paths)):
                slices[name].append(wrk(base, paths, token, duration=max(1, args.duration // LOAD_SLICES),
                                        connections=args.connections, work=work))
        mixed, records = combined(slices["mixed"]), combined(slices["records"])
        print(f"\n{'load, ' + str(args.connections) + ' connections':30}{'req/s':>9}{'p50 ms':>9}{'p99 ms':>9}"
              f"{'non-2xx':>9}")
        for name, run in (("mixed lists and filters", mixed), ("record JSON (30 papers)", records)):
            print(f"{name:30}{run['rate']:>9.0f}{run['p50']:>9.1f}{run['p99']:>9.1f}{run['non_2xx']:>9}")
        print(f"mixed / record requests/s: {mixed['rate'] / records['rate']:.2f} (goal >= 0.5)")
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGTERM)
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
