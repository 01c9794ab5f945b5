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
