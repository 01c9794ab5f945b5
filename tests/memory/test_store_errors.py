"""A database that cannot be used gives a clear error naming the file, and is never overwritten."""

from __future__ import annotations

import hashlib
import os
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from osmia.memory.schema import SCHEMA_VERSION
from osmia.memory.service import Memory, MemorySettings
from osmia.memory.store import StoreError
from tests.memory.conftest import Clock, make_run


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


async def make_db(path: Path) -> None:
    mem = await Memory.open(MemorySettings(store_path=path), clock=Clock(), update_gauges=False)
    await mem.ingest(make_run("a", success=False, tests_failed=("TestX",)))
    await mem.close()


async def test_random_bytes_are_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    path.write_bytes(os.urandom(8192))
    before = digest(path)
    with pytest.raises(StoreError) as err:
        await Memory.open(MemorySettings(store_path=path), update_gauges=False)
    assert str(path) in str(err.value) and "corrupt" in str(err.value)
    assert digest(path) == before


async def test_damaged_pages_are_reported_when_read(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    await make_db(path)
    data = bytearray(path.read_bytes())
    page = 4096
    for offset in range(page, len(data), page):  # scribble over every page after the header page
        data[offset : offset + 64] = os.urandom(64)
    path.write_bytes(bytes(data))
    before = digest(path)
    with pytest.raises(StoreError) as err:
        mem = await Memory.open(MemorySettings(store_path=path), update_gauges=False)
        try:
            await mem.export()
        finally:
            await mem.close()
    assert str(path) in str(err.value)
    assert digest(path) == before


async def test_newer_schema_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    await make_db(path)
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 98}")
    before = digest(path)
    with pytest.raises(StoreError) as err:
        await Memory.open(MemorySettings(store_path=path), update_gauges=False)
    assert "newer" in str(err.value) and str(path) in str(err.value)
    assert digest(path) == before


async def test_a_foreign_sqlite_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE invoices (id INTEGER)")
    before = digest(path)
    with pytest.raises(StoreError, match="not an Osmia database"):
        await Memory.open(MemorySettings(store_path=path), update_gauges=False)
    assert digest(path) == before


async def test_a_locked_database_times_out_with_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    await make_db(path)
    settings = MemorySettings(store_path=path, busy_timeout_ms=100)
    mem = await Memory.open(settings, clock=Clock(), update_gauges=False)
    holder = sqlite3.connect(path, isolation_level=None)
    try:
        holder.execute("BEGIN IMMEDIATE")  # another writer holds the lock
        with pytest.raises(StoreError) as err:
            await mem.ingest(make_run("b"))
        assert "locked" in str(err.value) and str(path) in str(err.value)
        holder.execute("ROLLBACK")
        assert (await mem.ingest(make_run("b"))).state == "done"  # nothing was lost: it works once free
    finally:
        holder.close()
        await mem.close()


@pytest.fixture
def read_only_file(tmp_path: Path) -> Iterator[Path]:
    """A database file that even root cannot write (chattr +i), or a 0444 one for other users."""
    path = tmp_path / "memory.db"
    import asyncio

    asyncio.run(make_db(path))
    if os.geteuid() == 0:
        if subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode != 0:
            pytest.skip("this filesystem cannot make a file immutable for root")
    else:
        path.chmod(0o444)
    yield path
    if os.geteuid() == 0:
        subprocess.run(["chattr", "-i", str(path)], check=False)


async def test_a_read_only_database_is_refused_and_left_alone(read_only_file: Path) -> None:
    before = digest(read_only_file)
    with pytest.raises(StoreError) as err:
        await Memory.open(MemorySettings(store_path=read_only_file), update_gauges=False)
    assert "read-only" in str(err.value) and str(read_only_file) in str(err.value)
    assert digest(read_only_file) == before


async def test_a_full_disk_rolls_back_and_loses_nothing(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    mem = await Memory.open(MemorySettings(store_path=path), clock=Clock(), update_gauges=False)
    try:
        await mem.ingest(make_run("a"))
        before = await mem.export()
        conn = mem._store._conn  # the limit is per connection; this simulates ENOSPC
        async with conn.execute("PRAGMA page_count") as cur:
            used = (await cur.fetchone())[0]
        await conn.execute(f"PRAGMA max_page_count = {used}")
        with pytest.raises(StoreError, match="full"):
            for i in range(50):
                await mem.ingest(
                    make_run(f"big{i}", learnings=tuple(f"lesson {i} {j} " * 20 for j in range(10)))
                )
        await conn.execute("PRAGMA max_page_count = 1073741823")
        after = await mem.export()
        done = {r[0] for r in after["runs"]}
        assert {r[0] for r in before["runs"]} <= done
        # every run either fully there or fully absent: re-ingesting the rest works once
        for i in range(50):
            state = (await mem.ingest(make_run(f"big{i}"))).state
            assert state == ("duplicate" if f"agents/big{i}/uid-agents-big{i}" in done else "done")
    finally:
        await mem.close()
