"""Wall-clock time per phase of an operation, and the table the phase profiles print.

``benchmarks/run --profile phases`` (queries) and ``--profile extraction`` wrap the functions of
each phase with :func:`timed`, which adds the time spent in them to a per-operation dict: no
profiler overhead, so the tail is the real one. :func:`table` prints mean/p50/p95/p99 per phase
and the phases of the slowest operations, to tell a tail's cause from the median's.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any


def timed(fn: Callable[..., Any], label: str, current: dict[str, float]) -> Callable[..., Any]:
    """``fn`` (a function or a coroutine function) adding its time to ``current[label]``."""
    if asyncio.iscoroutinefunction(fn):

        async def timed_async(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return await fn(*args, **kwargs)
            finally:
                current[label] = current.get(label, 0.0) + time.perf_counter() - started

        return timed_async

    def timed_sync(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            current[label] = current.get(label, 0.0) + time.perf_counter() - started

    return timed_sync


def table(rows: list[dict[str, float]], labels: list[str], *, title: str, what: str, width: int) -> list[str]:
    """Mean/p50/p95/p99 (ms) of each phase over ``rows``, then the five slowest by ``labels[0]``."""
    pad = " " * max(1, width - len(f"{title}: n={len(rows)} (ms)") + 3)
    lines = [f"{title}: n={len(rows)} (ms){pad}   mean     p50     p95     p99"]
    for label in labels:
        values = sorted(1000 * r.get(label, 0.0) for r in rows)
        if values:
            p50, p95, p99 = (values[min(len(values) - 1, int(q * len(values)))] for q in (0.5, 0.95, 0.99))
            lines.append(
                f"  {label:{width}} {sum(values) / len(values):7.2f} {p50:7.2f} {p95:7.2f} {p99:7.2f}"
            )
    lines.append(f"the five slowest {what}, by phase (ms):")
    for r in sorted(rows, key=lambda r: -r[labels[0]])[:5]:
        lines.append("  " + ", ".join(f"{k.strip()} {1000 * r[k]:.1f}" for k in labels if k in r))
    return lines
