"""Database files: racing creators, corrupt pages, full disks, empty files and read-only media.

Real processes, real files, and (as root) a real small tmpfs, a real read-only
bind mount and a real immutable folder; tests that need root skip without it.
"""

from __future__ import annotations

import asyncio
import hashlib
import multiprocessing
import os
import shutil
import sqlite3
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from osmia import cli
from osmia.memory.schema import MIGRATIONS, SCHEMA_VERSION
from osmia.memory.service import Memory, MemorySettings
from osmia.memory.store import Store, StoreError, sql_statements
from osmia.memory.store.lifecycle import (
    MMAP_BYTES,
    MMAP_FULL_UP_TO,
    MMAP_SMALL_BYTES,
    WRITER_MMAP_BYTES,
    mmap_bytes,
)
from tests.helpers import taskrun_doc, yaml_stream
from tests.memory.conftest import Clock, make_run

Outcome = tuple[int, str, str]
READ_VERBS = ("status", "export", "search", "show", "context", "explain")


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def osmia(capsys: pytest.CaptureFixture[str]) -> Callable[..., Outcome]:
    def run(*args: str | Path) -> Outcome:
        capsys.readouterr()
        code = cli.main([str(a) for a in args])
        out = capsys.readouterr()
        return code, out.out, out.err

    return run


async def build(path: Path, runs: int = 4) -> str:
    """A database with a few runs; returns the id of one node."""
    mem = await Memory.open(MemorySettings(store_path=path), clock=Clock(), update_gauges=False)
    try:
        for i in range(runs):
            learnings = tuple(f"lesson {i} {j}: run go test -race in pkg{j}" for j in range(5))
            await mem.ingest(
                make_run(f"r{i}", success=i % 2 == 0, tests_failed=("TestLogin",), learnings=learnings)
            )
        return (await mem.export())["nodes"][0]["id"]
    finally:
        await mem.close()


def read_verb_args(verb: str, node: str, run_file: Path) -> list[str]:
    return {
        "status": ["status"],
        "export": ["export"],
        "search": ["search", "login"],
        "show": ["show", node],
        "context": ["context", str(run_file)],
        "explain": ["explain", str(run_file)],
    }[verb]


@pytest.fixture
def run_file(tmp_path: Path) -> Path:
    path = tmp_path / "next-run.yaml"
    path.write_text(yaml_stream([taskrun_doc("next", status=False, title="Fix login race")]))
    return path


# --- schema creation by racing processes ------------------------------------------------


def _open_in_process(path: str, barrier: Any, results: Any) -> None:
    async def go() -> None:
        barrier.wait()
        store = await Store.open(Path(path))
        await store.count("nodes")
        await store.close()

    try:
        asyncio.run(go())
        results.put("ok")
    except Exception as exc:  # reported to the parent, which asserts on it
        results.put(f"{type(exc).__name__}: {exc}")


def test_processes_creating_one_new_database_at_once_all_succeed(tmp_path: Path) -> None:
    """Before the fix, about one round in six failed ("table nodes already exists"); with a barrier, most."""
    ctx = multiprocessing.get_context("fork")
    failures: list[str] = []
    for round_ in range(25):
        path = tmp_path / f"race{round_}" / "memory.db"
        path.parent.mkdir()
        barrier, results = ctx.Barrier(3), ctx.Queue()
        procs = [ctx.Process(target=_open_in_process, args=(str(path), barrier, results)) for _ in range(3)]
        for p in procs:
            p.start()
        outcomes = [results.get(timeout=60) for _ in procs]
        for p in procs:
            p.join(timeout=60)
        failures.extend(o for o in outcomes if o != "ok")
        with sqlite3.connect(path) as conn:
            assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert failures == []


def test_migration_scripts_split_into_whole_statements() -> None:
    """Triggers keep their inner ``;``: every piece is one complete statement."""
    for script in MIGRATIONS:
        statements = sql_statements(script)
        assert statements and all(sqlite3.complete_statement(s) for s in statements)
        assert sum(s.count("CREATE TRIGGER") for s in statements) == script.count("CREATE TRIGGER")
        assert len([s for s in statements if s.startswith("CREATE TRIGGER")]) == script.count(
            "CREATE TRIGGER"
        )


# --- corrupt pages ----------------------------------------------------------------------


def corrupt_past_the_header(path: Path) -> None:
    """Scribble over one page so that the schema still reads but ``quick_check`` fails."""
    original = path.read_bytes()
    page = 4096
    for offset in range(len(original) - page, page, -page):
        data = bytearray(original)
        data[offset + 8 : offset + page - 8] = bytes(range(256)) * ((page - 16) // 256)
        path.write_bytes(bytes(data))
        conn = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
        try:
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
            if conn.execute("PRAGMA quick_check").fetchone()[0] != "ok":
                return
        except sqlite3.DatabaseError:
            pass
        finally:
            conn.close()
    pytest.fail("no page could be damaged without breaking the schema")


@pytest.fixture
def corrupt_db(tmp_path: Path) -> Path:
    path = tmp_path / "memory.db"
    asyncio.run(build(path, runs=12))
    corrupt_past_the_header(path)
    return path


def test_a_corrupt_database_is_never_written(
    corrupt_db: Path, tmp_path: Path, osmia: Callable[..., Outcome]
) -> None:
    before = digest(corrupt_db)
    source = tmp_path / "runs.yaml"
    source.write_text(yaml_stream([taskrun_doc("new-run")]))
    code, _out, err = osmia("memory", "--db", corrupt_db, "ingest", source)
    assert code == 1 and "quick_check" in err and "corrupt" in err and str(corrupt_db) in err
    for verb in (["decay"], ["import", "--replace", str(source)]):
        assert osmia("memory", "--db", corrupt_db, *verb)[0] in (1, 2)
    assert digest(corrupt_db) == before


def test_status_of_a_corrupt_database_fails(corrupt_db: Path, osmia: Callable[..., Outcome]) -> None:
    before = digest(corrupt_db)
    code, out, err = osmia("memory", "--db", corrupt_db, "status")
    assert code == 1, out
    assert "quick_check" in err and "corrupt" in err and len(err.strip().splitlines()) == 1
    assert digest(corrupt_db) == before


# --- full disk --------------------------------------------------------------------------


@pytest.fixture
def small_disk() -> Iterator[Path]:
    """A real 1 MB tmpfs (root only)."""
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a small filesystem needs root")
    mountpoint = Path(tempfile.mkdtemp(prefix="osmia-small-"))
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mountpoint)], capture_output=True
    )
    if done.returncode != 0:
        mountpoint.rmdir()
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    try:
        yield mountpoint
    finally:
        subprocess.run(["umount", "-l", str(mountpoint)], check=False)
        mountpoint.rmdir()


async def test_a_really_full_disk_says_so_and_loses_nothing(small_disk: Path) -> None:
    path = small_disk / "memory.db"
    mem = await Memory.open(MemorySettings(store_path=path), clock=Clock(), update_gauges=False)
    done: list[str] = []
    try:
        with pytest.raises(StoreError) as err:
            for i in range(2000):
                run = make_run(f"big{i}", learnings=tuple(f"lesson {i} {j} " * 20 for j in range(10)))
                await mem.ingest(run)
                done.append(run.run_key)
        message = str(err.value)
        assert "database or disk is full" in message and "cannot rollback" not in message
        assert str(path) in message
    finally:
        await mem.close()
    assert len(done) > 1
    subprocess.run(["mount", "-o", "remount,size=8m", str(small_disk)], check=True)
    mem = await Memory.open(MemorySettings(store_path=path), clock=Clock(), update_gauges=False)
    try:
        assert (await mem.status())["integrity"] == "ok"
        assert sorted(r[0] for r in (await mem.export())["runs"]) == sorted(done)
        nxt = make_run(f"big{len(done)}")
        assert (await mem.ingest(nxt)).state == "done"
        assert (await mem.ingest(make_run("big0"))).state == "duplicate"
    finally:
        await mem.close()


async def test_a_page_limit_says_the_disk_is_full_not_that_rollback_failed(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    mem = await Memory.open(MemorySettings(store_path=path), clock=Clock(), update_gauges=False)
    try:
        await mem.ingest(make_run("a"))
        conn = mem._store._conn
        used = (await conn.execute_fetchall("PRAGMA page_count"))[0][0]
        await conn.execute(f"PRAGMA max_page_count = {used}")
        with pytest.raises(StoreError) as err:
            for i in range(50):
                await mem.ingest(
                    make_run(f"b{i}", learnings=tuple(f"lesson {i} {j} " * 20 for j in range(10)))
                )
        assert "full" in str(err.value) and "cannot rollback" not in str(err.value)
    finally:
        await mem.close()


# --- empty and missing files ------------------------------------------------------------


@pytest.mark.parametrize("verb", READ_VERBS)
def test_read_verbs_never_create_a_database(
    verb: str, tmp_path: Path, run_file: Path, osmia: Callable[..., Outcome]
) -> None:
    path = tmp_path / "typo.db"
    code, _out, err = osmia("memory", "--db", path, *read_verb_args(verb, "n0", run_file))
    assert code == 1 and "no such file" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["next-run.yaml"]


@pytest.mark.parametrize("verb", READ_VERBS)
def test_read_verbs_do_not_give_an_empty_file_a_schema(
    verb: str, tmp_path: Path, run_file: Path, osmia: Callable[..., Outcome]
) -> None:
    path = tmp_path / "empty.db"
    path.touch()
    code, _out, err = osmia("memory", "--db", path, *read_verb_args(verb, "n0", run_file))
    assert code == 1 and "no Osmia schema" in err
    assert path.stat().st_size == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty.db", "next-run.yaml"]


def test_a_write_verb_gives_an_empty_file_a_schema(tmp_path: Path, osmia: Callable[..., Outcome]) -> None:
    path = tmp_path / "empty.db"
    path.touch()
    source = tmp_path / "runs.yaml"
    source.write_text(yaml_stream([taskrun_doc("new-run")]))
    assert osmia("memory", "--db", path, "ingest", source)[0] == 0
    assert osmia("memory", "--db", path, "status")[0] == 0


def test_a_read_verb_does_not_migrate_an_old_schema(tmp_path: Path, osmia: Callable[..., Outcome]) -> None:
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as conn:
        conn.executescript(MIGRATIONS[0] + "\nPRAGMA user_version = 1;")
    before = digest(path)
    code, _out, err = osmia("memory", "--db", path, "status")
    assert code == 1 and "older" in err and "migrate" in err
    assert digest(path) == before
    assert osmia("memory", "--db", path, "decay")[0] == 0  # a writing verb upgrades it
    assert osmia("memory", "--db", path, "status")[0] == 0


def test_a_fifo_is_refused_without_hanging(tmp_path: Path, osmia: Callable[..., Outcome]) -> None:
    fifo = tmp_path / "pipe.db"
    os.mkfifo(fifo)
    for verb in (["status"], ["decay"]):
        code, _out, err = osmia("memory", "--db", fifo, *verb)
        assert code == 2 and "is a FIFO, not a file" in err, err  # bad input (issue 10)


# --- read-only media --------------------------------------------------------------------


def _check_read_verbs(db: Path, node: str, run_file: Path, osmia: Callable[..., Outcome]) -> None:
    folder = db.parent
    names = sorted(p.name for p in folder.iterdir())
    before = {p.name: digest(p) for p in folder.iterdir() if p.is_file()}
    for verb in READ_VERBS:
        code, out, err = osmia("memory", "--db", db, *read_verb_args(verb, node, run_file))
        assert code == 0, (verb, err)
        assert out.strip(), verb
    assert sorted(p.name for p in folder.iterdir()) == names
    assert {p.name: digest(p) for p in folder.iterdir() if p.is_file()} == before


def test_read_verbs_leave_the_database_file_unchanged(
    tmp_path: Path, run_file: Path, osmia: Callable[..., Outcome]
) -> None:
    db = tmp_path / "data" / "memory.db"
    db.parent.mkdir()
    node = asyncio.run(build(db))
    before = digest(db)
    for verb in READ_VERBS:
        assert osmia("memory", "--db", db, *read_verb_args(verb, node, run_file))[0] == 0, verb
    assert digest(db) == before


@pytest.fixture
def immutable_folder(tmp_path: Path) -> Iterator[Path]:
    """A folder (and database) that even root cannot change: ``chattr +i``."""
    if os.geteuid() != 0:
        pytest.skip("chattr +i needs root")
    folder = tmp_path / "data"
    folder.mkdir()
    asyncio.run(build(folder / "memory.db"))
    flagged = [folder / "memory.db", folder]
    for target in flagged:
        if subprocess.run(["chattr", "+i", str(target)], capture_output=True).returncode != 0:
            pytest.skip("this filesystem cannot make files immutable")
    try:
        yield folder / "memory.db"
    finally:
        for target in flagged:
            subprocess.run(["chattr", "-i", str(target)], check=False)


def test_read_verbs_work_in_an_immutable_folder(
    immutable_folder: Path, run_file: Path, osmia: Callable[..., Outcome]
) -> None:
    node = _first_node_id(immutable_folder)
    _check_read_verbs(immutable_folder, node, run_file, osmia)
    code, _out, err = osmia("memory", "--db", immutable_folder, "decay")
    assert code == 1 and "read-only" in err


@pytest.fixture
def read_only_mount(tmp_path: Path) -> Iterator[Path]:
    """The database seen through a real read-only bind mount."""
    if os.geteuid() != 0:
        pytest.skip("bind mounts need root")
    source, view = tmp_path / "data", tmp_path / "view"
    source.mkdir()
    view.mkdir()
    asyncio.run(build(source / "memory.db"))
    if subprocess.run(["mount", "--bind", str(source), str(view)], capture_output=True).returncode != 0:
        pytest.skip("cannot bind-mount here")
    try:
        if subprocess.run(["mount", "-o", "remount,bind,ro", str(view)], capture_output=True).returncode != 0:
            pytest.skip("cannot remount read-only here")
        yield view / "memory.db"
    finally:
        subprocess.run(["umount", "-l", str(view)], check=False)


def test_read_verbs_work_on_a_read_only_mount(
    read_only_mount: Path, run_file: Path, osmia: Callable[..., Outcome]
) -> None:
    node = _first_node_id(read_only_mount)
    _check_read_verbs(read_only_mount, node, run_file, osmia)
    code, _out, err = osmia("memory", "--db", read_only_mount, "forget", node)
    assert code == 1 and "read-only" in err


def _first_node_id(db: Path) -> str:
    conn = sqlite3.connect(f"{db.as_uri()}?immutable=1", uri=True)
    try:
        return str(conn.execute("SELECT id FROM nodes ORDER BY id LIMIT 1").fetchone()[0])
    finally:
        conn.close()


async def test_a_reader_sees_what_a_live_writer_committed(tmp_path: Path) -> None:
    """``mode=ro`` still reads through the WAL of a writer that is running (the operator)."""
    path = tmp_path / "memory.db"
    writer = await Memory.open(MemorySettings(store_path=path), clock=Clock(), update_gauges=False)
    try:
        await writer.ingest(make_run("a"))
        reader = await Memory.open(MemorySettings(store_path=path), read_only=True, update_gauges=False)
        try:
            first = (await reader.status())["runs"]
            await writer.ingest(make_run("b"))
            assert (first, (await reader.status())["runs"]) == (1, 2)
            node = (await reader.export())["nodes"][0]["id"]
            with pytest.raises(StoreError, match="read-only"):
                await reader.forget(node)
        finally:
            await reader.close()
    finally:
        await writer.close()


def test_a_file_much_larger_than_the_map_gets_a_small_one() -> None:
    assert mmap_bytes(0) == mmap_bytes(370 << 20) == mmap_bytes(MMAP_FULL_UP_TO) == MMAP_BYTES
    assert mmap_bytes(MMAP_FULL_UP_TO + 1) == mmap_bytes(2_700 << 20) == MMAP_SMALL_BYTES < MMAP_BYTES


async def test_only_a_read_only_store_maps_the_file(tmp_path: Path) -> None:
    # The writer reads through its page cache: a map's pages would count in the operator's RSS.
    memory = await Memory.open(MemorySettings(store_path=tmp_path / "m.db"), update_gauges=False)
    try:
        assert int(await memory._store._scalar("PRAGMA mmap_size")) == WRITER_MMAP_BYTES == 0
    finally:
        await memory.close()
    reader = await Store.open(tmp_path / "m.db", read_only=True)
    try:
        mapped = await reader._scalar("PRAGMA mmap_size")
    finally:
        await reader.close()
    assert int(mapped) == mmap_bytes((tmp_path / "m.db").stat().st_size) > 0


def test_a_log_that_read_only_media_cannot_apply_is_refused_not_ignored(
    tmp_path: Path, osmia: Callable[..., Outcome]
) -> None:
    """Found by the tenth session's CLI probe: a database copied with its ``-wal`` but not its
    ``-shm`` (a writer killed before its checkpoint) onto read-only media was read as immutable,
    which ignores the log: `status` and `export` left out every run committed there, silently."""
    if os.geteuid() != 0:
        pytest.skip("bind mounts need root")
    source, view = tmp_path / "data", tmp_path / "view"
    source.mkdir()
    view.mkdir()
    live = tmp_path / "live.db"

    async def with_a_log() -> None:
        writer = await Memory.open(MemorySettings(store_path=live), clock=Clock(), update_gauges=False)
        try:
            await writer.ingest(make_run("a"))
            shutil.copy(live, source / "memory.db")
            shutil.copy(live.with_name("live.db-wal"), source / "memory.db-wal")
        finally:
            await writer.close()

    asyncio.run(with_a_log())
    assert (source / "memory.db-wal").stat().st_size > 0
    if subprocess.run(["mount", "--bind", str(source), str(view)], capture_output=True).returncode != 0:
        pytest.skip("cannot bind-mount here")
    try:
        if subprocess.run(["mount", "-o", "remount,bind,ro", str(view)], capture_output=True).returncode != 0:
            pytest.skip("cannot remount read-only here")
        code, out, err = osmia("memory", "--db", view / "memory.db", "status")
        assert code == 1 and out == "" and "write-ahead log memory.db-wal" in err, err
        assert len(err.strip().splitlines()) == 1
    finally:
        subprocess.run(["umount", "-l", str(view)], check=False)


def test_a_database_this_user_cannot_read_is_one_error_before_sqlite_opens_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found by a probe (twenty-sixth session, run as a non-root user): SQLite's "unable to open
    database file" left aiosqlite's worker thread running, which crashed at exit with a traceback.
    Root reads any file, so the permission is emulated here; the real run is in the closing note."""
    from osmia.memory.store import errors

    db = tmp_path / "memory.db"
    sqlite3.connect(db).close()
    real_access = os.access
    monkeypatch.setattr(errors.os, "access", lambda p, mode: mode != os.R_OK and real_access(p, mode))
    with pytest.raises(StoreError, match="cannot read: permission denied"):
        asyncio.run(Store.open(db))
