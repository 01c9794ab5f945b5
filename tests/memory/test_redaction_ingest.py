"""The one redaction step at ingest: no planted secret reaches the database file, from any field."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from osmia.memory.linear import LinearPattern
from osmia.memory.redaction import REDACTED, RULES
from osmia.memory.sanitize import sanitized
from osmia.memory.service import Memory, MemorySettings
from osmia.taskrun import TaskRun, TaskRunError, parse_taskrun
from tests.fixtures.secrets.corpus import Planted, secret_corpus
from tests.memory.conftest import Clock

# Every free-text field a TaskRun carries into memory, and how a planted text is put there.
FIELDS = (
    "title",
    "description",
    "summary",
    "failureReason",
    "learnings",
    "testsFailed",
    "flakyTests",
    "filesChanged",
    "engine",
    "engineAttempts",
    "language",
    "repository",
    "branchName",
    "mergeRequestURL",
)


def _doc(i: int, field: str, text: str) -> dict[str, Any]:
    one_line = text.replace("\n", " ")
    spec: dict[str, Any] = {
        "engine": "claude-code",
        "ticket": {"id": f"T-{i}", "title": "Fix login race", "description": "Login fails", "type": "bug"},
        "repository": {"url": "https://github.com/org/api", "language": "go"},
    }
    result: dict[str, Any] = {"success": i % 2 == 0, "failureReason": "" if i % 2 == 0 else "tests failed"}
    status: dict[str, Any] = {"phase": "Succeeded" if i % 2 == 0 else "Failed", "result": result}
    if field in ("title", "description"):
        spec["ticket"][field] = text
    elif field == "engine":
        spec["engine"] = one_line
    elif field == "engineAttempts":
        status["engineAttempts"] = [one_line, "codex"]
        result["success"], status["phase"], result["failureReason"] = True, "Succeeded", ""
    elif field == "language":
        spec["repository"]["language"] = one_line
    elif field == "repository":
        spec["repository"]["url"] = f"https://github.com/org/{one_line}"
    elif field in ("learnings", "testsFailed", "flakyTests"):
        result[field] = [text, "Run the race detector on the login handler"]
    elif field == "filesChanged":
        result[field] = [f"src/{one_line}/main.go", f"src/{one_line}/login.go"]
    else:
        result[field] = text
    return {
        "apiVersion": "osmia.dev/v1alpha1",
        "kind": "TaskRun",
        "metadata": {"name": f"run-{i}", "namespace": "agents", "uid": f"uid-{i}"},
        "spec": spec,
        "status": status,
    }


@pytest.fixture(scope="module")
def planted_runs() -> list[tuple[Planted, str, TaskRun]]:
    """Every corpus secret planted in a rotating field; documents the CRD's limits refuse (a sentence
    is no engine name, a PEM block no branch name) never reach memory, and are refused naming the field."""
    out = []
    refused = 0
    for i, p in enumerate(secret_corpus()):
        field = FIELDS[i % len(FIELDS)]
        try:
            out.append((p, field, parse_taskrun(_doc(i, field, p.text))))
        except TaskRunError as exc:
            assert field.lower() in exc.field_path.lower(), exc  # refused for the planted field itself
            refused += 1
    assert len(out) >= 0.6 * (len(out) + refused), "most plantings are accepted documents"
    return out


def _texts(run: TaskRun) -> list[str]:
    result = run.result
    assert result is not None
    return [
        run.engine,
        run.ticket.title,
        run.ticket.description,
        run.repository.url,
        run.repository.language,
        *run.engine_attempts,
        result.summary,
        result.failure_reason,
        result.branch_name,
        result.merge_request_url,
        *result.learnings,
        *result.tests_failed,
        *result.flaky_tests,
        *result.files_changed,
    ]


def test_sanitized_redacts_every_field(planted_runs: list[tuple[Planted, str, TaskRun]]) -> None:
    for p, field, run in planted_runs:
        # Compared without case: the parser lower-cases the language, and a lower-cased key still leaks.
        before = " ".join(_texts(run)).lower()
        after = " ".join(_texts(sanitized(run))).lower()
        pieces = [piece.replace("\n", " ").lower() for piece in p.pieces]
        assert any(piece in before for piece in pieces), (field, p.text)
        assert not any(piece in after for piece in pieces), (field, p.fmt, p.text)
        clean = sanitized(run)
        assert (clean.namespace, clean.name, clean.uid, clean.run_key) == (
            run.namespace,
            run.name,
            run.uid,
            run.run_key,
        )


def test_no_planted_secret_reaches_the_database_file(
    planted_runs: list[tuple[Planted, str, TaskRun]], tmp_path: Path
) -> None:
    import asyncio

    settings = MemorySettings(store_path=tmp_path / "memory.db", min_pattern_samples=2)

    async def ingest_all() -> tuple[dict[str, Any], list[str]]:
        memory = await Memory.open(settings, clock=Clock(), update_gauges=False)
        try:
            states = [(await memory.ingest(run)).state for _p, _f, run in planted_runs]
            return await memory.export(), states
        finally:
            await memory.close()

    exported, states = asyncio.run(ingest_all())
    assert states == ["done"] * len(planted_runs)
    raw = b"".join(path.read_bytes() for path in tmp_path.iterdir() if path.name.startswith("memory.db"))
    text = (raw.decode("utf-8", "replace") + repr(exported)).lower()
    leaked = [
        (field, p.fmt)
        for p, field, _run in planted_runs
        for piece in p.pieces
        if piece.replace("\n", " ").lower() in text or piece.lower() in text
    ]
    assert leaked == []
    with sqlite3.connect(settings.store_path) as db:
        rows = db.execute("SELECT repository, language, engine FROM runs").fetchall()
    assert any(REDACTED in " ".join(row) for row in rows), "runs table gets the sanitized values"
    assert any(REDACTED in n["content"] for n in exported["nodes"])


def test_every_rule_runs_on_the_linear_time_engine() -> None:
    assert all(isinstance(rule.pattern, LinearPattern) for rule in RULES)
