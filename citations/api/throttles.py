"""Rate limits: a counter per client and window, shared by every process through the cache.

DRF's own throttles keep each client's request times as one list in the cache, read and written
whole by every request: a lost update whenever two workers serve one client at once (the limit is
then not kept), and a list as long as the rate (a request at 1200/minute pickled 1200 floats there
and back; a bench's unlimited rate, tens of thousands). Here a request is one atomic increment of the
client's counter for the current window (`cache.incr`: Redis INCR), so N/minute admits N requests
per clock minute however many workers share the client; the window's end is the Retry-After.

Rates are read when asked, so a changed setting applies without a restart (DRF's classes copy them
once, at import), and parsed by the rule settings apply at start-up (pith.env.parse_rate: N/second|
minute|hour|day), not DRF's, which reads only the period's first letter. Clients are identified by
REMOTE_ADDR, or behind REST_FRAMEWORK["NUM_PROXIES"] (TRUSTED_PROXIES) proxies by the address the
nearest proxy appended to X-Forwarded-For: never by what a client writes there itself. With the
cache unreachable, requests are let through (records and pages are still served; settings.CACHES).
"""
import logging

from rest_framework.settings import api_settings
from rest_framework.throttling import AnonRateThrottle, UserRateThrottle

from pith.env import parse_rate

log = logging.getLogger(__name__)


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
        try:
            count = self._count(f"{key}:{window}")
        except Exception as error:  # noqa: BLE001 - any cache failure: let the request through
            log.warning("throttle cache unavailable (%s: %s): request let through", type(error).__name__, error)
            return True
        return count is None or count <= self.num_requests

    def _count(self, key: str) -> int | None:
        """This request's number in the window (None: the cache did not answer)."""
        try:
            return self.cache.incr(key)             # the common case: one round trip
        except ValueError:                          # the window's first request (no counter yet)
            pass
        # Kept a little beyond the window, so a counter never expires while its window is open.
        if self.cache.add(key, 1, self.duration + 1):
            return 1
        try:
            return self.cache.incr(key)             # another worker started the window meanwhile
        except ValueError:
            return None

    def wait(self) -> float:
        return self.retry_after


class AnonThrottle(_CountingThrottle, AnonRateThrottle):
    pass


class UserThrottle(_CountingThrottle, UserRateThrottle):
    pass
