"""The candidate sets kept between queries (``SetCache``): reused only while the store is unchanged.

Real SQLite files: a read-only connection as the operator's calling thread has, and a writer
beside it, either another connection or the store's own through ``Memory``.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from osmia.memory.service import Memory, MemorySettings
from osmia.memory.store.query_reads import CandidateSets, QueryReads, SetCache
from tests.memory.conftest import T0, Clock, make_run

TENANT = "ticketing"
ENGINE = "claude-code"


async def _store(path: Path) -> None:
    memory = await Memory.open(MemorySettings(store_path=path), clock=Clock(), update_gauges=False)
    try:
        for i in range(8):
            await memory.ingest(
                make_run(f"r{i}", success=i % 3 != 0, task_type="bug", learnings=(f"Lesson {i}",)),
                finished_at=T0 + i * 3600,
            )
    finally:
        await memory.close()


def _reader(path: Path) -> sqlite3.Connection:
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None)
    db.execute("PRAGMA query_only = ON")
    return db


def _sets(db: sqlite3.Connection, sets: SetCache | None) -> CandidateSets:
    """One query's candidate sets, in one read transaction (as a ranking reads them)."""
    db.execute("BEGIN")
    try:
        return QueryReads(db, sets=sets).candidate_sets(
            TENANT,
            repository="org/api",
            repository_limit=60,
            engine=ENGINE,
            engine_limit=60,
            task_type="bug",
            language="go",
            pattern_limit=60,
        )
    finally:
        db.execute("COMMIT")


def _view(sets: CandidateSets) -> list[list[tuple[str, float]]]:
    return [[(n.id, n.confidence) for n in s] for s in (sets.repository, sets.engine, sets.patterns)]


async def test_kept_sets_are_reused_while_unchanged_and_read_again_after_another_connection_writes(
    tmp_path: Path,
) -> None:
    path = tmp_path / "m.db"
    await _store(path)
    db, writer = _reader(path), sqlite3.connect(path, isolation_level=None)
    try:
        cache = SetCache()
        first = _sets(db, cache)
        assert first.engine and first.patterns  # both kinds of kept set are exercised
        again = _sets(db, cache)
        assert cache.hits == 2 and _view(again) == _view(first) == _view(_sets(db, None))
        assert again.engine[0] is first.engine[0]
        # Another connection weakens one of the engine's facts: the kept set is not used.
        weakened = first.engine[0].id
        writer.execute("UPDATE nodes SET confidence = confidence / 2 WHERE id = ?", (weakened,))
        after = _sets(db, cache)
        assert cache.hits == 2
        assert _view(after) == _view(_sets(db, None)) != _view(first)
        assert dict(_view(after)[1])[weakened] < dict(_view(first)[1])[weakened]
        _sets(db, cache)
        assert cache.hits == 4  # kept again, at the new version
    finally:
        db.close()
        writer.close()


async def test_a_connection_that_can_write_keeps_no_set(tmp_path: Path) -> None:
    """Its own commits do not change its ``data_version``: nothing it read could be trusted later."""
    path = tmp_path / "m.db"
    await _store(path)
    db = sqlite3.connect(path, isolation_level=None)
    try:
        cache = SetCache()
        first = _sets(db, cache)
        db.execute("UPDATE nodes SET confidence = confidence / 2 WHERE id = ?", (first.engine[0].id,))
        after = _sets(db, cache)
        assert cache.hits == 0 and _view(after) == _view(_sets(db, None)) != _view(first)
    finally:
        db.close()


async def test_queries_through_memory_see_each_extraction(tmp_path: Path) -> None:
    """Ranking on the operator's read-only connection, with extractions between the queries: every
    query's engine facts are what a fresh read gives."""
    path = tmp_path / "m.db"
    await _store(path)
    clock = Clock(T0 + 30 * 3600)
    memory = await Memory.open(MemorySettings(store_path=path), clock=clock, update_gauges=False)
    probe = _reader(path)
    try:
        ticket = make_run("q", finished=False, task_type="bug")
        hits = 0
        for i in range(6):
            await memory.context(ticket)
            await memory.context(ticket)
            ranker_sets = memory._ranker._sets
            assert ranker_sets.hits > hits  # the second query reused the engine's facts
            hits = ranker_sets.hits
            await memory.ingest(
                make_run(f"w{i}", success=i % 2 == 0, task_type="bug", learnings=(f"Later {i}",)),
                finished_at=clock.now,
            )
            clock.advance(3600)
            context = await memory.explain(ticket)
            fresh = _view(_sets(probe, None))[1]
            engine = sorted(
                (c.node.id, c.node.confidence) for c in context if "engine" in dict(c.parts.signals)
            )
            assert engine == sorted(fresh)
    finally:
        probe.close()
        await memory.close()
