"""Decay and prune, persisted: confidence fades every interval; weak nodes go.

A decay pass does not touch confidences: it advances the store's decay epoch
(reads compute ``c × (1 − rate) ^ (epoch − stamp)``, osmia/memory/fading.py)
and deletes the nodes whose prune epoch, known since they were last written,
has come. Cycles are counted from the stored ``last_decay_at`` boundary, so a
restart applies the cycles missed during downtime exactly once, in one step,
and a crash inside a pass rolls the whole pass back.

When the prune threshold differs from the one the store's prune epochs were
computed with (a configuration change, or a store migrated from schema v5),
every prune epoch is recomputed first, in short transactions
(:func:`reconcile_threshold`).
"""

from __future__ import annotations

import asyncio
import math
import time

from osmia.memory.store import Store
from osmia.memory.store.errors import StoreError
from osmia.memory.types import DecayResult

LAST_DECAY_KEY = "last_decay_at"
# The earliest decay clock Osmia writes (2000-01-01T00:00Z; import checks it too): a clock before it
# is an unset or damaged value (0, -1, …), and counting the cycles since then prunes the whole graph.
EARLIEST_DECAY_CLOCK = 946_684_800.0

# A prune transaction deletes at most PRUNE_BATCH nodes, PRUNE_CHUNK per statement, and stops
# taking chunks once it has held the write lock for PRUNE_BUDGET_SECONDS: each node takes its
# edges, FTS rows and provenance with it, and what that costs depends on the machine and its
# load (0.2-10 ms a node measured), so the bound is on time, not only on count. The budget is
# checked between chunks, so a chunk is what can overrun it: at 1M nodes, chunks of 10 held the
# lock up to 101 ms (a fact observed by thousands of runs takes its provenance with it), chunks
# of 2 at most 36 ms, for a pass 1.4x longer in all (docs/performance.md §10b). A budget of
# 20 ms still let a transaction reach 54-69 ms there (a slow chunk after 20 ms of fast ones);
# 10 ms kept every one under 40 ms, the pass about as long (docs/performance.md §20).
PRUNE_BATCH = 100
PRUNE_CHUNK = 2
PRUNE_BUDGET_SECONDS = 0.01
# A node whose provenance is long (a fact hundreds of runs observed) costs a budget by itself:
# at 1M nodes one with 200+ provenance rows took 22.6 ms to delete (median; max 39), so after
# 10 ms of light ones it made a transaction of ~50 ms.
# Nodes are taken while their provenance rows add up to at most PRUNE_HEAVY_EVENTS; a heavier
# one starts a transaction of its own (docs/performance.md §20).
PRUNE_HEAVY_EVENTS = 300
# Between two prune transactions the pass waits as long as the last one held the lock (at least
# PRUNE_PAUSE_MIN): another process's writer sleeps in SQLite's busy handler (1 ms growing to
# 100 ms between tries) and must find the lock free when it wakes, not only between two
# back-to-back transactions. At most half the time is spent holding the lock.
PRUNE_PAUSE_MIN = 0.005
PRUNE_PAUSE_MAX = 0.05


def cycles_due(last_decay_at: float, now: float, interval_seconds: float) -> int:
    """Whole intervals elapsed since the last applied boundary (never negative)."""
    if now <= last_decay_at:
        return 0
    return math.floor((now - last_decay_at) / interval_seconds)


def stored_clock(store: Store, value: str) -> float:
    """The stored decay boundary ``value``; :class:`StoreError` (nothing changed) when it is no time
    Osmia writes: decay would apply every cycle since 1970 (or forever) and prune every node."""
    try:
        clock = float(value)
    except ValueError:
        clock = math.nan
    if not math.isfinite(clock) or clock < EARLIEST_DECAY_CLOCK:
        raise StoreError(
            f"memory database {store.path}: meta.{LAST_DECAY_KEY} is {value[:40]!r}, no time Osmia writes "
            "(before 2000-01-01); decaying against it would prune the whole graph, so nothing was done "
            f"— delete that meta row to start the clock now, or restore a backup"
        )
    return clock


async def last_decay_at(store: Store, now: float) -> float:
    """The stored boundary (checked: :func:`stored_clock`); a new database starts its clock now."""
    value = await store.get_meta(LAST_DECAY_KEY)
    if value is None:
        async with store.transaction():
            await store.set_meta(LAST_DECAY_KEY, repr(now))
        return now
    return stored_clock(store, value)


async def clock_or_now(store: Store, now: float) -> float:
    """The stored boundary, or ``now`` for a database whose clock has not started, written nowhere:
    what a reader (``status``, the dashboard) shows; only a decay starts the clock."""
    value = await store.get_meta(LAST_DECAY_KEY)
    return now if value is None else stored_clock(store, value)


async def reconcile_threshold(store: Store, threshold: float) -> int:
    """Make every node's prune epoch refer to ``threshold``; returns the transactions it took (0: none).

    Each batch is its own short transaction, so other writers never wait long; a crash resumes
    where it stopped (the progress marker is in meta) and no pass prunes until it is done.
    """
    steps = 0
    async with store.transaction():
        _epoch, recorded = await store.decay_clock()
        if recorded != float(threshold):
            await store.set_prune_threshold(threshold)
        pending = await store.prune_pending()
    while pending:
        held = time.perf_counter()
        async with store.transaction():
            pending = not await store.recompute_prune_cycles()
        steps += 1
        if pending:  # paced like pruning: another process's writer finds the lock free
            await asyncio.sleep(prune_pause(time.perf_counter() - held))
    return steps


async def decay_due(
    store: Store, now: float, interval_seconds: float, threshold: float
) -> tuple[DecayResult, float]:
    """Apply every cycle due at ``now``: one short transaction (the boundary and the epoch).

    Pruning follows with :func:`prune_batch`, in transactions bounded in nodes and in time and
    paced by :func:`prune_pause`, so no writer waits behind a large prune; a crash in between
    leaves due nodes that the next pass deletes. Returns the result (``pruned`` and
    ``remaining`` left 0 for the caller) and the new boundary.
    """
    started = time.perf_counter()
    await reconcile_threshold(store, threshold)
    async with store.transaction():
        # The boundary is read inside the write transaction: the operator and
        # `osmia memory decay` may race, and the same cycles must apply once.
        stored = await store.get_meta(LAST_DECAY_KEY)
        last = now if stored is None else stored_clock(store, stored)
        cycles = cycles_due(last, now, interval_seconds)
        boundary = last + cycles * interval_seconds
        await store.advance_epoch(cycles)
        if stored is None or cycles:
            await store.set_meta(LAST_DECAY_KEY, repr(boundary))
    return DecayResult(cycles, 0, 0, time.perf_counter() - started), boundary


async def decay_now(store: Store, cycles: int, threshold: float) -> DecayResult:
    """Apply ``cycles`` extra cycles now (admin), leaving the schedule untouched; prune follows."""
    started = time.perf_counter()
    await reconcile_threshold(store, threshold)
    async with store.transaction():
        await store.advance_epoch(cycles)
    return DecayResult(cycles, 0, 0, time.perf_counter() - started)


async def prune_batch(
    store: Store, batch: int | None = None, budget: float | None = None
) -> tuple[list[tuple[str, str]], bool]:
    """Delete nodes whose prune epoch has come, in one short transaction; their ``(id, type)`` and
    whether more may be due.

    At most ``batch`` (:data:`PRUNE_BATCH`) nodes, taken :data:`PRUNE_CHUNK` at a time until the
    transaction has lasted ``budget`` (:data:`PRUNE_BUDGET_SECONDS`); a node with more than
    :data:`PRUNE_HEAVY_EVENTS` provenance rows (with the rest of its chunk) is left for the next
    transaction, which it opens. Nothing is pruned while another process is still recomputing
    prune epochs.
    """
    limit = batch or PRUNE_BATCH
    budget = PRUNE_BUDGET_SECONDS if budget is None else budget
    pruned: list[tuple[str, str]] = []
    async with store.transaction():
        started = time.perf_counter()
        if await store.prune_pending():
            return [], False
        epoch, _threshold = await store.decay_clock()
        while len(pruned) < limit:
            want = min(PRUNE_CHUNK, limit - len(pruned))
            due = await store.due_nodes(epoch, want)
            take: list[tuple[int, str, str]] = []
            events = 0
            for seq, node_id, node_type, rows in due:
                if (pruned or take) and events + rows > PRUNE_HEAVY_EVENTS:
                    break  # it opens the next transaction, not this one's last
                take.append((seq, node_id, node_type))
                events += rows
            await store.delete_nodes([seq for seq, _id, _type in take])
            pruned.extend((node_id, node_type) for _seq, node_id, node_type in take)
            if len(take) < len(due):
                return pruned, True
            if len(due) < want:
                return pruned, False
            if time.perf_counter() - started >= budget:
                break
    return pruned, True


def prune_pause(held_seconds: float) -> float:
    """How long to leave the write lock free after a prune transaction that held it this long."""
    return min(PRUNE_PAUSE_MAX, max(PRUNE_PAUSE_MIN, held_seconds))
