"""Fixtures of the ``osmia`` command-line tests (tests/cli): the CLI run in-process, a database
path, one holding the login history; no store path taken from the environment."""

from __future__ import annotations

from pathlib import Path

import pytest

from osmia import cli
from osmia.config import ENV_MEMORY_STORE_PATH
from tests.cli.runs import Osmia, login_history, write_yaml
from tests.cli_support import Outcome
from tests.helpers import kubectl_list


@pytest.fixture(autouse=True)
def _no_store_path_from_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_MEMORY_STORE_PATH, raising=False)


@pytest.fixture
def osmia(capsys: pytest.CaptureFixture[str]) -> Osmia:
    """Run ``osmia ARGS...`` in-process; returns exit code, stdout and stderr."""

    def run(*args: str | Path) -> Outcome:
        capsys.readouterr()
        code = cli.main([str(a) for a in args])
        captured = capsys.readouterr()
        return Outcome(code, captured.out, captured.err)

    return run


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "memory.db"


@pytest.fixture
def history_db(osmia: Osmia, db: Path, tmp_path: Path) -> Path:
    """A database holding the login history."""
    source = write_yaml(tmp_path / "history.yaml", kubectl_list(login_history()))
    assert osmia("memory", "--db", db, "ingest", source).code == 0
    return db
