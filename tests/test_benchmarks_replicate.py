"""The large benchmark stores are made by replication (benchmarks/replicate.py): the result must be a
store Osmia itself could have written — the same schema, consistent indexes, FTS rows and
provenance — and every replica must behave like its original, forgetting a run included."""

from __future__ import annotations

import asyncio
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from benchmarks.replicate import replicate_store
from benchmarks.workload import build_store
from osmia.memory.merge import node_id
from osmia.memory.service import Memory, MemorySettings
from osmia.memory.store import run_id

SCHEMA = "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name"


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, dict[str, Any]]:
    tmp = tmp_path_factory.mktemp("replicate")
    base, out = tmp / "base.db", tmp / "big.db"
    asyncio.run(build_store(base, 300, seed=3))
    nodes = sqlite3.connect(base).execute("SELECT count(*) FROM nodes").fetchone()[0]
    built = replicate_store(base, out, nodes * 3)
    return base, out, built


def _one(conn: sqlite3.Connection, sql: str, *params: object) -> Any:
    return conn.execute(sql, params).fetchone()[0]


def test_the_replica_has_the_schema_and_consistent_indexes(stores: tuple[Path, Path, dict[str, Any]]) -> None:
    base, out, built = stores
    a, b = sqlite3.connect(base), sqlite3.connect(out)
    assert a.execute(SCHEMA).fetchall() == b.execute(SCHEMA).fetchall()
    assert _one(b, "PRAGMA journal_mode") == "wal"
    assert _one(b, "PRAGMA integrity_check") == "ok"  # every index agrees with its table
    b.execute("INSERT INTO nodes_fts (nodes_fts) VALUES ('integrity-check')")  # raises if it does not
    assert b.execute("PRAGMA foreign_key_check").fetchall() == []
    copies = int(str(built["copies"]))
    assert copies >= 3
    total, bound = (
        _one(a, "SELECT count(*) FROM nodes"),
        _one(a, "SELECT count(*) FROM nodes WHERE repository != ''"),
    )
    assert built["nodes"] == _one(b, "SELECT count(*) FROM nodes") == total + (copies - 1) * bound
    events = _one(
        a, "SELECT count(*) FROM node_runs r JOIN nodes n ON n.seq = r.node WHERE n.repository != ''"
    )
    assert (
        _one(b, "SELECT count(*) FROM node_runs")
        == _one(a, "SELECT count(*) FROM node_runs") + (copies - 1) * events
    )
    # Every copied node is found by its own id and by its text; every event names a known run.
    for tenant, key, nid, seq in b.execute("SELECT tenant, key, id, seq FROM nodes WHERE key LIKE '%-c2/%'"):
        assert nid == node_id(tenant, key)
        assert _one(b, "SELECT count(*) FROM nodes_fts WHERE rowid = ?", seq) == 1
    assert (
        _one(b, "SELECT count(*) FROM node_runs r LEFT JOIN run_refs k USING (run) WHERE k.run IS NULL") == 0
    )
    assert _one(b, "SELECT count(DISTINCT ref) FROM runs") == _one(b, "SELECT count(*) FROM runs")


COPIED = re.compile(r"\b(acme|globex|initech)-c(\d+)/")


def _facts(export: dict[str, Any], copy: int) -> dict[str, tuple[Any, ...]]:
    """Repository facts of one replica, keyed and worded as in the original."""
    out = {}
    for n in export["nodes"]:
        found = COPIED.search(n["key"])
        if n["type"] != "fact" or not n["repository"] or (int(found.group(2)) if found else 0) != copy:
            continue
        key, content = (COPIED.sub(r"\1/", n[f]) for f in ("key", "content"))
        out[key] = (round(n["confidence"], 9), n["occurrences"], n["valid_to"], n["last_seen"], content)
    return out


async def test_forgetting_a_copied_run_does_what_forgetting_its_original_does(
    stores: tuple[Path, Path, dict[str, Any]], tmp_path: Path
) -> None:
    _base, out, _built = stores
    db = tmp_path / "copy.db"
    db.write_bytes(out.read_bytes())
    conn = sqlite3.connect(db)
    keys = [
        r[0]
        for r in conn.execute("SELECT run_key FROM runs WHERE repository != '' AND run_key NOT LIKE '%#c%'")
    ]
    events = {k: _one(conn, "SELECT count(*) FROM node_runs WHERE run = ?", run_id(k)) for k in keys}
    run_key = max(sorted(keys), key=lambda k: events[k])  # the run that taught the most
    conn.close()
    memory = await Memory.open(MemorySettings(store_path=db), update_gauges=False)
    try:
        before = await memory.export()
        assert _facts(before, 0) == _facts(before, 2)
        original = await memory.forget_run(run_key)
        copied = await memory.forget_run(f"{run_key}#c2")
        assert original.runs == [run_key] and copied.runs == [f"{run_key}#c2"]
        after = await memory.export()
        assert _facts(after, 0) == _facts(after, 2)
        assert _facts(after, 0) != _facts(before, 0)  # the run taught something, and it is gone
        assert sorted(t for _i, t in original.deleted) == sorted(t for _i, t in copied.deleted)
    finally:
        await memory.close()
    conn = sqlite3.connect(db)
    assert _one(conn, "SELECT count(*) FROM node_runs WHERE run = ?", run_id(f"{run_key}#c2")) == 0
    assert (
        _one(conn, "SELECT count(*) FROM forgotten_runs WHERE run_key IN (?, ?)", run_key, f"{run_key}#c2")
        == 2
    )
