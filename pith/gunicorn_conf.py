"""Gunicorn's configuration for Pith: `gunicorn -c pith/gunicorn_conf.py pith.wsgi` (docs/operations.md).

A sync worker is a process that serves one connection from its first byte to its last: two clients
sending a body that never ends held both workers of a two-worker server, and the site answered
nobody. Here a worker is a pool of threads (gthread), and a connection is given a thread only once
its request has begun to arrive; a body must then arrive within REQUEST_BODY_SECONDS
(pith/middleware.py), so a slow client holds one thread for a bounded time, never a process. In front
of the public internet, a buffering proxy (nginx, with its default proxy_request_buffering on) is
better still: it reads the whole request before gunicorn sees it. Any setting here can be overridden
with GUNICORN_CMD_ARGS, or on the command line.
"""
import multiprocessing
import os


def _int(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    if not value.isdigit() or int(value) < 1:
        raise SystemExit(f"{name}={value!r} is malformed: expected an integer >= 1")
    return int(value)


bind = os.environ.get("GUNICORN_BIND", "").strip() or "127.0.0.1:8000"
# Processes (WEB_CONCURRENCY, as gunicorn itself reads it), each with a pool of threads: the database
# connection is per thread, so workers x threads connections at most (CONN_MAX_AGE keeps them).
workers = _int("WEB_CONCURRENCY", max(2, multiprocessing.cpu_count()))
worker_class = "gthread"
threads = _int("GUNICORN_THREADS", 8)
# A worker silent this long (no heartbeat: its main loop stuck) is killed and replaced; a thread
# stuck on a client is bounded by REQUEST_BODY_SECONDS instead.
timeout = _int("GUNICORN_TIMEOUT", 30)
graceful_timeout = _int("GUNICORN_GRACEFUL_TIMEOUT", 30)
keepalive = 5                     # seconds an idle keep-alive connection waits in the poller (no thread)
# The request line and headers: gunicorn's limits, stated (a longer line or more headers is a 400).
limit_request_line = 4094
limit_request_fields = 100
limit_request_field_size = 8190
# Free memory a worker's heap grew to serve one large page: restart it after this many requests.
max_requests = _int("GUNICORN_MAX_REQUESTS", 10000)
max_requests_jitter = max_requests // 10
