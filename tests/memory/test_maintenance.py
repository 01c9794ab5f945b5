"""Housekeeping out of the write path: deferred WAL checkpoints and FTS merging."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from osmia.memory.service import Memory, MemorySettings
from tests.memory.conftest import Clock, make_run


def fts_segments(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute("SELECT count(*) FROM nodes_fts_idx").fetchone()[0])


async def test_maintenance_merges_the_full_text_segments_writes_left(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    mem = await Memory.open(
        MemorySettings(store_path=db), clock=Clock(), update_gauges=False, deferred_checkpoints=True
    )
    try:
        for i in range(40):
            await mem.ingest(
                make_run(
                    f"r{i}",
                    success=False,
                    tests_failed=(f"TestMaint{i}",),
                    learnings=(f"lesson {i} about the maintenance window",),
                )
            )
        before = fts_segments(db)
        await mem.maintain()
        assert fts_segments(db) < before  # segments left by writes were merged
        with sqlite3.connect(db) as conn:  # raises if the merged index does not match the nodes
            conn.execute("INSERT INTO nodes_fts (nodes_fts) VALUES ('integrity-check')")
        hits = await mem.search("TestMaint7 maintenance window")
        assert any("TestMaint7" in node.content for node, _rank in hits)
    finally:
        await mem.close()


async def test_without_deferral_sqlite_checkpoints_by_itself(tmp_path: Path) -> None:
    mem = await Memory.open(MemorySettings(store_path=tmp_path / "m.db"), clock=Clock(), update_gauges=False)
    try:
        conn = mem._store._conn  # the pragma is per connection
        async with conn.execute("PRAGMA wal_autocheckpoint") as cur:
            assert (await cur.fetchone())[0] == 1000
    finally:
        await mem.close()
    deferred = await Memory.open(
        MemorySettings(store_path=tmp_path / "m.db"),
        clock=Clock(),
        update_gauges=False,
        deferred_checkpoints=True,
    )
    try:
        async with deferred._store._conn.execute("PRAGMA wal_autocheckpoint") as cur:
            assert (await cur.fetchone())[0] == 0
    finally:
        await deferred.close()


def wal_salts(db: Path) -> bytes:
    """The salts of the log's header: they change each time SQLite starts the log over."""
    return Path(f"{db}-wal").read_bytes()[16:24]


def meta_rows(db: Path) -> list[tuple[str, str]]:
    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT key, value FROM meta ORDER BY key").fetchall()
    finally:
        conn.close()


def wal_frames(db: Path) -> int:
    conn = sqlite3.connect(db)
    try:
        return int(conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()[1])
    finally:
        conn.close()


async def test_maintenance_starts_the_log_over_so_the_next_extraction_does_not(tmp_path: Path) -> None:
    # The first commit after a checkpoint restarts the log and syncs its header first: an fsync an
    # extraction should not wait for. Maintenance does it, with a write that changes nothing.
    db = tmp_path / "m.db"
    mem = await Memory.open(
        MemorySettings(store_path=db), clock=Clock(), update_gauges=False, deferred_checkpoints=True
    )
    try:
        await mem.ingest(make_run("first", learnings=("Run make generate before the tests",)))
        before = wal_salts(db)
        meta = meta_rows(db)
        await mem.maintain()
        restarted = wal_salts(db)
        assert meta_rows(db) == meta and meta  # the write changed nothing
        assert restarted != before  # the log was checkpointed and started over, here
        await mem.ingest(make_run("second", learnings=("Pin the linter version in CI",)))
        assert wal_salts(db) == restarted  # the extraction appended to the restarted log
        assert wal_frames(db) > 1
    finally:
        await mem.close()
