"""Seeded random histories of runs and decay passes, and the eager decay they are checked against.

The eager decay is the implementation decay replaced (schema v5): one ``UPDATE`` that multiplies
every stored confidence by ``(1 − decay_rate) ^ cycles``, then a ``DELETE`` of every node below
the threshold. Run on a store whose epoch never advances, stored and effective confidences are
the same number, so the same merge code runs on both sides.
"""

from __future__ import annotations

import random
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from osmia.memory.schema import MIGRATIONS
from osmia.memory.service import Memory, MemorySettings
from osmia.taskrun import TaskRun
from tests.memory.conftest import DAY, T0, Clock, make_run

REPOS = ("https://github.com/org/api", "https://github.com/org/web", "https://github.com/org/cli")
ENGINES = ("claude-code", "codex")
TESTS = ("TestLogin", "TestRefund", "TestRace", "TestCache")
LEARNINGS = ("Use the race detector", "Run make generate first", "The cache needs a warm-up")
FILES = ("internal/auth/login.go", "internal/cache/lru.go", "cmd/main.go", "docs/index.md")


@dataclass(frozen=True)
class Step:
    """Ingest ``run`` at ``at`` (seconds after the start), or apply ``cycles`` decay cycles."""

    run: TaskRun | None = None
    at: float = 0.0
    cycles: int = 0


def history(seed: int, runs: int, *, decay_every: int = 4, max_cycles: int = 12) -> list[Step]:
    """``runs`` random runs with a decay pass of 0..``max_cycles`` cycles after every few of them."""
    rnd = random.Random(seed)
    steps: list[Step] = []
    at = 0.0
    for i in range(runs):
        success = rnd.random() < 0.55
        at += rnd.uniform(0.1, 2.0) * DAY
        run = make_run(
            f"r{seed}-{i}",
            success=success,
            repo=rnd.choice(REPOS),
            engine=rnd.choice(ENGINES),
            task_type=rnd.choice(("bug", "feature")),
            tests_failed=() if success else tuple(rnd.sample(TESTS, rnd.randint(0, 2))),
            flaky=tuple(rnd.sample(TESTS, 1)) if rnd.random() < 0.2 else (),
            learnings=tuple(rnd.sample(LEARNINGS, 1)) if rnd.random() < 0.3 else (),
            files=tuple(rnd.sample(FILES, rnd.randint(0, 2))),
            attempts=("codex", "claude-code") if rnd.random() < 0.15 else (),
            summary="Fixed flaky TestRace by adding a lock" if success and rnd.random() < 0.1 else "",
        )
        steps.append(Step(run=run, at=at))
        if i % decay_every == decay_every - 1:
            steps.append(Step(cycles=rnd.randint(0, max_cycles)))
    return steps


async def eager_decay(memory: Memory, cycles: int, threshold: float) -> set[str]:
    """The pre-v6 decay pass on ``memory``'s store (whose epoch stays 0); returns the ids pruned."""
    store = memory._store
    async with store.transaction():
        if cycles > 0:
            await store.execute(
                "UPDATE nodes SET confidence = confidence * pow(1.0 - decay_rate, ?)", (cycles,)
            )
        pruned = {r[0] for r in await store.rows("SELECT id FROM nodes WHERE confidence < ?", (threshold,))}
        await store.execute("DELETE FROM nodes WHERE confidence < ?", (threshold,))
    memory.graph.nodes_removed(len(pruned))
    return pruned


async def play(memory: Memory, steps: list[Step], t0: float, *, eager: bool, threshold: float) -> set[str]:
    """Apply ``steps``; returns every id pruned on the way."""
    pruned: set[str] = set()
    for step in steps:
        if step.run is not None:
            await memory.ingest(step.run, finished_at=t0 + step.at)
        elif eager:
            pruned |= await eager_decay(memory, step.cycles, threshold)
        else:
            before = {n["id"] for n in (await memory.export())["nodes"]}
            await memory.decay(cycles=step.cycles)
            pruned |= before - {n["id"] for n in (await memory.export())["nodes"]}
    return pruned


def graph_of(export: dict[str, Any]) -> dict[str, Any]:
    """What two stores must agree on: nodes by id (minus confidence), confidences, edges, runs."""
    nodes = {n["id"]: {k: v for k, v in n.items() if k != "confidence"} for n in export["nodes"]}
    return {
        "nodes": nodes,
        "confidence": {n["id"]: n["confidence"] for n in export["nodes"]},
        "edges": sorted(tuple(e[:3]) for e in export["edges"]),
        "runs": sorted(r[0] for r in export["runs"]),
    }


async def played_store_at_version(directory: Path, version: int, seed: int) -> Path:
    """A store at schema ``version`` holding the nodes of a 30-run history played on a new store.

    For the migration tests: the later migrations run on it when it is opened. Columns an older
    migration filled through the store's connection functions are copied from the new store.
    """
    source = directory / "new.db"
    memory = await Memory.open(MemorySettings(store_path=source), clock=Clock(), update_gauges=False)
    try:
        await play(memory, history(seed, 30), T0, eager=False, threshold=0.05)
    finally:
        await memory.close()
    path = directory / f"v{version}.db"
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        for script in MIGRATIONS[:version]:
            conn.executescript(
                script.replace("osmia_words(content)", "NULL")
                .replace("osmia_sentence(content)", "NULL")
                .replace("osmia_lesson_form(content)", "''")
            )
        conn.execute(f"PRAGMA user_version = {version}")
        conn.execute(f"ATTACH '{source}' AS new")
        columns = [r[1] for r in conn.execute("PRAGMA main.table_info(nodes)")]
        conn.execute(f"INSERT INTO main.nodes SELECT {', '.join(columns)} FROM new.nodes")
        conn.execute("DETACH new")
    finally:
        conn.close()
    return path
