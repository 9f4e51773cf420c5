"""Rate limits: a counter per client and window, shared by every process through the cache.

DRF's own throttles keep each client's request times as one list in the cache, read and written
whole by every request: a lost update whenever two workers serve one client at once (the limit is
then not kept), and a list as long as the rate (a request at 1200/minute pickled 1200 floats there
and back; a bench's unlimited rate, tens of thousands). Here the client's counter for the current
window is only ever incremented atomically (`cache.incr`: Redis INCRBY), so N/minute admits at most
N requests per clock minute however many workers share the client; the window's end is the
Retry-After. A process reserves requests in leases of a hundredth of the rate and admits them from
its own memory (see LEASE_SHARE), so a busy client costs a round trip every hundredth request.

Rates are read when asked, so a changed setting applies without a restart (DRF's classes copy them
once, at import), and parsed by the rule settings apply at start-up (pith.env.parse_rate: N/second|
minute|hour|day), not DRF's, which reads only the period's first letter. Clients are identified by
REMOTE_ADDR, or behind REST_FRAMEWORK["NUM_PROXIES"] (TRUSTED_PROXIES) proxies by the address the
nearest proxy appended to X-Forwarded-For: never by what a client writes there itself. With the
cache unreachable, requests are let through (records and pages are still served; settings.CACHES).

The same counters limit the public pages that build a record (the paper, its record in HTML and JSON,
its integrity, history and comparisons: an uncached history or comparison builds several records),
per client address whoever is logged in (`pages`: PAGE_RATE), and requests whose token is wrong, as
anonymous clients of their address (`anon`): a wrong token is answered before DRF's throttles run.
"""
import functools
import logging
import math
import threading

from django.http import HttpResponse
from rest_framework.settings import api_settings
from rest_framework.throttling import AnonRateThrottle, SimpleRateThrottle, UserRateThrottle

from pith.env import parse_rate

log = logging.getLogger(__name__)


# A process reserves a client's requests from the shared counter in leases, then admits them without a
# round trip: one INCRBY a lease instead of one INCR a request (the bench's cached list page spent a
# quarter of its time there). A lease is a hundredth of the rate (at least 1: small rates stay exact),
# and never more than what is left of the window, so the counter still never admits more than the
# rate; what a process reserved and did not use is lost at the window's end, so with W processes a
# client may be refused up to W-1 hundredths of its rate early.
LEASE_SHARE = 100
_leases: dict[str, int] = {}            # "<client key>:<window>" -> requests this process may still admit
_leases_window: dict[str, int] = {}     # scope -> the window the leases are of (older ones are dropped)
_lock = threading.Lock()
_FULL = -1                              # a lease's value once the window's counter is used up


def forget_leases() -> None:
    """Drop this process's leases (as the counters they came from are gone: the cache was emptied)."""
    with _lock:
        _leases.clear()
        _leases_window.clear()


class _CountingThrottle:
    def get_rate(self):
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)

    def parse_rate(self, rate):
        return (None, None) if rate is None else parse_rate(rate)

    def allow_request(self, request, view) -> bool:
        if self.rate is None:
            return True
        key = self.get_cache_key(request, view)
        if key is None:
            return True
        now = self.timer()
        window = int(now // self.duration)
        self.retry_after = (window + 1) * self.duration - now
        counter = f"{key}:{window}"
        with _lock:
            if _leases_window.get(self.scope) != window:
                for stale in [k for k in _leases if k.startswith(f"throttle_{self.scope}_")]:
                    del _leases[stale]
                _leases_window[self.scope] = window
            held = _leases.get(counter, 0)
            if held == _FULL:
                return False                        # the window is used up: no need to ask again
            if held > 0:
                _leases[counter] = held - 1
                return True
        lease = max(1, self.num_requests // LEASE_SHARE)
        try:
            total = self._reserve(counter, lease)
        except Exception as error:  # noqa: BLE001 - any cache failure: let the request through
            log.warning("throttle cache unavailable (%s: %s): request let through", type(error).__name__, error)
            return True
        if total is None:
            return True
        granted = min(lease, self.num_requests - (total - lease))      # what is left of the window
        if granted <= 0:
            with _lock:
                _leases[counter] = _FULL
            return False
        with _lock:
            _leases[counter] = _leases.get(counter, 0) + granted - 1    # this request takes one
        return True

    def _reserve(self, key: str, lease: int) -> int | None:
        """The window's count of reserved requests once `lease` more are (None: the cache did not answer)."""
        try:
            return self.cache.incr(key, lease)      # the common case: one round trip
        except ValueError:                          # the window's first request (no counter yet)
            pass
        # Kept a little beyond the window, so a counter never expires while its window is open.
        if self.cache.add(key, lease, self.duration + 1):
            return lease
        try:
            return self.cache.incr(key, lease)      # another worker started the window meanwhile
        except ValueError:
            return None

    def wait(self) -> float:
        return self.retry_after


class AnonThrottle(_CountingThrottle, AnonRateThrottle):
    pass


class UserThrottle(_CountingThrottle, UserRateThrottle):
    pass


class AddressThrottle(_CountingThrottle, SimpleRateThrottle):
    """A rate per client address (get_ident: REMOTE_ADDR, or the address the nearest trusted proxy
    appended), whoever the request's user is."""

    def __init__(self, scope: str):
        self.scope = scope
        super().__init__()

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


def throttled_page(view):
    """The page view, behind the `pages` rate of its client's address: beyond it, 429 with Retry-After."""

    @functools.wraps(view)
    def page(request, *args, **kwargs):
        throttle = AddressThrottle("pages")
        if not throttle.allow_request(request, None):
            seconds = max(1, math.ceil(throttle.wait()))
            response = HttpResponse(f"Too many requests from your address: try again in {seconds} seconds.\n",
                                    status=429, content_type="text/plain; charset=utf-8")
            response["Retry-After"] = str(seconds)
            return response
        return view(request, *args, **kwargs)

    return page
