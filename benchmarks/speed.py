"""Speed and memory footprint of the memory engine, beside bare-SQLite baselines.

Each step runs in its own process (``python -m benchmarks.speed STEP …``) and
prints one JSON object on its last stdout line, so that peak RSS
(``ru_maxrss``) belongs to that step and that scale alone:

* ``build``: ingest a generated history through ``Memory`` (one decay pass per
  simulated day, like the operator) → ingest throughput, extraction latency
  per run, decay passes seen during the history, peak RSS while ingesting;
* ``replicate``: grow a built store to N nodes with bulk SQL (see
  :func:`benchmarks.replicate.replicate_store`), with the seconds of each phase;
* ``serve``: what the operator does with a store: ``Memory.open`` with
  deferred checkpoints (schema check and migration, node count, catch-up
  decay) and the operator's care of its heap (:class:`benchmarks.stats.OperatorHeap`)
  → ``context()`` for new tickets (query latency, and the injected ids for the
  quality evaluation) → ingest a few more runs
  (extraction latency at this size), with ``Memory.maintain()`` every
  ``MAINTENANCE_SECONDS`` of the simulated clock between them, timed apart →
  ``forget_run`` for a few runs → ``decay(cycles=1)`` passes → a prune threshold
  change (benchmarks/lifecycle.py).
  Baselines on the same file, with the plain ``sqlite3`` module: an FTS5
  ``MATCH … ORDER BY bm25 LIMIT 10`` with the same match expression Osmia
  builds from each ticket, the eager decay pass (one ``UPDATE nodes SET
  confidence = confidence * (1 - decay_rate)`` transaction) and the engine's
  own decay statements, bare.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import sqlite3
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks import lifecycle
from benchmarks.quality import evaluate
from benchmarks.replicate import replicate_store
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
from benchmarks.stores import Clock, build_store, unseen_runs
from benchmarks.workload import GroundTruth
from osmia.controller.handlers import MAINTENANCE_SECONDS
from osmia.memory.service import Memory, MemorySettings, request_for
from osmia.memory.text import fts_query
from osmia.taskrun import parse_taskrun


def peak_rss_mb() -> float:
    """This process's peak resident set size in MiB (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def rss_parts_mb() -> dict[str, float]:
    """Resident memory now, split into anonymous (the heap) and file-backed (the store's memory
    map: clean pages the kernel can drop) as Linux reports them; empty elsewhere."""
    out: dict[str, float] = {}
    status = Path("/proc/self/status")
    if status.exists():
        for line in status.read_text().splitlines():
            key, _, value = line.partition(":")
            if key in ("VmRSS", "RssAnon", "RssFile", "RssShmem"):
                out[key] = int(value.split()[0]) / 1024.0
    return out


def db_bytes(path: Path) -> int:
    """Database file plus its WAL, if any."""
    return sum(p.stat().st_size for p in (path, Path(f"{path}-wal")) if p.exists())


def store_counts(path: Path) -> dict[str, int]:
    """Nodes (all and valid), edges and runs in a store."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        one = lambda sql: int(conn.execute(sql).fetchone()[0])  # noqa: E731
        return {
            "nodes": one("SELECT count(*) FROM nodes"),
            "valid_nodes": one("SELECT count(*) FROM nodes WHERE valid_to IS NULL"),
            "edges": one("SELECT count(*) FROM edges"),
            "runs": one("SELECT count(*) FROM runs"),
        }
    finally:
        conn.close()


def remove_db(path: Path) -> None:
    """Delete a database and its side files."""
    for p in (path, Path(f"{path}-wal"), Path(f"{path}-shm"), path.with_suffix(".truth.json"),
              path.with_suffix(".copies")):  # fmt: skip
        if p.exists():
            p.unlink()


# --- steps ------------------------------------------------------------------------------


def step_build(db: Path, runs: int, seed: int) -> dict[str, Any]:
    """Ingest a ``runs``-long history into a new store."""
    remove_db(db)
    started = time.perf_counter()

    def progress(done: int) -> None:
        if done % 10000 == 0:
            print(f"  … {done} runs ingested ({time.perf_counter() - started:.0f} s)", file=sys.stderr)

    stats, truth = asyncio.run(build_store(db, runs, seed, progress=progress))
    return {
        "step": "build",
        "runs": stats.runs,
        "wall_seconds": time.perf_counter() - started,
        "ingest_seconds": stats.ingest_seconds,
        "throughput_runs_per_s": stats.runs / stats.ingest_seconds if stats.ingest_seconds else 0.0,
        "extraction_ms": summary_ms(stats.latencies),
        "daily_decay_ms": summary_ms(stats.decay_seconds),
        "pruned": stats.pruned,
        "peak_rss_mb": peak_rss_mb(),
        "counts": store_counts(db),
        "db_bytes": db_bytes(db),
        "end": truth.end,
    }


def step_replicate(base: Path, db: Path, nodes: int, provenance_copies: int | None = None) -> dict[str, Any]:
    """Grow ``base`` into a store of about ``nodes`` nodes at ``db``."""
    remove_db(db)
    started = time.perf_counter()
    built = replicate_store(
        base, db, nodes, provenance_copies, report=lambda line: print(line, file=sys.stderr)
    )
    db.with_suffix(".copies").write_text(str(built["copies"]))
    return {"step": "replicate", "seconds": time.perf_counter() - started, "copies": built["copies"],
            "phases": built["phases"], "counts": store_counts(db), "db_bytes": db_bytes(db)}  # fmt: skip


def fts_baseline(db: Path, texts: list[str], rounds: int = 1) -> list[float]:
    """Bare SQLite: the FTS5 match Osmia would run for each ticket, top 10 by BM25."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    sql = (
        "SELECT rowid, bm25(nodes_fts) FROM nodes_fts WHERE nodes_fts MATCH ? "
        "ORDER BY bm25(nodes_fts) LIMIT 10"
    )
    out: list[float] = []
    try:
        for text in texts[:20]:  # warm-up, like Osmia's
            conn.execute(sql, (text,)).fetchall()
        for _ in range(rounds):
            for text in texts:
                started = time.perf_counter()
                conn.execute(sql, (text,)).fetchall()
                out.append(time.perf_counter() - started)
    finally:
        conn.close()
    return out


async def _serve(db: Path, queries: int, ingest: int, decays: int, forgets: int, seed: int) -> dict[str, Any]:
    truth = GroundTruth.from_json(db.with_suffix(".truth.json").read_text())
    copies_file = db.with_suffix(".copies")
    copies = int(copies_file.read_text()) if copies_file.exists() else 1
    now = truth.end + 60.0
    clock = Clock(now)
    cases = scenarios(truth, queries, seed=seed + 1000, copies=copies)
    warm = scenarios(truth, QUERY_WARMUP, seed=seed + 2000, copies=copies)
    runs = [parse_taskrun(c.doc) for c in cases]
    # A few more runs than timed: the first extractions after start-up warm the caches, as the
    # first tickets do for queries, and are not counted. Runs the store already holds (a store
    # served before, or replicated from one) are skipped: ingesting one again extracts nothing.
    more = unseen_runs(db, truth.seed, truth.runs, ingest + EXTRACTION_WARMUP) if ingest else []
    settings = MemorySettings(store_path=db)
    out: dict[str, Any] = {"step": "serve", "copies": copies}

    started = time.perf_counter()
    # Opened and looked after as the operator does: WAL checkpoints deferred to maintenance.
    memory = await Memory.open(settings, clock=clock, update_gauges=False, deferred_checkpoints=True)
    out["open_seconds"] = time.perf_counter() - started
    lines = await stored_lines(memory)
    with OperatorHeap(
        MAINTENANCE_SECONDS, lines, await renders_cleaned(memory)
    ) as heap:  # as the operator does once it has started
        out["warm_up_seconds"] = heap.warm_seconds
        out["graph"] = {"nodes": memory.graph.node_count}
        out["rss_after_open_mb"] = peak_rss_mb()
        try:
            for case in warm:
                await memory.context(parse_taskrun(case.doc))
            latencies: list[float] = []
            injected: list[list[str]] = []
            for run in runs:
                heap.between()  # the maintenance loop's full pass of the collector, every 15 s
                t0 = time.perf_counter()
                context = await memory.context(run)
                latencies.append(time.perf_counter() - t0)
                injected.append([n.id for n in context.injected])
            out["query_ms"] = summary_ms(latencies)
            texts = [fts_query(request_for(run).text) for run in runs]
            out["fts_baseline_ms"] = summary_ms(fts_baseline(db, [t for t in texts if t]))
            out["injected_per_query"] = statistics.fmean(len(i) for i in injected) if injected else 0.0
            out["rss_after_queries_mb"] = peak_rss_mb()  # before the quality evaluation's own memory
            out["quality"] = evaluate(db, truth, cases, injected, now)

            latencies, upkeep = await timed_extractions(memory, more, clock, MAINTENANCE_SECONDS, heap)
            out["extraction_warmup_ms"] = [v * 1000.0 for v in latencies[:EXTRACTION_WARMUP]]
            latencies = latencies[EXTRACTION_WARMUP:]
            out["extraction_ms"] = summary_ms(latencies)
            out["maintenance_ms"] = summary_ms(upkeep)
            out["rss_serving_mb"] = peak_rss_mb()  # queries and extractions: what the operator does
            out["rss_serving_parts_mb"] = rss_parts_mb()

            out["forget"] = await lifecycle.measure_forget(memory, db, forgets, seed)
            out["rss_after_forget_mb"] = peak_rss_mb()
            out["rss_after_forget_parts_mb"] = rss_parts_mb()
            out["decay_seconds"] = await lifecycle.measure_decay(memory, db, decays)
            out["rss_after_decay_mb"] = peak_rss_mb()  # the peak so far: which step set it
            out["rss_after_decay_parts_mb"] = rss_parts_mb()
            out["threshold_change"] = await lifecycle.measure_threshold_change(
                memory, db, settings.prune_threshold * 1.2
            )
            out["rss_after_threshold_parts_mb"] = rss_parts_mb()
        finally:
            await memory.close()
    out["collector_pauses_ms"] = summary_ms(heap.pauses)
    out["peak_rss_mb"] = peak_rss_mb()
    out["counts"] = store_counts(db)
    out["db_bytes"] = db_bytes(db)
    return out


def step_serve(db: Path, queries: int, ingest: int, decays: int, forgets: int, seed: int) -> dict[str, Any]:
    """Open, query, ingest, forget a few runs and decay an existing store (it is changed: use a copy)."""
    return asyncio.run(_serve(db, queries, ingest, decays, forgets, seed))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="One benchmark step; prints a JSON object.")
    sub = parser.add_subparsers(dest="step", required=True)
    b = sub.add_parser("build")
    b.add_argument("--db", type=Path, required=True)
    b.add_argument("--runs", type=int, required=True)
    b.add_argument("--seed", type=int, default=7)
    r = sub.add_parser("replicate")
    r.add_argument("--base", type=Path, required=True)
    r.add_argument("--db", type=Path, required=True)
    r.add_argument("--nodes", type=int, required=True)
    r.add_argument("--provenance-copies", type=int, help="copy the provenance log into this many copies only")
    s = sub.add_parser("serve")
    s.add_argument("--db", type=Path, required=True)
    s.add_argument("--queries", type=int, default=500)
    s.add_argument("--ingest", type=int, default=300)
    s.add_argument("--decays", type=int, default=3)
    s.add_argument("--forgets", type=int, default=10)
    s.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    if args.step == "build":
        result = step_build(args.db, args.runs, args.seed)
    elif args.step == "replicate":
        result = step_replicate(args.base, args.db, args.nodes, args.provenance_copies)
    else:
        result = step_serve(args.db, args.queries, args.ingest, args.decays, args.forgets, args.seed)
    result["pid"] = os.getpid()
    print(json.dumps(result))


if __name__ == "__main__":
    main()
