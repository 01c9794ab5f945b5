"""The example TaskRuns in examples/ are valid, tell a complete story, and give sensible memory.

examples/history/ holds finished TaskRuns as kubectl prints them (a ``kind: List``,
a ``---`` stream and a single object); examples/new-*.yaml and
examples/unrelated-taskrun.yaml are runs about to start. Replaying the history
through :class:`Memory` must give the new bug ticket a useful ``## Prior Knowledge``
section, keep the incident tenant apart, and say nothing to the unrelated run.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import yaml

from osmia.memory.failures import FAILURE_LABELS, classify_failure
from osmia.memory.prompt import HEADING
from osmia.memory.service import Memory, MemorySettings
from osmia.memory.text import contains_secret
from osmia.taskrun import API_VERSION, KIND, Flow, Phase, TaskRun, parse_taskrun

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
HISTORY = EXAMPLES / "history"
NEW_RUNS = [*sorted(EXAMPLES.glob("new-*.yaml")), EXAMPLES / "unrelated-taskrun.yaml"]
# The history ends on 2026-11-28; ask memory "the next day" so recency does not depend on today.
NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC).timestamp()
SECRET_SHAPES = re.compile(r"\bsk-[A-Za-z0-9_-]{8,}|\bghp_[A-Za-z0-9]{8,}")
UUID4 = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")


def documents(path: Path) -> Iterator[dict[str, Any]]:
    """Every object in a file: one object, a ``---`` stream, or the items of a ``kind: List``."""
    for doc in yaml.safe_load_all(path.read_text()):
        if doc is None:
            continue
        if doc.get("kind") == "List":
            assert doc.get("apiVersion") == "v1", path
            yield from doc["items"]
        else:
            yield doc


def history_files() -> list[Path]:
    files = sorted(HISTORY.glob("*.yaml"))
    assert files, f"no history in {HISTORY}"
    return files


def history_runs() -> list[TaskRun]:
    """All finished runs, oldest finish first: the order the operator extracted them in."""
    runs = [parse_taskrun(doc) for path in history_files() for doc in documents(path)]
    return sorted(runs, key=lambda r: (r.finished_at, r.run_key))


def new_run(name: str) -> TaskRun:
    docs = list(documents(EXAMPLES / name))
    assert len(docs) == 1
    return parse_taskrun(docs[0])


def epoch(timestamp: str) -> float:
    return datetime.strptime(timestamp, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC).timestamp()


async def open_memory(tmp_path: Path) -> Memory:
    """A fresh database with the whole history extracted, each run at its finishing time."""
    settings = MemorySettings(store_path=tmp_path / "m.db")
    memory = await Memory.open(settings, clock=lambda: NOW, update_gauges=False)
    for run in history_runs():
        result = await memory.ingest(run, finished_at=epoch(run.finished_at))
        assert result.state == "done", (run.ref, result)
    return memory


# --- the files ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path", [*history_files(), *NEW_RUNS], ids=lambda p: p.relative_to(EXAMPLES).as_posix()
)
def test_every_document_parses(path: Path) -> None:
    docs = list(documents(path))
    assert docs
    for doc in docs:
        assert doc["apiVersion"] == API_VERSION and doc["kind"] == KIND
        run = parse_taskrun(doc)
        assert run.name and run.namespace and run.ticket.description


def test_history_uses_every_kubectl_shape() -> None:
    shapes = set()
    for path in history_files():
        docs = [d for d in yaml.safe_load_all(path.read_text()) if d is not None]
        if len(docs) == 1 and docs[0].get("kind") == "List":
            shapes.add("list")
        elif len(docs) > 1:
            shapes.add("stream")
        else:
            shapes.add("single")
    assert shapes == {"list", "stream", "single"}


def test_history_runs_are_finished_and_complete() -> None:
    runs = history_runs()
    assert 25 <= len(runs) <= 40
    assert len({r.run_key for r in runs}) == len(runs)
    for path in history_files():
        for doc in documents(path):
            run = parse_taskrun(doc)
            meta, status = doc["metadata"], doc["status"]
            where = f"{path.name}: {run.ref}"
            assert run.terminal, where
            assert UUID4.fullmatch(run.uid), where
            assert meta["creationTimestamp"] < run.finished_at, where
            assert meta["resourceVersion"].isdigit() and meta["generation"] == 1, where
            assert status["tenant"] == run.flow.value, where
            assert status["engineAttempts"] and status["engineAttempts"][0] == run.engine, where
            assert status["memory"]["extraction"]["state"] == "Done", where
            assert re.fullmatch(r"[0-9a-f]{64}", status["prompt"]["sha256"]), where
            (cond,) = [c for c in status["conditions"] if c["type"] == "Succeeded"]
            assert cond["status"] == ("True" if run.result and run.result.success else "False"), where
            assert run.result is not None and run.result.duration_seconds, where
            assert (run.phase is Phase.SUCCEEDED) == run.result.success, where


def test_new_runs_have_not_started() -> None:
    for path in NEW_RUNS:
        (doc,) = documents(path)
        assert "status" not in doc, path
        assert not parse_taskrun(doc).terminal


def test_history_covers_flows_engines_and_failure_classes() -> None:
    runs = history_runs()
    flows = {r.flow for r in runs}
    assert flows == {Flow.TICKETING, Flow.INCIDENT_TRIAGE}
    incidents = [r for r in runs if r.flow is Flow.INCIDENT_TRIAGE]
    assert 5 <= len(incidents) <= 8
    assert {r.final_engine for r in runs} >= {"claude-code", "aider", "codex"}
    assert {r.ticket.task_type for r in runs} >= {"bug", "feature", "docs", "refactor", "chore", "incident"}
    assert {classify_failure(r) for r in runs} - {""} == set(FAILURE_LABELS)
    fallbacks = [r for r in runs if len(r.engine_attempts) > 1 and r.result and r.result.success]
    assert fallbacks, "a run that succeeded after falling back to another engine"
    # enough runs of one engine × task type × language for a pattern (min_pattern_samples = 5)
    combos: dict[tuple[str, str, str], int] = {}
    for r in runs:
        key = (r.final_engine, r.ticket.task_type, r.repository.language)
        combos[key] = combos.get(key, 0) + 1
    assert combos[("claude-code", "bug", "go")] >= 5
    # the hostile and the secret-bearing learnings are there, so the checks below mean something
    learnings = [text for r in runs if r.result for text in r.result.learnings]
    assert any(SECRET_SHAPES.search(text) for text in learnings)
    assert any(text.startswith("## ") and "ignore previous instructions" in text for text in learnings)


# --- what memory makes of them -----------------------------------------------------------------


def assert_safe(section: str) -> None:
    assert not SECRET_SHAPES.search(section) and not contains_secret(section), section
    headings = [line for line in section.splitlines() if line.startswith("#")]
    assert headings in ([], [HEADING]), headings
    assert "ignore previous instructions" not in section.lower()


async def test_new_bug_ticket_gets_prior_knowledge(tmp_path: Path) -> None:
    memory = await open_memory(tmp_path)
    try:
        run = new_run("new-taskrun.yaml")
        ctx = await memory.context(run)
        section = ctx.section
        assert section.startswith(HEADING + "\n"), section
        assert_safe(section)

        history = history_runs()
        flaky_reporters = [
            r.ref
            for r in history
            if r.result
            and "TestConcurrentRefund" in r.result.flaky_tests
            and r.repository.slug == run.repository.slug
        ]
        assert flaky_reporters
        flaky_lines = [line for line in section.splitlines() if "`TestConcurrentRefund`" in line]
        assert len(flaky_lines) == 1, section
        assert "flaky" in flaky_lines[0]
        assert flaky_reporters[-1] in flaky_lines[0], (flaky_reporters, flaky_lines[0])
        assert "-count=1" in section, "the learning about the Go test cache"
        assert "`internal/refunds/`" in section, "the repo quirk"
        # What the ticket's engine did in this repository (its tenant-wide profile ranks below
        # these ten repository facts since the profile signal is 0.35).
        assert any("claude-code" in line and "acme/payments-api" in line for line in section.splitlines()[4:])

        for node in ctx.injected:
            shown = await memory.show(node.id)
            assert shown is not None and shown[0].tenant == "ticketing", node
        export = await memory.export()
        for node in export["nodes"]:
            assert not contains_secret(node["content"]), node
            assert not node["content"].startswith("#"), node
    finally:
        await memory.close()


async def test_incident_sees_only_incident_knowledge(tmp_path: Path) -> None:
    memory = await open_memory(tmp_path)
    try:
        run = new_run("new-incident.yaml")
        ctx = await memory.context(run)
        assert ctx.injected, "earlier refund-latency incidents should be recalled"
        assert_safe(ctx.section)
        ticketing_refs = {r.ref for r in history_runs() if r.flow is Flow.TICKETING}
        for node in ctx.injected:
            shown = await memory.show(node.id)
            assert shown is not None and shown[0].tenant == "incident-triage", node
            assert not ticketing_refs.intersection(node.sources), node
        assert "tr/agents/" not in ctx.section and "tr/team-data/" not in ctx.section
        assert "TestConcurrentRefund" not in ctx.section
        assert "pg_stat_activity" in ctx.section, "the lesson from the two earlier refund-latency incidents"
    finally:
        await memory.close()


async def test_unrelated_run_gets_no_section(tmp_path: Path) -> None:
    memory = await open_memory(tmp_path)
    try:
        ctx = await memory.context(new_run("unrelated-taskrun.yaml"))
        assert ctx.section == "", ctx.section
        assert ctx.injected == ()
    finally:
        await memory.close()
