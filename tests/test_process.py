"""The operator's process settings."""

from __future__ import annotations

import asyncio
import gc
import itertools
import weakref

import pytest

from osmia import process
from osmia.controller import handlers
from osmia.memory.store import StoreError
from osmia.process import collect_between_work, full_collections_held, settle_heap


def test_settle_heap_moves_start_up_objects_out_of_the_collectors_generations() -> None:
    before = gc.get_freeze_count()
    survivor = [object() for _ in range(10)]
    try:
        settle_heap()
        assert gc.get_freeze_count() >= before + len(survivor)
    finally:
        gc.unfreeze()


class _Cycle:
    """An object that refers to itself: only the cyclic collector frees it."""

    def __init__(self) -> None:
        self.me = self


def test_full_collections_are_held_inside_the_block_and_restored_after_it() -> None:
    before = gc.get_threshold()
    with full_collections_held():
        young, middle, full = gc.get_threshold()
        assert (young, middle) == before[:2]
        assert full > 1_000_000  # a full pass would wait for a million second-generation passes
    assert gc.get_threshold() == before


def test_leaving_the_block_by_an_error_restores_the_automatic_full_collections() -> None:
    before = gc.get_threshold()
    with pytest.raises(RuntimeError), full_collections_held():
        collect_between_work()
        assert gc.get_freeze_count() > 0
        raise RuntimeError("the maintenance loop failed")
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0  # the automatic passes walk what the loop's passes froze


def test_collect_between_work_frees_the_cycles_the_held_passes_left() -> None:
    try:
        with full_collections_held():
            cycle = _Cycle()
            gone = weakref.ref(cycle)
            gc.collect(0)  # the young passes still run; move it out of them, as a long-lived cache entry
            gc.collect(1)
            del cycle
            assert gone() is not None  # no reference count reaches zero in a cycle
            assert collect_between_work() >= 0.0
            assert gone() is None
    finally:
        gc.unfreeze()


def test_survivors_of_a_pass_are_frozen_and_walked_again_at_the_thaw(monkeypatch: pytest.MonkeyPatch) -> None:
    """A cycle that was alive at a pass is frozen: later passes skip it, the thaw pass frees it."""
    monkeypatch.setattr(process, "THAW_EVERY", 3)
    monkeypatch.setattr(process, "_passes", itertools.count(1))
    try:
        with full_collections_held():
            cycle = _Cycle()
            gone = weakref.ref(cycle)
            frozen = gc.get_freeze_count()
            collect_between_work()  # pass 1: the cycle is alive, and frozen with the rest
            assert gc.get_freeze_count() > frozen
            assert all(count == 0 for count in gc.get_count()[1:])  # nothing left in the generations
            del cycle
            collect_between_work()  # pass 2: frozen objects are not walked
            assert gone() is not None
            collect_between_work()  # pass 3 (THAW_EVERY): everything is walked, the cycle freed
            assert gone() is None
            assert gc.get_freeze_count() > 0  # ... and what survives frozen again
    finally:
        gc.unfreeze()


def test_work_done_leaves_its_survivors_frozen_until_the_thaw(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a query put in the caches is frozen once it is answered: the young collections of the
    next one do not walk it; a cycle among it is freed at the thaw pass, not before."""
    monkeypatch.setattr(process, "THAW_EVERY", 2)
    monkeypatch.setattr(process, "_passes", itertools.count(1))
    try:
        with full_collections_held():
            cached = [_Cycle() for _ in range(50)]  # what a query left behind
            gone = weakref.ref(cached[0])
            frozen = gc.get_freeze_count()
            process.settle_after_work()
            assert gc.get_freeze_count() >= frozen + len(cached)
            assert gc.get_count()[1:] == (0, 0)  # nothing left for a young collection to promote
            del cached
            gc.collect(1)  # the young generations do not hold it
            collect_between_work()  # pass 1: frozen objects are not walked
            assert gone() is not None
            collect_between_work()  # pass 2 (THAW_EVERY): the cycle is freed
            assert gone() is None
    finally:
        gc.unfreeze()


def test_work_done_outside_the_held_block_freezes_nothing() -> None:
    """The CLI, or any process without the maintenance loop: no thaw pass would ever come."""
    before = gc.get_freeze_count()
    survivors = [_Cycle() for _ in range(10)]
    process.settle_after_work()
    assert gc.get_freeze_count() == before
    assert len(survivors) == 10


async def test_the_maintenance_loop_holds_full_passes_and_runs_one_after_each_maintenance(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An emulated memory: its second maintenance fails as a locked database would; the pass still runs."""
    passes: list[tuple[int, tuple[int, int, int]]] = []
    calls = 0

    class Memory:
        async def maintain(self) -> None:
            nonlocal calls
            calls += 1
            if calls == 2:
                raise StoreError("database is locked")
            if calls == 3:
                raise asyncio.CancelledError  # the operator's cleanup cancels the loop

    def counted() -> float:
        passes.append((calls, gc.get_threshold()))
        return 0.0

    before = gc.get_threshold()
    monkeypatch.setattr(handlers, "MAINTENANCE_SECONDS", 0.0)
    monkeypatch.setattr(handlers, "collect_between_work", counted)
    with pytest.raises(asyncio.CancelledError):
        await handlers.maintenance_loop(Memory())  # type: ignore[arg-type]
    assert [n for n, _ in passes] == [1, 2, 3]
    assert all(threshold[2] > 1_000_000 for _, threshold in passes)
    assert gc.get_threshold() == before
