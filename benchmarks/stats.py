"""Timing helpers shared by the benchmark steps.

No engine import at module level: ``benchmarks.ab`` runs these against older
revisions of ``osmia`` too.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

# Not timed: the first tickets and extractions after start-up warm the caches.
QUERY_WARMUP = 20
EXTRACTION_WARMUP = 10


def pct(values: list[float], q: float) -> float:
    """The q-quantile (nearest rank) of ``values``."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered) + 0.5) - 1))]


def summary_ms(values: list[float]) -> dict[str, float]:
    """p50/p95/p99/max of durations given in seconds, in milliseconds."""
    ms = [v * 1000.0 for v in values]
    return {
        "n": len(ms),
        "p50": pct(ms, 0.5),
        "p95": pct(ms, 0.95),
        "p99": pct(ms, 0.99),
        "max": max(ms or [0]),
    }


async def timed_extractions(
    memory: Any, runs: Iterable[tuple[dict[str, Any], float]], clock: Any, maintenance_seconds: float
) -> tuple[list[float], list[float]]:
    """Ingest ``runs`` as the operator would, returning extraction and maintenance durations (s).

    The clock follows each run's finish time; ``memory.maintain()`` (when this
    engine has it) runs between extractions whenever ``maintenance_seconds`` of
    that simulated clock have passed, and is timed apart from them.
    """
    from osmia.taskrun import parse_taskrun

    maintain = getattr(memory, "maintain", None)
    extractions: list[float] = []
    upkeep: list[float] = []
    maintained_at = clock.now
    for doc, at in runs:
        clock.now = at
        if maintain is not None and at - maintained_at >= maintenance_seconds:
            started = time.perf_counter()
            await maintain()
            upkeep.append(time.perf_counter() - started)
            maintained_at = at
        run = parse_taskrun(doc)
        started = time.perf_counter()
        await memory.ingest(run, finished_at=at)
        extractions.append(time.perf_counter() - started)
    return extractions, upkeep
