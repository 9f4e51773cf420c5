import os
import shutil
from pathlib import Path

import pytest
from django.db import connection

SEEDS = Path(__file__).resolve().parent.parent / "citations" / "fixtures" / "seeds"
SHARED_SEEDS = Path(__file__).resolve().parents[2] / "shared" / "seeds"
SEED_000 = SEEDS / "000_f4a99cc23cf9af82.txt"
SEED_004 = SEEDS / "004_e763c48f2517f539.txt"
# Browser tests save what they saw here, for a reviewer to look at (make test leaves them in the checkout).
SCREENSHOTS = Path(__file__).resolve().parent.parent / "var" / "screenshots"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
# As this machine's probe starts Chromium: no background traffic, which the closed network refuses.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def require_service(what: str):
    """Skip when a service is missing, unless CI asked for every service (PITH_REQUIRE_SERVICES=1)."""
    if os.environ.get("PITH_REQUIRE_SERVICES") == "1":
        pytest.fail(f"{what} is required here (PITH_REQUIRE_SERVICES=1) but not available")
    pytest.skip(f"{what} not available")


def pytest_collection_modifyitems(config, items):
    on_postgresql = connection.vendor == "postgresql"
    for item in items:
        if "postgresql" in item.keywords and not on_postgresql:
            item.add_marker(pytest.mark.skip(reason="needs PostgreSQL (set DATABASE_URL)"))


@pytest.fixture
def browser(monkeypatch):
    """Debian's Chromium, headless, through Playwright's sync API."""
    pytest.importorskip("playwright.sync_api")
    if not shutil.which("chromium"):
        require_service("Debian's Chromium (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    # Playwright's sync API keeps an event loop on this thread; the test's own database calls
    # (fixtures, teardown) are ordinary synchronous ones all the same.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield browser
        browser.close()


def save_screenshot(page, name: str) -> None:
    """The whole page as var/screenshots/NAME.png."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


CURATOR_LOGIN = ("ada", "pw-ada-123456")       # the curator the browser tests log in as


def log_in(page, base: str, login: tuple[str, str] = CURATOR_LOGIN) -> None:
    """Log a browser page in to the admin."""
    page.goto(f"{base}/admin/login/")
    page.fill("#id_username", login[0])
    page.fill("#id_password", login[1])
    page.click("input[type=submit]")


def submit_override(page, field: str, value: str, reason: str) -> None:
    """Fill a reference page's override form as a curator does, and submit it."""
    page.select_option("#id_field", field)
    page.fill("#id_value", value)
    page.fill("#id_reason", reason)
    page.click("#override-form input[type=submit]")


@pytest.fixture
def curator(db):
    """A staff member in the curators group, with a password the browser tests log in with."""
    from django.contrib.auth.models import User

    from curation.groups import curators_group

    user = User.objects.create_user(CURATOR_LOGIN[0], password=CURATOR_LOGIN[1], is_staff=True)
    user.groups.add(curators_group())
    return user


def import_seeds() -> list:
    """Both reference records imported, as the demo loads them: the slow way, about 3 s."""
    from citations.sources.record_import import import_record

    return [import_record(data=path.read_bytes()) for path in (SEED_000, SEED_004)]


@pytest.fixture(scope="session")
def seed_rows(django_db_setup, django_db_blocker):
    """What importing the seeds writes, captured once a session (tests/seed_rows.py says how and why)."""
    from tests.seed_rows import SeedRows

    with django_db_blocker.unblock():
        return SeedRows.capture(import_seeds)


@pytest.fixture
def seeds(seed_rows, db):
    """Both reference records imported, as the demo loads them: the rows an import writes, written
    into this test's transaction (tests/seed_rows.py); imported here, the slow way, when the test
    wrote to the store before asking for the seeds."""
    if not seed_rows.load():
        import_seeds()


@pytest.fixture(scope="session")
def django_db_modify_db_settings():
    """No persistent connections in tests: a live server's thread must not keep the test database open."""
    from django.conf import settings

    settings.DATABASES["default"]["CONN_MAX_AGE"] = 0


@pytest.fixture(scope="session", autouse=True)
def fast_password_hashing():
    """Passwords hashed with MD5 in tests, as Django's testing guide advises: PBKDF2 with its million
    iterations costs about a second a user or log-in on this machine, and no test is about the hash."""
    from django.test import override_settings

    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


@pytest.fixture(scope="session", autouse=True)
def no_keys_or_log_of_the_checkout(tmp_path_factory):
    """Signing keys and log tiles of the test session live in a temporary directory, never under the
    checkout's var/ (where the demo keeps its development key): with no key, nothing is signed."""
    from django.test import override_settings

    where = tmp_path_factory.mktemp("signing")
    paths = {"SIGNING_KEY_FILE": where / "signing-key.pem", "SIGNING_PUBLIC_KEYS_FILE": where / "public-keys.json",
             "LOG_DIR": where / "log"}
    for name, value in (("PITH_SIGNING_KEY", paths["SIGNING_KEY_FILE"]),
                        ("PITH_SIGNING_PUBLIC_KEYS", paths["SIGNING_PUBLIC_KEYS_FILE"]), ("PITH_LOG_DIR", paths["LOG_DIR"])):
        os.environ[name] = str(value)
    with override_settings(**paths):
        yield


@pytest.fixture
def signing_key(settings, tmp_path):
    """A fresh Ed25519 signing key, configured for this test."""
    from django.utils import timezone

    from citations.signing import create_signing_key, signing_key

    settings.SIGNING_KEY_FILE = tmp_path / "key" / "signing-key.pem"
    settings.SIGNING_PUBLIC_KEYS_FILE = tmp_path / "key" / "public-keys.json"
    settings.LOG_DIR = tmp_path / "log"
    create_signing_key(now=timezone.now())
    return signing_key()


@pytest.fixture(autouse=True)
def fresh_cache():
    """Each test starts with an empty cache: cached record bodies belong to another test's database."""
    from django.core.cache import cache

    from citations.api.page_cache import local_pages
    from citations.api.throttles import forget_leases
    from citations.records.cache import local_bodies

    cache.clear()
    local_bodies.clear()
    local_pages.clear()
    forget_leases()
    yield
    cache.clear()
    local_bodies.clear()
    local_pages.clear()
    forget_leases()


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """The test database, and before it is dropped, no session of a worker or live-server thread
    still holding it open (PostgreSQL refuses to drop a database in use).

    Observation tables refuse TRUNCATE (citations/append_only.py) except in a database marked as a
    test database: the test runner empties tables with TRUNCATE between transactional tests."""
    if connection.vendor == "postgresql":
        with django_db_blocker.unblock(), connection.cursor() as cursor:
            cursor.execute(f"ALTER DATABASE {connection.ops.quote_name(connection.settings_dict['NAME'])} "
                           "SET pith.test_database = 'on'")
            cursor.execute("SET pith.test_database = 'on'")
    yield
    if connection.vendor != "postgresql":
        return
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                       "WHERE datname = current_database() AND pid <> pg_backend_pid()")
