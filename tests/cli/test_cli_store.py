"""Where the database is (flag, environment, config) and what the CLI does when it is not usable:
a directory, missing, corrupt, from a newer Osmia."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from osmia.config import ENV_MEMORY_STORE_PATH
from tests.cli.runs import Osmia, login_history, new_login_run, write_yaml


def test_db_comes_from_the_environment_then_the_config(
    osmia: Osmia, history_db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "osmia-config.yaml"
    config.write_text(f"memory:\n  store_path: {history_db}\n")
    from_config = osmia("memory", "--config", config, "--json", "status")
    assert from_config.code == 0 and from_config.json()["runs"] == 3
    monkeypatch.setenv(ENV_MEMORY_STORE_PATH, str(history_db))
    assert osmia("memory", "status").code == 0
    monkeypatch.delenv(ENV_MEMORY_STORE_PATH)
    missing = osmia("memory", "status")
    assert missing.code == 2 and "--db FILE is required" in missing.err


def test_a_directory_is_not_a_database(osmia: Osmia, tmp_path: Path) -> None:
    for verb in ("status", "decay", "ingest"):
        args = [str(tmp_path / "missing.yaml")] if verb == "ingest" else []
        outcome = osmia("memory", "--db", tmp_path, verb, *args)
        assert outcome.code == 2 and f"memory database {tmp_path}: is a directory" in outcome.err


def test_a_bad_config_is_bad_input(osmia: Osmia, history_db: Path, tmp_path: Path) -> None:
    config = tmp_path / "osmia-config.yaml"
    config.write_text("memory:\n  prune_threshold: 7\n")
    outcome = osmia("memory", "--db", history_db, "--config", config, "status")
    assert outcome.code == 2 and "memory.prune_threshold" in outcome.err


@pytest.mark.parametrize("verb", [["status"], ["context", "RUN"], ["export"], ["decay"], ["forget", "n1"]])
def test_reading_a_missing_database_fails_and_creates_nothing(
    osmia: Osmia, tmp_path: Path, verb: list[str]
) -> None:
    run = write_yaml(tmp_path / "run.yaml", new_login_run())
    missing = tmp_path / "typo.db"
    outcome = osmia("memory", "--db", missing, *[str(run) if a == "RUN" else a for a in verb])
    assert outcome.code == 1
    assert f"memory database {missing}: no such file" in outcome.err
    assert "Traceback" not in outcome.err
    assert not missing.exists() and sorted(os.listdir(tmp_path)) == ["run.yaml"]


def test_a_corrupt_database_fails_and_is_left_alone(osmia: Osmia, tmp_path: Path) -> None:
    corrupt = tmp_path / "corrupt.db"
    garbage = os.urandom(8192)
    corrupt.write_bytes(garbage)
    outcome = osmia("memory", "--db", corrupt, "status")
    assert outcome.code == 1
    assert f"memory database {corrupt}" in outcome.err and "Traceback" not in outcome.err
    assert corrupt.read_bytes() == garbage
    assert (
        osmia("memory", "--db", corrupt, "ingest", write_yaml(tmp_path / "r.yaml", login_history()[0])).code
        == 1
    )
    assert corrupt.read_bytes() == garbage


def test_a_database_from_a_newer_osmia_fails_and_is_left_alone(osmia: Osmia, tmp_path: Path) -> None:
    newer = tmp_path / "newer.db"
    with sqlite3.connect(newer) as conn:
        conn.execute("CREATE TABLE future (x)")
        conn.execute("PRAGMA user_version = 99")
    conn.close()
    original = newer.read_bytes()
    for args in (["status"], ["ingest", str(write_yaml(tmp_path / "r.yaml", login_history()[0]))]):
        outcome = osmia("memory", "--db", newer, *args)
        assert outcome.code == 1
        assert str(newer) in outcome.err and "newer" in outcome.err
        assert newer.read_bytes() == original
    assert sorted(p.name for p in tmp_path.iterdir()) == ["newer.db", "r.yaml"]


def test_text_sqlite_cannot_decode_is_a_damaged_database_in_one_line(
    osmia: Osmia, db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A corrupt schema can make SQLite's own error text undecodable (``UnicodeDecodeError``, not a
    ``sqlite3.Error``); emulated here, as a real one needs bytes overwritten inside a trigger."""
    from osmia.cli import app

    async def damaged(*_args: object) -> int:
        raise UnicodeDecodeError("utf-8", b"\xef\x00", 0, 1, "invalid continuation byte")

    monkeypatch.setitem(app.VERBS, "status", damaged)
    outcome = osmia("memory", "--db", db, "status")
    assert outcome.code == 1
    assert "the database is damaged" in outcome.err and "restore a backup" in outcome.err
    assert len(outcome.err.strip().splitlines()) == 1
