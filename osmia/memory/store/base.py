"""The connection every query group of the store shares, with its small helpers."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import aiosqlite

from osmia.memory.store.rows import NODE_SELECT, node_from_row
from osmia.memory.types import Node


class StoreBase:
    """One SQLite connection with the Osmia schema; the query groups build on it."""

    def __init__(self, path: Path, conn: aiosqlite.Connection) -> None:
        self.path = path
        self._conn = conn
        self.migrated = False  # whether open() upgraded the schema (the file was written)
        self.read_only = False  # opened with ``read_only``: the connection cannot write

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
