"""SQLite persistence for the knowledge graph (aiosqlite).

WAL, ``busy_timeout``, foreign keys, ``PRAGMA user_version`` with forward
migrations, an FTS5 mirror of node text, a table of processed TaskRuns and a
meta table. The store never overwrites a file it cannot understand: a
corrupt, locked, read-only or newer-schema database raises
:class:`StoreError` naming the file and what to do.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from typing import Any

import aiosqlite

from osmia.memory.schema import MIGRATIONS
from osmia.memory.schema import SCHEMA_VERSION as SCHEMA_VERSION  # re-exported for callers
from osmia.memory.text import search_terms
from osmia.memory.types import Edge, Kind, Node, Relation, RunSummary, Subject

# Work one maintenance pass may do on the full-text index (FTS5 'merge' pages).
FTS_MERGE_PAGES = 500
# Reads go through a memory map of up to this many bytes of the file instead of a read() system
# call per page: a query touches a few hundred scattered pages, and copying each one into the
# 2 MB page cache was most of a query at 100k nodes (docs/performance.md). Writes still use
# write(); the mapped pages are the kernel's page cache, counted in RSS only once touched.
MMAP_BYTES = 256 * 1024 * 1024

NODE_COLUMNS = (
    "id, type, tenant, kind, key, content, repository, engine, task_type, language, "
    "confidence, decay_rate, valid_from, valid_to, last_seen, occurrences, sources"
)
_FIXED_NODE_COLUMNS = frozenset({"id", "type", "tenant", "kind", "key"})
RUN_COLUMNS = (
    "run_key, ref, tenant, repository, language, engine, task_type, success, "
    "failure_class, duration, finished_at, nodes, edges, ticket_id, failed_engines"
)
# Defaults of the columns later schema versions added, for run rows exported before them.
_RUN_COLUMN_DEFAULTS: tuple[Any, ...] = ("", "[]")


class StoreError(RuntimeError):
    """The database cannot be used; the message names the file and what to do."""


def node_from_row(row: Sequence[Any]) -> Node:
    """Build a :class:`Node` from a row selected with :data:`NODE_COLUMNS`."""
    return Node(
        id=row[0],
        tenant=row[2],
        kind=Kind(row[3]),
        key=row[4],
        content=row[5],
        subject=Subject(repository=row[6], engine=row[7], task_type=row[8], language=row[9]),
        confidence=row[10],
        decay_rate=row[11],
        valid_from=row[12],
        valid_to=row[13],
        last_seen=row[14],
        occurrences=row[15],
        sources=json.loads(row[16]),
    )


def node_to_row(node: Node) -> tuple[Any, ...]:
    """The inverse of :func:`node_from_row`."""
    s = node.subject
    return (
        node.id, node.type.value, node.tenant, node.kind.value, node.key, node.content,
        s.repository, s.engine, s.task_type, s.language, node.confidence, node.decay_rate,
        node.valid_from, node.valid_to, node.last_seen, node.occurrences, json.dumps(node.sources),
    )  # fmt: skip


def explain_sqlite_error(path: Path, exc: sqlite3.Error) -> StoreError:
    """Turn a raw SQLite error into a :class:`StoreError` that says what to do."""
    text = str(exc).lower()
    if "locked" in text or "busy" in text:
        hint = "another process holds a write lock; stop it or retry later (the file was not changed)"
    elif "readonly" in text or "read-only" in text:
        hint = "the file or its folder is read-only; make both writable or choose another store_path"
    elif "not a database" in text or "malformed" in text or "corrupt" in text:
        hint = (
            "the file is not a valid SQLite database or is corrupt; move it aside and restore a backup "
            "with `osmia memory import` (Osmia never overwrites it)"
        )
    elif "disk" in text and "full" in text:
        hint = "the disk is full; free space and retry (the last transaction was rolled back)"
    else:
        hint = "see the SQLite error above"
    return StoreError(f"memory database {path}: {exc} — {hint}")


class Store:
    """One SQLite connection with the Osmia schema. Use :meth:`open`."""

    def __init__(self, path: Path, conn: aiosqlite.Connection) -> None:
        self.path = path
        self._conn = conn
        self.migrated = False  # whether open() upgraded the schema (the file was written)

    # --- lifecycle -----------------------------------------------------------

    @classmethod
    async def open(
        cls,
        path: Path,
        *,
        busy_timeout_ms: int = 5000,
        create: bool = True,
        deferred_checkpoints: bool = False,
    ) -> Store:
        """Open (and create or migrate) the database at ``path``.

        With ``create=False`` a missing file is an error rather than a new database.
        With ``deferred_checkpoints`` the WAL is checkpointed only by :meth:`maintain`
        (the operator runs it between extractions), not inside a commit.
        """
        path = Path(path)
        exists = path.exists()
        if not exists and not create:
            raise StoreError(f"memory database {path}: no such file (nothing to read)")
        _check_writable(path, exists)
        if not exists:
            path.parent.mkdir(parents=True, exist_ok=True)
        try:
            conn = await aiosqlite.connect(str(path), isolation_level=None)
        except sqlite3.Error as exc:
            raise explain_sqlite_error(path, exc) from exc
        store = cls(path, conn)
        try:
            await store._configure(busy_timeout_ms)
            if deferred_checkpoints:
                await conn.execute("PRAGMA wal_autocheckpoint = 0")
        except sqlite3.Error as exc:
            await conn.close()
            raise explain_sqlite_error(path, exc) from exc
        except StoreError:
            await conn.close()
            raise
        return store

    async def _configure(self, busy_timeout_ms: int) -> None:
        await self._conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        # Check what the file is before anything writes to it (even WAL mode touches the header).
        version = await self._check_schema()
        mode = await self._scalar("PRAGMA journal_mode = WAL")
        if str(mode).lower() != "wal":
            raise StoreError(f"memory database {self.path}: could not switch to WAL (got {mode})")
        await self._conn.execute("PRAGMA foreign_keys = ON")
        await self._conn.execute("PRAGMA synchronous = NORMAL")
        await self._conn.execute(f"PRAGMA mmap_size = {MMAP_BYTES}")
        await self._migrate(version)

    async def _check_schema(self) -> int:
        """The file's schema version; refuses newer or foreign files without touching them."""
        tables = int(await self._scalar("SELECT count(*) FROM sqlite_master"))
        version = int(await self._scalar("PRAGMA user_version"))
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"memory database {self.path}: schema version {version} is newer than this Osmia "
                f"understands ({SCHEMA_VERSION}); upgrade Osmia or restore a backup "
                "(the file was not changed)"
            )
        if version == 0 and tables > 0:
            raise StoreError(
                f"memory database {self.path}: the file holds tables but no Osmia schema version; "
                "it is not an Osmia database, point memory.store_path elsewhere (the file was not changed)"
            )
        return version

    async def _migrate(self, version: int) -> None:
        for target in range(version + 1, SCHEMA_VERSION + 1):
            script = MIGRATIONS[target - 1]
            await self._conn.executescript(
                f"BEGIN IMMEDIATE;\n{script}\nPRAGMA user_version = {target};\nCOMMIT;"
            )
            self.migrated = True

    async def maintain(self) -> None:
        """Housekeeping kept out of extractions: merge full-text segments, checkpoint the WAL."""
        async with self.transaction():
            await self._conn.execute(
                "INSERT INTO nodes_fts (nodes_fts, rank) VALUES ('merge', ?)", (FTS_MERGE_PAGES,)
            )
        await self._conn.execute("PRAGMA wal_checkpoint(PASSIVE)")

    async def close(self) -> None:
        """Checkpoint and close; safe to call twice."""
        with suppress(sqlite3.Error, ValueError):
            await self._conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
        await self._conn.close()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        """One atomic write: everything inside commits together or not at all."""
        try:
            await self._conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise explain_sqlite_error(self.path, exc) from exc
        try:
            yield
        except BaseException:
            await self._conn.execute("ROLLBACK")
            raise
        try:
            await self._conn.execute("COMMIT")
        except sqlite3.Error as exc:
            await self._conn.execute("ROLLBACK")
            raise explain_sqlite_error(self.path, exc) from exc

    @asynccontextmanager
    async def snapshot(self) -> AsyncIterator[None]:
        """A read transaction: every read inside sees one point in time (WAL keeps writers going)."""
        await self._conn.execute("BEGIN DEFERRED")
        try:
            yield
        finally:
            await self._conn.execute("COMMIT")

    # --- small helpers ------------------------------------------------------------

    async def _scalar(self, sql: str, params: Sequence[Any] = ()) -> Any:
        rows = await self._rows(sql, params)
        return rows[0][0] if rows else None

    async def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        # One trip to aiosqlite's thread (execute, fetch and close together), not three.
        return list(await self._conn.execute_fetchall(sql, params))

    async def _nodes(self, where: str, params: Sequence[Any] = ()) -> list[Node]:
        rows = await self._rows(f"SELECT {NODE_COLUMNS} FROM nodes WHERE {where}", params)
        return [node_from_row(r) for r in rows]

    # --- meta ---------------------------------------------------------------------

    async def get_meta(self, key: str) -> str | None:
        """Read one meta value (e.g. ``last_decay_at``)."""
        value = await self._scalar("SELECT value FROM meta WHERE key = ?", (key,))
        return None if value is None else str(value)

    async def set_meta(self, key: str, value: str) -> None:
        """Write one meta value (inside the caller's transaction)."""
        await self._conn.execute(
            "INSERT INTO meta (key, value) VALUES (?, ?) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, value),
        )

    # --- runs ---------------------------------------------------------------------

    async def run_counts(self, run_key: str) -> tuple[int, int] | None:
        """(nodes, edges) written when this TaskRun was extracted, or ``None`` if it never was."""
        rows = await self._rows("SELECT nodes, edges FROM runs WHERE run_key = ?", (run_key,))
        return (int(rows[0][0]), int(rows[0][1])) if rows else None

    async def set_run_counts(self, run_key: str, nodes: int, edges: int) -> None:
        """Record what an extraction wrote, so a repeated request reports the same figures."""
        await self._conn.execute(
            "UPDATE runs SET nodes = ?, edges = ? WHERE run_key = ?", (nodes, edges, run_key)
        )

    async def insert_run(self, run: RunSummary, nodes: int, edges: int) -> None:
        """Record a processed TaskRun (idempotency and statistics)."""
        await self._conn.execute(
            f"INSERT INTO runs ({RUN_COLUMNS}) VALUES ({', '.join('?' * 15)})",
            (
                run.run_key, run.ref, run.tenant, run.repository, run.language, run.engine,
                run.task_type, int(run.success), run.failure_class, run.duration_seconds,
                run.finished_at, nodes, edges, run.ticket_id, json.dumps(list(run.failed_engines)),
            ),
        )  # fmt: skip

    async def run_rows(self) -> list[tuple[Any, ...]]:
        """Every processed run as raw rows (export)."""
        return [tuple(r) for r in await self._rows(f"SELECT {RUN_COLUMNS} FROM runs ORDER BY run_key")]

    async def engine_stats(self, tenant: str, engine: str) -> list[tuple[str, str, int, int, float | None]]:
        """Per (task_type, language): runs, successes and mean duration for one engine."""
        rows = await self._rows(
            "SELECT task_type, language, runs, successes, duration_sum, duration_n FROM run_stats "
            "WHERE tenant = ? AND engine = ? ORDER BY task_type, language",
            (tenant, engine),
        )
        return [(r[0], r[1], int(r[2]), int(r[3]), r[4] / r[5] if r[5] else None) for r in rows]

    async def duration_histogram(self, tenant: str, task_type: str) -> list[tuple[int, int]]:
        """Successful runs of one task type by duration in whole minutes (rounded up): (minutes, runs)."""
        rows = await self._rows(
            "SELECT minutes, runs FROM run_durations WHERE tenant = ? AND task_type = ? ORDER BY minutes",
            (tenant, task_type),
        )
        return [(int(r[0]), int(r[1])) for r in rows]

    async def failure_classes(self, tenant: str, repository: str) -> list[tuple[str, int]]:
        """How often each failure class occurred on one repository."""
        rows = await self._rows(
            "SELECT failure_class, runs FROM run_failures WHERE tenant = ? AND repository = ? "
            "ORDER BY failure_class",
            (tenant, repository),
        )
        return [(r[0], int(r[1])) for r in rows]

    async def nodes_by_keys(self, tenant: str, keys: Iterable[str]) -> dict[str, Node]:
        """Existing nodes of one tenant with the given canonical keys."""
        wanted = sorted(set(keys))
        found: dict[str, Node] = {}
        for i in range(0, len(wanted), 500):
            chunk = wanted[i : i + 500]
            marks = ",".join("?" * len(chunk))
            for node in await self._nodes(f"tenant = ? AND key IN ({marks})", (tenant, *chunk)):
                found[node.key] = node
        return found

    async def nodes_by_ids(self, ids: Iterable[str], tenant: str | None = None) -> list[Node]:
        """Nodes with the given ids (optionally only one tenant's), in id order."""
        wanted = sorted(set(ids))
        out: list[Node] = []
        for i in range(0, len(wanted), 500):
            chunk = wanted[i : i + 500]
            marks = ",".join("?" * len(chunk))
            where, params = f"id IN ({marks})", list(chunk)
            if tenant is not None:
                # ``+tenant``: without statistics SQLite would pick a (tenant, …) index and scan
                # the whole tenant; the id index finds each node directly.
                where, params = f"{where} AND +tenant = ?", [*params, tenant]
            out.extend(await self._nodes(where, params))
        return sorted(out, key=lambda n: n.id)

    async def get_node(self, node_id: str) -> Node | None:
        """One node by id."""
        nodes = await self._nodes("id = ?", (node_id,))
        return nodes[0] if nodes else None

    async def upsert_nodes(self, nodes: Sequence[Node]) -> None:
        """Insert or fully update nodes by id (inside the caller's transaction)."""
        if not nodes:
            return
        cols = [*NODE_COLUMNS.split(", "), "terms"]
        # Only what a node's life changes: SQLite rewrites every index over an assigned column,
        # so assigning the fixed ones (type, tenant, kind, key) rewrote two indexes for nothing.
        updates = ", ".join(f"{c} = excluded.{c}" for c in cols if c not in _FIXED_NODE_COLUMNS)
        await self._conn.executemany(
            f"INSERT INTO nodes ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))}) "
            f"ON CONFLICT (id) DO UPDATE SET {updates}",
            [(*node_to_row(n), search_terms(n.content)) for n in nodes],
        )

    async def insert_edges(self, edges: Sequence[Edge]) -> int:
        """Add edges that do not exist yet; returns how many were new."""
        before = self._conn.total_changes
        await self._conn.executemany(
            "INSERT OR IGNORE INTO edges (src, dst, relation, weight, created_at) VALUES (?, ?, ?, ?, ?)",
            [(e.src, e.dst, e.relation.value, e.weight, e.created_at) for e in edges],
        )
        return self._conn.total_changes - before

    async def delete_node(self, node_id: str) -> bool:
        """Remove one node and (by cascade) its edges."""
        cur = await self._conn.execute("DELETE FROM nodes WHERE id = ?", (node_id,))
        return cur.rowcount > 0

    async def candidates_by_subject(
        self, tenant: str, column: str, value: str, limit: int, *, general_only: bool = False
    ) -> list[Node]:
        """Valid nodes whose ``repository`` or ``engine`` equals ``value``, strongest first."""
        if column not in ("repository", "engine"):
            raise ValueError(column)
        extra = " AND repository = ''" if general_only else ""
        return await self._nodes(
            f"tenant = ? AND {column} = ? AND valid_to IS NULL{extra} ORDER BY confidence DESC, id LIMIT ?",
            (tenant, value, limit),
        )

    async def candidates_by_pattern(
        self, tenant: str, task_type: str, language: str, limit: int
    ) -> list[Node]:
        """Valid cross-run patterns about a task type or language (engine-independent)."""
        return await self._nodes(
            "tenant = ? AND kind = 'pattern' AND valid_to IS NULL AND engine = '' "
            "AND (task_type = ? OR language = ?) ORDER BY confidence DESC, id LIMIT ?",
            (tenant, task_type, language, limit),
        )

    async def search_text(self, match: str, tenant: str | None, limit: int) -> list[tuple[Node, float]]:
        """FTS5 matches with their BM25 rank (lower is better), optionally one tenant's."""
        where = "nodes_fts MATCH ?"
        params: list[Any] = [match]
        if tenant is not None:
            where += " AND n.tenant = ?"
            params.append(tenant)
        cols = ", ".join(f"n.{c}" for c in NODE_COLUMNS.split(", "))
        rows = await self._rows(
            f"SELECT {cols}, bm25(nodes_fts) AS rank FROM nodes_fts JOIN nodes n ON n.seq = nodes_fts.rowid "
            f"WHERE {where} ORDER BY rank, n.id LIMIT ?",
            [*params, limit],
        )
        return [(node_from_row(r), float(r[-1])) for r in rows]

    async def term_doc_counts(self, terms: Sequence[str], tenant: str | None = None) -> dict[str, int]:
        """How many nodes the full-text index matches for each term (tokenised, stemmed, as it indexes),
        optionally only one tenant's."""
        counts: dict[str, int] = {}
        if tenant is None:
            sql, extra = "SELECT count(*) FROM nodes_fts WHERE nodes_fts MATCH ?", tuple[str, ...]()
        else:
            # CROSS JOIN keeps the full-text index first: otherwise SQLite may walk the tenant's
            # nodes and evaluate the MATCH once per row (seconds at 10k nodes).
            sql = (
                "SELECT count(*) FROM nodes_fts CROSS JOIN nodes n ON n.seq = nodes_fts.rowid "
                "WHERE nodes_fts MATCH ? AND n.tenant = ?"
            )
            extra = (tenant,)
        for term in terms:
            phrase = '"' + term.replace('"', '""') + '"'
            found = await self._scalar(sql, (phrase, *extra))
            counts[term] = int(found)
        return counts

    async def learning_spread(self, sentences: Sequence[str], tenant: str) -> dict[str, int]:
        """In how many repositories of ``tenant`` a learning states each sentence (a full-text phrase)."""
        counts: dict[str, int] = {}
        for sentence in sentences:
            phrase = '"' + sentence.replace('"', '""') + '"'
            found = await self._scalar(
                "SELECT count(DISTINCT n.repository) FROM nodes_fts CROSS JOIN nodes n "
                "ON n.seq = nodes_fts.rowid WHERE nodes_fts MATCH ? AND n.tenant = ? AND n.kind = 'learning'",
                (phrase, tenant),
            )
            counts[sentence] = int(found)
        return counts

    async def lesson_nodes(self, tenant: str, repository: str, kinds: Sequence[str]) -> list[Node]:
        """Valid learnings or test facts of one repository (the ``nodes_lessons`` partial index)."""
        marks = ", ".join("?" * len(kinds))
        return await self._nodes(
            f"tenant = ? AND repository = ? AND kind IN ({marks}) AND valid_to IS NULL "
            "AND kind IN ('learning', 'flaky_test', 'failing_test', 'test_fixed') ORDER BY id",
            (tenant, repository, *kinds),
        )

    async def nodes_by_key_prefix(self, tenant: str, prefix: str, limit: int) -> list[Node]:
        """Nodes of one tenant whose key starts with ``prefix``, newest first (a range of the key index)."""
        return await self._nodes(
            "tenant = ? AND key >= ? AND key < ? ORDER BY last_seen DESC, id LIMIT ?",
            (tenant, prefix, prefix + "\U0010ffff", limit),
        )

    async def iter_nodes(self, tenant: str | None = None) -> list[Node]:
        """Every node (optionally one tenant's), in id order."""
        if tenant is None:
            return await self._nodes("1 ORDER BY id")
        return await self._nodes("tenant = ? ORDER BY id", (tenant,))

    async def neighbour_ids(self, ids: Sequence[str], relations: Sequence[Relation]) -> list[tuple[str, str]]:
        """``(node, neighbour)`` for every edge of ``relations`` touching one of ``ids``, either way.

        Both halves read an index only: the primary key ``(src, dst, relation)`` and
        ``edges_dst (dst, relation, src)``.
        """
        if not ids or not relations:
            return []
        marks, rels = ", ".join("?" * len(ids)), ", ".join("?" * len(relations))
        names = [r.value for r in relations]
        return [
            (r[0], r[1])
            for r in await self._rows(
                f"SELECT src, dst FROM edges WHERE src IN ({marks}) AND relation IN ({rels}) "
                f"UNION ALL SELECT dst, src FROM edges WHERE dst IN ({marks}) AND relation IN ({rels})",
                [*ids, *names, *ids, *names],
            )
        ]

    async def all_edges(self) -> list[Edge]:
        """Every edge, in a stable order."""
        rows = await self._rows(
            "SELECT src, dst, relation, weight, created_at FROM edges ORDER BY src, dst, relation"
        )
        return [Edge(r[0], r[1], Relation(r[2]), r[3], r[4]) for r in rows]

    async def edges_of(self, node_id: str) -> list[Edge]:
        """Edges touching one node, both directions."""
        rows = await self._rows(
            "SELECT src, dst, relation, weight, created_at FROM edges WHERE src = ? OR dst = ? "
            "ORDER BY src, dst, relation",
            (node_id, node_id),
        )
        return [Edge(r[0], r[1], Relation(r[2]), r[3], r[4]) for r in rows]

    # --- counts and decay ---------------------------------------------------------

    async def counts_by_type(self, tenant: str | None = None) -> dict[str, int]:
        """Node count per type (metrics gauge and ``status``)."""
        where, params = ("WHERE tenant = ?", (tenant,)) if tenant else ("", ())
        rows = await self._rows(f"SELECT type, count(*) FROM nodes {where} GROUP BY type", params)
        return {r[0]: int(r[1]) for r in rows}

    async def count(self, table: str, tenant: str | None = None) -> int:
        """Rows in ``nodes``, ``edges`` or ``runs`` (edges are counted by their source's tenant)."""
        if table == "edges":
            if tenant is None:
                return int(await self._scalar("SELECT count(*) FROM edges"))
            return int(
                await self._scalar(
                    "SELECT count(*) FROM edges e JOIN nodes n ON n.id = e.src WHERE n.tenant = ?", (tenant,)
                )
            )
        if table not in ("nodes", "runs"):
            raise ValueError(table)
        if tenant is None:
            return int(await self._scalar(f"SELECT count(*) FROM {table}"))
        return int(await self._scalar(f"SELECT count(*) FROM {table} WHERE tenant = ?", (tenant,)))

    async def apply_decay(self, cycles: int, threshold: float) -> list[str]:
        """Scale every confidence by ``(1 - decay_rate) ** cycles`` and prune below ``threshold``.

        Runs inside the caller's transaction; returns the ids pruned.
        """
        if cycles > 0:
            await self._conn.execute(
                "UPDATE nodes SET confidence = confidence * pow(1.0 - decay_rate, ?)", (cycles,)
            )
        pruned = [r[0] for r in await self._rows("SELECT id FROM nodes WHERE confidence < ?", (threshold,))]
        if pruned:
            await self._conn.execute("DELETE FROM nodes WHERE confidence < ?", (threshold,))
        return pruned

    async def wipe(self) -> None:
        """Delete all nodes, edges, runs and meta (inside the caller's transaction; import --replace)."""
        for table in ("edges", "nodes", "runs", "meta", "run_stats", "run_durations", "run_failures"):
            await self._conn.execute(f"DELETE FROM {table}")

    async def insert_run_rows(self, rows: Sequence[Sequence[Any]]) -> None:
        """Bulk insert raw run rows (import)."""
        width = len(RUN_COLUMNS.split(", "))
        padded = [(*r, *_RUN_COLUMN_DEFAULTS[len(r) - width :]) if len(r) < width else tuple(r) for r in rows]
        await self._conn.executemany(
            f"INSERT INTO runs ({RUN_COLUMNS}) VALUES ({', '.join('?' * width)})", padded
        )

    async def meta_items(self) -> dict[str, str]:
        """The whole meta table."""
        return {r[0]: r[1] for r in await self._rows("SELECT key, value FROM meta ORDER BY key")}

    async def integrity_check(self) -> str:
        """SQLite's ``quick_check`` verdict (``ok`` when healthy)."""
        return str(await self._scalar("PRAGMA quick_check"))


def _check_writable(path: Path, exists: bool) -> None:
    folder = path.parent if str(path.parent) else Path(".")
    if exists and not os.access(path, os.W_OK):
        raise StoreError(
            f"memory database {path}: the file is read-only; make it writable or choose another "
            "store_path (the file was not changed)"
        )
    if folder.exists() and not os.access(folder, os.W_OK):
        raise StoreError(
            f"memory database {path}: the folder {folder} is read-only; SQLite needs to write its WAL "
            "files beside the database, so make the folder writable or choose another store_path"
        )
