"""Profile one hot path of the memory engine on a benchmark store.

    benchmarks/run --profile ingest --db /tmp/osmia-bench/runs-10k.db --skip 10000
    benchmarks/run --profile query  --db /tmp/osmia-bench/nodes-100k.db
    benchmarks/run --profile statements --db /tmp/osmia-bench/nodes-100k.db
    benchmarks/run --profile phases --db /tmp/osmia-bench/nodes-100k.db
    benchmarks/run --profile extraction --db /tmp/osmia-bench/nodes-100k.db --count 200

``ingest`` continues the store's own history (the runs after ``--skip``) on a
copy of the database and prints pyinstrument's call tree, with asyncio awaits
attributed to the awaiting line, so time spent in SQLite (aiosqlite's worker
thread) shows under the statement that waited for it (needs ``pip install -r
benchmarks/requirements.txt``).

``query`` runs the benchmark's new tickets (after 20 warm-up ones). A ranking runs
on the store connection's thread in one trip (``Store.read``), so the profile
is cProfile's, taken in that thread, plus the main thread's top functions.
``statements`` prints the deterministic figures of the same tickets: trips to the
connection's thread and top-level SQL statements per query (FTS5's own nested
statements left out), the commonest statements, and the node cache's hits.
``phases`` times each phase of every query with ``perf_counter`` (no profiler overhead), served as
the serve step serves them (the operator's warm-up, the collector's pass between tickets): the
candidate statement, the one-hop widening, the vocabulary, the rest of the ranking; with
p50/p99 per phase and the phases of the slowest queries, to tell a tail's cause from the median's.
``extraction`` times the phases of extractions and each statement of their transactions, and
counts the pages a commit writes (:mod:`benchmarks.extraction_phases`). The query modes work on
a copy of ``--db``, or with ``--read-only`` on the file itself, opened read-only (nothing can be
written; for a 1M-node store too large to copy).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import io
import pstats
import re
import shutil
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from benchmarks.phase_timing import table, timed
from benchmarks.scenarios import Scenario, scenarios
from benchmarks.stats import QUERY_WARMUP, OperatorHeap, renders_cleaned, stored_lines
from benchmarks.stores import Clock, unseen_runs
from benchmarks.workload import GroundTruth
from osmia.controller.handlers import MAINTENANCE_SECONDS
from osmia.memory.service import Memory, MemorySettings
from osmia.taskrun import parse_taskrun


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


async def _open(db: Path, end: float, read_only: bool) -> Memory:
    return await Memory.open(
        MemorySettings(store_path=db), clock=Clock(end + 60), update_gauges=False, read_only=read_only
    )


async def _query_profiled(
    db: Path, end: float, tickets: list[Scenario], warm: list[Scenario], read_only: bool
) -> str:
    """cProfile of the queries in the connection's thread (where a ranking runs) and in the main one."""
    memory = await _open(db, end, read_only)
    conn = memory._store._conn
    ranking, main = cProfile.Profile(), cProfile.Profile()
    latencies = []
    try:
        for scenario in warm:
            await memory.context(parse_taskrun(scenario.doc))
        runs = [parse_taskrun(s.doc) for s in tickets]
        await conn._execute(ranking.enable)  # in the connection's thread
        main.enable()
        for run in runs:
            started = time.perf_counter()
            await memory.context(run)
            latencies.append(time.perf_counter() - started)
        main.disable()
        await conn._execute(ranking.disable)
    finally:
        await memory.close()
    out = io.StringIO()
    out.write(
        _summary("query", latencies) + "\n\n== the connection's thread (the ranking), by cumulative time\n"
    )
    pstats.Stats(ranking, stream=out).sort_stats("cumulative").print_stats(40)
    # The ranking runs on the calling thread's reader (osmia/memory/store/local_reader.py) unless
    # that one cannot serve: then the main thread's profile is the ranking's.
    out.write("== the main thread, by cumulative time (osmia's functions)\n")
    pstats.Stats(main, stream=out).sort_stats("cumulative").print_stats("osmia/", 40)
    out.write("== the main thread, by own time\n")
    pstats.Stats(main, stream=out).sort_stats("tottime").print_stats(25)
    return out.getvalue()


class TripCounter:
    """Trips to a store connection's thread and the top-level statements run, while entered.

    Wraps aiosqlite's ``_execute`` (every call of the connection goes through it) and SQLite's
    trace callback; FTS5's own nested statements (docsize, segment reads) start with ``--`` and
    are not counted. With ``store``, the statements of its reader on the calling thread (where a
    ranking runs, no trip: ``osmia/memory/store/local_reader.py``) are counted too, without the
    ``BEGIN`` and ``COMMIT`` of its read transaction. ``benchmarks.profile statements`` and the
    query-path tests use it.
    """

    def __init__(self, conn: Any, store: Any = None) -> None:
        self.conn = conn
        self.trips = 0
        self.statements: list[str] = []
        self._execute = conn._execute
        # An engine before the reader has no ``_reader_here``: everything went through ``conn``.
        here = getattr(store, "_reader_here", None)
        self._reader = here() if here is not None else None

    def reset(self) -> None:
        """Start counting again from zero."""
        self.trips = 0
        self.statements.clear()

    def _trace(self, sql: str) -> None:
        if not sql.startswith("--"):
            self.statements.append(sql)

    def _trace_local(self, sql: str) -> None:
        if sql not in ("BEGIN", "COMMIT"):
            self._trace(sql)

    async def _counted(self, fn: Any, *args: Any, **kwargs: Any) -> Any:
        self.trips += 1
        return await self._execute(fn, *args, **kwargs)

    async def __aenter__(self) -> TripCounter:
        # On the connection's own thread (aiosqlite's ``_execute``; engines before ``Store.read`` too).
        await self._execute(lambda: self.conn._conn.set_trace_callback(self._trace))
        self.conn._execute = self._counted
        if self._reader is not None:
            self._reader.trace(self._trace_local)
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.conn._execute = self._execute
        if self._reader is not None:
            self._reader.trace(None)
        await self._execute(lambda: self.conn._conn.set_trace_callback(None))


async def _statements(
    db: Path, end: float, tickets: list[Scenario], warm: list[Scenario], read_only: bool
) -> str:
    """Trips to the connection's thread and top-level statements per query (on whichever connection
    ran them), deterministic figures."""
    memory = await _open(db, end, read_only)
    try:
        for scenario in warm:
            await memory.context(parse_taskrun(scenario.doc))
        runs = [parse_taskrun(s.doc) for s in tickets]
        cache = getattr(memory._ranker, "_nodes", None)  # None: an engine before the node cache
        hits, misses = (cache.hits, cache.misses) if cache else (0, 0)
        async with TripCounter(memory._store._conn, memory._store) as counter:
            for run in runs:
                await memory.context(run)
        hits, misses = (cache.hits - hits, cache.misses - misses) if cache else (0, 0)
    finally:
        await memory.close()
    n = max(1, len(tickets))
    seen = Counter(re.sub(r"'[^']*'", "?", sql)[:110] for sql in counter.statements)
    lines = [
        f"statements: n={len(tickets)} trips/query={counter.trips / n:.2f} "
        f"statements/query={seen.total() / n:.2f} "
        f"nodes parsed/query={misses / n:.1f} reused/query={hits / n:.1f}",
        *(f"  {count / n:6.2f}  {sql}" for sql, count in seen.most_common(12)),
    ]
    return "\n".join(lines)


# What ``phases`` times: (owner, method, label). The ranking runs on the connection's thread, in
# one trip, so these wrap synchronous calls; ``rank_with`` is the whole ranking.
PHASES = (
    ("query", "Ranker", "rank_with", "ranking"),
    ("query", "Ranker", "candidates", "candidates"),
    ("reads", "QueryReads", "term_doc_counts", "  new terms' counts"),
    ("reads", "QueryReads", "candidate_sets", "  candidate statement"),
    ("candidates", "CandidateFinder", "widen", "  one-hop widening"),
    ("reads", "QueryReads", "neighbour_ids", "    neighbour ids"),
    ("reads", "QueryReads", "nodes_by_ids", "    new neighbours' rows"),
    ("query", "Ranker", "_vocabulary", "vocabulary"),
    ("reads", "QueryReads", "vocabulary", "  vocabulary statement"),
)


async def _phases(
    db: Path, end: float, tickets: list[Scenario], warm: list[Scenario], read_only: bool
) -> str:
    """Wall time per query and per phase of the ranking (``PHASES``), without a profiler's overhead."""
    from osmia.memory import candidates, query
    from osmia.memory.store import query_reads

    owners = {"query": query, "reads": query_reads, "candidates": candidates}
    current: dict[str, float] = {}
    originals = []

    for module, cls_name, method, label in PHASES:
        cls = getattr(owners[module], cls_name)
        if hasattr(cls, method):  # an older engine may lack one
            originals.append((cls, method, getattr(cls, method)))
            setattr(cls, method, timed(getattr(cls, method), label, current))
    memory = await _open(db, end, read_only)
    rows: list[dict[str, float]] = []
    try:
        # As the serve step does: the operator's start-up warm-up on the lines decay keeps
        # longest, and the collector's full pass between tickets (benchmarks.stats.OperatorHeap),
        # so that the tail profiled is the one the benchmark measures.
        with OperatorHeap(
            MAINTENANCE_SECONDS, await stored_lines(memory), await renders_cleaned(memory)
        ) as heap:
            for scenario in warm:
                await memory.context(parse_taskrun(scenario.doc))
            for scenario in tickets:
                heap.between()
                run = parse_taskrun(scenario.doc)
                current.clear()
                started = time.perf_counter()
                await memory.context(run)
                current["query (wall)"] = time.perf_counter() - started
                rows.append(dict(current))
    finally:
        await memory.close()
        for cls, method, fn in originals:
            setattr(cls, method, fn)
    labels = ["query (wall)", *(label for *_x, label in PHASES)]
    return "\n".join(table(rows, labels, title="phases", what="queries", width=24))


def _summary(what: str, lat: list[float]) -> str:
    lat = sorted(lat)
    if not lat:
        return f"{what}: n=0"
    return (
        f"{what}: n={len(lat)} p50={1000 * lat[len(lat) // 2]:.2f} ms "
        f"p99={1000 * lat[min(len(lat) - 1, int(0.99 * len(lat)))]:.2f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("ingest", "query", "statements", "phases", "extraction"))
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--skip", type=int, default=0, help="ingest: runs of the history already in --db")
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--queries", type=int, default=0, help="extraction: tickets queried before (as serve does)"
    )
    parser.add_argument(
        "--read-only",
        action="store_true",
        help="query, statements, phases: read --db in place, opened read-only (a store too large to copy)",
    )
    args = parser.parse_args()
    if args.what == "extraction":
        from benchmarks.extraction_phases import report

        print(report(args.db, args.count, args.queries))
        return
    if args.read_only and args.what != "ingest":
        _queries(args.db, args)
        return
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / args.db.name
        shutil.copy(args.db, db)
        for suffix in (".truth.json", ".copies"):
            if args.db.with_suffix(suffix).exists():
                shutil.copy(args.db.with_suffix(suffix), db.with_suffix(suffix))
        if args.what == "ingest":
            print(_ingest_profiled(db, args))
        else:
            _queries(db, args)


def _queries(db: Path, args: argparse.Namespace) -> None:
    truth = GroundTruth.from_json(db.with_suffix(".truth.json").read_text())
    meta = db.with_suffix(".copies")
    copies = int(meta.read_text()) if meta.exists() else 1
    tickets = scenarios(truth, args.count, copies=copies)
    warm = scenarios(truth, QUERY_WARMUP, seed=2007, copies=copies)
    work = {"query": _query_profiled, "statements": _statements, "phases": _phases}[args.what]
    print(asyncio.run(work(db, truth.end, tickets, warm, args.read_only)))


def _ingest_profiled(db: Path, args: argparse.Namespace) -> str:
    from pyinstrument import Profiler

    profiler = Profiler(async_mode="enabled", interval=0.0005)

    async def profiled() -> list[float]:
        # Started inside the loop, so awaits are attributed to the line that awaited.
        work = _ingest(db, unseen_runs(db, args.seed, args.skip, args.count))
        profiler.start()
        try:
            return await work
        finally:
            profiler.stop()

    lat = asyncio.run(profiled())
    return _summary("ingest", lat) + "\n" + profiler.output_text(unicode=True, color=False, show_all=False)


if __name__ == "__main__":
    main()
