"""Decay and prune: persisted, catch-up exactly once, prune removes edges."""

from __future__ import annotations

import asyncio

import pytest

from osmia.memory.decay import LAST_DECAY_KEY, cycles_due
from osmia.memory.service import Memory, MemorySettings
from tests.memory.conftest import DAY, Clock, make_run


async def confidences(memory: Memory) -> dict[str, float]:
    return {n["id"]: n["confidence"] for n in (await memory.export())["nodes"]}


def test_cycles_due_counts_whole_intervals_only() -> None:
    assert cycles_due(0.0, 0.0, 10.0) == 0
    assert cycles_due(0.0, 9.99, 10.0) == 0
    assert cycles_due(0.0, 10.0, 10.0) == 1
    assert cycles_due(0.0, 35.0, 10.0) == 3
    assert cycles_due(50.0, 10.0, 10.0) == 0


async def test_one_cycle_scales_every_confidence_by_its_decay_rate(memory: Memory) -> None:
    await memory.ingest(make_run("a", success=False, tests_failed=("TestX",)))
    before = {n["id"]: n for n in (await memory.export())["nodes"]}
    result = await memory.decay(cycles=1)
    after = await confidences(memory)
    assert result.cycles == 1
    for node_id, node in before.items():
        assert after[node_id] == pytest.approx(node["confidence"] * (1 - node["decay_rate"]))


async def test_decay_survives_closing_and_reopening(settings: MemorySettings, clock: Clock) -> None:
    mem = await Memory.open(settings, clock=clock, update_gauges=False)
    await mem.ingest(make_run("a", success=False, tests_failed=("TestX",)))
    await mem.decay(cycles=3)
    decayed = await confidences(mem)
    await mem.close()
    reopened = await Memory.open(settings, clock=clock, update_gauges=False)
    try:
        assert await confidences(reopened) == decayed
    finally:
        await reopened.close()


async def test_missed_cycles_are_applied_once_after_downtime(settings: MemorySettings, clock: Clock) -> None:
    mem = await Memory.open(settings, clock=clock, update_gauges=False)
    await mem.ingest(make_run("a", success=False, tests_failed=("TestX",)))
    fresh = {n["id"]: n for n in (await mem.export())["nodes"]}
    await mem.close()

    clock.advance(3.5 * DAY)  # the operator was down for three and a half intervals
    first = await Memory.open(settings, clock=clock, update_gauges=False)
    after_first = await confidences(first)
    await first.close()
    for node_id, node in fresh.items():
        assert after_first[node_id] == pytest.approx(node["confidence"] * (1 - node["decay_rate"]) ** 3)

    second = await Memory.open(settings, clock=clock, update_gauges=False)  # a restart right after
    try:
        assert await confidences(second) == after_first
        assert (await second.decay()).cycles == 0
        clock.advance(0.5 * DAY)  # the half interval left over is not lost
        assert (await second.decay()).cycles == 1
    finally:
        await second.close()


async def test_prune_removes_weak_nodes_with_their_edges(memory: Memory) -> None:
    await memory.ingest(
        make_run("a", success=False, tests_failed=("TestX",), learnings=("Use the race detector",))
    )
    status = await memory.status()
    assert status["edges"] > 0
    result = await memory.decay(cycles=300)  # learnings lose 1 % a cycle: 0.4 × 0.99^300 < 0.05
    status = await memory.status()
    assert result.pruned > 0
    assert (status["nodes"], status["edges"]) == (0, 0)
    assert memory.graph.node_count == 0
    assert await memory.search("race detector") == []


async def test_prune_keeps_strong_nodes_and_their_edges(memory: Memory) -> None:
    await memory.ingest(make_run("a", success=False, tests_failed=("TestX",)))
    status = await memory.status()
    result = await memory.decay(cycles=0)
    assert result.pruned == 0
    assert (await memory.status())["edges"] == status["edges"]


async def test_two_processes_applying_due_cycles_at_once_apply_them_once(
    settings: MemorySettings, clock: Clock
) -> None:
    """The operator and `osmia memory decay` may race; the boundary is read under the write lock."""
    mem = await Memory.open(settings, clock=clock, update_gauges=False)
    await mem.ingest(make_run("a", success=False, tests_failed=("TestX",)))
    before = {n["id"]: n for n in (await mem.export())["nodes"]}
    await mem.close()
    clock.advance(1.5 * DAY)
    first = await Memory.open(settings, clock=clock, catch_up=False, update_gauges=False)
    second = await Memory.open(settings, clock=clock, catch_up=False, update_gauges=False)
    try:
        results = await asyncio.gather(first.decay(), second.decay())
        after = await confidences(first)
    finally:
        await first.close()
        await second.close()
    assert sorted(r.cycles for r in results) == [0, 1]
    for node_id, node in before.items():
        assert after[node_id] == pytest.approx(node["confidence"] * (1 - node["decay_rate"]))


async def test_asking_when_the_next_cycle_is_due_writes_nothing(
    settings: MemorySettings, clock: Clock
) -> None:
    """A reader (the dashboard, ``status``, the readiness probe) on a store whose decay clock has not
    started sees its first cycle an interval from now and leaves the file as it is; a decay starts it."""
    mem = await Memory.open(settings, clock=clock, update_gauges=False, catch_up=False)
    try:
        due = await mem.next_decay_at()
        assert due == clock() + settings.decay_interval_seconds
        assert await mem._store.get_meta(LAST_DECAY_KEY) is None
        await mem.decay()
        assert float(await mem._store.get_meta(LAST_DECAY_KEY) or "nan") == clock()
    finally:
        await mem.close()
