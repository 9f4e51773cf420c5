"""Settings from the environment: a malformed value stops the process at start (README, Configuration),
persistent database connections survive the server dropping them, and the anonymous rate limit holds
against forged X-Forwarded-For headers."""
import random
import re
import runpy
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db import close_old_connections, connection
from django.db.utils import Error as DatabaseError

ROOT = Path(__file__).resolve().parent.parent
SETTINGS = ROOT / "pith" / "settings.py"

# Every variable pith/settings.py reads, with values it must refuse. A directory or a file is
# spelled <dir> / <file>: a path made in the test's temporary directory.
MALFORMED = {
    "PITH_VAR_DIR": ["<file>"],
    "DEBUG": ["maybe", "2"],
    "ALLOWED_HOSTS": ["https://example.com", "example.com:8000", "*.example.com", "example.com/", "a_b", ","],
    "CSRF_TRUSTED_ORIGINS": ["example.com", "ftp://example.com", "https://example.com/path", "https://"],
    "HTTPS": ["sure"],
    "HSTS_SECONDS": ["-1", "a year"],
    "DATABASE_URL": ["garbage", "mysql://root@db/pith"],
    "DATABASE_CONN_MAX_AGE": ["-1", "forever"],
    "DATABASE_CONN_HEALTH_CHECKS": ["sometimes"],
    "DATABASE_TEST_NAME": ["t" * 64],
    "DATABASE_SERVER_SIDE_BINDING": ["perhaps"],
    "DATABASE_PREPARE_THRESHOLD": ["-1", "five"],
    "WHITENOISE_USE_FINDERS": ["finders"],
    "DATA_UPLOAD_MAX_MEMORY_SIZE": ["0", "5MB"],
    "REDIS_CACHE_URL": ["localhost:6379", "http://cache/1", "redis://", "redis://cache/one", "redis://cache:port/1",
                        "unix://"],
    "LOCAL_CACHE_ENTRIES": ["0"],
    "RECORD_CACHE_SECONDS": ["0", "-60"],
    "RECORD_LOCAL_ENTRIES": ["0", "many"],
    "API_PAGE_CACHE_SECONDS": ["0", "10m"],
    "API_PAGE_LOCAL_ENTRIES": ["-1"],
    "PAGE_RATE": ["garbage", "0/minute", "10"],
    "REQUEST_BODY_SECONDS": ["soon", "0", "-1", "nan", "inf"],
    "API_ANON_RATE": ["garbage", "10/fortnight", "0/minute", "-5/minute", "10/mango", "1.5/minute", "10"],
    "API_USER_RATE": ["fast", "100/week"],
    "TRUSTED_PROXIES": ["-1", "yes"],
    "CELERY_BROKER_URL": ["redis//broker", "sqs://", "http://broker/", "memory://", "amqp://"],
    "CELERY_TASK_ALWAYS_EAGER": ["eager"],
    "CELERY_RESULT_BACKEND": ["django-db", "db+sqlite:///results.db", "redis://"],
    "CELERY_VISIBILITY_TIMEOUT": ["0", "5m"],
    "CELERY_UNACKED_RESTORE_INTERVAL": ["0"],
    "CELERY_UNACKED_RESTORE_THROTTLE": ["-1"],
    "STANDING_SYNC_HOUR": ["24", "-1", "6am"],
    "PITH_DUMPS_DIR": ["<file>"],
    "PITH_SIGNING_KEY": ["<dir>"],
    "PITH_SIGNING_PUBLIC_KEYS": ["<dir>"],
    "PITH_LOG_ORIGIN": ["pith example/log", "pith+log"],
    "PITH_LOG_DIR": ["<file>"],
    "PITH_LOG_OBSERVATIONS": ["maybe"],
    "PITH_DEMO_DATA_DIR": ["<file>"],
    "PITH_DUMPS_KEEP": ["0", "all"],
    "PITH_DUMP_HOUR": ["24", "3am"],
    "PITH_GC_FREEZE_AFTER_REQUESTS": ["-1", "often"],
    "STANDING_RETRACTION_WATCH_FILE": ["<dir>"],
    "STANDING_CROSSREF_FILE": ["<dir>"],
    "STANDING_OPENALEX_FILE": ["<dir>"],
    "RESOLUTION_PAUSE_SECONDS": ["nan", "inf", "-1", "a bit"],
    "JOB_REQUEUE_SECONDS": ["0"],
    "JOB_STALE_SECONDS": ["0"],
    "JOB_MAX_DISPATCHES": ["0"],
    "CELERY_TASK_TIME_LIMIT": ["1", "an hour"],
    "CELERY_TASK_SOFT_TIME_LIMIT": ["0", "-5"],
    "FILE_TASK_SECONDS": ["0", "2m"],
    "PDF_READ_MEMORY_MB": ["64", "1G"],
    "PDF_READ_SECONDS": ["0", "1m"],
    "LOG_LEVEL": ["LOUD", "10"],
}
# Read from the environment with no value refused: `manage.py check --deploy` judges the key.
NO_RULE = {"SECRET_KEY"}


def _read_variables() -> set[str]:
    return set(re.findall(r'\benv_\w+\(\s*"([A-Z][A-Z0-9_]*)"', SETTINGS.read_text()))


@pytest.fixture
def load_settings(monkeypatch, tmp_path):
    """Run pith/settings.py afresh with the given variables (and none of the others) set; its namespace."""
    for name in _read_variables() | set(MALFORMED):
        monkeypatch.delenv(name, raising=False)

    def load(**variables: str) -> dict:
        for name, value in variables.items():
            if value == "<file>":
                (tmp_path / "a-file").write_text("")
                value = str(tmp_path / "a-file")
            elif value == "<dir>":
                value = str(tmp_path)
            monkeypatch.setenv(name, value)
        return runpy.run_path(str(SETTINGS))

    return load


def test_every_variable_settings_read_has_a_rule_tested_here():
    assert _read_variables() - NO_RULE == set(MALFORMED)


def test_the_defaults_load(load_settings):
    loaded = load_settings()
    assert loaded["REST_FRAMEWORK"]["DEFAULT_THROTTLE_RATES"] == {"anon": "120/minute", "user": "1200/minute",
                                                                     "pages": "60/minute"}
    assert loaded["REST_FRAMEWORK"]["NUM_PROXIES"] == 0
    assert loaded["LOGGING"]["root"]["level"] == "WARNING"


@pytest.mark.parametrize(("name", "value"), [(name, value) for name, values in MALFORMED.items()
                                             for value in values])
def test_a_malformed_value_stops_settings_from_loading(load_settings, name, value):
    # Each is read whether or not it is used (the database ones without DATABASE_URL too), so a typo
    # shows before the day it would matter.
    with pytest.raises(ImproperlyConfigured) as raised:
        load_settings(**{name: value})
    message = str(raised.value)
    assert message.startswith(f"{name}=") or message.startswith(f"{name} "), message
    if name not in ("PITH_VAR_DIR", "PITH_DUMPS_DIR", "PITH_DEMO_DATA_DIR", "STANDING_RETRACTION_WATCH_FILE",
                    "PITH_SIGNING_KEY", "PITH_SIGNING_PUBLIC_KEYS", "PITH_LOG_DIR",
                    "STANDING_CROSSREF_FILE", "STANDING_OPENALEX_FILE", "DATABASE_URL"):
        assert repr(value) in message, message


@pytest.mark.parametrize(("name", "value", "read"), [
    ("API_ANON_RATE", "10/s", lambda s: s["REST_FRAMEWORK"]["DEFAULT_THROTTLE_RATES"]["anon"] == "10/second"),
    ("API_ANON_RATE", "10/sec", lambda s: s["REST_FRAMEWORK"]["DEFAULT_THROTTLE_RATES"]["anon"] == "10/second"),
    ("API_ANON_RATE", "30/Min", lambda s: s["REST_FRAMEWORK"]["DEFAULT_THROTTLE_RATES"]["anon"] == "30/minute"),
    ("API_USER_RATE", "5/h", lambda s: s["REST_FRAMEWORK"]["DEFAULT_THROTTLE_RATES"]["user"] == "5/hour"),
    ("API_USER_RATE", "1/day", lambda s: s["REST_FRAMEWORK"]["DEFAULT_THROTTLE_RATES"]["user"] == "1/day"),
    ("TRUSTED_PROXIES", "1", lambda s: s["REST_FRAMEWORK"]["NUM_PROXIES"] == 1),
    ("LOG_LEVEL", "info", lambda s: s["LOGGING"]["root"]["level"] == "INFO"),
    ("HSTS_SECONDS", "0", lambda s: s["SECURE_HSTS_SECONDS"] == 0),
    ("RESOLUTION_PAUSE_SECONDS", "0.25", lambda s: s["RESOLUTION_PAUSE_SECONDS"] == 0.25),
    ("ALLOWED_HOSTS", "pith.example.org, .example.com,[::1],10.0.0.7,*",
     lambda s: s["ALLOWED_HOSTS"] == ["pith.example.org", ".example.com", "[::1]", "10.0.0.7", "*"]),
    ("CSRF_TRUSTED_ORIGINS", "https://*.example.com,http://localhost:8000",
     lambda s: s["CSRF_TRUSTED_ORIGINS"] == ["https://*.example.com", "http://localhost:8000"]),
    ("REDIS_CACHE_URL", "rediss://:secret@cache:6380/2", lambda s: s["CACHES"]["default"]["LOCATION"].endswith("/2")),
    ("REDIS_CACHE_URL", "unix:///run/redis.sock", lambda s: s["REDIS_CACHE_URL"] == "unix:///run/redis.sock"),
    ("CELERY_BROKER_URL", "amqp://guest@rabbit:5672//", lambda s: s["CELERY_TASK_ALWAYS_EAGER"] is False),
    ("CELERY_BROKER_URL", "redis://broker:6379/0", lambda s: s["CELERY_BROKER_URL"] == "redis://broker:6379/0"),
])
def test_well_formed_values_load(load_settings, name, value, read):
    assert read(load_settings(**{name: value}))


@pytest.mark.parametrize("hour", ["0", "23"])
def test_the_sync_hour_takes_every_hour_of_the_day(load_settings, tmp_path, hour):
    feed = tmp_path / "crossref.jsonl"
    loaded = load_settings(STANDING_SYNC_HOUR=hour, STANDING_CROSSREF_FILE=str(feed))
    assert loaded["CELERY_BEAT_SCHEDULE"]["sync-crossref"]["schedule"].hour == {int(hour)}


def test_each_standing_file_set_is_synced_daily_at_its_own_minute(load_settings, tmp_path):
    assert not [name for name in load_settings()["CELERY_BEAT_SCHEDULE"] if name.startswith("sync-")]
    files = {name: str(tmp_path / f"{name}.data") for name in ("retraction_watch", "crossref", "openalex")}
    loaded = load_settings(STANDING_RETRACTION_WATCH_FILE=files["retraction_watch"],
                           STANDING_CROSSREF_FILE=files["crossref"], STANDING_OPENALEX_FILE=files["openalex"])
    schedule = {name: entry for name, entry in loaded["CELERY_BEAT_SCHEDULE"].items() if name.startswith("sync-")}
    assert {name: entry["args"] for name, entry in schedule.items()} == {
        f"sync-{source}": (source, path) for source, path in files.items()}
    assert sorted(next(iter(entry["schedule"].minute)) for entry in schedule.values()) == [0, 30, 45]


def test_postgresql_connections_are_health_checked_unless_turned_off(load_settings):
    url = "postgres://pith@db:5432/pith"
    assert load_settings(DATABASE_URL=url)["DATABASES"]["default"]["CONN_HEALTH_CHECKS"] is True
    assert load_settings(DATABASE_URL=url, DATABASE_CONN_HEALTH_CHECKS="0")["DATABASES"]["default"][
        "CONN_HEALTH_CHECKS"] is False


def test_manage_py_check_refuses_a_malformed_rate_at_start():
    env = {"PATH": "/usr/bin:/bin", "API_ANON_RATE": "10/fortnight", "PITH_VAR_DIR": str(ROOT / "var")}
    checked = subprocess.run([sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True,
                             text=True, timeout=60)
    assert checked.returncode != 0
    assert ("API_ANON_RATE='10/fortnight' is malformed: expected N/second, N/minute, N/hour or N/day with N a "
            "positive integer") in checked.stderr


# --- the anonymous rate limit and X-Forwarded-For ------------------------------------------------------
@pytest.fixture
def api():
    from rest_framework.test import APIClient

    return APIClient()


def _random_address() -> str:
    return ".".join(str(random.randint(1, 254)) for _ in range(4))


def test_a_new_forwarded_address_per_request_does_not_escape_the_anonymous_rate(db, api, settings):
    assert settings.REST_FRAMEWORK["NUM_PROXIES"] == 0    # the default: REMOTE_ADDR only
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"anon": "3/minute",
                                                                                    "user": "3/minute"}}
    statuses = [api.get("/api/v1/papers/", HTTP_X_FORWARDED_FOR=_random_address()).status_code for _ in range(6)]
    assert statuses == [200, 200, 200, 429, 429, 429]


def test_behind_one_trusted_proxy_the_address_it_appended_is_the_client(db, api, settings, load_settings):
    proxies = load_settings(TRUSTED_PROXIES="1")["REST_FRAMEWORK"]["NUM_PROXIES"]
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": proxies,
                               "DEFAULT_THROTTLE_RATES": {"anon": "3/minute", "user": "3/minute"}}

    def get(client_address: str):
        # The client writes what it likes; the proxy appends the address it saw.
        return api.get("/api/v1/papers/", HTTP_X_FORWARDED_FOR=f"{_random_address()}, {client_address}").status_code

    assert [get("198.51.100.7") for _ in range(4)] == [200, 200, 200, 429]
    assert get("198.51.100.8") == 200     # another client behind the same proxy has its own allowance


# --- a dropped persistent connection ------------------------------------------------------------------
def _terminate(pid: int) -> None:
    """Kill a backend from another session, as an operator or a failover would, and wait for it to go."""
    other = connection.get_new_connection(connection.get_connection_params())
    try:
        other.autocommit = True
        with other.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
            for _ in range(100):
                cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = %s", [pid])
                if cursor.fetchone()[0] == 0:
                    return
                time.sleep(0.05)
        raise AssertionError(f"backend {pid} still running")
    finally:
        other.close()


def _request(api):
    close_old_connections()       # what Django does when a request starts (the test client skips it)
    response = api.get("/api/v1/papers/")
    close_old_connections()       # and when it finishes
    return response


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_the_first_request_after_the_connection_was_killed_succeeds(api, settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"anon": None, "user": None}}
    assert connection.settings_dict["CONN_HEALTH_CHECKS"] is True
    # Persistent connections, as in production (the test settings turn them off).
    connection.close()
    connection.settings_dict["CONN_MAX_AGE"] = 60
    try:
        assert _request(api).status_code == 200
        pid = connection.connection.info.backend_pid
        _terminate(pid)
        assert _request(api).status_code == 200
        assert connection.connection.info.backend_pid != pid     # a new connection served it

        # Without the health check the request is still served: the read is run again on a new
        # connection (pith.middleware.RetryLostConnection). Without either, it fails.
        connection.health_check_enabled = False
        pid = connection.connection.info.backend_pid
        _terminate(pid)
        assert _request(api).status_code == 200
        assert connection.connection.info.backend_pid != pid
        settings.MIDDLEWARE = [name for name in settings.MIDDLEWARE if name != "pith.middleware.RetryLostConnection"]
        connection.health_check_enabled = False
        _terminate(connection.connection.info.backend_pid)
        with pytest.raises(DatabaseError):
            _request(api.__class__())       # a new client: one loads the middleware on its first request
    finally:
        connection.close()
        connection.settings_dict["CONN_MAX_AGE"] = 0
