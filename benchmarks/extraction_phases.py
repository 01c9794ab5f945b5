"""Where an extraction's time goes, phase by phase, and what its commit writes.

    benchmarks/run --profile extraction --db /tmp/osmia-bench/nodes-100k.db [--count 200] [--queries 500]

On a copy of ``--db`` (put it on tmpfs to leave the disk out), continues the store's own history
as the serve step does (after ``--queries`` tickets, if given, as the serve step's extractions
come after its queries): 10 warm-up extractions, then ``--count`` timed ones, with the operator's
maintenance pass every 15 simulated seconds and the collector's full pass after it, as its
maintenance loop runs them (:class:`benchmarks.stats.OperatorHeap`; not timed). Each phase is wrapped with
``perf_counter`` (no profiler overhead): redaction and observation (with the joined lines redacted
and cleaned again whole), the transaction in one trip, resolving against the repository's
lessons (reading them, comparing), the node upsert, and the cyclic collector's pauses
(``gc.callbacks``); p50/p95/p99 per phase and the phases of the slowest extractions, to tell a
tail's cause from the median's. Then, from a second run of ``--count`` extractions without
checkpoints: each statement of the transaction with its time, calls and parameter sets an extraction
(triggers' work counted in the statement that fired them), and the write-ahead log: frames
(pages) one commit writes, by table or index (SQLite's ``dbstat``).
"""

from __future__ import annotations

import asyncio
import gc
import re
import shutil
import sqlite3
import struct
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from benchmarks.phase_timing import table, timed
from benchmarks.scenarios import scenarios
from benchmarks.stats import EXTRACTION_WARMUP, OperatorHeap, renders_cleaned, stored_lines
from benchmarks.stores import Clock, unseen_runs
from benchmarks.workload import GroundTruth
from osmia.controller.handlers import MAINTENANCE_SECONDS  # the operator's cadence
from osmia.memory import extractor, learn, merge, resolve, service
from osmia.memory.service import Memory, MemorySettings
from osmia.memory.store import Store, one_trip
from osmia.taskrun import parse_taskrun

# (owner, attribute, label): each is timed where it is looked up, so the callers' own names.
PHASES: tuple[tuple[Any, str, str], ...] = (
    (service, "sanitized", "redact (main thread)"),
    (service, "observe", "observe (main thread)"),
    (extractor, "_settled_whole", "  joined lines settled"),
    (service, "in_one_trip", "transaction, one trip"),
    (learn, "recompute", "  patterns"),
    (merge, "resolve", "  resolve"),
    (resolve, "known_facts", "    read lessons"),
    (resolve, "resolve_lesson", "    compare lessons"),
    (Store, "nodes_by_keys", "  read nodes"),
    (Store, "upsert_nodes", "  upsert nodes"),
)
GC = "cyclic GC pauses"


@contextmanager
def _timed(current: dict[str, float]) -> Iterator[None]:
    """Wrap every :data:`PHASES` entry so that its time adds to ``current[label]``."""

    gc_started: list[float] = []

    def on_gc(phase: str, _info: dict[str, Any]) -> None:
        if phase == "start":
            gc_started[:] = [time.perf_counter()]
        elif gc_started:
            current[GC] = current.get(GC, 0.0) + time.perf_counter() - gc_started[0]

    originals = [(owner, name, getattr(owner, name)) for owner, name, _label in PHASES]
    for (owner, name, label), (_o, _n, fn) in zip(PHASES, originals, strict=True):
        setattr(owner, name, timed(fn, label, current))
    gc.callbacks.append(on_gc)
    try:
        yield
    finally:
        gc.callbacks.remove(on_gc)
        for owner, name, fn in originals:
            setattr(owner, name, fn)


async def _extract(
    db: Path, count: int, *, phases: bool, queries: int = 0, statements: _Statements | None = None
) -> list[dict[str, float]]:
    truth = GroundTruth.from_json(db.with_suffix(".truth.json").read_text())
    runs = unseen_runs(db, truth.seed, truth.runs, count + EXTRACTION_WARMUP)
    copies_file = db.with_suffix(".copies")
    copies = int(copies_file.read_text()) if copies_file.exists() else 1
    tickets = (
        [parse_taskrun(c.doc) for c in scenarios(truth, queries, seed=1007, copies=copies)] if queries else []
    )
    clock = Clock(truth.end + 60.0)
    memory = await Memory.open(
        MemorySettings(store_path=db), clock=clock, update_gauges=False, deferred_checkpoints=True
    )
    with OperatorHeap(
        MAINTENANCE_SECONDS, await stored_lines(memory), await renders_cleaned(memory)
    ) as heap:  # as the operator does
        # As the serve step does before its extractions: the caches fill, the heap grows.
        for ticket in tickets:
            heap.between()
            await memory.context(ticket)
        rows: list[dict[str, float]] = []
        current: dict[str, float] = {}
        maintained_at = clock.now
        try:
            with (
                _timed(current) if phases else _statements_timed(statements if statements is not None else {})
            ):
                for i, (doc, at) in enumerate(runs):
                    clock.now = at
                    if phases and at - maintained_at >= MAINTENANCE_SECONDS:
                        await memory.maintain()
                        heap.after_maintenance()  # the collector's full pass, as the operator's loop does
                        maintained_at = at
                    run = parse_taskrun(doc)
                    current.clear()
                    started = time.perf_counter()
                    await memory.ingest(run, finished_at=at)
                    current["extraction (wall)"] = time.perf_counter() - started
                    heap.after_work()  # as the operator does once a run is extracted
                    if i >= EXTRACTION_WARMUP:
                        rows.append(dict(current))
        finally:
            if not phases:
                _keep_wal(memory.settings.store_path)
            await memory.close()
    return rows


# Statement (whitespace folded, cut at 100 characters) → [seconds, calls, parameter sets].
_Statements = dict[str, list[float]]


@contextmanager
def _statements_timed(totals: _Statements) -> Iterator[None]:
    """Time every statement the one-trip connection runs (an extraction's whole transaction)."""
    methods = ("execute", "executemany", "execute_fetchall")
    originals = {name: getattr(one_trip.DirectConnection, name) for name in methods}

    def wrap(name: str) -> Any:
        fn = originals[name]

        async def timed_statement(self: Any, sql: str, parameters: Any = ()) -> Any:
            rows = list(parameters) if name == "executemany" else None
            started = time.perf_counter()
            result = await fn(self, sql, rows if rows is not None else parameters)
            entry = totals.setdefault(re.sub(r"\s+", " ", sql).strip()[:100], [0.0, 0, 0])
            entry[0] += time.perf_counter() - started
            entry[1] += 1
            entry[2] += len(rows) if rows is not None else 1
            return result

        return timed_statement

    for name in methods:
        setattr(one_trip.DirectConnection, name, wrap(name))
    try:
        yield
    finally:
        for name, fn in originals.items():
            setattr(one_trip.DirectConnection, name, fn)


def _statement_table(totals: _Statements, extractions: int) -> list[str]:
    """The statements that took the most time, per extraction."""
    n = max(1, extractions)
    spent = sum(entry[0] for entry in totals.values())
    calls = sum(entry[1] for entry in totals.values())
    lines = [
        f"statements: {calls / n:.1f} an extraction, {spent / n * 1000:.3f} ms of SQLite "
        "(ms, calls, parameter sets an extraction; a statement's triggers counted in it):"
    ]
    for sql, (seconds, count, rows) in sorted(totals.items(), key=lambda kv: -kv[1][0])[:12]:
        lines.append(f"  {seconds / n * 1000:6.3f} {count / n:5.2f} {rows / n:5.1f}  {sql}")
    return lines


def _keep_wal(db: Path) -> None:
    """Copy the write-ahead log aside before closing (closing checkpoints it and removes it)."""
    wal = Path(f"{db}-wal")
    shutil.copy(wal, wal.with_name(wal.name + ".kept"))


def _table(rows: list[dict[str, float]]) -> list[str]:
    labels = ["extraction (wall)", *(label for *_x, label in PHASES), GC]
    return table(rows, labels, title="extraction phases", what="extractions", width=30)


def _wal_pages(db: Path, count: int) -> list[str]:
    """Pages per commit in the log that ``count`` extractions left, by the table or index they belong to."""
    data = Path(f"{db}-wal.kept").read_bytes()
    page_size = struct.unpack(">I", data[8:12])[0]
    salts = data[16:24]  # a frame with other salts is left over from before the log was reset
    commits: list[set[int]] = []
    pages: set[int] = set()
    for offset in range(32, len(data) - page_size - 23, page_size + 24):
        if data[offset + 8 : offset + 16] != salts:
            break
        page, commit = struct.unpack(">II", data[offset : offset + 8])
        pages.add(page)
        if commit:
            commits.append(pages)
            pages = set()
    conn = sqlite3.connect(db)
    try:
        owner = dict(conn.execute("SELECT pageno, name FROM dbstat"))
    finally:
        conn.close()
    n = max(1, len(commits))
    by_owner = Counter(owner.get(p, "(freed)") for c in commits for p in c)
    lines = [
        f"write-ahead log: {len(commits)} commits ({count} extractions, no checkpoint between), "
        f"{sum(map(len, commits)) / n:.1f} pages ({page_size} bytes) a commit; the most written:"
    ]
    lines += [f"  {k / n:6.2f}  {name}" for name, k in by_owner.most_common(12)]
    return lines


def report(source: Path, count: int, queries: int = 0) -> str:
    """Phases of ``count`` extractions on a copy of ``source`` (after ``queries`` tickets), then
    the statements and the pages a commit writes."""
    lines: list[str] = []
    with tempfile.TemporaryDirectory(dir=source.parent) as tmp:
        for phases in (True, False):
            db = Path(tmp) / source.name
            shutil.copy(source, db)
            for suffix in (".truth.json", ".copies"):
                if source.with_suffix(suffix).exists():
                    shutil.copy(source.with_suffix(suffix), db.with_suffix(suffix))
            statements: _Statements = {}
            rows = asyncio.run(
                _extract(db, count, phases=phases, queries=queries if phases else 0, statements=statements)
            )
            if phases:
                lines += _table(rows)
            else:  # every extraction's statements and commit, the warm-up's too
                lines += [*_statement_table(statements, count + EXTRACTION_WARMUP), *_wal_pages(db, count)]
            for path in Path(tmp).iterdir():
                path.unlink()
    return "\n".join(lines)
