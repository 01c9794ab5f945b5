"""SQLite persistence for the knowledge graph (aiosqlite).

WAL, ``busy_timeout``, foreign keys, ``PRAGMA user_version`` with forward
migrations, an FTS5 mirror of node text, a table of processed TaskRuns and a
meta table. The store never overwrites a file it cannot understand: a
corrupt, locked, read-only or newer-schema database raises
:class:`StoreError` naming the file and what to do.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import random
import sqlite3
import stat
import time
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from typing import Any

import aiosqlite

from osmia.memory.fading import prune_cycle
from osmia.memory.schema import MIGRATIONS
from osmia.memory.schema import SCHEMA_VERSION as SCHEMA_VERSION  # re-exported for callers
from osmia.memory.text import search_terms
from osmia.memory.types import Edge, Kind, Node, Relation, RunSummary, Subject

# Recomputing every ``prune_at`` after the prune threshold changed: progress marker (meta) and
# nodes per transaction, so other writers wait at most one short batch.
PRUNE_RECOMPUTE_KEY = "prune_recompute_after"
PRUNE_RECOMPUTE_BATCH = 2_000
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
# meta keys of the decay clock: cycles applied so far, and the threshold ``prune_at`` was computed with.
EPOCH_KEY = "decay_epoch"
THRESHOLD_KEY = "prune_threshold"
# The current epoch and threshold, read inside the statement that needs them (SQLite evaluates an
# uncorrelated scalar subquery once per statement), so every read and write sees the epoch of its
# own snapshot even when another process (``osmia memory decay``) advanced it.
EPOCH_SQL = f"coalesce((SELECT CAST(value AS INTEGER) FROM meta WHERE key = '{EPOCH_KEY}'), 0)"
THRESHOLD_SQL = f"(SELECT CAST(value AS REAL) FROM meta WHERE key = '{THRESHOLD_KEY}')"


def node_select(alias: str = "") -> str:
    """The select list for :func:`node_from_row`: ``confidence`` is the effective one, decayed to now.

    ``ORDER BY confidence`` in the same statement sorts by the effective value (an ORDER BY
    identifier names the output column), so candidates come strongest-now first.
    """
    a = f"{alias}." if alias else ""
    return ", ".join(
        f"{a}confidence * pow(1.0 - {a}decay_rate, {EPOCH_SQL} - {a}epoch) AS confidence"
        if c == "confidence"
        else f"{a}{c}"
        for c in NODE_COLUMNS.split(", ")
    )


NODE_SELECT = node_select()
_FIXED_NODE_COLUMNS = frozenset({"id", "type", "tenant", "kind", "key"})
RUN_COLUMNS = (
    "run_key, ref, tenant, repository, language, engine, task_type, success, "
    "failure_class, duration, finished_at, nodes, edges, ticket_id, failed_engines"
)
# Defaults of the columns later schema versions added, for run rows exported before them.
_RUN_COLUMN_DEFAULTS: tuple[Any, ...] = ("", "[]")


def run_id(run_key: str) -> int:
    """A run's id in ``node_runs``/``run_refs``: 63 bits of a hash of its key (0: the pre-v6 baseline)."""
    return int.from_bytes(hashlib.sha256(run_key.encode()).digest()[:8], "big") >> 1 or 1


class StoreError(RuntimeError):
    """The database cannot be used; the message names the file and what to do."""


def node_from_row(row: Sequence[Any]) -> Node:
    """Build a :class:`Node` from a row selected with :data:`NODE_SELECT` (effective confidence)."""
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
    """The inverse of :func:`node_from_row`: :data:`NODE_COLUMNS`, the confidence as of now."""
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
        self.read_only = False  # opened with ``read_only``: the connection cannot write

    # --- lifecycle -----------------------------------------------------------

    @classmethod
    async def open(
        cls,
        path: Path,
        *,
        busy_timeout_ms: int = 5000,
        create: bool = True,
        deferred_checkpoints: bool = False,
        read_only: bool = False,
    ) -> Store:
        """Open (and create or migrate) the database at ``path``.

        With ``create=False`` a missing file is an error rather than a new database.
        With ``deferred_checkpoints`` the WAL is checkpointed only by :meth:`maintain`
        (the operator runs it between extractions), not inside a commit.
        With ``read_only`` nothing is created, migrated or written (see :meth:`_open_read_only`).
        Before anything writes to an existing file, SQLite's ``quick_check`` must pass.
        """
        path = Path(path)
        _check_regular_file(path)
        if read_only:
            return await cls._open_read_only(path, busy_timeout_ms)
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
        except BaseException:
            await conn.close()
            raise
        return store

    @classmethod
    async def _open_read_only(cls, path: Path, busy_timeout_ms: int) -> Store:
        """A connection that can never write: ``mode=ro``, and ``immutable=1`` on read-only media.

        ``mode=ro`` still coordinates with a live writer (the operator) through the
        ``-wal`` and ``-shm`` files beside the database, creating them if they are missing
        and the folder allows. Where they can be neither opened nor created (a read-only
        mount, an immutable folder) no process can be writing, so the file is read as
        immutable, which needs no side files at all.
        """
        if not path.exists():
            raise StoreError(f"memory database {path}: no such file (nothing to read)")
        uri = path.absolute().as_uri()
        last: sqlite3.Error | None = None
        for query in ("?mode=ro", "?mode=ro&immutable=1"):
            try:
                conn = await aiosqlite.connect(uri + query, uri=True, isolation_level=None)
            except sqlite3.Error as exc:
                raise explain_sqlite_error(path, exc) from exc
            store = cls(path, conn)
            store.read_only = True
            try:
                await store._configure_read_only(busy_timeout_ms)
            except sqlite3.Error as exc:
                await conn.close()
                if getattr(exc, "sqlite_errorcode", None) != sqlite3.SQLITE_CANTOPEN:
                    raise explain_sqlite_error(path, exc) from exc
                last = exc
                continue
            except BaseException:
                await conn.close()
                raise
            return store
        assert last is not None
        raise explain_sqlite_error(path, last) from last

    async def _configure_read_only(self, busy_timeout_ms: int) -> None:
        await self._conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        await self._conn.execute("PRAGMA query_only = ON")
        version = await self._check_schema()
        if version == 0:
            raise StoreError(
                f"memory database {self.path}: the file holds no Osmia schema yet (empty); nothing to "
                "read (a read never initialises a file: ingest or import into it first)"
            )
        if version < SCHEMA_VERSION:
            raise StoreError(
                f"memory database {self.path}: schema version {version} is older than this Osmia's "
                f"({SCHEMA_VERSION}) and a read does not upgrade it; run a writing command "
                "(`osmia memory decay`, `ingest`) or the operator once to migrate it "
                "(the file was not changed)"
            )
        await self._conn.execute(f"PRAGMA mmap_size = {MMAP_BYTES}")

    async def _configure(self, busy_timeout_ms: int) -> None:
        await self._conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        # Check what the file is before anything writes to it (even WAL mode touches the header).
        version = await self._check_schema()
        if version > 0:
            await self._check_integrity()
        await self._switch_to_wal(busy_timeout_ms)
        await self._conn.execute("PRAGMA foreign_keys = ON")
        await self._conn.create_function("osmia_prune_cycle", 4, prune_cycle, deterministic=True)
        await self._conn.create_function("osmia_run_id", 1, run_id, deterministic=True)
        await self._conn.execute("PRAGMA synchronous = NORMAL")
        await self._conn.execute(f"PRAGMA mmap_size = {MMAP_BYTES}")
        if version < SCHEMA_VERSION:
            await self._migrate()

    async def _switch_to_wal(self, busy_timeout_ms: int) -> None:
        """WAL mode, once per file. Switching needs an exclusive lock and SQLite does not wait
        for it (no busy handler), so a process racing another one to create the file retries
        here for up to ``busy_timeout_ms``."""
        if str(await self._scalar("PRAGMA journal_mode")).lower() == "wal":
            return
        deadline = time.monotonic() + busy_timeout_ms / 1000
        while True:
            try:
                mode = await self._scalar("PRAGMA journal_mode = WAL")
                break
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() >= deadline:
                    raise
                await asyncio.sleep(0.01 + random.random() * 0.02)
        if str(mode).lower() != "wal":
            raise StoreError(f"memory database {self.path}: could not switch to WAL (got {mode})")

    async def _check_integrity(self) -> None:
        """Refuse to write to a file whose pages are damaged (a header that parses is not enough)."""
        verdict = await self.integrity_check()
        if verdict != "ok":
            raise StoreError(
                f"memory database {self.path}: failed SQLite's quick_check ({_first_line(verdict)}) — the "
                "file is corrupt; move it aside and restore a backup with `osmia memory import` "
                "(Osmia never writes to it)"
            )

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

    async def _migrate(self) -> None:
        """Apply the missing migrations in one write transaction.

        The version is read again once the write lock is held: two processes that found a
        new file empty at once must not both create the schema (the second sees the first's).
        """
        async with self.transaction():
            version = int(await self._scalar("PRAGMA user_version"))
            if version == 0 and int(await self._scalar("SELECT count(*) FROM sqlite_master")) > 0:
                raise StoreError(
                    f"memory database {self.path}: the file holds tables but no Osmia schema version; "
                    "it is not an Osmia database (the file was not changed)"
                )
            if version > SCHEMA_VERSION:
                raise StoreError(
                    f"memory database {self.path}: schema version {version} is newer than this Osmia "
                    f"understands ({SCHEMA_VERSION}); upgrade Osmia (the file was not changed)"
                )
            for target in range(version + 1, SCHEMA_VERSION + 1):
                for statement in sql_statements(MIGRATIONS[target - 1]):
                    await self._conn.execute(statement)
                await self._conn.execute(f"PRAGMA user_version = {target}")
                self.migrated = True

    async def maintain(self) -> None:
        """Housekeeping kept out of extractions: merge full-text segments, checkpoint the WAL."""
        async with self.transaction():
            await self._conn.execute(
                "INSERT INTO nodes_fts (nodes_fts, rank) VALUES ('merge', ?)", (FTS_MERGE_PAGES,)
            )
        await self._conn.execute("PRAGMA wal_checkpoint(PASSIVE)")

    async def close(self) -> None:
        """Checkpoint (unless read-only) and close; safe to call twice."""
        if not self.read_only:
            with suppress(sqlite3.Error, ValueError):
                await self._conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
        await self._conn.close()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        """One atomic write: everything inside commits together or not at all.

        When SQLite has already rolled back by itself (a full disk, an I/O error), the
        original error is what the caller sees, not a failing ``ROLLBACK``.
        """
        try:
            await self._conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise explain_sqlite_error(self.path, exc) from exc
        try:
            yield
        except BaseException:
            await self._rollback()
            raise
        try:
            await self._conn.execute("COMMIT")
        except sqlite3.Error as exc:
            await self._rollback()
            raise explain_sqlite_error(self.path, exc) from exc

    async def _rollback(self) -> None:
        if self._conn.in_transaction:
            with suppress(sqlite3.Error):
                await self._conn.execute("ROLLBACK")

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
        rows = await self._rows(f"SELECT {NODE_SELECT} FROM nodes WHERE {where}", params)
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
        # The confidence given is the effective one now: it is stamped with the current epoch, and
        # the epoch it will fall below the prune threshold at is computed from it (fading.py).
        values = ", ".join("?" * len(cols))
        prune = f"osmia_prune_cycle(?, ?, {EPOCH_SQL}, {THRESHOLD_SQL})"
        # Only what a node's life changes: SQLite rewrites every index over an assigned column,
        # so assigning the fixed ones (type, tenant, kind, key) rewrote two indexes for nothing.
        updates = ", ".join(
            f"{c} = excluded.{c}" for c in [*cols, "epoch", "prune_at"] if c not in _FIXED_NODE_COLUMNS
        )
        await self._conn.executemany(
            f"INSERT INTO nodes ({', '.join(cols)}, epoch, prune_at) VALUES ({values}, {EPOCH_SQL}, {prune}) "
            f"ON CONFLICT (id) DO UPDATE SET {updates}",
            [(*node_to_row(n), search_terms(n.content), n.confidence, n.decay_rate) for n in nodes],
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
        # ``+engine``: the order is by effective confidence (computed), so no index gives it, and
        # without statistics SQLite would read (tenant, engine = '') from ``nodes_engine``, which
        # is every repository fact of the tenant; the partial ``nodes_patterns`` index is the few
        # patterns.
        return await self._nodes(
            "tenant = ? AND kind = 'pattern' AND valid_to IS NULL AND +engine = '' "
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
        cols = node_select("n")
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

    async def decay_clock(self) -> tuple[int, float | None]:
        """The current decay epoch and the prune threshold ``prune_at`` was computed with."""
        rows = await self._rows(f"SELECT {EPOCH_SQL}, {THRESHOLD_SQL}")
        epoch, threshold = rows[0]
        return int(epoch), None if threshold is None else float(threshold)

    async def advance_epoch(self, cycles: int) -> int:
        """Count ``cycles`` more decay cycles (inside the caller's transaction); returns the new epoch.

        This is the whole decay of every confidence: reads compute ``c × (1 − rate) ^ (epoch − stamp)``.
        """
        epoch, _ = await self.decay_clock()
        if cycles > 0:
            epoch += cycles
            await self.set_meta(EPOCH_KEY, str(epoch))
        return epoch

    async def prune_due(self, epoch: int, limit: int) -> list[tuple[str, str]]:
        """Delete up to ``limit`` nodes whose prune epoch has come (with edges, FTS rows, provenance).

        Returns their ``(id, type)``. An index range on ``prune_at``: the cost is the nodes
        deleted, not the graph's size.
        """
        rows = await self._rows(
            "SELECT seq, id, type FROM nodes WHERE prune_at <= ? ORDER BY prune_at LIMIT ?", (epoch, limit)
        )
        if rows:
            marks = ", ".join("?" * len(rows))
            await self._conn.execute(f"DELETE FROM nodes WHERE seq IN ({marks})", [r[0] for r in rows])
        return [(r[1], r[2]) for r in rows]

    async def set_prune_threshold(self, threshold: float) -> None:
        """Record a new prune threshold and start recomputing every ``prune_at`` (inside a transaction).

        :meth:`recompute_prune_cycles` finishes the work in short transactions; until it has,
        :meth:`prune_pending` is true and decay passes do not prune.
        """
        await self.set_meta(THRESHOLD_KEY, repr(float(threshold)))
        await self.set_meta(PRUNE_RECOMPUTE_KEY, "0")

    async def prune_pending(self) -> bool:
        """Whether some ``prune_at`` still refers to an older threshold."""
        return await self.get_meta(PRUNE_RECOMPUTE_KEY) is not None

    async def recompute_prune_cycles(self, batch: int | None = None) -> bool:
        """Recompute ``prune_at`` for the next ``batch`` nodes (inside a transaction); True when done."""
        batch = batch or PRUNE_RECOMPUTE_BATCH
        start = int(await self.get_meta(PRUNE_RECOMPUTE_KEY) or 0)
        last = await self._scalar(
            "SELECT max(seq) FROM (SELECT seq FROM nodes WHERE seq > ? ORDER BY seq LIMIT ?)", (start, batch)
        )
        if last is None:
            await self._conn.execute("DELETE FROM meta WHERE key = ?", (PRUNE_RECOMPUTE_KEY,))
            return True
        await self._conn.execute(
            f"UPDATE nodes SET prune_at = osmia_prune_cycle(confidence, decay_rate, epoch, {THRESHOLD_SQL}) "
            "WHERE seq > ? AND seq <= ?",
            (start, int(last)),
        )
        await self.set_meta(PRUNE_RECOMPUTE_KEY, str(int(last)))
        return False

    async def rows(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        """Raw rows of one statement (for the memory modules that keep their own SQL)."""
        return await self._rows(sql, params)

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one write statement (inside the caller's transaction); returns the rows it changed."""
        cur = await self._conn.execute(sql, params)
        return int(cur.rowcount)

    async def executemany(self, sql: str, params: Iterable[Sequence[Any]]) -> None:
        """Run one write statement for many parameter rows (inside the caller's transaction)."""
        await self._conn.executemany(sql, params)

    async def wipe(self) -> None:
        """Delete all nodes, edges, runs and meta (inside the caller's transaction; import --replace)."""
        for table in (
            "edges", "node_runs", "nodes", "runs", "run_refs", "forgotten_runs", "meta", "run_stats",
            "run_durations", "run_failures",
        ):  # fmt: skip
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


def sql_statements(script: str) -> list[str]:
    """Split a migration script into single statements (trigger bodies keep their ``;``)."""
    statements: list[str] = []
    pending = ""
    for piece in script.split(";"):
        pending += piece + ";"
        if sqlite3.complete_statement(pending):
            if pending.strip(" \n\t;"):
                statements.append(pending.strip())
            pending = ""
    if pending.strip(" \n\t;"):
        raise ValueError(f"incomplete SQL statement in a migration: {pending.strip()[:80]}")
    return statements


def _first_line(text: str) -> str:
    return text.splitlines()[0] if text else text


def _check_regular_file(path: Path) -> None:
    """A FIFO, socket or device is refused before SQLite opens it (opening a FIFO blocks)."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return
    except OSError as exc:
        raise StoreError(f"memory database {path}: cannot read: {exc.strerror or exc}") from exc
    if stat.S_ISDIR(mode):
        raise StoreError(f"memory database {path}: is a directory, not a database file")
    if not stat.S_ISREG(mode):
        raise StoreError(f"memory database {path}: not a regular file (a pipe, socket or device)")


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
