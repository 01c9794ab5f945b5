"""Opening, checking, migrating, maintaining and closing the database, and its transactions.

The store never overwrites a file it cannot understand: a corrupt, locked, read-only or
newer-schema database raises :class:`StoreError` naming the file and what to do.
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from typing import Self

import aiosqlite

from osmia.memory.fading import prune_cycle
from osmia.memory.lesson_forms import form_of
from osmia.memory.schema import MIGRATIONS, SCHEMA_VERSION
from osmia.memory.store.base import StoreBase
from osmia.memory.store.errors import (
    StoreError,
    check_regular_file,
    check_writable,
    explain_sqlite_error,
    first_line,
)
from osmia.memory.store.rows import run_id
from osmia.memory.vocabulary import sentence_key, words_column

# Work one maintenance pass may do on the full-text index (FTS5 'merge' pages).
FTS_MERGE_PAGES = 500
# A read-only store's connection (the CLI's reading verbs: status, search, show, export, context)
# reads through a memory map of up to this many bytes of the file instead of a read() system call
# per page. The map was the writer's from the fourth session, when queries ran there and a pread
# per page was most of a query (docs/performance.md §7); since the thirteenth session queries run
# on the calling thread's reader, which has no map (§21), and since the nineteenth the writer has
# none either (WRITER_MMAP_BYTES): mapped pages count in the process's RSS once touched, and one
# read of every row (a prune-threshold change) filled all 256 MiB of them.
MMAP_BYTES = 256 * 1024 * 1024
# ... while the map covers a good part of the file. A file more than four times the map (1M nodes:
# 2.7 GB) reads most of its pages through read() anyway; there the map made queries 5 % faster
# and added 65 MB of resident pages, so a large file gets a small map (docs/performance.md §12).
MMAP_SMALL_BYTES = 64 * 1024 * 1024
MMAP_FULL_UP_TO = 4 * MMAP_BYTES
# The writer's connection maps nothing: extractions, decay passes and forgets read a few hundred
# pages each, as fast through its 2 MB page cache as through the map (alternated in one process at
# 100k nodes: extraction mean 6.96 ms either way, decay passes 0.86-1.27 s either way), and the
# serving process's peak RSS no longer holds up to 256 MiB of file pages (docs/performance.md §27).
WRITER_MMAP_BYTES = 0


def mmap_bytes(file_bytes: int) -> int:
    """How much of a database file of ``file_bytes`` SQLite maps (``PRAGMA mmap_size``)."""
    return MMAP_BYTES if file_bytes <= MMAP_FULL_UP_TO else MMAP_SMALL_BYTES


class Lifecycle(StoreBase):
    """Open (create, check, migrate), maintain and close; atomic writes and consistent reads."""

    @classmethod
    async def open(
        cls,
        path: Path,
        *,
        busy_timeout_ms: int = 5000,
        create: bool = True,
        deferred_checkpoints: bool = False,
        read_only: bool = False,
    ) -> Self:
        """Open (and create or migrate) the database at ``path``.

        With ``create=False`` a missing file is an error rather than a new database.
        With ``deferred_checkpoints`` the WAL is checkpointed only by :meth:`maintain`
        (the operator runs it between extractions), not inside a commit.
        With ``read_only`` nothing is created, migrated or written (see :meth:`_open_read_only`).
        Before anything writes to an existing file, SQLite's ``quick_check`` must pass.
        """
        path = Path(path)
        check_regular_file(path)
        if read_only:
            return await cls._open_read_only(path, busy_timeout_ms)
        exists = path.exists()
        if not exists and not create:
            raise StoreError(f"memory database {path}: no such file (nothing to read)")
        check_writable(path, exists)
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
            store._reader_source = path.absolute().as_uri() + "?mode=ro"
        except sqlite3.Error as exc:
            await conn.close()
            raise explain_sqlite_error(path, exc) from exc
        except BaseException:
            await conn.close()
            raise
        return store

    @classmethod
    async def _open_read_only(cls, path: Path, busy_timeout_ms: int) -> Self:
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
            wal = path.with_name(path.name + "-wal")
            if "immutable" in query and wal.exists() and wal.stat().st_size > 0:
                # Read as immutable, SQLite ignores the log: transactions committed there (a
                # writer killed before its checkpoint) would be missing without a word.
                raise StoreError(
                    f"memory database {path}: its write-ahead log {wal.name} holds committed "
                    "transactions that cannot be read here without its -shm file (read-only media); "
                    "copy the database and its -wal to a writable folder and read that copy "
                    "(the file was not changed)"
                )
            try:
                conn = await aiosqlite.connect(uri + query, uri=True, isolation_level=None)
            except sqlite3.Error as exc:
                raise explain_sqlite_error(path, exc) from exc
            store = cls(path, conn)
            store.read_only = True
            try:
                await store._configure_read_only(busy_timeout_ms)
                store._reader_source = uri + query
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

    def _file_bytes(self) -> int:
        """The database file's size now (0 for a file not created yet)."""
        try:
            return self.path.stat().st_size
        except OSError:
            return 0

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
        await self._conn.execute(f"PRAGMA mmap_size = {mmap_bytes(self._file_bytes())}")

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
        # The v9 migration fills the vocabulary columns of existing rows with these,
        await self._conn.create_function("osmia_words", 1, words_column, deterministic=True)
        await self._conn.create_function("osmia_sentence", 1, sentence_key, deterministic=True)
        # ... and the v10 migration the parsed form of every valid learning with this.
        await self._conn.create_function("osmia_lesson_form", 1, form_of, deterministic=True)
        await self._conn.execute("PRAGMA synchronous = NORMAL")
        await self._conn.execute(f"PRAGMA mmap_size = {WRITER_MMAP_BYTES}")
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
                f"memory database {self.path}: failed SQLite's quick_check ({first_line(verdict)}) — the "
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
        # Fetched, so the statement is finished: a checkpoint left pending (its cursor is held until
        # aiosqlite's next call returns) makes a COMMIT that follows at once fail, "SQL statements
        # in progress", as an extraction run in one trip would (store/one_trip.py).
        busy, log, done = (await self._rows("PRAGMA wal_checkpoint(PASSIVE)"))[0]
        if not busy and log > 1 and done == log:  # 1: only the last restart's own frame, nothing new
            await self._restart_wal()

    async def _restart_wal(self) -> None:
        """Restart the fully checkpointed WAL now, with a write that changes nothing.

        The first commit after a checkpoint starts the log over, and SQLite syncs the new log
        header before that commit's frames (so a crash cannot mix old and new frames): an
        ``fsync``, paid by whichever extraction came next (at one extraction per maintenance pass,
        every one of them). Here it is paid by maintenance. The write sets the schema version to
        the value it has, read under the write lock: SQLite writes the header page for it whatever
        the value (a row rewritten with its own bytes is skipped and starts nothing).
        """
        async with self.transaction():
            version = int(await self._scalar("PRAGMA user_version"))
            await self._conn.execute(f"PRAGMA user_version = {version}")

    async def close(self) -> None:
        """Checkpoint (unless read-only) and close; safe to call twice."""
        self._close_reader()  # first: the writer's connection may be the file's last
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
