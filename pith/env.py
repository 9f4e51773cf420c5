"""Small helpers that read settings from the environment.

A malformed value raises ImproperlyConfigured when settings load, so a typo in
DEBUG, ALLOWED_HOSTS or API_ANON_RATE stops the process at start instead of
surprising later (a bad throttle rate used to pass start-up and then fail every
anonymous API request). Each message is one sentence naming the variable, its
value and what is expected.
"""
import logging
import math
import os
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from urllib.parse import urlsplit

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def refuse(name: str, value: str, expected: str) -> ImproperlyConfigured:
    """The error for a malformed variable: its name, its value and what is expected, in one sentence."""
    return ImproperlyConfigured(f"{name}={value!r} is malformed: expected {expected}.")


def env_str(name: str, default: str | None = None) -> str | None:
    """The variable's value, or the default when it is unset or empty."""
    value = os.environ.get(name)
    return value if value else default


def env_bool(name: str, default: bool) -> bool:
    """A boolean variable: 1/true/yes/on or 0/false/no/off."""
    value = os.environ.get(name)
    if value is None:
        return default
    folded = value.strip().lower()
    if folded in _TRUE:
        return True
    if folded in _FALSE:
        return False
    raise refuse(name, value, "a boolean (1/0, true/false, yes/no, on/off)")


def _bounds(minimum, maximum) -> str:
    if minimum is not None and maximum is not None:
        return f" from {minimum} to {maximum}"
    if minimum is not None:
        return f" >= {minimum}"
    if maximum is not None:
        return f" <= {maximum}"
    return ""


def env_int(name: str, default: int, *, minimum: int | None = None, maximum: int | None = None) -> int:
    """An integer variable, within [minimum, maximum] when those are given."""
    value = os.environ.get(name)
    if not value:
        return default
    expected = f"an integer{_bounds(minimum, maximum)}"
    try:
        number = int(value)
    except ValueError:
        raise refuse(name, value, expected) from None
    if (minimum is not None and number < minimum) or (maximum is not None and number > maximum):
        raise refuse(name, value, expected)
    return number


def env_float(name: str, default: float, *, minimum: float | None = None, maximum: float | None = None) -> float:
    """A finite number variable, within [minimum, maximum] when those are given."""
    value = os.environ.get(name)
    if not value:
        return default
    expected = f"a finite number{_bounds(minimum, maximum)}"
    try:
        number = float(value)
    except ValueError:
        raise refuse(name, value, expected) from None
    if (not math.isfinite(number) or (minimum is not None and number < minimum)
            or (maximum is not None and number > maximum)):
        raise refuse(name, value, expected)
    return number


def env_list(name: str, default: list[str], *, valid: Callable[[str], bool] | None = None,
             expected: str = "") -> list[str]:
    """A comma-separated list; blank items are dropped. With `valid`, every item must pass it
    (`expected` says what an item should look like)."""
    value = os.environ.get(name)
    if value is None:
        return default
    items = [item.strip() for item in value.split(",") if item.strip()]
    if not items:
        raise refuse(name, value, "a comma-separated list naming at least one item")
    if valid is not None:
        for item in items:
            if not valid(item):
                raise ImproperlyConfigured(
                    f"{name}={value!r} is malformed: its item {item!r} is not {expected}.")
    return items


def env_choice(name: str, default: str, choices: Iterable[str]) -> str:
    """One of a fixed set of words, case-insensitively; returned as spelled in `choices`."""
    value = os.environ.get(name)
    if not value:
        return default
    by_fold = {choice.casefold(): choice for choice in choices}
    try:
        return by_fold[value.strip().casefold()]
    except KeyError:
        raise refuse(name, value, "one of " + ", ".join(by_fold.values())) from None


# --- throttle rates -----------------------------------------------------------------------------------
# DRF's own parser reads only the period's first letter (10/fortnight fails at request time, 10/mango is
# a minute) and takes 0 or -5 requests: every request refused. Pith accepts these words only.
_PERIODS = {"s": 1, "sec": 1, "second": 1, "m": 60, "min": 60, "minute": 60,
            "h": 3600, "hour": 3600, "d": 86400, "day": 86400}
_CANONICAL = {1: "second", 60: "minute", 3600: "hour", 86400: "day"}
_RATE = re.compile(r"\s*(\d+)\s*/\s*([a-z]+)\s*", re.IGNORECASE)
RATE_FORMAT = ("N/second, N/minute, N/hour or N/day with N a positive integer "
               "(s/sec, m/min, h and d also name the periods)")


def parse_rate(rate: str) -> tuple[int, int]:
    """(requests, seconds) of a rate such as 120/minute; ValueError when it is not one."""
    match = _RATE.fullmatch(rate)
    if match is None or match.group(2).lower() not in _PERIODS or int(match.group(1)) < 1:
        raise ValueError(f"{rate!r} is not a rate: expected {RATE_FORMAT}")
    return int(match.group(1)), _PERIODS[match.group(2).lower()]


def env_rate(name: str, default: str) -> str:
    """A throttle rate, returned in the form DRF reads (120/minute)."""
    value = os.environ.get(name)
    if not value:
        return default
    try:
        requests, seconds = parse_rate(value)
    except ValueError:
        raise refuse(name, value, RATE_FORMAT) from None
    return f"{requests}/{_CANONICAL[seconds]}"


# --- URLs, hosts, paths -------------------------------------------------------------------------------
def env_url(name: str, schemes: Iterable[str], default: str | None = None) -> str | None:
    """A service URL whose scheme is one of `schemes` and that names a host (unix:// a socket path);
    redis:// and rediss:// paths must be a database number. Unset or empty gives the default."""
    value = os.environ.get(name)
    if not value:
        return default
    schemes = tuple(schemes)
    expected = "a URL with scheme " + ", ".join(f"{scheme}://" for scheme in schemes)
    try:
        parts = urlsplit(value.strip())
        parts.port  # noqa: B018 -- raises ValueError on a port that is not a number
    except ValueError:
        raise refuse(name, value, expected) from None
    scheme = parts.scheme.lower()
    if scheme not in schemes:
        raise refuse(name, value, expected)
    if scheme == "unix":
        if not parts.path or parts.path == "/":
            raise refuse(name, value, "a unix:// URL naming the socket's path, e.g. unix:///run/redis.sock")
    elif not parts.hostname:
        raise refuse(name, value, f"{expected} naming a host, e.g. {scheme}://host:port/")
    database = parts.path.strip("/")
    if scheme in ("redis", "rediss") and database and not database.isdigit():
        raise refuse(name, value, f"a {scheme}:// URL whose path is a database number, e.g. {scheme}://host/0")
    return value.strip()


_LABELS = r"[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*"
_IPV6 = r"\[[0-9a-f:.]+\]"
_HOST_PATTERN = re.compile(rf"\*|\.?{_LABELS}|{_IPV6}", re.IGNORECASE)
_ORIGIN_NETLOC = re.compile(rf"(?:(?:\*\.)?{_LABELS}|{_IPV6})(?::\d{{1,5}})?", re.IGNORECASE)

HOST_FORMAT = ("a host name, an IP address, [an IPv6 address], .domain (it and its subdomains) or *, "
               "with no scheme or port")
ORIGIN_FORMAT = "an origin with a scheme, e.g. https://example.com, https://*.example.com or http://localhost:8000"


def is_host_pattern(item: str) -> bool:
    """An ALLOWED_HOSTS entry Django can match: Django compares the request's host without its
    port, so an entry with a scheme, a port, a path or a *. prefix never matches anything."""
    return _HOST_PATTERN.fullmatch(item) is not None


def is_origin(item: str) -> bool:
    """A CSRF_TRUSTED_ORIGINS entry: scheme://host[:port], nothing after it."""
    try:
        parts = urlsplit(item)
    except ValueError:
        return False
    return (parts.scheme in ("http", "https") and _ORIGIN_NETLOC.fullmatch(parts.netloc) is not None
            and parts.path in ("", "/") and not parts.query and not parts.fragment)


def env_path(name: str, default: str | None = None, *, directory: bool) -> str | None:
    """A filesystem path; refused when something of the other kind (a file where a directory is
    wanted, or a directory where a file is) already sits there. It need not exist yet."""
    value = os.environ.get(name)
    if not value:
        return default
    path = Path(value)
    if "\0" in value or (directory and path.exists() and not path.is_dir()) or (not directory and path.is_dir()):
        raise refuse(name, value, "a directory path" if directory else "a file path, not a directory")
    return value


LOG_LEVELS = tuple(logging.getLevelNamesMapping())   # CRITICAL, FATAL, ERROR, WARN, WARNING, INFO, DEBUG, NOTSET
