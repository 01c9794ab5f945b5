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
from benchmarks.stores import Clock, build_store
from osmia.memory.merge import node_id
from osmia.memory.service import Memory, MemorySettings
from osmia.memory.store import run_id
from osmia.memory.vocabulary import sentence_key, words_column

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
    # The vocabulary counts every copy's words once (counted in bulk, its insert trigger back in place).
    counted = (
        "SELECT n.tenant, w.value, count(*) FROM nodes n, json_each(n.words) w GROUP BY 1, 2 ORDER BY 1, 2"
    )
    assert b.execute("SELECT * FROM vocabulary ORDER BY 1, 2").fetchall() == b.execute(counted).fetchall()
    assert _one(b, "SELECT nodes FROM vocabulary WHERE word = '' AND tenant = 'ticketing'") > _one(
        a, "SELECT nodes FROM vocabulary WHERE word = '' AND tenant = 'ticketing'"
    )
    # Each node's words and sentence are its (renamed) content's, as an ingested copy's would be.
    renamed = 0
    for kind, content, words, sentence in b.execute("SELECT kind, content, words, sentence FROM nodes"):
        assert words == (None if kind == "attempt" else words_column(content)), content
        assert sentence == (sentence_key(content) if kind == "learning" else None), content
        renamed += kind != "attempt" and COPIED.search(content) is not None
    assert renamed > 0


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


class _Counted:
    """The statements a connection runs (trace callback) and the VM instructions each took."""

    def __init__(self) -> None:
        self.statements: list[str] = []
        self.ops: dict[str, int] = {}
        self.plans: dict[str, list[str]] = {}
        self._ticks = 0
        self._current = ""
        self._since = 0

    def trace(self, sql: str) -> None:
        self._close()
        self._current = sql
        if not sql.startswith("--"):  # not the statements of triggers and of FTS5's own tables
            self.statements.append(sql)

    def tick(self) -> int:
        self._ticks += 1
        return 0

    def _close(self) -> None:
        self.ops[self._current] = self.ops.get(self._current, 0) + self._ticks - self._since
        self._since = self._ticks

    def graph_ops(self) -> int:
        """Instructions outside FTS5's segment writes and merges (its housekeeping, amortised)."""
        self._close()
        return sum(n for sql, n in self.ops.items() if "'nodes_fts_" not in sql and "data_version" not in sql)


async def _forget_counted(db: Path, run_key: str) -> _Counted:
    end = sqlite3.connect(db).execute("SELECT max(finished_at) FROM runs").fetchone()[0]
    # The store's own time: no catch-up decay at open, a fixed clock for the statements' literals.
    memory = await Memory.open(MemorySettings(store_path=db), clock=Clock(end + 60.0), update_gauges=False)
    counted = _Counted()
    try:
        conn = memory._store._conn  # the test watches the store's own connection
        await conn.set_trace_callback(counted.trace)
        await conn.set_progress_handler(counted.tick, 1)
        result = await memory.forget_run(run_key)
        assert result.runs == [run_key] and result.deleted  # the run taught facts only it supports
        await conn.set_trace_callback(None)
        await conn.set_progress_handler(None, 1)
        for sql in counted.statements:
            if sql.lstrip().upper().startswith(("SELECT", "DELETE", "UPDATE", "INSERT")):
                rows = await conn.execute_fetchall(f"EXPLAIN QUERY PLAN {sql}")
                counted.plans[sql] = [str(r[3]) for r in rows]
    finally:
        await memory.close()
    return counted


async def test_forgetting_a_run_costs_the_same_in_a_graph_four_times_larger(
    stores: tuple[Path, Path, dict[str, Any]], tmp_path: Path
) -> None:
    """Per-run cost independent of the graph's size, checked deterministically: the same run forgotten
    in a store and in one with 4× the nodes takes about the same number of SQLite VM instructions,
    and no statement's plan scans a table that grows with the graph."""
    base, small, built = stores
    large = tmp_path / "large.db"
    copies = int(str(built["copies"]))
    base_nodes = sqlite3.connect(base).execute("SELECT count(*) FROM nodes").fetchone()[0]
    replicate_store(base, large, base_nodes * (4 * copies - 1))
    conn = sqlite3.connect(small)
    keys = [
        r[0]
        for r in conn.execute("SELECT run_key FROM runs WHERE repository != '' AND run_key NOT LIKE '%#c%'")
    ]
    run_key = max(
        sorted(keys), key=lambda k: _one(conn, "SELECT count(*) FROM node_runs WHERE run = ?", run_id(k))
    )
    small_nodes = _one(conn, "SELECT count(*) FROM nodes")
    conn.close()
    a, b = tmp_path / "a.db", tmp_path / "b.db"
    a.write_bytes(small.read_bytes())
    b.write_bytes(large.read_bytes())
    assert _one(sqlite3.connect(b), "SELECT count(*) FROM nodes") >= 3.5 * small_nodes
    few, many = await _forget_counted(a, run_key), await _forget_counted(b, run_key)
    # Tenant-wide statistics differ (4× the runs): a pattern may sit in another band, a few statements.
    assert abs(len(few.statements) - len(many.statements)) <= 6, (len(few.statements), len(many.statements))
    assert many.graph_ops() <= 1.15 * few.graph_ops(), (few.graph_ops(), many.graph_ops())
    grows = ("nodes", "edges", "node_runs", "runs", "run_refs", "nodes_fts")
    assert many.plans
    for sql, plan in many.plans.items():
        for detail in plan:
            words = detail.split()
            assert not (words[0] == "SCAN" and words[1] in grows), (sql, detail)
    plans = sqlite3.connect(b)
    # Deleting a node cascades through foreign keys, which EXPLAIN does not show: every child key
    # must lead an index.
    for table, column in (("node_runs", "node"), ("edges", "src"), ("edges", "dst")):
        leading = [
            plans.execute(f"PRAGMA index_info('{name}')").fetchone()[2]
            for _s, name, *_rest in plans.execute(f"PRAGMA index_list('{table}')")
        ]
        assert column in leading, (table, column, leading)
