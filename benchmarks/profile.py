"""Profile one hot path of the memory engine on a benchmark store (pyinstrument).

    benchmarks/run --profile ingest --db /tmp/osmia-bench/runs-10k.db --skip 10000
    benchmarks/run --profile query  --db /tmp/osmia-bench/nodes-100k.db

``ingest`` continues the store's own history (the runs after ``--skip``) on a
copy of the database; ``query`` runs the benchmark's new tickets. Both print
pyinstrument's call tree with asyncio awaits attributed to the awaiting line,
so time spent in SQLite (aiosqlite's worker thread) shows up under the query
that waited for it. Needs ``pip install -r benchmarks/requirements.txt``.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import sqlite3
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.workload import Clock, GroundTruth, Scenario, World, scenarios
from osmia.memory.service import Memory, MemorySettings
from osmia.taskrun import parse_taskrun


def _new_runs(db: Path, seed: int, skip: int, count: int) -> list[tuple[dict[str, Any], float]]:
    """The next ``count`` runs of the history that ``db`` does not hold yet (a served store has some)."""
    conn = sqlite3.connect(db)
    try:
        known = {r[0] for r in conn.execute("SELECT run_key FROM runs")}
    finally:
        conn.close()
    out = []
    for doc, at in World(seed).continued(skip, count + 1000):
        meta = doc["metadata"]
        if f"{meta['namespace']}/{meta['name']}/{meta['uid']}" not in known:
            out.append((doc, at))
    return out[:count]


async def _ingest(db: Path, runs: list[tuple[dict[str, Any], float]]) -> list[float]:
    clock = Clock(runs[0][1])
    memory = await Memory.open(MemorySettings(store_path=db), clock=clock, update_gauges=False)
    latencies = []
    try:
        for doc, at in runs:
            clock.now = at
            run = parse_taskrun(doc)
            started = time.perf_counter()
            await memory.ingest(run, finished_at=at)
            latencies.append(time.perf_counter() - started)
    finally:
        await memory.close()
    return latencies


async def _query(db: Path, end: float, tickets: list[Scenario]) -> list[float]:
    clock = Clock(end + 60)
    memory = await Memory.open(MemorySettings(store_path=db), clock=clock, update_gauges=False)
    latencies = []
    try:
        for scenario in tickets:
            run = parse_taskrun(scenario.doc)
            started = time.perf_counter()
            await memory.context(run)
            latencies.append(time.perf_counter() - started)
    finally:
        await memory.close()
    return latencies


def main() -> None:
    from pyinstrument import Profiler

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("ingest", "query"))
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--skip", type=int, default=0, help="ingest: runs of the history already in --db")
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / args.db.name
        shutil.copy(args.db, db)
        truth = args.db.with_suffix(".truth.json")
        if truth.exists():
            shutil.copy(truth, db.with_suffix(".truth.json"))
        copies = args.db.with_suffix(".copies")
        if copies.exists():
            shutil.copy(copies, db.with_suffix(".copies"))
        profiler = Profiler(async_mode="enabled", interval=0.0005)

        async def profiled() -> list[float]:
            # Started inside the loop, so awaits are attributed to the line that awaited.
            if args.what == "ingest":
                work = _ingest(db, _new_runs(db, args.seed, args.skip, args.count))
            else:
                truth = GroundTruth.from_json(db.with_suffix(".truth.json").read_text())
                meta = db.with_suffix(".copies")
                copies = int(meta.read_text()) if meta.exists() else 1
                work = _query(db, truth.end, scenarios(truth, args.count, copies=copies))
            profiler.start()
            try:
                return await work
            finally:
                profiler.stop()

        lat = asyncio.run(profiled())
    lat.sort()
    print(
        f"{args.what}: n={len(lat)} p50={1000 * lat[len(lat) // 2]:.2f} ms "
        f"p99={1000 * lat[min(len(lat) - 1, int(0.99 * len(lat)))]:.2f} ms"
    )
    print(profiler.output_text(unicode=True, color=False, show_all=False))


if __name__ == "__main__":
    main()
