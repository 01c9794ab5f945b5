"""Fixtures for the memory layer: a fake clock, a fresh database, and a TaskRun builder."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from osmia.memory.service import Memory, MemorySettings
from osmia.memory.types import Kind, Node
from osmia.taskrun import TaskRun, parse_taskrun

T0 = 1_790_000_000.0  # a fixed start time: tests never depend on the wall clock
DAY = 86400.0


class Clock:
    """A clock tests move by hand."""

    def __init__(self, now: float = T0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def make_run(
    name: str,
    *,
    success: bool = True,
    repo: str = "https://github.com/org/api",
    language: str = "go",
    engine: str = "claude-code",
    flow: str = "ticketing",
    task_type: str = "bug",
    title: str = "Fix login race",
    description: str = "Login fails under concurrent requests",
    tests_failed: tuple[str, ...] = (),
    flaky: tuple[str, ...] = (),
    learnings: tuple[str, ...] = (),
    attempts: tuple[str, ...] = (),
    files: tuple[str, ...] = (),
    reason: str = "",
    summary: str = "",
    phase: str | None = None,
    namespace: str = "agents",
    finished: bool = True,
    ticket: str = "",
) -> TaskRun:
    """A TaskRun as the extractor sees it; ``finished=False`` leaves the status out.

    Each run works its own ticket (``PROJ-<name>``) unless ``ticket`` names one.
    """
    spec: dict[str, Any] = {
        "flow": flow,
        "engine": engine,
        "ticket": {
            "id": ticket or f"PROJ-{name}"[:100],  # the CRD allows 100 characters
            "title": title,
            "description": description,
            "type": task_type,
        },
    }
    if repo:
        spec["repository"] = {"url": repo, "language": language}
    doc: dict[str, Any] = {
        "apiVersion": "osmia.dev/v1alpha1",
        "kind": "TaskRun",
        "metadata": {"name": name, "namespace": namespace, "uid": f"uid-{namespace}-{name}"[:128]},
        "spec": spec,
    }
    if finished:
        doc["status"] = {
            "phase": phase or ("Succeeded" if success else "Failed"),
            "engineAttempts": list(attempts or (engine,)),
            "result": {
                "success": success,
                "failureReason": reason or ("" if success else "tests failed"),
                "summary": summary,
                "testsFailed": list(tests_failed),
                "flakyTests": list(flaky),
                "learnings": list(learnings),
                "filesChanged": list(files),
                "durationSeconds": 300,
            },
        }
    return parse_taskrun(doc)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def settings(tmp_path: Path) -> MemorySettings:
    return MemorySettings(store_path=tmp_path / "memory.db", min_pattern_samples=3)


@pytest.fixture
async def memory(settings: MemorySettings, clock: Clock) -> AsyncIterator[Memory]:
    mem = await Memory.open(settings, clock=clock, update_gauges=False)
    yield mem
    await mem.close()


async def stored(memory: Memory, kind: Kind | None = None) -> list[Node]:
    """Every node as stored (confidences effective now), or those of one kind."""
    return [n for n in await memory._store.iter_nodes() if kind is None or n.kind is kind]
