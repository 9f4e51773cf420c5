"""The server process freezes its warmed-up heap once (pith/heap.py), so full collections stay short."""
import gc

import pytest

from pith.heap import freeze_after, frozen_objects


@pytest.fixture
def heap():
    yield
    gc.unfreeze()           # the rest of the suite runs with a normal heap
    freeze_after(0)


def test_the_heap_is_frozen_once_after_the_warm_up_requests(client, db, heap):
    freeze_after(3)
    client.get("/evidence")
    client.get("/evidence")
    assert frozen_objects() is None and gc.get_freeze_count() == 0
    client.get("/evidence")
    frozen = frozen_objects()
    # (Some frozen objects are freed later by reference counting, which the count follows.)
    assert frozen is not None and frozen > 10_000 and gc.get_freeze_count() > 10_000
    client.get("/evidence")
    assert frozen_objects() == frozen          # once: later requests' objects are collected as before


def test_zero_never_freezes(client, db, heap):
    freeze_after(0)
    for _ in range(3):
        client.get("/evidence")
    assert frozen_objects() is None and gc.get_freeze_count() == 0


def test_the_server_entry_point_installs_it_from_the_setting():
    from django.conf import settings as live

    assert live.GC_FREEZE_AFTER_REQUESTS == 500        # the default; PITH_GC_FREEZE_AFTER_REQUESTS sets it
    import pith.wsgi  # noqa: F401 - installs it as gunicorn would
    from pith import heap as module

    assert module._state["after"] == 500
    freeze_after(0)
