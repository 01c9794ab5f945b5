"""Unlearning a run (``Memory.forget_run``): the graph is the one a history without the run leaves."""

from __future__ import annotations

import random
import sqlite3
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from osmia.memory import provenance
from osmia.memory.service import Memory, MemorySettings
from osmia.memory.store import run_id
from tests.memory.conftest import DAY, T0, Clock, make_run
from tests.memory.histories import Step, history, play


def facts(export: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {n["id"]: n for n in export["nodes"] if n["type"] == "fact"}


def statements(export: dict[str, Any]) -> dict[str, tuple[str, bool]]:
    """Valid patterns and profiles: what they say (their confidence is restated when recomputed)."""
    return {n["key"]: n["content"] for n in export["nodes"] if n["type"] != "fact" and n["valid_to"] is None}


def assert_forgotten(after: dict[str, Any], without: dict[str, Any], ref: str) -> None:
    a, b = facts(after), facts(without)
    assert sorted(a) == sorted(b)
    for node_id, want in b.items():
        got = a[node_id]
        assert got["confidence"] == pytest.approx(want["confidence"], rel=0, abs=1e-9), want["key"]
        for key in ("occurrences", "valid_to", "last_seen", "valid_from", "key", "tenant"):
            assert got[key] == want[key], (want["key"], key)
        assert ref not in got["sources"]
        assert got["sources"] == want["sources"], want["key"]
    assert statements(after) == statements(without)
    fact_ids = set(b)
    edges = lambda e: sorted(tuple(x[:3]) for x in e["edges"] if x[0] in fact_ids and x[1] in fact_ids)  # noqa: E731
    assert edges(after) == edges(without)
    assert sorted(r[0] for r in after["runs"]) == sorted(r[0] for r in without["runs"])


async def pair(tmp_path: Path) -> tuple[Memory, Memory]:
    settings = MemorySettings(store_path=tmp_path / "all.db", min_pattern_samples=3)
    full = await Memory.open(settings, clock=Clock(T0 + 400 * DAY), update_gauges=False)
    without = await Memory.open(
        replace(settings, store_path=tmp_path / "without.db"),
        clock=Clock(T0 + 400 * DAY),
        update_gauges=False,
    )
    return full, without


@pytest.mark.parametrize(("seed", "index"), [(1, 3), (2, 20), (3, 35), (4, 50), (5, 0)])
async def test_forgetting_a_run_leaves_the_graph_of_a_history_without_it(
    tmp_path: Path, seed: int, index: int
) -> None:
    full, without = await pair(tmp_path)
    steps = history(seed, 60)
    runs = [s for s in steps if s.run is not None]
    forgotten = runs[index].run
    assert forgotten is not None
    try:
        await play(full, steps, T0, eager=False, threshold=0.05)
        await play(without, [s for s in steps if s.run is not forgotten], T0, eager=False, threshold=0.05)
        result = await full.forget_run(f"{forgotten.namespace}/{forgotten.name}")
        assert result.runs == [forgotten.run_key]
        assert_forgotten(await full.export(), await without.export(), forgotten.ref)
        # Both keep decaying alike afterwards.
        await full.decay(cycles=7)
        await without.decay(cycles=7)
        assert_forgotten(await full.export(), await without.export(), forgotten.ref)
    finally:
        await full.close()
        await without.close()


# Random histories and runs beyond the five above: a run that kept a fact alive, a fallback run
# (its failed engine's patterns), a run whose contradiction made an edge another run's event needed.
FUZZ = [(seed, (seed * 7) % 60) for seed in range(6, 22)]


@pytest.mark.parametrize(("seed", "index"), FUZZ)
async def test_forgetting_any_run_of_a_random_history_is_exact(tmp_path: Path, seed: int, index: int) -> None:
    await test_forgetting_a_run_leaves_the_graph_of_a_history_without_it(tmp_path, seed, index)


async def test_a_replayed_event_for_a_forgotten_run_teaches_nothing(memory: Memory) -> None:
    # A mistaken lesson the hostility checks let through (an order to disable the checks is not
    # stored at all): what ``forget --run`` is for.
    evil = "Retry the auth checks against the staging database"
    run = make_run("poisoned", success=False, tests_failed=("TestEvil",), learnings=(evil,))
    await memory.ingest(run)
    before = await memory.export()
    assert any(evil in n["content"] for n in before["nodes"])
    result = await memory.forget_run("agents/poisoned")
    assert result.runs == [run.run_key] and result.deleted
    after = await memory.export()
    assert not any(evil in n["content"] or "TestEvil" in n["content"] for n in after["nodes"])
    assert after["runs"] == [] and after["provenance"] == []
    again = await memory.ingest(run)  # the watch replays the TaskRun
    assert again.state == "skipped" and "forgotten" in again.reason
    assert (await memory.export())["nodes"] == after["nodes"]
    assert (await memory.forget_run("agents/poisoned")).runs == []  # nothing left to forget


async def test_a_run_that_observed_a_fact_twice_is_forgotten(memory: Memory) -> None:
    await memory.ingest(make_run("a", success=False, tests_failed=("TestX",)), finished_at=T0)
    twice = make_run("b", success=False, tests_failed=("TestX", "TestX"), learnings=("Pin Go", "Pin Go"))
    await memory.ingest(twice, finished_at=T0 + DAY)
    result = await memory.forget_run("agents/b")
    assert result.runs == [twice.run_key]
    node = next(n for n in (await memory.export())["nodes"] if n["key"].startswith("failing_test"))
    assert node["occurrences"] == 1 and node["sources"] == ["tr/agents/a"]


async def test_forgetting_an_unknown_run_changes_nothing(memory: Memory) -> None:
    await memory.ingest(make_run("a", success=False, tests_failed=("TestX",)))
    before = await memory.export()
    result = await memory.forget_run("agents/nope")
    assert result.runs == [] and not result.deleted and result.updated == 0
    assert await memory.export() == before


async def test_forget_is_scoped_to_a_tenant(memory: Memory) -> None:
    await memory.ingest(make_run("a", success=False, tests_failed=("TestX",), flow="incident-triage"))
    assert (await memory.forget_run("agents/a", tenant="ticketing")).runs == []
    assert (await memory.forget_run("agents/a", tenant="incident-triage")).runs == ["agents/a/uid-agents-a"]


async def test_a_fact_others_support_keeps_their_contribution(memory: Memory) -> None:
    common = dict(success=False, tests_failed=("TestX",), files=("internal/x.go",))
    await memory.ingest(make_run("a", **common), finished_at=T0)
    await memory.ingest(make_run("b", **common), finished_at=T0 + DAY)
    await memory.ingest(make_run("c", **common), finished_at=T0 + 2 * DAY)
    node = next(n for n in (await memory.export())["nodes"] if n["key"].startswith("failing_test"))
    assert node["occurrences"] == 3
    await memory.forget_run("agents/b")
    after = next(n for n in (await memory.export())["nodes"] if n["id"] == node["id"])
    assert after["occurrences"] == 2 and after["confidence"] < node["confidence"]
    assert after["sources"] == ["tr/agents/a", "tr/agents/c"]
    assert after["last_seen"] == T0 + 2 * DAY


async def test_patterns_drop_back_below_the_sample_minimum(memory: Memory) -> None:
    for i in range(3):  # min_pattern_samples=3 in these tests
        await memory.ingest(make_run(f"p{i}", success=True), finished_at=T0 + i * DAY)
    keys = {n["key"] for n in (await memory.export())["nodes"]}
    assert any(k.startswith("pattern:rate:") for k in keys)
    await memory.forget_run("agents/p1")
    keys = {n["key"] for n in (await memory.export())["nodes"]}
    assert not any(k.startswith("pattern:rate:") or k.startswith("pattern:duration:") for k in keys)


async def test_a_store_from_before_provenance_can_forget_a_later_run(tmp_path: Path) -> None:
    settings = MemorySettings(store_path=tmp_path / "m.db", min_pattern_samples=3)
    mem = await Memory.open(settings, clock=Clock(), update_gauges=False)
    common = dict(success=False, tests_failed=("TestX",))
    await mem.ingest(make_run("old", **common), finished_at=T0)
    await mem.close()
    # As if "old" had been extracted before schema v6: its events become one baseline event.
    conn = sqlite3.connect(settings.store_path)
    conn.execute("DELETE FROM node_runs")
    conn.execute(
        "INSERT INTO node_runs (node, run, event, epoch, at, value, other) "
        "SELECT seq, 0, 4, epoch, last_seen, confidence, occurrences FROM nodes"
    )
    conn.commit()
    conn.close()
    mem = await Memory.open(settings, clock=Clock(), update_gauges=False)
    try:
        before = facts(await mem.export())
        await mem.ingest(make_run("new", **common), finished_at=T0 + DAY)
        await mem.forget_run("agents/new")
        after = facts(await mem.export())
        assert sorted(after) == sorted(before)
        for node_id, node in before.items():
            assert after[node_id]["confidence"] == pytest.approx(node["confidence"], abs=1e-12)
            assert after[node_id]["occurrences"] == node["occurrences"]
        # The pre-upgrade run has no events of its own: forgetting it removes its run row only.
        result = await mem.forget_run("agents/old")
        assert result.runs and not result.deleted
    finally:
        await mem.close()


def test_run_ids_are_stable_and_never_the_baseline() -> None:
    assert run_id("agents/a/uid") == run_id("agents/a/uid") > 0
    assert run_id("agents/a/uid") != run_id("agents/b/uid")


def _unused(steps: list[Step]) -> None:  # pragma: no cover - keeps the import used in type positions
    del steps


@pytest.mark.parametrize("seed", range(40))
async def test_sources_filled_from_the_newest_runs_are_those_replaying_their_references_gives(
    memory: Memory, seed: int
) -> None:
    """``forget --run`` reads a fact's events without their runs' references and then only the
    newest few (:func:`provenance.fill_sources`): the same list as replaying every reference. Runs
    that share a reference (one TaskRun name, several uids) and runs without one make the newest
    runs hold fewer distinct references than the list needs, so the reads go deeper."""
    rnd = random.Random(seed)
    cap = rnd.choice((1, 2, 3, 5))
    refs = {run: rnd.choice(("tr/a/x", "tr/a/y", "tr/a/z", "tr/b/w", None)) for run in range(1, 30)}
    store = memory._store
    async with store.transaction():
        await store.executemany(
            "INSERT INTO run_refs (run, ref) VALUES (?, ?)", [(r, ref) for r, ref in refs.items() if ref]
        )
    histories: dict[int, list[provenance.LoggedEvent]] = {}
    step = 0
    for seq in range(1, 8):
        events = []
        if rnd.random() < 0.3:
            step += 1
            events.append(provenance.LoggedEvent(step, 0, provenance.BASELINE, 0, T0, 0.5, 2))
        for _ in range(rnd.randint(0 if events else 1, 60)):
            step += 1
            run = rnd.randint(1, 29)
            events.append(
                provenance.LoggedEvent(step, run, provenance.OBSERVED, 0, T0 + step, 0.4, None, refs[run])
            )
        histories[seq] = events
    options: dict[str, Any] = {
        "decay_rates": dict.fromkeys(histories, 0.0),
        "threshold": None,
        "gain": 0.25,
        "share": 0.8,
        "max_sources": cap,
    }
    with_refs, _ = provenance.replay(histories, **options)
    bare = {seq: [replace(ev, ref=None) for ev in evs] for seq, evs in histories.items()}
    filled, _ = provenance.replay(bare, **options)
    assert all(state is not None and not state.sources for state in filled.values())
    async with store.transaction():
        await provenance.fill_sources(store, filled, cap)
    assert {seq: s.sources for seq, s in filled.items() if s} == {
        seq: s.sources for seq, s in with_refs.items() if s
    }
    assert any(len(s.runs) > 2 * cap for s in filled.values() if s)  # deeper than the first read
