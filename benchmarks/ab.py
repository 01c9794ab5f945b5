"""A/B: the same serving loop against two versions of the engine, alternately, in one session.

    python -m benchmarks.ab --db STORE --base REV [--candidate REV] [--rounds 3]

On this shared machine the same measurement taken minutes apart differs by up
to 30 %, so a before/after comparison is only worth quoting when both sides
ran interleaved: base, candidate, candidate, base, ... (who goes first
alternates), each on a fresh copy of ``STORE`` (which must be readable by both
versions: an older engine refuses a newer schema). The harness (workload,
tickets, timing) is this checkout's; only the ``osmia`` package comes from each
revision (a ``git worktree``; the candidate defaults to this working tree). Each round, on a
fresh copy opened once and closed by that engine (its schema upgrade, if any, and the
maintenance that follows one run to its end, not timed) and
flushed to disk (``os.sync``), then in a fresh process: open → what that engine's operator does
with its heap (:class:`benchmarks.stats.OperatorHeap`) → 20 warm-up tickets →
``--queries`` timed tickets (wall-clock latencies, and the process's CPU time per ticket, which a
busy machine inflates far less; their injected ids are compared between the two sides: a speed
change must inject the same facts) → ``--ingest`` timed extractions after 10 warm-up
ones (wall-clock and CPU time each), with ``Memory.maintain()`` every 15 simulated seconds if that engine has
it (timed apart, as the serve step does) → three ``decay(cycles=1)`` passes. With
``--read-only`` only the queries, on ``STORE`` itself opened read-only (a store too
large to copy per round, such as the 1M-node one).
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DECAY_PASSES = 3  # ``decay(cycles=1)`` passes timed after the extractions (each engine's whole pass)


async def _child(db: Path, queries: int, ingest: int, seed: int, read_only: bool = False) -> dict[str, Any]:
    from benchmarks.scenarios import scenarios
    from benchmarks.stats import (
        EXTRACTION_WARMUP,
        QUERY_WARMUP,
        OperatorHeap,
        renders_cleaned,
        stored_lines,
        summary_ms,
        timed_extractions,
    )
    from benchmarks.stores import Clock, unseen_runs
    from benchmarks.workload import GroundTruth
    from osmia.memory.service import Memory, MemorySettings
    from osmia.taskrun import parse_taskrun

    try:
        from osmia.controller.handlers import MAINTENANCE_SECONDS  # the operator's cadence
    except ImportError:  # an engine without a maintenance loop
        MAINTENANCE_SECONDS = math.inf

    truth = GroundTruth.from_json(db.with_suffix(".truth.json").read_text())
    copies_file = db.with_suffix(".copies")
    copies = int(copies_file.read_text()) if copies_file.exists() else 1
    clock = Clock(truth.end + 60.0)
    cases = [parse_taskrun(c.doc) for c in scenarios(truth, queries, seed=seed + 1000, copies=copies)]
    warm = [parse_taskrun(c.doc) for c in scenarios(truth, QUERY_WARMUP, seed=seed + 2000, copies=copies)]
    # The runs after the store's history that it does not hold yet: a served store already holds
    # the serve step's, and ingesting one again is a no-op (exactly once), not an extraction.
    more = [] if read_only else unseen_runs(db, truth.seed, truth.runs, ingest + EXTRACTION_WARMUP)
    options: dict[str, Any] = {"clock": clock, "update_gauges": False}
    if read_only:
        options["read_only"] = True  # the file itself: nothing can be written, so nothing is copied
    elif "deferred_checkpoints" in inspect.signature(Memory.open).parameters:
        options["deferred_checkpoints"] = True
    memory = await Memory.open(MemorySettings(store_path=db), **options)
    out: dict[str, Any] = {}
    with OperatorHeap(
        MAINTENANCE_SECONDS, await stored_lines(memory), await renders_cleaned(memory)
    ) as heap:  # what its operator does
        try:
            for run in warm:
                await memory.context(run)
            latencies, injected = [], []
            cpu = time.process_time()  # every thread's: aiosqlite's worker runs the SQL
            for run in cases:
                heap.between()  # its maintenance loop's full pass of the collector, if it has one
                started = time.perf_counter()
                context = await memory.context(run)
                latencies.append(time.perf_counter() - started)
                injected.append([node.id for node in context.injected])
            out["query_cpu_ms"] = 1000 * (time.process_time() - cpu) / max(1, len(cases))
            out["query_ms"] = summary_ms(latencies)
            out["injected"] = injected  # the golden comparison: the same tickets, the same facts?
            if read_only:
                return out
            cpu_times: list[float] = []
            latencies, _upkeep = await timed_extractions(
                memory, more, clock, MAINTENANCE_SECONDS, heap, cpu=cpu_times
            )
            out["extraction_ms"] = summary_ms(latencies[EXTRACTION_WARMUP:])
            out["extraction_cpu_ms"] = summary_ms(cpu_times[EXTRACTION_WARMUP:])
            decays = []
            for _ in range(DECAY_PASSES):
                started = time.perf_counter()
                await memory.decay(cycles=1)
                decays.append(time.perf_counter() - started)
            out["decay_ms"] = summary_ms(decays)
        finally:
            await memory.close()
    return out


def engine_path(rev: str | None, work: Path) -> Path:
    """A directory whose ``osmia`` is the engine at ``rev`` and whose ``benchmarks`` is this harness."""
    tree = ROOT
    if rev is not None:
        tree = work / f"tree-{rev}"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "--force", str(tree), rev],
                       check=True, capture_output=True)  # fmt: skip
    path = work / f"path-{rev or 'working-tree'}"
    path.mkdir()
    (path / "osmia").symlink_to(tree / "osmia")
    (path / "benchmarks").symlink_to(ROOT / "benchmarks")
    return path


def remove_engine(rev: str | None, work: Path) -> None:
    """Remove the worktree :func:`engine_path` added for ``rev`` (none for the working tree)."""
    if rev is not None:
        tree = str(work / f"tree-{rev}")
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", tree], capture_output=True)


def _copy_store(db: Path, to: Path) -> Path:
    for side in ("", "-wal", "-shm"):
        if Path(f"{to}{side}").exists():
            Path(f"{to}{side}").unlink()
    shutil.copyfile(db, to)
    for suffix in (".truth.json", ".copies"):
        if db.with_suffix(suffix).exists():
            shutil.copyfile(db.with_suffix(suffix), to.with_suffix(suffix))
    return to


async def _upgrade(db: Path) -> None:
    """Open and close ``db`` with this engine at the store's own clock: its schema upgrade, if any."""
    from benchmarks.stats import maintained_until_stamped
    from benchmarks.stores import Clock
    from benchmarks.workload import GroundTruth
    from osmia.memory.service import Memory, MemorySettings

    truth = GroundTruth.from_json(db.with_suffix(".truth.json").read_text())
    memory = await Memory.open(
        MemorySettings(store_path=db), clock=Clock(truth.end + 60.0), update_gauges=False
    )
    # Work the engine's maintenance loop does once after an upgrade, done here to the end, so the
    # round measures the store as the operator serves it from then on: lines stamped again after
    # its cleaning changed (osmia/memory/clean_stamp.py; an engine without stamps has none).
    await maintained_until_stamped(memory)
    await memory.close()


def _round(path: Path, store: Path, args: argparse.Namespace) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(path)}
    if not args.read_only:
        # The engine's schema upgrade (a candidate may add an index) in a process of its own, and
        # every page it and the copy wrote flushed to disk: neither is then paid inside the timed
        # run, by one side only (the kernel's writeback of a fresh 400 MB copy stalled commits).
        upgrade = [sys.executable, "-m", "benchmarks.ab", "upgrade", "--db", str(store)]
        subprocess.run(upgrade, env=env, check=True, capture_output=True, text=True, cwd=path)
        os.sync()
    cmd = [sys.executable, "-m", "benchmarks.ab", "child", "--db", str(store), "--queries", str(args.queries),
           "--ingest", str(args.ingest), "--seed", str(args.seed)]  # fmt: skip
    if args.read_only:
        cmd.append("--read-only")
    done = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True, cwd=path)
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def _fmt(s: dict[str, float]) -> str:
    return f"{s['p50']:.2f} / {s['p95']:.2f} / {s['p99']:.2f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("mode", nargs="?", default="compare", choices=("compare", "child", "upgrade"))
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--base", help="git revision of the engine to compare against")
    parser.add_argument("--candidate", help="git revision (default: this working tree)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--ingest", type=int, default=400)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--read-only",
        action="store_true",
        help="queries only, on STORE itself opened read-only (no copies: a store too large to copy)",
    )
    args = parser.parse_args(argv)
    if args.mode == "upgrade":
        asyncio.run(_upgrade(args.db))
        return 0
    if args.mode == "child":
        print(json.dumps(asyncio.run(_child(args.db, args.queries, args.ingest, args.seed, args.read_only))))
        return 0
    if not args.base:
        parser.error("--base REV is required")
    with tempfile.TemporaryDirectory(prefix="osmia-ab-") as tmp:
        work = Path(tmp)
        sides = {"base": engine_path(args.base, work), "candidate": engine_path(args.candidate, work)}
        names = {"base": args.base, "candidate": args.candidate or "working tree"}
        print(f"store {args.db}; {args.queries} tickets, {args.ingest} extractions per round")
        cols = (
            "round",
            "engine",
            "query p50 / p95 / p99 ms",
            "query CPU ms/ticket",
            "extraction p50 / p95 / p99 ms",
            "extraction CPU p50 / p95 / p99 ms",
            "decay pass p50 / max ms",
        )
        print("| " + " | ".join(cols) + " |")
        print("|" + " --- |" * len(cols))
        injected: dict[str, list[list[str]]] = {}  # first round's injected ids per side
        try:
            for i in range(1, args.rounds + 1):
                # Alternate which side goes first: the second run of a round met a different machine
                # (the first one's file copy still being written back, other sessions' bursts).
                order = list(sides.items()) if i % 2 else list(reversed(sides.items()))
                for side, path in order:
                    store = args.db if args.read_only else _copy_store(args.db, work / "store.db")
                    r = _round(path, store, args)
                    extraction, d = r.get("extraction_ms"), r.get("decay_ms")
                    extraction_cpu = r.get("extraction_cpu_ms")
                    cells = (
                        str(i),
                        f"{side} ({names[side]})",
                        _fmt(r["query_ms"]),
                        f"{r['query_cpu_ms']:.2f}",
                        _fmt(extraction) if extraction else "–",
                        _fmt(extraction_cpu) if extraction_cpu else "–",
                        f"{d['p50']:.2f} / {d['max']:.2f}" if d else "–",
                    )
                    print("| " + " | ".join(cells) + " |", flush=True)
                    injected.setdefault(side, r["injected"])
            same = sum(a == b for a, b in zip(injected["base"], injected["candidate"], strict=True))
            print(f"\ninjected ids identical to the base's on {same} of {len(injected['base'])} tickets")
        finally:
            for rev in (args.base, args.candidate):
                remove_engine(rev, work)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
