"""Running a real Celery worker (a separate process) against Redis, for the tests that are about one."""
import os
import subprocess
import sys
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


def worker_env(broker: str) -> dict:
    """The environment of a process that shares this test's database and broker."""
    env = {**os.environ, "CELERY_BROKER_URL": broker, "CELERY_RESULT_BACKEND": broker,
           "CELERY_TASK_ALWAYS_EAGER": "0", "PYTHONPATH": str(ROOT)}
    db = settings.DATABASES["default"]
    if connection.vendor == "postgresql":
        env["DATABASE_URL"] = (f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/"
                               f"{db['NAME']}")
    return env


@contextmanager
def running_worker(broker: str, *, concurrency: int = 1, extra_args: tuple = ()):
    """A worker process for the duration of the block; stopped (or killed) afterwards."""
    redis.Redis.from_url(broker).flushdb()
    process = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "pith", "worker", "--loglevel=WARNING", "--without-gossip",
         "--without-mingle", "--without-heartbeat", f"--concurrency={concurrency}", *extra_args],
        cwd=ROOT, env=worker_env(broker), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
    )
    try:
        yield process
    finally:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


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
