"""Latency summaries and warm-up sizes shared by the benchmark steps (no engine imports)."""

from __future__ import annotations

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
