"""Benchmark: garbage-collection pauses in a server process, with and without the heap freeze (pith/heap.py).

    python bench/gc_pauses.py [--database-url sqlite:////tmp/pith_gc.sqlite3] [--requests 6000] [--freeze-after 500]

Serves API lists and a record JSON in process (through the WSGI handler, no network), cached as in
production after their first request, first with the freeze off and then with it on, each in a
fresh Python process. Prints per run: the request median and p99, the slowest request, and every
full (generation 2) collection: how many, and how long they took. The store is the demo store
(loaded once into the database named, SQLite by default, so it runs with no server).
"""
import argparse
import io
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
URLS = ("/api/v1/papers/", "/api/v1/observations/?state=unresolved", "/api/v1/observations/", "/api/v1/works/",
        "/api/v1/standing-events/", "/api/v1/overrides/", "/paper/2509.11076/citation-record.json")


def child(requests: int, freeze_after: int) -> dict:
    import gc

    import django

    django.setup()
    from django.core.wsgi import get_wsgi_application

    from pith.heap import freeze_after as install
    from pith.heap import frozen_objects

    # The WSGI handler itself, as gunicorn calls it (Django's test client would leave a signal
    # receiver's finalizer behind per request, a growth of its own that no server has).
    application = get_wsgi_application()

    def get(url: str) -> str:
        path, _, query = url.partition("?")
        environ = {"REQUEST_METHOD": "GET", "PATH_INFO": path, "QUERY_STRING": query, "SERVER_NAME": "testserver",
                   "SERVER_PORT": "80", "HTTP_HOST": "testserver", "REMOTE_ADDR": "127.0.0.1",
                   "wsgi.input": io.BytesIO(), "wsgi.errors": sys.stderr, "wsgi.url_scheme": "http"}
        status = []
        body = application(environ, lambda line, headers, exc_info=None: status.append(line))
        for _ in body:
            pass
        body.close()                      # request_finished, as the server sends it
        return status[0]

    install(freeze_after)
    full, started = [], {}

    def watch(phase, info):
        if info["generation"] == 2:
            if phase == "start":
                started["at"] = time.perf_counter()
            else:
                full.append((time.perf_counter() - started["at"]) * 1000)

    gc.callbacks.append(watch)
    times, warm = [], freeze_after or 500
    mark = 0
    for number in range(requests):
        if number == warm:
            mark = len(full)
        url = URLS[number % len(URLS)]
        began = time.perf_counter()
        status = get(url)
        times.append((time.perf_counter() - began) * 1000)
        if not status.startswith("200"):
            raise SystemExit(f"{url}: {status}")
    measured, full_after = times[warm:], full[mark:]       # after warm-up, in both runs
    ordered = sorted(measured)
    return {"freeze_after": freeze_after, "frozen": frozen_objects(), "requests": len(measured),
            "median_ms": round(statistics.median(measured), 2), "p99_ms": round(ordered[int(len(ordered) * 0.99)], 2),
            "max_ms": round(ordered[-1], 1), "full_collections": len(full_after),
            "full_ms": [round(ms, 1) for ms in full_after]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default="sqlite:////tmp/pith_gc.sqlite3")
    parser.add_argument("--requests", type=int, default=6000)
    parser.add_argument("--freeze-after", type=int, default=500)
    parser.add_argument("--child", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    os.environ.update({"DATABASE_URL": args.database_url, "DJANGO_SETTINGS_MODULE": "pith.settings", "DEBUG": "0",
                       "ALLOWED_HOSTS": "testserver", "API_ANON_RATE": "100000000/minute", "API_USER_RATE": "100000000/minute",
                       "PITH_GC_FREEZE_AFTER_REQUESTS": "0"})
    if args.child is not None:
        print(json.dumps(child(args.requests, args.child)))
        return
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run([*manage, "migrate", "--noinput", "-v", "0"], check=True, env=os.environ)
    subprocess.run([*manage, "load_demo"], check=True, env=os.environ, stdout=subprocess.DEVNULL)
    print(f"{args.requests:,} in-process requests over {len(URLS)} URLs; figures after the first "
          f"{args.freeze_after:,} (warm-up)")
    for freeze_after in (0, args.freeze_after):
        out = subprocess.run([sys.executable, __file__, "--database-url", args.database_url, "--requests",
                              str(args.requests), "--child", str(freeze_after)],
                             check=True, env=os.environ, capture_output=True, text=True).stdout
        run = json.loads(out.strip().splitlines()[-1])
        label = "no freeze" if not freeze_after else f"freeze after {freeze_after} ({run['frozen']:,} objects)"
        pauses = ", ".join(f"{ms} ms" for ms in run["full_ms"]) or "none"
        print(f"{label}: median {run['median_ms']} ms, p99 {run['p99_ms']} ms, slowest {run['max_ms']} ms; "
              f"{run['full_collections']} full collections ({pauses})")


if __name__ == "__main__":
    main()
