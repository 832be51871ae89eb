"""``feeds.base.paused_gc``: no cyclic collection inside, and what the block allocated is not left
for the first collection after it to traverse (the oldest generation holds it, ``gc.freeze`` /
``gc.unfreeze``), unless a caller froze objects: those stay frozen."""
from __future__ import annotations

import gc
import weakref

import pytest

from inspector.feeds.base import paused_gc


def _in_generation(obj: object, generation: int) -> bool:
    return any(o is obj for o in gc.get_objects(generation=generation))


@pytest.fixture
def nothing_frozen():
    if gc.get_freeze_count():
        pytest.skip("objects frozen by another part of this process")
    yield
    gc.unfreeze()


def test_the_collector_is_off_inside_and_on_after(nothing_frozen):
    with paused_gc():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_what_the_block_allocated_goes_to_the_oldest_generation(nothing_frozen):
    with paused_gc():
        kept = [[] for _ in range(20_000)]  # far past the youngest generation's threshold
    assert not _in_generation(kept, 0) and not _in_generation(kept, 1)
    assert _in_generation(kept, 2)
    assert gc.get_freeze_count() == 0


class _Node:
    pass


def test_a_cycle_made_inside_is_still_collected(nothing_frozen):
    with paused_gc():
        node = _Node()
        node.self = node  # type: ignore[attr-defined]
        ref = weakref.ref(node)
        del node
    assert ref() is not None  # reference counting cannot free a cycle
    gc.collect()
    assert ref() is None


def test_what_a_caller_froze_stays_frozen(nothing_frozen):
    frozen = [object()]
    gc.freeze()
    count = gc.get_freeze_count()
    with paused_gc():
        _ = [[] for _ in range(100)]
    assert gc.get_freeze_count() == count
    assert not any(_in_generation(frozen, g) for g in range(3))


def test_a_collector_that_was_off_stays_off(nothing_frozen):
    gc.disable()
    try:
        with paused_gc():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
