"""The connection every query group of the store shares, with its small helpers."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from osmia.memory.store.local_reader import Busy, LocalReader
from osmia.memory.store.rows import NODE_SELECT, node_from_row
from osmia.memory.types import Node

T = TypeVar("T")


class StoreBase:
    """One SQLite connection with the Osmia schema; the query groups build on it."""

    def __init__(self, path: Path, conn: aiosqlite.Connection) -> None:
        self.path = path
        self._conn = conn
        self.migrated = False  # whether open() upgraded the schema (the file was written)
        self.read_only = False  # opened with ``read_only``: the connection cannot write
        # The URI :meth:`read` opens its reader on the calling thread with; None: never.
        self._reader_source: str | None = None
        self._reader: LocalReader | None = None
        self._unstamped: dict[str, None] = {}  # lines written without a stamp (store/nodes.py)

    async def read(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run read-only ``work`` (several statements: a ranking) in one read transaction; return its result.

        It runs right here, on the calling (event loop's) thread, over a read-only connection of
        its own (:class:`~osmia.memory.store.local_reader.LocalReader`): no thread hop, which cost
        more than the work's statements (docs/performance.md §21). Where that connection cannot
        serve (another thread calls, a lock is held, it could not be opened) the work goes to
        the store connection's worker thread in one trip instead, as every read did before.
        ``work`` must only read and must not block on anything but SQLite.
        """
        reader = self._reader_here()
        if reader is not None:
            try:
                return reader.run(work)
            except Busy:
                pass  # the worker thread waits for the lock; the event loop does not
        conn = self._conn
        result: T = await conn._execute(lambda: work(conn._conn))  # type: ignore[no-untyped-call]
        return result

    def _reader_here(self) -> LocalReader | None:
        """The calling thread's reader, opened on first use; None where the worker thread must serve."""
        reader = self._reader
        if reader is None:
            if self._reader_source is None:
                return None
            try:
                reader = self._reader = LocalReader(self._reader_source)
            except sqlite3.Error:
                self._reader_source = None  # the worker thread serves every read from now on
                return None
        return reader if reader.usable_here() else None

    def _close_reader(self) -> None:
        """Close the reader (if one was opened) and open no other."""
        self._reader_source = None
        reader, self._reader = self._reader, None
        if reader is not None:
            reader.close()

    async def _scalar(self, sql: str, params: Sequence[Any] = ()) -> Any:
        rows = await self._rows(sql, params)
        return rows[0][0] if rows else None

    async def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        # One trip to aiosqlite's thread (execute, fetch and close together), not three.
        return list(await self._conn.execute_fetchall(sql, params))

    async def _nodes(self, where: str, params: Sequence[Any] = ()) -> list[Node]:
        rows = await self._rows(f"SELECT {NODE_SELECT} FROM nodes WHERE {where}", params)
        return [node_from_row(r) for r in rows]

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

    async def meta_items(self) -> dict[str, str]:
        """The whole meta table."""
        return {r[0]: r[1] for r in await self._rows("SELECT key, value FROM meta ORDER BY key")}

    async def integrity_check(self) -> str:
        """SQLite's ``quick_check`` verdict (``ok`` when healthy)."""
        return str(await self._scalar("PRAGMA quick_check"))
