"""Reads run on the calling thread over a read-only connection: one snapshot, never a long wait."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from osmia.memory.service import Memory, MemorySettings
from osmia.memory.store import Store
from osmia.memory.store.local_reader import Busy, LocalReader
from tests.memory.conftest import Clock, make_run


async def _store_with_nodes(path: Path) -> None:
    mem = await Memory.open(MemorySettings(store_path=path), clock=Clock(), update_gauges=False)
    await mem.ingest(make_run("a", success=False, tests_failed=("TestX",)))
    await mem.close()


def _count(db: sqlite3.Connection) -> int:
    return int(db.execute("SELECT count(*) FROM nodes").fetchone()[0])


@pytest.mark.parametrize("read_only", [False, True])
async def test_a_read_runs_on_the_calling_thread_over_a_connection_that_cannot_write(
    tmp_path: Path, read_only: bool
) -> None:
    path = tmp_path / "memory.db"
    await _store_with_nodes(path)
    store = await Store.open(path, read_only=read_only)
    try:
        thread, count = await store.read(lambda db: (threading.get_ident(), _count(db)))
        assert thread == threading.get_ident() and count > 0
        # Read through its page cache: the writer's memory map is not mapped a second time.
        assert await store.read(lambda db: db.execute("PRAGMA mmap_size").fetchone()[0]) == 0
        with pytest.raises(sqlite3.OperationalError, match=r"readonly|read-only|query_only"):
            await store.read(lambda db: db.execute("DELETE FROM nodes"))
        assert await store.read(_count) == count  # the refused write changed nothing
    finally:
        await store.close()


async def test_a_read_sees_one_point_in_time(tmp_path: Path) -> None:
    """A write committed by another connection between two statements of one read is not seen by
    the second: the read is one transaction (the next read sees the write)."""
    path = tmp_path / "memory.db"
    await _store_with_nodes(path)
    store = await Store.open(path)
    writer = sqlite3.connect(path, isolation_level=None)
    try:

        def twice(db: sqlite3.Connection) -> tuple[int, int]:
            first = _count(db)
            writer.execute("DELETE FROM nodes WHERE seq = (SELECT min(seq) FROM nodes)")
            return first, _count(db)

        first, second = await store.read(twice)
        assert first == second
        assert await store.read(_count) == first - 1
    finally:
        writer.close()
        await store.close()


async def test_a_busy_reader_hands_the_work_to_the_worker_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "memory.db"
    await _store_with_nodes(path)
    store = await Store.open(path)
    calls = []

    def busy(self: LocalReader, work: object) -> object:
        calls.append(work)
        raise Busy("database is locked")

    try:
        monkeypatch.setattr(LocalReader, "run", busy)
        thread, count = await store.read(lambda db: (threading.get_ident(), _count(db)))
        assert calls and thread != threading.get_ident() and count > 0  # answered by the worker
    finally:
        await store.close()


async def test_a_reader_that_cannot_open_leaves_every_read_to_the_worker_thread(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    await _store_with_nodes(path)
    store = await Store.open(path)
    try:
        store._reader_source = (tmp_path / "missing" / "x.db").as_uri() + "?mode=ro"
        thread, count = await store.read(lambda db: (threading.get_ident(), _count(db)))
        assert thread != threading.get_ident() and count > 0
        assert store._reader is None and store._reader_source is None  # not tried again
    finally:
        await store.close()


def test_a_held_lock_is_reported_as_busy_after_a_short_wait(tmp_path: Path) -> None:
    """A real lock (a rollback-journal file another connection holds exclusively): the reader gives
    up after ``LOOP_BUSY_MS`` instead of the store's ``busy_timeout``, with nothing done."""
    path = tmp_path / "plain.db"
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("CREATE TABLE nodes (seq INTEGER PRIMARY KEY)")
    holder.execute("INSERT INTO nodes VALUES (1)")
    reader = LocalReader(path.as_uri() + "?mode=ro")
    try:
        holder.execute("BEGIN EXCLUSIVE")
        with pytest.raises(Busy):
            reader.run(_count)
        holder.execute("COMMIT")
        assert reader.run(_count) == 1  # free again: read here
    finally:
        reader.close()
        holder.close()


def test_a_reader_serves_only_the_thread_that_opened_it(tmp_path: Path) -> None:
    path = tmp_path / "plain.db"
    sqlite3.connect(path).close()
    reader = LocalReader(path.as_uri() + "?mode=ro")
    elsewhere: list[bool] = []
    other = threading.Thread(target=lambda: elsewhere.append(reader.usable_here()))
    other.start()
    other.join()
    try:
        assert reader.usable_here() and elsewhere == [False]
    finally:
        reader.close()
