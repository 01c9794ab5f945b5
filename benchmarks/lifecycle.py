"""Decay, threshold changes and unlearning, timed on a served store beside bare-SQLite baselines.

Called by the serve step (benchmarks/speed.py) after queries and extractions:

* ``decay``: ``Memory.decay(cycles=1)`` passes, while a second connection (plain ``sqlite3``, as
  another writer would) keeps asking for the write lock: its longest wait is the longest write
  lock decay held. Baselines on the same file, alternating: the eager pass decay replaced (one
  ``UPDATE`` of every confidence) and the same statements the engine runs, bare (advance the epoch
  in meta, delete the due nodes by the ``prune_at`` index);
* ``threshold``: a prune threshold change (the operator restarted with another
  ``prune_threshold``): every prune epoch recomputed in short transactions, longest lock wait;
* ``forget``: ``Memory.forget_run`` for runs drawn from the store; baseline: the reads any
  unlearning needs, bare (the run's provenance rows and the events of the facts it touched).
"""

from __future__ import annotations

import multiprocessing
import os
import random
import resource
import sqlite3
import statistics
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

from osmia.memory import decay as decay_mod
from osmia.memory.service import Memory
from osmia.memory.store import EPOCH_KEY, run_id

T = TypeVar("T")


class LockProbe:
    """Another writer: takes and releases the write lock in a loop; records how long each wait took."""

    def __init__(self, db: Path) -> None:
        self._db = db
        self._stop = threading.Event()
        self.waits: list[float] = []
        self._thread = threading.Thread(target=self._loop, daemon=True)

    def _loop(self) -> None:
        conn = sqlite3.connect(self._db, isolation_level=None, timeout=120.0)
        try:
            while not self._stop.is_set():
                started = time.perf_counter()
                conn.execute("BEGIN IMMEDIATE")
                self.waits.append(time.perf_counter() - started)
                conn.execute("COMMIT")
                time.sleep(0.0005)
        finally:
            conn.close()

    def __enter__(self) -> LockProbe:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    @property
    def longest(self) -> float:
        """The longest wait for the write lock seen while the probe ran."""
        return max(self.waits, default=0.0)


class _HoldTimes:
    """Times every write transaction the memory's store opens (how long it holds the write lock)."""

    def __init__(self, memory: Memory) -> None:
        self._store = memory._store
        self._original = self._store.transaction
        self.holds: list[float] = []
        self.cpu: list[float] = []  # CPU seconds of the process inside each (the machine's load aside)

    def __enter__(self) -> _HoldTimes:
        original, holds, cpus = self._original, self.holds, self.cpu

        @asynccontextmanager
        async def timed() -> AsyncIterator[None]:
            async with original():
                started = time.perf_counter()  # the lock is held from BEGIN IMMEDIATE to COMMIT
                cpu = time.process_time()
                yield
            holds.append(time.perf_counter() - started)
            cpus.append(time.process_time() - cpu)

        self._store.transaction = timed  # type: ignore[method-assign]
        return self

    def __exit__(self, *exc: object) -> None:
        self._store.transaction = self._original  # type: ignore[method-assign]

    @property
    def longest(self) -> float:
        """The longest write transaction seen."""
        return max(self.holds, default=0.0)


async def _probed(db: Path, work: Callable[[], Awaitable[T]]) -> tuple[T, float]:
    with LockProbe(db) as probe:
        time.sleep(0.01)  # the probe is looping before the work starts
        result = await work()
    return result, probe.longest


def eager_baseline(db: Path) -> float:
    """Bare SQLite: the pass decay replaced, one transaction updating every confidence."""
    conn = sqlite3.connect(db, isolation_level=None)
    try:
        conn.execute("PRAGMA synchronous = NORMAL")
        started = time.perf_counter()
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("UPDATE nodes SET confidence = confidence * (1 - decay_rate)")
        conn.execute("ROLLBACK")  # measured, not kept: the served store stays the engine's
        return time.perf_counter() - started
    finally:
        conn.close()


def bare_epoch_baseline(db: Path) -> float:
    """Bare SQLite: the statements of one engine pass (advance the epoch, delete what is due)."""
    conn = sqlite3.connect(db, isolation_level=None)
    try:
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute("PRAGMA foreign_keys = ON")
        started = time.perf_counter()
        conn.execute("BEGIN IMMEDIATE")
        (epoch,) = conn.execute(
            "SELECT CAST(value AS INTEGER) + 1 FROM meta WHERE key = ?", (EPOCH_KEY,)
        ).fetchone()
        conn.execute("UPDATE meta SET value = ? WHERE key = ?", (str(epoch), EPOCH_KEY))
        conn.execute("SELECT id, type FROM nodes WHERE prune_at <= ?", (epoch,)).fetchall()
        conn.execute("DELETE FROM nodes WHERE prune_at <= ?", (epoch,))
        conn.execute("ROLLBACK")  # the engine's own passes advance the clock
        return time.perf_counter() - started
    finally:
        conn.close()


async def measure_decay(memory: Memory, db: Path, passes: int) -> dict[str, Any]:
    """``passes`` timed engine passes, each followed by both baselines and one more pass under the
    lock probe (timed apart: a probe holding the lock at the wrong moment would make the engine
    sleep in SQLite's busy handler).

    The baselines run in a child process of their own, on the same file: what their connections
    hold (the eager ``UPDATE``'s pages, the due rows fetched) is not the served process's, whose
    peak RSS the serve step reports (docs/performance.md §45: ~6 MB at 1M nodes).
    """
    osmia, lock, hold, eager, bare, pruned = [], [], [], [], [], 0
    every: list[float] = []  # every write transaction of the probed passes
    every_cpu: list[float] = []
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as baselines:
        for _ in range(passes):
            result = await memory.decay(cycles=1)
            osmia.append(result.duration_seconds)
            pruned += result.pruned
            with _HoldTimes(memory) as holds:
                probed, longest = await _probed(db, lambda: memory.decay(cycles=1))
            lock.append(longest)
            hold.append(holds.longest)
            every.extend(holds.holds)
            every_cpu.extend(holds.cpu)
            pruned += probed.pruned
            eager.append(baselines.submit(eager_baseline, db).result())
            bare.append(baselines.submit(bare_epoch_baseline, db).result())
    fixed = []  # a pass with nothing due: what a pass costs apart from its deletes
    for _ in range(3):
        fixed.append((await memory.decay(cycles=0)).duration_seconds)
    return {
        "osmia": statistics.median(osmia),
        "fixed": statistics.median(fixed),
        "baseline": statistics.median(eager),
        "bare": statistics.median(bare),
        "osmia_all": osmia,
        "baseline_all": eager,
        "bare_all": bare,
        "lock_wait_max": max(lock),
        "lock_hold_max": max(hold),
        "lock_hold_all": hold,
        "lock_hold_transactions": len(every),
        "lock_hold_p50": statistics.median(every) if every else 0.0,
        "lock_hold_over_50ms": sum(1 for h in every if h > 0.05),
        "lock_hold_cpu_max": max(every_cpu, default=0.0),
        "lock_wait_all": lock,
        "pruned": pruned,
    }


async def measure_threshold_change(memory: Memory, db: Path, threshold: float) -> dict[str, Any]:
    """Recompute every prune epoch for ``threshold`` (then back) as a decay pass does after a
    configuration change (``reconcile_threshold``: short, paced transactions), timing each."""
    store = memory._store
    started = time.perf_counter()
    with _HoldTimes(memory) as holds:
        _, longest = await _probed(db, lambda: decay_mod.reconcile_threshold(store, threshold))
    total = time.perf_counter() - started
    await decay_mod.reconcile_threshold(store, memory.settings.prune_threshold)
    return {
        "seconds": total,
        "batches": len(holds.holds),
        "batch_max": holds.longest,
        "batch_cpu_max": max(holds.cpu, default=0.0),
        "lock_wait_max": longest,
    }


def _pick_runs(db: Path, count: int, seed: int) -> list[str]:
    """``count`` runs with provenance rows, drawn by random rowid (seeded): reading every run key
    of a 1M-node store (1.9M runs) would put ~400 MB into the process whose RSS is measured."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        (top,) = conn.execute("SELECT coalesce(max(rowid), 0) FROM runs").fetchone()
        rnd = random.Random(seed)
        picked: list[str] = []
        for _ in range(count * 20):
            if len(picked) == count or not top:
                break
            row = conn.execute(
                "SELECT run_key FROM runs WHERE rowid = ? AND repository != ''", (rnd.randint(1, top),)
            ).fetchone()
            if row is None or row[0] in picked:
                continue
            has = conn.execute("SELECT 1 FROM node_runs WHERE run = ? LIMIT 1", (run_id(row[0]),)).fetchone()
            if has:
                picked.append(row[0])
        return picked
    finally:
        conn.close()


def forget_baseline(db: Path, run_key: str) -> float:
    """Bare SQLite: read the run's provenance rows and every event of the facts it touched."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        started = time.perf_counter()
        nodes = [r[0] for r in conn.execute("SELECT node FROM node_runs WHERE run = ?", (run_id(run_key),))]
        for node in sorted(set(nodes)):
            conn.execute("SELECT * FROM node_runs WHERE node = ? ORDER BY step", (node,)).fetchall()
            conn.execute("SELECT * FROM nodes WHERE seq = ?", (node,)).fetchall()
        return time.perf_counter() - started
    finally:
        conn.close()


async def measure_forget(memory: Memory, db: Path, count: int, seed: int) -> dict[str, Any]:
    """``forget_run`` for ``count`` runs of the store (run keys: each is exactly one run)."""
    osmia, bare, deleted, updated, rows = [], [], 0, 0, []
    for run_key in _pick_runs(db, count, seed):
        rows.append(_run_rows(db, run_key))
        bare.append(forget_baseline(db, run_key))
        started = time.perf_counter()
        result = await memory.forget_run(run_key)
        osmia.append(time.perf_counter() - started)
        deleted += len(result.deleted)
        updated += result.updated
    return {
        "osmia_all": osmia,
        "bare_all": bare,
        "osmia_p50": statistics.median(osmia) if osmia else 0.0,
        "osmia_max": max(osmia, default=0.0),
        "bare_p50": statistics.median(bare) if bare else 0.0,
        "deleted": deleted,
        "updated": updated,
        "events": rows,  # per run: its provenance rows and those of the facts it touched (the work)
    }


def _run_rows(db: Path, run_key: str) -> int:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        (n,) = conn.execute(
            "SELECT count(*) FROM node_runs WHERE node IN (SELECT node FROM node_runs WHERE run = ?)",
            (run_id(run_key),),
        ).fetchone()
        return int(n)
    finally:
        conn.close()


async def _only(db: Path, decays: int, forgets: int, seed: int) -> dict[str, Any]:
    from osmia.memory.service import MemorySettings

    started = time.perf_counter()
    memory = await Memory.open(MemorySettings(store_path=db), update_gauges=False, deferred_checkpoints=True)
    try:
        opened = time.perf_counter() - started
        out: dict[str, Any] = {"nodes": memory.graph.node_count, "open_seconds": opened}
        out["rss_after_open_mb"] = _peak_rss_mb()
        out["forget"] = await measure_forget(memory, db, forgets, seed)
        out["decay_seconds"] = await measure_decay(memory, db, decays)
    finally:
        await memory.close()
    out["peak_rss_mb"] = _peak_rss_mb()
    out["load_average"] = os.getloadavg()
    return out


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def main(argv: list[str] | None = None) -> None:
    """``python -m benchmarks.lifecycle --db STORE``: only the decay and forget figures, on a copy."""
    import argparse
    import asyncio
    import json

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--decays", type=int, default=2)
    parser.add_argument("--forgets", type=int, default=10)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    print(json.dumps(asyncio.run(_only(args.db, args.decays, args.forgets, args.seed))))


if __name__ == "__main__":
    main()
