"""Decay as arithmetic on read, checked against the eager implementation it replaced.

Same histories on two stores: one decayed by advancing the epoch (the engine), one by the old
``UPDATE``/``DELETE`` (tests/memory/histories.py). Confidences must agree to 1e-9 and the prune
sets must be equal, through reinforcement, supersession, contradiction, threshold changes,
restarts, export/import and the migration from a schema v5 store.
"""

from __future__ import annotations

import math
import random
import sqlite3
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from osmia import metrics
from osmia.memory import decay as decay_mod
from osmia.memory import store as store_mod
from osmia.memory.fading import effective, prune_cycle
from osmia.memory.schema import MIGRATIONS
from osmia.memory.service import Memory, MemorySettings
from osmia.memory.store import decay_clock
from osmia.memory.types import NodeType
from tests.memory.conftest import DAY, T0, Clock, make_run
from tests.memory.histories import eager_decay, graph_of, history, play


def assert_same_graph(lazy: dict[str, Any], eager: dict[str, Any]) -> None:
    a, b = graph_of(lazy), graph_of(eager)
    assert a["nodes"] == b["nodes"]
    assert a["edges"] == b["edges"]
    assert a["runs"] == b["runs"]
    for node_id, value in b["confidence"].items():
        assert a["confidence"][node_id] == pytest.approx(value, rel=0, abs=1e-9), node_id


async def open_pair(tmp_path: Path, threshold: float = 0.05) -> tuple[Memory, Memory, MemorySettings]:
    lazy_settings = MemorySettings(
        store_path=tmp_path / "lazy.db", min_pattern_samples=3, prune_threshold=threshold
    )
    eager_settings = replace(lazy_settings, store_path=tmp_path / "eager.db")
    lazy = await Memory.open(lazy_settings, clock=Clock(), update_gauges=False)
    eager = await Memory.open(eager_settings, clock=Clock(), update_gauges=False, catch_up=False)
    return lazy, eager, lazy_settings


def test_prune_cycle_is_the_first_epoch_below_the_threshold() -> None:
    rnd = random.Random(5)
    for _ in range(3000):
        c, r, e = rnd.uniform(0.0, 1.0), rnd.choice((0.01, 0.02, 0.03, 0.04, 0.05, 0.3)), rnd.randint(0, 50)
        threshold = rnd.choice((0.05, 0.1, 0.2, c, c * 0.999999))
        n = 0
        while not effective(c, r, n) < threshold:
            n += 1
        assert prune_cycle(c, r, e, threshold) == e + n
    assert prune_cycle(0.5, 0.0, 3, 0.05) is None  # never fades
    assert prune_cycle(0.5, 0.03, 3, None) is None  # no threshold recorded yet


def test_sqlite_and_python_compute_the_same_effective_confidence() -> None:
    conn = sqlite3.connect(":memory:")
    rnd = random.Random(9)
    for _ in range(500):
        c, r, n = rnd.random(), rnd.choice((0.01, 0.03, 0.05)), rnd.randint(0, 400)
        (value,) = conn.execute("SELECT ? * pow(1.0 - ?, ?)", (c, r, n)).fetchone()
        assert value == effective(c, r, n)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
async def test_same_history_same_graph_as_eager_decay(tmp_path: Path, seed: int) -> None:
    lazy, eager, _ = await open_pair(tmp_path)
    steps = history(seed, 60)
    try:
        pruned_lazy = await play(lazy, steps, T0, eager=False, threshold=0.05)
        pruned_eager = await play(eager, steps, T0, eager=True, threshold=0.05)
        assert pruned_eager, "the history must prune something to compare prune sets"
        assert pruned_lazy == pruned_eager
        assert_same_graph(await lazy.export(), await eager.export())
    finally:
        await lazy.close()
        await eager.close()


async def assert_prunes_like_eager(tmp_path: Path, runs: int) -> None:
    """The lazy pass, however its prune transactions are cut, prunes what the eager pass prunes
    and leaves the same graph (on a history of ``runs`` runs over 60 days)."""
    lazy, eager, _ = await open_pair(tmp_path)
    steps = history(runs, 60)
    try:
        pruned_lazy = await play(lazy, steps, T0, eager=False, threshold=0.05)
        pruned_eager = await play(eager, steps, T0, eager=True, threshold=0.05)
        assert len(pruned_eager) > 2 and pruned_lazy == pruned_eager
        assert_same_graph(await lazy.export(), await eager.export())
    finally:
        await lazy.close()
        await eager.close()


async def test_pruning_in_small_transactions_prunes_the_same_nodes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(decay_mod, "PRUNE_BATCH", 2)
    await assert_prunes_like_eager(tmp_path, runs=5)


async def test_a_threshold_change_recomputes_every_prune_epoch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(decay_clock, "PRUNE_RECOMPUTE_BATCH", 7)  # several short transactions
    lazy, eager, settings = await open_pair(tmp_path, threshold=0.05)
    steps = history(11, 60)
    half = len(steps) // 2
    try:
        await play(lazy, steps[:half], T0, eager=False, threshold=0.05)
        await play(eager, steps[:half], T0, eager=True, threshold=0.05)
        await lazy.close()
        # The operator restarts with a higher threshold in its configuration.
        lazy = await Memory.open(replace(settings, prune_threshold=0.3), clock=Clock(), update_gauges=False)
        pruned_eager = await eager_decay(eager, 0, 0.3)
        pruned_lazy = await play(lazy, steps[half:], T0, eager=False, threshold=0.3)
        pruned_eager |= await play(eager, steps[half:], T0, eager=True, threshold=0.3)
        assert pruned_lazy <= pruned_eager  # the reopen itself pruned the rest (below)
        assert_same_graph(await lazy.export(), await eager.export())
        assert await lazy._store.get_meta(store_mod.PRUNE_RECOMPUTE_KEY) is None
    finally:
        await lazy.close()
        await eager.close()


async def test_catch_up_after_downtime_is_one_step_that_rewrites_no_confidence(
    settings: MemorySettings, clock: Clock
) -> None:
    mem = await Memory.open(settings, clock=clock, update_gauges=False)
    for i in range(6):
        await mem.ingest(make_run(f"a{i}", success=i % 2 == 0, tests_failed=("TestX",), files=("a/b.go",)))
    stored = await mem._store.rows("SELECT id, confidence, epoch FROM nodes ORDER BY id")
    fresh = {n["id"]: n for n in (await mem.export())["nodes"]}
    await mem.close()
    clock.advance(30.5 * DAY)  # a month of downtime
    mem = await Memory.open(settings, clock=clock, update_gauges=False)
    try:
        assert await mem._store.rows("SELECT id, confidence, epoch FROM nodes ORDER BY id") == stored
        assert (await mem._store.decay_clock())[0] == 30
        after = {n["id"]: n["confidence"] for n in (await mem.export())["nodes"]}
        for node_id, node in fresh.items():
            expected = node["confidence"] * (1 - node["decay_rate"]) ** 30
            if expected < settings.prune_threshold:
                assert node_id not in after
            else:
                assert after[node_id] == pytest.approx(expected, rel=1e-12)
    finally:
        await mem.close()


async def test_a_decay_by_another_process_is_seen_without_reopening(tmp_path: Path) -> None:
    lazy, eager, settings = await open_pair(tmp_path)
    cli = await Memory.open(settings, clock=Clock(), update_gauges=False, catch_up=False)
    first = make_run("a", success=False, tests_failed=("TestX",), files=("a/b.go",))
    second = make_run("b", success=False, tests_failed=("TestX",), files=("a/b.go",))
    try:
        await lazy.ingest(first, finished_at=T0)
        await eager.ingest(first, finished_at=T0)
        before = {n["id"]: n for n in (await lazy.export())["nodes"]}
        await cli.decay(cycles=4)  # `osmia memory decay` while the operator runs
        await eager_decay(eager, 4, settings.prune_threshold)
        after = {n["id"]: n["confidence"] for n in (await lazy.export())["nodes"]}
        for node_id, node in before.items():
            assert after[node_id] == pytest.approx(
                node["confidence"] * (1 - node["decay_rate"]) ** 4, rel=1e-12
            )
        # The operator's next extraction reinforces the decayed value, not the one it read before.
        await lazy.ingest(second, finished_at=T0 + DAY)
        await eager.ingest(second, finished_at=T0 + DAY)
        assert_same_graph(await lazy.export(), await eager.export())
    finally:
        await lazy.close()
        await eager.close()
        await cli.close()


async def test_export_then_import_keeps_the_graph_and_how_it_decays(tmp_path: Path) -> None:
    lazy, eager, settings = await open_pair(tmp_path)
    steps = history(21, 40)
    try:
        await play(lazy, steps, T0, eager=False, threshold=0.05)
        await play(eager, steps, T0, eager=True, threshold=0.05)
        dump = await lazy.export()
        # The importing host's clock is at the history's end: an import refuses times in its future.
        latest = max(max(n["valid_from"], n["last_seen"]) for n in dump["nodes"])
        copy = await Memory.open(
            replace(settings, store_path=tmp_path / "copy.db"), clock=Clock(latest), update_gauges=False
        )
        try:
            await copy.import_(dump)
            assert_same_graph(await copy.export(), dump)
            for memory in (copy, lazy):
                await memory.decay(cycles=9)
            await eager_decay(eager, 9, 0.05)
            assert_same_graph(await copy.export(), await eager.export())
            assert_same_graph(await lazy.export(), await eager.export())
        finally:
            await copy.close()
    finally:
        await lazy.close()
        await eager.close()


def _v5_store(path: Path, dump: dict[str, Any]) -> None:
    """A store as schema v5 left it, holding ``dump``'s graph (confidences decayed in place)."""
    conn = sqlite3.connect(path, isolation_level=None)
    for script in MIGRATIONS[:5]:
        conn.executescript(script)
    conn.execute("PRAGMA user_version = 5")
    cols = list(dump["nodes"][0])
    conn.executemany(
        f"INSERT INTO nodes ({', '.join(cols)}, terms) VALUES ({', '.join('?' * len(cols))}, '')",
        [
            tuple(__import__("json").dumps(v) if isinstance(v, list) else v for v in n.values())
            for n in dump["nodes"]
        ],
    )
    conn.executemany("INSERT INTO edges VALUES (?, ?, ?, ?, ?)", dump["edges"])
    v5_runs = [r[:13] for r in dump["runs"]]  # the run columns schema v5 had
    conn.executemany(f"INSERT INTO runs VALUES ({', '.join('?' * 13)})", v5_runs)
    conn.executemany("INSERT INTO meta VALUES (?, ?)", list(dump["meta"].items()))
    conn.close()


async def test_a_v5_store_migrates_and_decays_as_before(tmp_path: Path) -> None:
    lazy, eager, settings = await open_pair(tmp_path)
    steps = history(31, 40)
    try:
        await play(lazy, steps, T0, eager=False, threshold=0.05)
        dump = await lazy.export()
    finally:
        await lazy.close()
        await eager.close()
    old = tmp_path / "v5.db"
    _v5_store(old, dump)
    reference = tmp_path / "v5-eager.db"
    _v5_store(reference, dump)
    migrated = await Memory.open(replace(settings, store_path=old), clock=Clock(), update_gauges=False)
    eager = await Memory.open(
        replace(settings, store_path=reference), clock=Clock(), update_gauges=False, catch_up=False
    )
    try:
        assert_same_graph(await migrated.export(), dump)
        more = history(32, 30)
        pruned = await play(migrated, more, T0 + 200 * DAY, eager=False, threshold=0.05)
        pruned_eager = await play(eager, more, T0 + 200 * DAY, eager=True, threshold=0.05)
        assert pruned == pruned_eager and pruned
        assert_same_graph(await migrated.export(), await eager.export())
    finally:
        await migrated.close()
        await eager.close()


async def test_node_gauges_follow_pruning_without_a_recount(settings: MemorySettings, clock: Clock) -> None:
    mem = await Memory.open(settings, clock=clock)
    try:
        for i in range(5):
            await mem.ingest(make_run(f"g{i}", success=False, tests_failed=(f"Test{i}",), files=("x/y.go",)))
        result = await mem.decay(cycles=200)
        assert result.pruned > 0
        counts = await mem._store.counts_by_type()
        for node_type in NodeType:
            gauge = metrics.REGISTRY.get_sample_value("osmia_memory_nodes_total", {"type": node_type.value})
            assert gauge == counts.get(node_type.value, 0)
        assert result.remaining == sum(counts.values())
    finally:
        await mem.close()


def test_effective_is_exact_at_the_stamped_epoch() -> None:
    assert effective(0.123456789, 0.03, 0) == 0.123456789
    assert math.isclose(effective(0.5, 0.03, 2), 0.5 * 0.97 * 0.97, rel_tol=1e-15)


async def test_pruning_under_a_time_budget_prunes_the_same_nodes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A prune transaction that stops after its first chunk (a budget of 0 s, chunks of one node)
    leaves the same graph as the eager pass: the pass goes on until nothing is due."""
    monkeypatch.setattr(decay_mod, "PRUNE_BUDGET_SECONDS", 0.0)
    monkeypatch.setattr(decay_mod, "PRUNE_CHUNK", 1)
    monkeypatch.setattr(decay_mod, "PRUNE_PAUSE_MIN", 0.0)
    await assert_prunes_like_eager(tmp_path, runs=6)


async def test_a_prune_transaction_stops_at_its_budget_and_says_more_is_due(memory: Memory) -> None:
    for i in range(25):
        await memory.ingest(
            make_run(f"p{i}", learnings=(f"Lesson number {i} about the cache",)), finished_at=T0
        )
    store = memory._store
    async with store.transaction():
        await store.advance_epoch(10_000)  # everything is due
    first, more = await decay_mod.prune_batch(store, batch=100, budget=0.0)
    assert len(first) == decay_mod.PRUNE_CHUNK and more  # one chunk, then the budget was spent
    rest, more = await decay_mod.prune_batch(store, batch=1000, budget=60.0)
    assert rest and not more  # everything left, and it says so
    empty, more = await decay_mod.prune_batch(store)
    assert empty == [] and not more
    assert decay_mod.prune_pause(0.0) == decay_mod.PRUNE_PAUSE_MIN
    assert decay_mod.prune_pause(10.0) == decay_mod.PRUNE_PAUSE_MAX
    assert decay_mod.prune_pause(0.02) == 0.02


async def test_a_node_with_a_long_provenance_opens_a_prune_transaction_of_its_own(
    memory: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Deleting a node takes its provenance rows with it: a node many runs observed is never the
    last chunk of a transaction that already deleted others (at 1M nodes one with 200+ provenance
    rows took 20-40 ms to delete), and the pass still prunes everything that is due."""
    for i in range(12):  # one repository fact with a dozen runs behind it, a few lighter facts
        await memory.ingest(
            make_run(f"h{i}", learnings=(f"Lesson number {i} about the cache",)), finished_at=T0
        )
    store = memory._store
    async with store.transaction():
        await store.advance_epoch(10_000)  # everything is due
    due = await store.due_nodes(10_000, 1000)
    events = {seq: rows for seq, _id, _type, rows in due}
    heavy = max(events.values())
    assert heavy >= 12 and min(events.values()) < heavy  # the check below can tell them apart
    monkeypatch.setattr(decay_mod, "PRUNE_HEAVY_EVENTS", heavy - 1)
    monkeypatch.setattr(decay_mod, "PRUNE_CHUNK", 3)
    ids = {node_id: events[seq] for seq, node_id, _type, _rows in due}
    batches = []
    while True:
        done, more = await decay_mod.prune_batch(store, batch=1000, budget=60.0)
        batches.append([ids[node_id] for node_id, _type in done])
        if not more:
            break
    assert sorted(rows for batch in batches for rows in batch) == sorted(ids.values())  # all pruned
    for batch in batches:
        for position, rows in enumerate(batch):
            if rows > heavy - 1:
                assert position == 0, batches  # the heavy node came first in its transaction
    assert len(batches) > 1  # the light nodes before it were committed without it
    assert await store.due_nodes(10_000, 10) == []


def test_a_rate_too_small_to_change_a_float_never_prunes() -> None:
    """Found by the import fuzz test: an imported decay rate of 1e-306 made ``1 - rate`` exactly 1,
    and the prune cycle divided by its logarithm (0): the import failed inside SQLite."""
    from osmia.memory.fading import prune_cycle

    assert prune_cycle(0.5, 1.3e-306, 3, 0.05) is None
    assert prune_cycle(0.5, 1e-17, 3, 0.05) is None
    assert prune_cycle(0.5, 0.01, 3, 0.05) == 3 + 230


async def test_full_text_segments_are_merged_by_maintenance_not_inside_prune_commits(tmp_path: Path) -> None:
    """Schema v12: FTS5 merges a level inside a write only at 64 segments (its default, 16, landed
    a merge in one of a prune pass's hundreds of small commits); a v11 store is upgraded."""
    path = tmp_path / "m.db"
    mem = await Memory.open(MemorySettings(store_path=path), update_gauges=False)
    await mem.close()
    with sqlite3.connect(path) as conn:
        assert dict(conn.execute("SELECT k, v FROM nodes_fts_config")) == {
            "automerge": 0,
            "crisismerge": 64,
            "version": 4,
        }
        conn.execute("DELETE FROM nodes_fts_config WHERE k = 'crisismerge'")  # as a v11 store has it
        conn.execute("ALTER TABLE nodes DROP COLUMN clean_stamp")  # (v13's column)
        conn.execute("PRAGMA user_version = 11")
    mem = await Memory.open(MemorySettings(store_path=path), update_gauges=False)
    await mem.close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT v FROM nodes_fts_config WHERE k = 'crisismerge'").fetchone() == (64,)
        assert conn.execute("PRAGMA user_version").fetchone() == (len(MIGRATIONS),)
