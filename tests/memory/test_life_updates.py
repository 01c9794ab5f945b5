"""A reinforced node whose text is unchanged has only its life columns written (store/nodes.py).

Checked against the full update on the same histories: every table the text feeds (the node rows
with their derived columns, full-text index, vocabulary counts, lesson forms) ends the same.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from osmia.memory.service import Memory, MemorySettings
from osmia.memory.store import nodes as node_queries
from tests.memory.conftest import T0, Clock
from tests.memory.histories import history, play

_TABLES = {
    "nodes": "SELECT * FROM nodes ORDER BY seq",
    "fts": "SELECT rowid, content, terms FROM nodes_fts ORDER BY rowid",
    "fts_terms": "SELECT term, doc, cnt FROM nodes_fts_vocab ORDER BY term",
    "vocabulary": "SELECT * FROM vocabulary ORDER BY tenant, word",
    "lesson_forms": "SELECT * FROM lesson_forms ORDER BY seq",
    "edges": "SELECT src, dst, relation, weight, created_at FROM edges ORDER BY src, dst, relation",
    "node_runs": "SELECT * FROM node_runs ORDER BY node, step, run, event",
}


def _dump(path: Path) -> dict[str, list[Any]]:
    conn = sqlite3.connect(path)
    try:
        conn.execute("CREATE VIRTUAL TABLE temp.nodes_fts_vocab USING fts5vocab(main, nodes_fts, row)")
        return {name: conn.execute(sql).fetchall() for name, sql in _TABLES.items()}
    finally:
        conn.close()


async def _played(path: Path, seed: int) -> dict[str, list[Any]]:
    memory = await Memory.open(MemorySettings(store_path=path), clock=Clock(), update_gauges=False)
    try:
        await play(memory, history(seed, 60), T0, eager=False, threshold=0.05)
    finally:
        await memory.close()
    return _dump(path)


@pytest.mark.parametrize("seed", [3, 17, 41])
async def test_life_only_updates_leave_every_table_as_a_full_update_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    taken: list[bool] = []
    same_text = node_queries._same_text

    def counted(stored: Any, node: Any) -> bool:
        taken.append(same_text(stored, node))
        return taken[-1]

    monkeypatch.setattr(node_queries, "_same_text", counted)
    fast = await _played(tmp_path / "fast.db", seed)
    assert sum(taken) > 50 and not all(taken)  # both paths ran, many times

    monkeypatch.setattr(node_queries, "_same_text", lambda stored, node: False)
    full = await _played(tmp_path / "full.db", seed)
    assert fast["nodes"] and fast["vocabulary"] and fast["fts_terms"] and fast["lesson_forms"]
    for table in _TABLES:
        assert fast[table] == full[table], table


def test_life_columns_are_the_last_columns_a_row_is_written_with() -> None:
    from osmia.memory.store.rows import NODE_COLUMNS

    assert tuple(NODE_COLUMNS.split(", ")[-len(node_queries._LIFE_COLUMNS) :]) == node_queries._LIFE_COLUMNS
