"""How ``forget --run`` reads the histories it replays (schema v11, osmia/memory/provenance.py)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from osmia.memory import provenance
from osmia.memory.schema import SCHEMA_VERSION
from osmia.memory.service import Memory, MemorySettings
from tests.memory.conftest import Clock
from tests.memory.histories import played_store_at_version

HISTORY_COLUMNS = ["node", "step", "run", "event", "epoch", "at", "value", "other"]


def _index_columns(path: Path) -> list[str]:
    conn = sqlite3.connect(path)
    try:
        return [r[2] for r in conn.execute("PRAGMA index_info(node_runs_node)")]
    finally:
        conn.close()


async def test_a_v10_store_gains_the_covering_history_index_when_opened(tmp_path: Path) -> None:
    path = await played_store_at_version(tmp_path, 10, seed=3)
    assert _index_columns(path) == ["node", "step"]
    memory = await Memory.open(MemorySettings(store_path=path), clock=Clock(), update_gauges=False)
    await memory.close()
    assert _index_columns(path) == HISTORY_COLUMNS
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    finally:
        conn.close()


async def test_histories_are_read_from_the_index_alone(memory: Memory) -> None:
    """Every column replaying reads is in ``node_runs_node``: a history is one range of the index,
    not one scattered table row per event."""
    plan = await memory._store.rows("EXPLAIN QUERY PLAN " + provenance.histories_sql(3), (1, 2, 3))
    details = [str(r[3]) for r in plan]
    assert details == ["SEARCH node_runs USING COVERING INDEX node_runs_node (node=?)"], details
