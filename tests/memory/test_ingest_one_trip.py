"""An extraction runs on the connection's thread in one trip, with the statements it always ran.

``Memory.ingest`` hands its whole transaction to aiosqlite's worker thread at once
(``osmia/memory/store/one_trip.py``). Checked on a real SQLite file: one trip per extraction, the
same statements in the same order as the statement-by-statement path, errors and misuse that roll
the transaction back, and an extraction right after every other operation of the facade (a
statement another operation left pending must not block the extraction's ``COMMIT``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine
from pathlib import Path
from typing import Any, TypeVar

import pytest

from benchmarks.profile import TripCounter
from osmia.memory import service
from osmia.memory.service import Memory, MemorySettings
from osmia.memory.store import Store
from osmia.memory.store.one_trip import in_one_trip
from tests.memory.conftest import DAY, Clock, make_run

T = TypeVar("T")
S = TypeVar("S", bound=Store)


def _runs(prefix: str, count: int) -> list[Any]:
    return [
        make_run(
            f"{prefix}-{i}",
            success=i % 3 != 0,
            tests_failed=("TestRefund",) if i % 3 == 0 else (),
            learnings=("Run `make generate` before building", "The cache needs a warm-up")[: i % 3],
            files=("internal/cache/lru.go",),
            attempts=("codex", "claude-code") if i % 4 == 0 else (),
        )
        for i in range(count)
    ]


async def _statements(memory: Memory, runs: list[Any], clock: Clock) -> tuple[list[int], list[str]]:
    trips, statements = [], []
    async with TripCounter(memory._store._conn) as counter:
        for run in runs:
            clock.advance(DAY / 4)
            counter.reset()
            result = await memory.ingest(run)
            assert result.state == "done", result
            trips.append(counter.trips)
            statements.extend(counter.statements)
    return trips, statements


async def _step_by_step(store: S, work: Callable[[S], Coroutine[Any, Any, T]]) -> T:
    return await work(store)


async def test_an_extraction_is_one_trip_with_the_statements_it_always_ran(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runs = _runs("r", 12)
    clock = Clock()
    memory = await Memory.open(MemorySettings(store_path=tmp_path / "one.db"), clock=clock)
    try:
        trips, statements = await _statements(memory, runs, clock)
        one = await memory.export()
    finally:
        await memory.close()
    assert trips == [1] * len(runs)
    assert statements[0] == "BEGIN IMMEDIATE" and statements[-1] == "COMMIT"

    monkeypatch.setattr(service, "in_one_trip", _step_by_step)
    clock = Clock()
    memory = await Memory.open(MemorySettings(store_path=tmp_path / "many.db"), clock=clock)
    try:
        many_trips, many_statements = await _statements(memory, runs, clock)
        many = await memory.export()
    finally:
        await memory.close()
    assert min(many_trips) >= 10  # what one trip replaces
    assert statements == many_statements
    assert one == many


async def test_work_that_awaits_something_else_is_refused_and_rolled_back(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "memory.db")
    try:

        async def work(direct: Store) -> None:
            async with direct.transaction():
                await direct.set_meta("written", "yes")
                await asyncio.sleep(0)  # not the store: would suspend on the connection's thread

        with pytest.raises(RuntimeError, match="awaited something other than its store"):
            await in_one_trip(store, work)
        assert await store.get_meta("written") is None
        async with store.transaction():  # the connection is usable, no transaction left open
            await store.set_meta("after", "yes")
        assert await store.get_meta("after") == "yes"
    finally:
        await store.close()


async def test_an_error_inside_reaches_the_caller_and_rolls_back(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "memory.db")
    try:

        async def work(direct: Store) -> None:
            async with direct.transaction():
                await direct.set_meta("written", "yes")
                raise ValueError("bad run")

        with pytest.raises(ValueError, match="bad run"):
            await in_one_trip(store, work)
        assert await store.get_meta("written") is None
        assert await in_one_trip(store, lambda direct: direct.get_meta("missing")) is None
    finally:
        await store.close()


async def test_a_read_inside_the_work_sees_its_own_uncommitted_writes(tmp_path: Path) -> None:
    """``Store.read`` inside the work runs on the work's connection and transaction, not on a
    read-only reader of its own (which would not see what the transaction wrote so far)."""
    store = await Store.open(tmp_path / "memory.db")
    try:
        # No reader opened yet: the work's copy of the store must not open one on its thread.

        async def work(direct: Store) -> str | None:
            async with direct.transaction():
                await direct.set_meta("written", "yes")
                row = await direct.read(
                    lambda db: db.execute("SELECT value FROM meta WHERE key = 'written'").fetchone()
                )
                return None if row is None else str(row[0])

        assert await in_one_trip(store, work) == "yes"
    finally:
        await store.close()


OPERATIONS: dict[str, Callable[[Memory, Any], Awaitable[object]]] = {
    "maintain": lambda m, _run: m.maintain(),
    "decay": lambda m, _run: m.decay(cycles=1),
    "context": lambda m, run: m.context(run),
    "explain": lambda m, run: m.explain(run),
    "status": lambda m, _run: m.status(),
    "search": lambda m, _run: m.search("cache"),
    "export": lambda m, _run: m.export(),
    "next_decay_at": lambda m, _run: m.next_decay_at(),
    "forget_run": lambda m, _run: m.forget_run("agents/w-0"),
}


@pytest.mark.parametrize("operation", sorted(OPERATIONS))
async def test_an_extraction_follows_every_other_operation(tmp_path: Path, operation: str) -> None:
    clock = Clock()
    memory = await Memory.open(MemorySettings(store_path=tmp_path / "memory.db"), clock=clock)
    try:
        for run in _runs("w", 4):
            await memory.ingest(run)
        clock.advance(DAY)
        await OPERATIONS[operation](memory, make_run("next", finished=False))
        result = await memory.ingest(make_run("after", learnings=("The cache needs a warm-up",)))
        assert result.state == "done", result
    finally:
        await memory.close()
