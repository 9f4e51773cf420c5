"""Rate limits that read their rates when asked, so a changed setting applies without a restart
(DRF's own classes copy the rates once, at import).

A rate is parsed by the same rule settings apply at start-up (pith.env.parse_rate: N/second|minute|
hour|day), not DRF's, which reads only the period's first letter. Clients are identified by
REMOTE_ADDR, or behind REST_FRAMEWORK["NUM_PROXIES"] (TRUSTED_PROXIES) proxies by the address the
nearest proxy appended to X-Forwarded-For: never by what a client writes there itself."""
from rest_framework.settings import api_settings
from rest_framework.throttling import AnonRateThrottle, UserRateThrottle

from pith.env import parse_rate


class _RatesWhenAsked:
    def get_rate(self):
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)

    def parse_rate(self, rate):
        return (None, None) if rate is None else parse_rate(rate)


class AnonThrottle(_RatesWhenAsked, AnonRateThrottle):
    pass


class UserThrottle(_RatesWhenAsked, UserRateThrottle):
    pass
