"""``python -m osmia`` as a real process: exit codes and stderr as a shell sees them."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.runs import login_history, new_login_run
from tests.cli_support import run_process
from tests.helpers import yaml_stream


def test_process_exit_codes_for_missing_database_and_bad_usage(tmp_path: Path) -> None:
    missing = tmp_path / "missing.db"
    done = run_process("memory", "--db", missing, "status")
    assert done.code == 1
    assert done.out == ""
    assert done.err.strip() == f"osmia: error: memory database {missing}: no such file (nothing to read)"
    assert not missing.exists()
    assert run_process().code == 2
    assert run_process("memory", "--db", missing, "frobnicate").code == 2
    unknown = run_process("--frob")  # named as the option it is, not as a missing command
    assert unknown.code == 2
    assert unknown.err.strip() == "osmia: error: unrecognized arguments: --frob (see osmia --help)"
    assert run_process("--version").code == 0


def test_process_ingest_from_stdin_reports_bad_documents(tmp_path: Path) -> None:
    db = tmp_path / "memory.db"
    first, second, third = login_history()
    second["spec"]["ticket"]["description"] = ""
    done = run_process("memory", "--db", db, "ingest", "-", stdin=yaml_stream([first, second, third]))
    assert done.code == 2
    assert done.err.splitlines() == ["<stdin>: document 2: spec.ticket.description: is required"]
    assert done.out.splitlines()[-1] == "total: 2 ingested, 0 duplicate, 0 skipped, 1 errors"
    context = run_process("memory", "--db", db, "context", "-", stdin=json.dumps(new_login_run()))
    assert context.code == 0 and context.out.startswith("## Prior Knowledge")
