"""Freezing the warmed-up heap of a server process, so that full garbage collections stop pausing requests.

Measured in process on the demo store (bench/gc_pauses.py): a full (generation 2) collection walks
every object alive in the process, about 120,000 once the app has served its first requests (its
modules, URL patterns, compiled templates, serializer fields, caches), and takes tens of
milliseconds. It comes every few thousand requests, and the request it lands on is the slowest of
its list by far: the p99 spikes of bench/api.py. Freezing when the app loads is too early: the
first requests create some 40,000 more long-lived objects (lazy imports, templates compiled on
first use), and those kept the pauses. So each process counts its requests and, after the first
`GC_FREEZE_AFTER_REQUESTS`, collects once and moves everything alive to the permanent generation
(`gc.freeze()`); later collections walk only what requests created since. Objects frozen are
never freed, which is what long-lived objects are anyway; garbage made later is collected as before.
"""
import gc
import threading

from django.core.signals import request_finished

_lock = threading.Lock()
_state = {"served": 0, "after": 0, "frozen": None}


def freeze_after(requests: int) -> None:
    """Freeze this process's heap once, after `requests` requests have finished (0: never)."""
    _state.update(served=0, after=requests, frozen=None)
    request_finished.disconnect(_count, dispatch_uid=__name__)
    if requests > 0:
        # After the response is sent (request_finished fires as WSGI closes it), so no client waits.
        request_finished.connect(_count, dispatch_uid=__name__, weak=False)


def frozen_objects() -> int | None:
    """How many objects the freeze moved to the permanent generation; None before it ran."""
    return _state["frozen"]


def _count(sender, **kwargs) -> None:
    with _lock:
        _state["served"] += 1
        if _state["served"] < _state["after"] or _state["frozen"] is not None:
            return
        gc.collect()            # what is garbage now is not frozen with the rest
        gc.freeze()
        _state["frozen"] = gc.get_freeze_count()
    request_finished.disconnect(_count, dispatch_uid=__name__)
