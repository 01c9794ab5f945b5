"""Decay and prune, persisted: confidence fades every interval; weak nodes go.

Cycles are counted from the stored ``last_decay_at`` boundary, so a restart
applies the cycles missed during downtime exactly once, and a crash inside a
pass rolls the whole pass back.
"""

from __future__ import annotations

import math
import time

from osmia.memory.store import Store
from osmia.memory.types import DecayResult

LAST_DECAY_KEY = "last_decay_at"


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


async def decay_due(
    store: Store, now: float, interval_seconds: float, threshold: float
) -> tuple[DecayResult, list[str], float]:
    """Apply every cycle due at ``now`` and prune, in one transaction.

    Returns the result, the pruned ids and the new boundary.
    """
    started = time.perf_counter()
    async with store.transaction():
        # The boundary is read inside the write transaction: the operator and
        # `osmia memory decay` may race, and the same cycles must apply once.
        stored = await store.get_meta(LAST_DECAY_KEY)
        last = now if stored is None else float(stored)
        cycles = cycles_due(last, now, interval_seconds)
        boundary = last + cycles * interval_seconds
        pruned = await store.apply_decay(cycles, threshold)
        if stored is None or cycles:
            await store.set_meta(LAST_DECAY_KEY, repr(boundary))
    remaining = await store.count("nodes")
    return DecayResult(cycles, len(pruned), remaining, time.perf_counter() - started), pruned, boundary


async def decay_now(store: Store, cycles: int, threshold: float) -> tuple[DecayResult, list[str]]:
    """Apply ``cycles`` extra cycles and prune now (admin), leaving the schedule untouched."""
    started = time.perf_counter()
    async with store.transaction():
        pruned = await store.apply_decay(cycles, threshold)
    remaining = await store.count("nodes")
    return DecayResult(cycles, len(pruned), remaining, time.perf_counter() - started), pruned
