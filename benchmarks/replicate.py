"""Grow an ingested store into a 100k- or 1M-node one with bulk SQL (how the large stores are made).

Ingesting the ~7M runs a 1M-node store implies would take hours, so the large
stores are a real (ingested) store replicated: the base is copied
(``VACUUM INTO``), then every node, edge, run and provenance event that belongs
to a repository is inserted ``k − 1`` more times with the repository's
organisation renamed (``acme/payments-api`` → ``acme-c3/payments-api`` in keys,
content, subject columns and run rows), node ids recomputed with Osmia's own
``node_id`` and run ids with its own ``run_id``. Tenant-wide knowledge (engine
profiles, rate and duration patterns) is not repository-bound and stays single,
as it would in an organisation with ``k`` times the repositories.

Built for speed (the 1M store used not to finish within a session), by what the
phase timings showed:

* one ``INSERT … SELECT`` per table and copy from temporary tables, one
  transaction per copy, no rollback journal (a failed build is deleted, never
  used);
* copies get node ``seq`` = base ``seq`` + copy × stride, so edges and events
  find their copied nodes by rowid arithmetic instead of a ``(tenant, key)``
  lookup per row, and run ids are hashed once per run (``executemany`` into a
  temporary map), not once per event;
* every secondary index, and the FTS rows, are built once after the copies
  (a sort instead of random inserts into a 30M-entry b-tree), from the schema's
  own SQL, so the result has exactly the schema the base had.

Each phase's seconds are returned (``phases``) and printed by ``--verbose`` callers.
"""

from __future__ import annotations

import json
import math
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

from benchmarks.workload import ORGS
from osmia.memory.merge import node_id

CACHE_KIB = 512 * 1024  # page cache while building: the copied nodes' unique indexes stay in memory
TABLES = ("nodes", "edges", "runs", "node_runs", "run_refs")
FTS_INSERT_TRIGGER = "nodes_fts_insert"
# Schema v9 counts each inserted node's words per tenant; a copy is counted in one pass at the end.
VOCABULARY_INSERT_TRIGGER = "nodes_vocabulary_insert"


def copy_sql(column: str, copy: int) -> str:
    """SQL renaming ``column``'s organisations for replica ``copy`` (see ``scenarios.copy_name``)."""
    expr = column
    for org in ORGS:
        expr = f"replace({expr}, '{org}/', '{org}-c{copy}/')"
    return expr


# Columns derived from a node's content (schema v9: a fact's words, a learning's sentence), with
# the SQL function that derives each (the store's own, registered on the connection).
DERIVED = {"words": "osmia_words", "sentence": "osmia_sentence"}


# A line's stamp (schema v13, osmia/memory/clean_stamp.py) is a hash of its content and sources.
STAMP = ("clean_stamp", "osmia_clean_stamp")


def rederived_sql(column: str, copy: int) -> str:
    """SQL of a derived ``column`` for replica ``copy``: derived again from the renamed content where
    the renaming changed it, as an ingested copy would have it (a query reads it from the row)."""
    renamed = copy_sql("content", copy)
    if column == STAMP[0]:
        return f"CASE WHEN {renamed} = content THEN {column} ELSE {STAMP[1]}({renamed}, sources) END"
    return (
        f"CASE WHEN {column} IS NULL OR {renamed} = content THEN {column} "
        f"ELSE {DERIVED[column]}({renamed}) END"
    )


def _stamp(content: str, sources: str) -> int | None:
    from osmia.memory.clean_stamp import stamp_for

    return stamp_for(content, json.loads(sources))


class _Phases:
    """Seconds spent per phase, summed."""

    def __init__(self, report: Callable[[str], None] | None) -> None:
        self.seconds: dict[str, float] = {}
        self._report = report

    def run(self, name: str, conn: sqlite3.Connection, sql: str, params: tuple[object, ...] = ()) -> None:
        started = time.perf_counter()
        conn.execute(sql, params)
        self.add(name, time.perf_counter() - started)

    def add(self, name: str, seconds: float) -> None:
        self.seconds[name] = self.seconds.get(name, 0.0) + seconds

    def say(self, text: str) -> None:
        if self._report is not None:
            self._report(text)


def _deferred(conn: sqlite3.Connection) -> list[tuple[str, str, str]]:
    """The secondary indexes of the copied tables and the FTS and vocabulary insert triggers:
    ``(type, name, sql)``."""
    marks = ", ".join("?" * len(TABLES))
    rows = conn.execute(
        f"SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL AND tbl_name IN ({marks}) "
        "AND (type = 'index' OR (type = 'trigger' AND name IN (?, ?))) ORDER BY name",
        (*TABLES, FTS_INSERT_TRIGGER, VOCABULARY_INSERT_TRIGGER),
    ).fetchall()
    return [(str(t), str(n), str(s)) for t, n, s in rows]


def replicate_store(
    base: Path,
    out: Path,
    target_nodes: int,
    provenance_copies: int | None = None,
    report: Callable[[str], None] | None = None,
) -> dict[str, object]:
    """A store of about ``target_nodes`` nodes at ``out``, made from the ingested store ``base``.

    Provenance rows (``node_runs``) are copied into every copy unless ``provenance_copies`` limits
    them to the first ones (the other copies' runs then look like runs extracted before provenance
    existed). Returns the counts, the number of copies and the seconds of each phase.
    """
    if out.exists():
        out.unlink()
    phases = _Phases(report)
    started = time.perf_counter()
    src = sqlite3.connect(base)
    src.execute(f"VACUUM INTO '{out}'")
    src.close()
    phases.add("vacuum_into", time.perf_counter() - started)
    conn = sqlite3.connect(out, isolation_level=None)
    try:
        result = _replicate(conn, target_nodes, provenance_copies, phases)
    except BaseException:
        conn.close()
        out.unlink(missing_ok=True)
        raise
    conn.close()
    truth_path = base.with_suffix(".truth.json")
    if truth_path.exists():
        out.with_suffix(".truth.json").write_text(truth_path.read_text())
    result["phases"] = {k: round(v, 3) for k, v in phases.seconds.items()}
    return result


def _replicate(
    conn: sqlite3.Connection, target_nodes: int, provenance_copies: int | None, phases: _Phases
) -> dict[str, object]:
    conn.execute("PRAGMA journal_mode = OFF")  # built from scratch: a failed build is deleted
    conn.execute("PRAGMA synchronous = OFF")
    conn.execute(f"PRAGMA cache_size = -{CACHE_KIB}")
    conn.create_function("osmia_node_id", 2, node_id, deterministic=True)
    total = conn.execute("SELECT count(*) FROM nodes").fetchone()[0]
    bound = conn.execute("SELECT count(*) FROM nodes WHERE repository != ''").fetchone()[0]
    copies = max(1, math.ceil((target_nodes - (total - bound)) / max(1, bound)))
    stride = int(conn.execute("SELECT coalesce(max(seq), 0) + 1 FROM nodes").fetchone()[0])
    base_max = stride - 1
    cols = [r[1] for r in conn.execute("PRAGMA table_info(nodes)") if r[1] not in ("seq", "id")]
    run_cols = [r[1] for r in conn.execute("PRAGMA table_info(runs)")]
    provenance = conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'node_runs'").fetchone() is not None
    renamed = {"key", "content", "repository", "terms"}
    derived = (set(DERIVED) | {STAMP[0]}) & set(cols)
    if STAMP[0] in derived:
        conn.create_function(STAMP[1], 2, _stamp, deterministic=True)
    if derived - {STAMP[0]}:
        from osmia.memory.vocabulary import sentence_key, words_column

        conn.create_function(DERIVED["words"], 1, words_column, deterministic=True)
        conn.create_function(DERIVED["sentence"], 1, sentence_key, deterministic=True)

    deferred = _deferred(conn)
    conn.execute("BEGIN")
    for kind, name, _sql in deferred:
        conn.execute(f"DROP {kind.upper()} {name}")
    conn.execute("CREATE TEMP TABLE base_nodes AS SELECT * FROM nodes WHERE repository != '' ORDER BY seq")
    conn.execute(
        "CREATE TEMP TABLE base_edges AS SELECT a.seq AS aseq, b.seq AS bseq, e.relation, e.weight, "
        "e.created_at FROM edges e JOIN nodes a ON a.id = e.src JOIN nodes b ON b.id = e.dst "
        "WHERE a.repository != '' AND b.repository != ''"
    )
    conn.execute("CREATE TEMP TABLE base_runs AS SELECT * FROM runs WHERE repository != '' ORDER BY run_key")
    base_keys = [str(r[0]) for r in conn.execute("SELECT run_key FROM base_runs ORDER BY rowid")]
    if provenance:
        from osmia.memory.store import run_id  # an engine without provenance (A/B) has no run ids

        conn.execute("CREATE TEMP TABLE base_run_ids (run INTEGER PRIMARY KEY, pos INTEGER NOT NULL)")
        conn.executemany(
            "INSERT OR IGNORE INTO base_run_ids VALUES (?, ?)",
            [(run_id(k), i) for i, k in enumerate(base_keys)],
        )
        conn.execute("INSERT OR IGNORE INTO base_run_ids VALUES (0, -1)")  # the pre-v6 baseline stays run 0
        conn.execute(
            "CREATE TEMP TABLE base_events AS SELECT r.node, k.pos, r.event, r.epoch, r.at, r.value, "
            "r.other, (o.repository != '') AS other_bound FROM node_runs r JOIN nodes a ON a.seq = r.node "
            "JOIN base_run_ids k ON k.run = r.run LEFT JOIN nodes o ON o.seq = r.other "
            "WHERE a.repository != '' ORDER BY r.step"
        )
        conn.execute("CREATE TEMP TABLE copy_runs (pos INTEGER PRIMARY KEY, run INTEGER NOT NULL)")
    conn.execute("COMMIT")

    for c in range(1, copies):
        offset = c * stride
        conn.execute("BEGIN")
        node_exprs = [
            copy_sql(col, c) if col in renamed else rederived_sql(col, c) if col in derived else col
            for col in cols
        ]
        phases.run(
            "nodes",
            conn,
            f"INSERT INTO nodes (seq, id, {', '.join(cols)}) SELECT seq + {offset}, "
            f"osmia_node_id(tenant, {copy_sql('key', c)}), {', '.join(node_exprs)} "
            "FROM base_nodes ORDER BY seq",
        )
        phases.run(
            "edges",
            conn,
            "INSERT INTO edges (src, dst, relation, weight, created_at) SELECT a.id, b.id, e.relation, "
            f"e.weight, e.created_at FROM base_edges e JOIN nodes a ON a.seq = e.aseq + {offset} "
            f"JOIN nodes b ON b.seq = e.bseq + {offset}",
        )
        run_exprs = [
            f"run_key || '#c{c}'" if col == "run_key"
            else f"ref || '-c{c}'" if col == "ref"  # its own name: `forget --run` finds one run
            else copy_sql(col, c) if col == "repository"
            else col
            for col in run_cols
        ]  # fmt: skip
        phases.run(
            "runs",
            conn,
            f"INSERT INTO runs ({', '.join(run_cols)}) SELECT {', '.join(run_exprs)} FROM base_runs",
        )
        if provenance and (provenance_copies is None or c < provenance_copies):
            t0 = time.perf_counter()
            conn.execute("DELETE FROM copy_runs")
            ids = [(i, run_id(f"{k}#c{c}")) for i, k in enumerate(base_keys)]
            conn.executemany("INSERT INTO copy_runs VALUES (?, ?)", ids)
            conn.execute("INSERT INTO copy_runs VALUES (-1, 0)")
            conn.execute(
                f"INSERT OR IGNORE INTO run_refs (run, ref) SELECT m.run, b.ref || '-c{c}' FROM copy_runs m "
                "JOIN base_runs b ON b.rowid = m.pos + 1 ORDER BY m.run"
            )
            phases.add("run_ids", time.perf_counter() - t0)
            phases.run(
                "node_runs",
                conn,
                "INSERT INTO node_runs (node, run, event, epoch, at, value, other) "
                f"SELECT r.node + {offset}, m.run, r.event, r.epoch, r.at, r.value, "
                f"CASE WHEN r.other_bound THEN r.other + {offset} ELSE r.other END "
                "FROM base_events r JOIN copy_runs m ON m.pos = r.pos ORDER BY r.rowid",
            )
        conn.execute("COMMIT")
        if c % 10 == 0:
            phases.say(f"  … copy {c}/{copies - 1} ({sum(phases.seconds.values()):.0f} s)")

    conn.execute("BEGIN")
    fts = any(name == FTS_INSERT_TRIGGER for _k, name, _s in deferred)
    if fts:
        phases.run(
            "fts",
            conn,
            "INSERT INTO nodes_fts (rowid, content, terms) SELECT seq, content, terms FROM nodes "
            "WHERE seq > ? ORDER BY seq",
            (base_max,),
        )
    if any(name == VOCABULARY_INSERT_TRIGGER for _k, name, _s in deferred):
        # Counted once from every node's words (the copies' derived from their renamed content).
        phases.run("vocabulary", conn, "DELETE FROM vocabulary")
        phases.run(
            "vocabulary",
            conn,
            "INSERT INTO vocabulary (tenant, word, nodes) SELECT n.tenant, w.value, count(*) "
            "FROM nodes n, json_each(n.words) w GROUP BY n.tenant, w.value",
        )
    if conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'lesson_forms'").fetchone() is not None:
        # The copies' learnings are renamed texts: each gets its own parsed form, as extraction
        # would have written it (an engine before schema v10 has no such table).
        from osmia.memory.lesson_forms import form_of

        conn.create_function("osmia_lesson_form", 1, form_of, deterministic=True)
        phases.run(
            "lesson forms",
            conn,
            "INSERT OR REPLACE INTO lesson_forms (seq, form) SELECT seq, osmia_lesson_form(content) "
            "FROM nodes WHERE seq > ? AND kind = 'learning' AND valid_to IS NULL",
            (base_max,),
        )
    conn.execute("COMMIT")
    for kind, name, sql in deferred:
        conn.execute("BEGIN")
        phases.run(f"{kind} {name}", conn, sql)
        conn.execute("COMMIT")
    conn.execute("PRAGMA journal_mode = WAL")  # as Osmia keeps its stores
    counts: dict[str, object] = {
        "copies": copies,
        "nodes": conn.execute("SELECT count(*) FROM nodes").fetchone()[0],
        "edges": conn.execute("SELECT count(*) FROM edges").fetchone()[0],
        "runs": conn.execute("SELECT count(*) FROM runs").fetchone()[0],
    }
    if provenance:
        counts["node_runs"] = conn.execute("SELECT count(*) FROM node_runs").fetchone()[0]
    return counts
