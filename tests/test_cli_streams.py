"""What a red-team pass found the CLI still crashed on or got wrong: closed or non-UTF-8 standard
streams, an export target that is a device or a FIFO, a damaged row SQLite's checks pass, an
import's ``"version": true``, a decay clock given as a number, and timestamps that are ISO 8601
but not RFC 3339. Each is one line on stderr and the documented exit code, nothing changed.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from osmia.config import ENV_MEMORY_STORE_PATH
from tests.cli_support import REPO_ROOT, run_cli
from tests.helpers import taskrun_doc


@pytest.fixture(autouse=True)
def _no_store_path_from_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_MEMORY_STORE_PATH, raising=False)


def _shell(command: str, **env: str) -> subprocess.CompletedProcess[str]:
    """``command`` in a shell, ``OSMIA`` standing for this interpreter's ``python -m osmia``."""
    environ = {k: v for k, v in os.environ.items() if k != ENV_MEMORY_STORE_PATH} | env
    environ["OSMIA"] = f"{sys.executable} -m osmia"
    return subprocess.run(
        ["sh", "-c", command],
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        env=environ,
        timeout=120,
        check=False,
    )


def _one_line(err: str) -> str:
    assert "Traceback" not in err, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store with a few ingested runs."""
    folder = tmp_path_factory.mktemp("streams")
    runs = folder / "runs.yaml"
    docs = [taskrun_doc(f"run-{i}", success=i % 2 == 0) for i in range(4)]
    runs.write_text(yaml.safe_dump_all(docs))
    db = folder / "memory.db"
    assert run_cli("memory", "--db", db, "ingest", runs).code == 0
    return db


def test_a_closed_standard_output_is_one_line_and_exit_1(store: Path) -> None:
    for verb in ("export", "status", "search run"):
        done = _shell(f'$OSMIA memory --db "{store}" {verb} >&-')
        assert done.returncode == 1, done
        assert "standard output is closed" in _one_line(done.stderr)


def test_a_closed_standard_input_is_bad_input(store: Path, tmp_path: Path) -> None:
    done = _shell(f'$OSMIA memory --db "{tmp_path / "new.db"}" import - <&-')
    assert done.returncode == 2, done
    assert "standard input is closed" in _one_line(done.stderr)
    assert not (tmp_path / "new.db").exists()


@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
def test_output_a_stream_cannot_encode_is_escaped(store: Path, encoding: str) -> None:
    done = _shell(f'$OSMIA memory --db "{store}" export', PYTHONIOENCODING=encoding)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done
    assert json.loads(done.stdout)["format"] == "osmia-memory"


def test_an_export_never_replaces_a_fifo_or_a_device(store: Path, tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for target in (fifo, Path(os.devnull)):
        done = run_cli("memory", "--db", store, "export", target)
        assert done.code == 2, done
        assert "not a file" in _one_line(done.err)
    assert fifo.is_fifo() and Path(os.devnull).is_char_device()


def test_an_export_never_replaces_the_database_or_its_sidecars(store: Path, tmp_path: Path) -> None:
    """Found by a probe (twenty-sixth session): ``export memory.db`` replaced the store with JSON."""
    before = store.read_bytes()
    link = tmp_path / "link.db"
    link.symlink_to(store)
    for target in (store, Path(f"{store}-wal"), Path(f"{store}-shm"), link, Path(f"{store}-journal")):
        done = run_cli("memory", "--db", store, "export", target)
        assert done.code == 2, done
        assert "own file" in _one_line(done.err)
    assert store.read_bytes() == before
    assert run_cli("memory", "--db", store, "status").code == 0


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("last_decay_at", "0"),
        ("last_decay_at", "-1e300"),
        ("last_decay_at", "nan"),
        ("decay_epoch", "999999999999"),
    ],
)
def test_a_damaged_decay_clock_prunes_nothing(store: Path, tmp_path: Path, key: str, value: str) -> None:
    """Found by a probe (twenty-sixth session): a decay clock of 0 (1970) made ``decay`` count 20,791
    cycles and prune every node, with exit 0."""
    db = tmp_path / "clock.db"
    db.write_bytes(store.read_bytes())
    with sqlite3.connect(db) as conn:
        nodes = conn.execute("SELECT count(*) FROM nodes").fetchone()[0]
        conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))
    done = run_cli("memory", "--db", db, "decay")
    assert done.code == 1, done
    assert f"meta.{key}" in _one_line(done.err) and "nothing was done" in done.err
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM nodes").fetchone()[0] == nodes > 0


def test_what_ingest_stores_an_import_reads_back(tmp_path: Path) -> None:
    """Found by a probe (twenty-sixth session): a run of 1,000,000,001 s or a repository URL over
    1,024 characters was ingested, and its export then refused by import: a backup that could not
    be restored."""
    runs = tmp_path / "runs.yaml"
    long_repo = "https://github.com/org/" + "r" * 1500
    docs = [taskrun_doc("long-run", duration=1_000_000_001), taskrun_doc("long-repo", repo=long_repo)]
    runs.write_text(yaml.safe_dump_all(docs))
    db, copy, backup = tmp_path / "a.db", tmp_path / "b.db", tmp_path / "backup.json"
    assert run_cli("memory", "--db", db, "ingest", runs).code == 0
    assert run_cli("memory", "--db", db, "export", backup).code == 0
    restored = run_cli("memory", "--db", copy, "import", backup)
    assert restored.code == 0, restored
    with sqlite3.connect(copy) as conn:
        durations = [d for (d,) in conn.execute("SELECT duration FROM runs")]
        longest = conn.execute("SELECT max(length(repository)) FROM nodes").fetchone()[0]
    assert len(durations) == 2 and None in durations and max(d or 0 for d in durations) <= 1e9
    assert longest > 1024


def test_a_node_id_that_is_not_utf8_is_bad_usage(store: Path) -> None:
    """Found by a probe (twenty-sixth session): ``show $'n\\xff'`` exited 1 as an unexpected error."""
    for verb in ("show", "forget"):
        done = run_cli("memory", "--db", store, verb, "n\udcff")  # how Python reads the byte 0xff in argv
        assert done.code == 2, done
        assert "not valid UTF-8" in _one_line(done.err)


def test_a_damaged_row_is_one_line_and_the_file_is_unchanged(store: Path, tmp_path: Path) -> None:
    copy = tmp_path / "damaged.db"
    with sqlite3.connect(store) as src, sqlite3.connect(copy) as dst:
        src.backup(dst)
    with sqlite3.connect(copy) as db:  # bytes SQLite's checks pass, but not JSON and not UTF-8
        db.execute("UPDATE nodes SET sources = 'x[' WHERE rowid = (SELECT min(rowid) FROM nodes)")
        last = "(SELECT max(rowid) FROM nodes)"
        db.execute(f"UPDATE nodes SET content = CAST(X'52FF6E73' AS TEXT) WHERE rowid = {last}")
        first = db.execute("SELECT id FROM nodes WHERE rowid = (SELECT min(rowid) FROM nodes)").fetchone()[0]
    before = copy.read_bytes()
    for verb in (["export"], ["search", "run"], ["status"], ["show", first]):
        done = run_cli("memory", "--db", copy, *verb)
        assert done.code in (0, 1), done
        if done.code:
            _one_line(done.err)
    assert copy.read_bytes() == before


def test_an_import_refuses_version_true_and_reads_a_numeric_decay_clock(store: Path, tmp_path: Path) -> None:
    exported = json.loads(run_cli("memory", "--db", store, "export").out)
    flagged = tmp_path / "flag.json"
    flagged.write_text(json.dumps(exported | {"version": True}))
    done = run_cli("memory", "--db", tmp_path / "a.db", "import", flagged)
    assert done.code == 2 and "version" in _one_line(done.err)
    assert not (tmp_path / "a.db").exists()
    numeric = tmp_path / "numeric.json"
    clock = time.time() - 3600.0
    numeric.write_text(json.dumps(exported | {"meta": exported["meta"] | {"last_decay_at": clock}}))
    assert run_cli("memory", "--db", tmp_path / "b.db", "import", numeric).code == 0
    again = json.loads(run_cli("memory", "--db", tmp_path / "b.db", "export").out)
    assert float(again["meta"]["last_decay_at"]) == clock


@pytest.mark.parametrize(
    "stamp",
    [
        "2026-11-10 03:26:57",
        "2026-11-10",
        "20261110T032657Z",
        "2026-W46-2",
        "2026-11-10T03",
        "2026-11-10T03:26Z",
    ],
)
def test_a_time_that_is_not_rfc_3339_is_refused(stamp: str, tmp_path: Path) -> None:
    doc = taskrun_doc("stamped", success=True)
    doc["status"]["conditions"][0]["lastTransitionTime"] = stamp  # type: ignore[index]
    path = tmp_path / "run.yaml"
    path.write_text(yaml.safe_dump(doc))
    done = run_cli("memory", "--db", tmp_path / "m.db", "ingest", path)
    assert done.code == 2, done
    assert "RFC 3339" in done.err and "Traceback" not in done.err


@pytest.mark.parametrize(
    "stamp", ["2026-11-10T03:26:57Z", "2026-11-10T03:26:57.123+09:00", "2026-11-10 03:26:57Z"]
)
def test_an_rfc_3339_time_is_read(stamp: str, tmp_path: Path) -> None:
    doc = taskrun_doc("stamped", success=True)
    doc["status"]["conditions"][0]["lastTransitionTime"] = stamp  # type: ignore[index]
    path = tmp_path / "run.yaml"
    path.write_text(yaml.safe_dump(doc))
    assert run_cli("memory", "--db", tmp_path / "m.db", "ingest", path).code == 0
