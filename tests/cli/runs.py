"""What the ``osmia`` command-line tests feed it and read back: TaskRun documents, a history that
gives a Prior Knowledge section, and the ``status`` / ``export`` calls they share (the CLI as a
real process: ``tests.cli_support.run_process``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli_support import Outcome
from tests.helpers import taskrun_doc, yaml_stream

INJECTED_KEYS = {"id", "kind", "content", "confidence", "score", "sources"}


Osmia = Callable[..., Outcome]


def write_yaml(path: Path, *docs: Any) -> Path:
    path.write_text(yaml_stream(docs))
    return path


def login_history() -> list[dict[str, Any]]:
    """Three finished runs on org/api about the login race: enough for a Prior Knowledge section."""
    common = {"title": "Fix login race", "description": "Login fails under concurrent requests"}
    return [
        taskrun_doc("fix-login-7", success=False, tests_failed=["TestConcurrentLogin"], **common),
        taskrun_doc(
            "fix-login-8",
            flaky=["TestConcurrentLogin"],
            learnings=["Run go test with -count=1; the cache hides the race"],
            files_changed=["internal/auth/session.go"],
            **common,
        ),
        taskrun_doc("fix-login-9", engine="aider", success=False, failure_reason="build failed", **common),
    ]


def new_login_run() -> dict[str, Any]:
    return taskrun_doc(
        "fix-login-10",
        status=False,
        title="Login returns 500 under load",
        description="Concurrent login requests for the same account fail with a 500",
    )


def unrelated_run() -> dict[str, Any]:
    return taskrun_doc(
        "write-changelog",
        status=False,
        repo="https://github.com/other/website",
        language="typescript",
        engine="codex",
        task_type="docs",
        title="Write the November changelog",
        description="Summarise the month's releases for the blog",
    )


def status(osmia: Osmia, db: Path, *extra: str) -> dict[str, Any]:
    outcome = osmia("memory", "--db", db, "--json", *extra, "status")
    assert outcome.code == 0, outcome.err
    result: dict[str, Any] = outcome.json()
    return result


def export(osmia: Osmia, db: Path) -> str:
    outcome = osmia("memory", "--db", db, "export")
    assert outcome.code == 0, outcome.err
    return outcome.out
