"""Stores built by real ingestion: a history through the ``Memory`` facade, decayed as the operator does.

:mod:`benchmarks.replicate` turns such a store into a much larger one with bulk SQL.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.stats import maintained_until_stamped
from benchmarks.workload import T0, GroundTruth, World
from osmia.memory.service import Memory, MemorySettings
from osmia.taskrun import parse_taskrun


@dataclass
class BuildStats:
    """What building a store by real ingestion measured."""

    runs: int = 0
    ingest_seconds: float = 0.0
    parse_seconds: float = 0.0
    latencies: list[float] = field(default_factory=list)
    decay_seconds: list[float] = field(default_factory=list)
    pruned: int = 0


class Clock:
    """A clock the benchmark moves by hand (the simulated time of the history)."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


async def build_store(
    path: Path,
    runs: int,
    seed: int = 7,
    *,
    settings: MemorySettings | None = None,
    progress: Callable[[int], None] | None = None,
) -> tuple[BuildStats, GroundTruth]:
    """Ingest a ``runs``-long history into a new store at ``path`` through ``Memory``.

    The clock follows the runs' finish times; whenever a decay interval has
    passed, ``Memory.decay()`` applies the due cycle, exactly as the operator's
    background task would. Ingest latency excludes generating and parsing the
    runs and the decay passes (both are reported separately).
    """
    settings = settings or MemorySettings(store_path=path)
    world = World(seed)
    clock = Clock(T0)
    memory = await Memory.open(settings, clock=clock, update_gauges=False)
    stats = BuildStats()
    next_decay = T0 + settings.decay_interval_seconds
    perf = time.perf_counter
    try:
        for i, (doc, at) in enumerate(world.runs(runs)):
            clock.now = at
            if at >= next_decay:
                started = perf()
                result = await memory.decay()
                stats.decay_seconds.append(perf() - started)
                stats.pruned += result.pruned
                # What the operator's maintenance loop does meanwhile (merges, checkpoints, the
                # stamps of the lines written without one), here once a simulated day, until it has
                # caught up (its passes every 15 s keep up with any real rate); not timed.
                await memory.maintain()
                await maintained_until_stamped(memory)
                while next_decay <= at:
                    next_decay += settings.decay_interval_seconds
            started = perf()
            run = parse_taskrun(doc)
            parsed = perf()
            await memory.ingest(run, finished_at=at)
            done = perf()
            stats.parse_seconds += parsed - started
            stats.latencies.append(done - parsed)
            stats.ingest_seconds += done - parsed
            stats.runs += 1
            if progress is not None and i % 1000 == 999:
                progress(i + 1)
    finally:
        await memory.close()
    truth = world.truth()
    path.with_suffix(".truth.json").write_text(truth.to_json())
    return stats, truth


def unseen_runs(db: Path, seed: int, skip: int, count: int) -> list[tuple[dict[str, Any], float]]:
    """The next ``count`` runs of the history (``World(seed)`` after ``skip``) that ``db`` does not
    hold yet (a served store has some).

    Only those runs' keys are looked up: a 1M-node store holds ~2M runs, and reading every key into
    a set raised the serve step's peak RSS by ~190 MB (``ru_maxrss`` counts it).
    """
    candidates = list(World(seed).continued(skip, count + 1000))
    keys = [f"{m['namespace']}/{m['name']}/{m['uid']}" for m in (doc["metadata"] for doc, _at in candidates)]
    held: set[str] = set()
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        for i in range(0, len(keys), 500):
            chunk = keys[i : i + 500]
            marks = ", ".join("?" * len(chunk))
            held.update(
                r[0] for r in conn.execute(f"SELECT run_key FROM runs WHERE run_key IN ({marks})", chunk)
            )
    finally:
        conn.close()
    out = [run for run, key in zip(candidates, keys, strict=True) if key not in held]
    return out[:count]
