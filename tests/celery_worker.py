"""Running a real Celery worker (a separate process) against Redis, for the tests that are about one."""
import os
import signal
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

import redis
from django.conf import settings
from django.db import connection

from tests.conftest import require_service

ROOT = Path(__file__).resolve().parent.parent


def redis_url() -> str:
    url = os.environ.get("PITH_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
    try:
        redis.Redis.from_url(url, socket_connect_timeout=1).ping()
    except redis.RedisError:
        require_service(f"Redis at {url}")
    return url


def worker_env(broker: str, **extra: str) -> dict:
    """The environment of a process that shares this test's database and broker."""
    env = {**os.environ, "CELERY_BROKER_URL": broker, "CELERY_RESULT_BACKEND": broker,
           "CELERY_TASK_ALWAYS_EAGER": "0", "PYTHONPATH": str(ROOT), **extra}
    db = settings.DATABASES["default"]
    if connection.vendor == "postgresql":
        env["DATABASE_URL"] = (f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/"
                               f"{db['NAME']}")
    return env


@contextmanager
def running_worker(broker: str, *, concurrency: int = 1, flush: bool = True, env: dict | None = None):
    """A worker (main process and pool, in their own process group) for the duration of the block."""
    if flush:
        redis.Redis.from_url(broker).flushdb()
    log = tempfile.TemporaryFile()
    process = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "pith", "worker", "--loglevel=WARNING", "--without-gossip",
         "--without-mingle", "--without-heartbeat", f"--concurrency={concurrency}"],
        cwd=ROOT, env=worker_env(broker, **(env or {})), stdout=log, stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    process.log = log
    try:
        yield process
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


def kill_worker(process) -> None:
    """SIGKILL the worker and its pool at once: no shutdown, no acknowledgements, as when a machine dies."""
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()


def worker_log(process) -> str:
    process.log.seek(0)
    return process.log.read().decode(errors="replace")[-4000:]


def client_call(broker: str, code: str, timeout: float = 60) -> str:
    """Run Python code in a fresh process configured for the real broker; returns its stdout."""
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=worker_env(broker), capture_output=True,
                            text=True, timeout=timeout)
    assert result.returncode == 0, result.stderr
    return result.stdout


def wait_until(predicate, *, timeout: float = 60, interval: float = 0.2):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(interval)
    return False
