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

import math
import time

from osmia.memory.store import Store
from osmia.memory.types import DecayResult

LAST_DECAY_KEY = "last_decay_at"
# Nodes deleted per prune transaction: each takes its edges, FTS rows and provenance with it
# (~0.3 ms a node on the benchmark machine), so a batch holds the write lock for tens of ms.
PRUNE_BATCH = 100


def cycles_due(last_decay_at: float, now: float, interval_seconds: float) -> int:
    """Whole intervals elapsed since the last applied boundary (never negative)."""
    if now <= last_decay_at:
        return 0
    return math.floor((now - last_decay_at) / interval_seconds)


async def last_decay_at(store: Store, now: float) -> float:
    """The stored boundary; a new database starts its clock now."""
    value = await store.get_meta(LAST_DECAY_KEY)
    if value is None:
        async with store.transaction():
            await store.set_meta(LAST_DECAY_KEY, repr(now))
        return now
    return float(value)


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
        async with store.transaction():
            pending = not await store.recompute_prune_cycles()
        steps += 1
    return steps


async def decay_due(
    store: Store, now: float, interval_seconds: float, threshold: float
) -> tuple[DecayResult, float]:
    """Apply every cycle due at ``now``: one short transaction (the boundary and the epoch).

    Pruning follows with :func:`prune_batch`, in transactions of :data:`PRUNE_BATCH` nodes, so
    no writer waits behind a large prune; a crash in between leaves due nodes that the next pass
    deletes. Returns the result (``pruned`` and ``remaining`` left 0 for the caller) and the
    new boundary.
    """
    started = time.perf_counter()
    await reconcile_threshold(store, threshold)
    async with store.transaction():
        # The boundary is read inside the write transaction: the operator and
        # `osmia memory decay` may race, and the same cycles must apply once.
        stored = await store.get_meta(LAST_DECAY_KEY)
        last = now if stored is None else float(stored)
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


async def prune_batch(store: Store, batch: int | None = None) -> list[tuple[str, str]]:
    """Delete up to ``batch`` nodes whose prune epoch has come, in one transaction; their ``(id, type)``.

    Fewer than ``batch`` means nothing is left to prune (or another process is still
    recomputing prune epochs: nothing is pruned until it is done).
    """
    async with store.transaction():
        if await store.prune_pending():
            return []
        epoch, _threshold = await store.decay_clock()
        return await store.prune_due(epoch, batch or PRUNE_BATCH)
