"""Rate limits count every request once, however many workers serve the client, and say when to
come back; with the cache down they let requests through."""
import pytest
from django.contrib.auth.models import User
from django.core.cache import cache

from citations.api import throttles
from tests.api.conftest import token_client
from tests.faults.test_cache_outage import CLOSED_PORT_CACHE

pytestmark = pytest.mark.usefixtures("db")


@pytest.fixture(autouse=True)
def no_leases(monkeypatch):
    """Each test starts as a new process would: with no requests reserved."""
    monkeypatch.setattr(throttles, "_leases", {})
    monkeypatch.setattr(throttles, "_leases_window", {})


@pytest.fixture
def rates(settings):
    cache.clear()
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"anon": "3/minute",
                                                                                    "user": "5/minute"}}


@pytest.fixture
def clock(monkeypatch):
    """The throttles' time, set by the test: 10 s into a minute."""
    now = {"t": 1_800_000_010.0}
    monkeypatch.setattr(throttles.AnonThrottle, "timer", lambda self: now["t"])
    monkeypatch.setattr(throttles.UserThrottle, "timer", lambda self: now["t"])
    monkeypatch.setattr(throttles.AddressThrottle, "timer", lambda self: now["t"])
    return now


def test_a_user_gets_the_rate_per_window_and_retry_after_names_the_windows_end(rates, clock):
    api = token_client(User.objects.create_user("reader"))
    statuses = [api.get("/api/v1/papers/").status_code for _ in range(6)]
    assert statuses == [200] * 5 + [429]
    refused = api.get("/api/v1/papers/")
    assert refused.status_code == 429 and refused["Retry-After"] == "50"
    clock["t"] += 50                                      # the next minute
    assert api.get("/api/v1/papers/").status_code == 200


def test_every_process_counts_into_one_counter(rates, clock):
    """Two workers serving one client (two throttle instances, as two processes have) share its count."""
    api = token_client(User.objects.create_user("reader"))
    request = api.get("/api/v1/papers/").wsgi_request
    workers = [throttles.UserThrottle(), throttles.UserThrottle()]
    allowed = [workers[n % 2].allow_request(request, None) for n in range(8)]
    assert allowed == [True] * 4 + [False] * 4             # 1 request above plus 4 here: 5 a minute


def test_clients_have_their_own_allowance(rates, clock, client):
    ada, bob = (token_client(User.objects.create_user(name)) for name in ("ada", "bob"))
    assert [ada.get("/api/v1/papers/").status_code for _ in range(6)][-1] == 429
    assert bob.get("/api/v1/papers/").status_code == 200
    assert [client.get("/api/v1/papers/").status_code for _ in range(4)] == [200, 200, 200, 429]


def test_with_the_cache_down_requests_are_let_through(rates, clock, settings):
    settings.CACHES = CLOSED_PORT_CACHE
    api = token_client(User.objects.create_user("reader"))
    assert {api.get("/api/v1/papers/").status_code for _ in range(8)} == {200}


def test_processes_reserve_in_leases_and_together_never_admit_more_than_the_rate(rates, clock, settings,
                                                                                   monkeypatch):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"anon": "3/minute",
                                                                                    "user": "1000/minute"}}
    api = token_client(User.objects.create_user("reader"))
    request = api.get("/api/v1/papers/").wsgi_request          # one request, one lease of 10 (9 left)
    reserved = []
    monkeypatch.setattr(throttles.UserThrottle, "_reserve",
                        lambda self, key, lease, real=throttles.UserThrottle._reserve: reserved.append(lease)
                        or real(self, key, lease))
    processes = [throttles._leases, {}]                     # this process's leases, and another's
    admitted = 1
    for n in range(1200):
        monkeypatch.setattr(throttles, "_leases", processes[n % 2])
        admitted += throttles.UserThrottle().allow_request(request, None)
    # Each process asked the shared counter once per 10 requests, and once more to learn the window
    # was used up; together they admitted the rate, less what one still held reserved at the end.
    assert 990 <= admitted <= 1000
    assert len(reserved) <= 1000 // 10 + 2


@pytest.fixture
def page_rate(settings):
    cache.clear()
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {
        "anon": "3/minute", "user": "5/minute", "pages": "4/minute"}}


def test_the_pages_that_build_a_record_share_a_rate_per_address(seeds, page_rate, clock, client, curator):
    pages = ["/paper/2509.23722/citation-record", "/paper/2509.23722/history",
             "/paper/2509.23722/history?from=2020-01-01T00:00:00Z", "/paper/2509.23722/citation-record.json",
             "/paper/2509.23722/integrity", "/paper/2509.23722"]
    assert [client.get(path).status_code for path in pages] == [200, 200, 200, 200, 429, 429]
    refused = client.get(pages[2])
    assert refused.status_code == 429 and refused["Retry-After"] == "50"
    assert client.get(pages[0], REMOTE_ADDR="198.51.100.9").status_code == 200     # another address
    client.force_login(curator)                  # logging in does not lift the address's rate
    assert client.get(pages[0]).status_code == 429
    assert client.get("/evidence").status_code == 200                               # builds no record
    clock["t"] += 50
    assert client.get(pages[1]).status_code == 200


def test_requests_with_a_wrong_token_are_limited_as_anonymous_ones_of_their_address(rates, clock, api):
    for header in ("Token " + "0" * 40, "Token a b", "Token"):
        cache.clear()
        throttles.forget_leases()
        api.credentials(HTTP_AUTHORIZATION=header)
        statuses = [api.get("/api/v1/papers/").status_code for _ in range(4)]
        assert statuses == [401, 401, 401, 429], header
        assert api.get("/api/v1/papers/")["Retry-After"] == "50"
    api.credentials()
    assert api.get("/api/v1/papers/").status_code == 429              # one allowance for the address
    assert api.get("/api/v1/papers/", REMOTE_ADDR="198.51.100.9").status_code == 200
