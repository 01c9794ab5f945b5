"""The operator settles its heap once each query is answered and each run extracted."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest

from osmia.controller import extraction, runtime
from osmia.memory.store import StoreError
from tests.controller.fake_kube import FakeKube


class _Memory:
    """Answers a query, or fails as a locked database would; ``ingest`` is refused alike."""

    def __init__(self, fail: bool) -> None:
        self.fail = fail

    async def context(self, run: Any) -> Any:
        if self.fail:
            raise StoreError("database is locked")
        return "the section"

    async def ingest(self, run: Any) -> Any:
        raise StoreError("database is locked")


@pytest.mark.parametrize("fail", [False, True])
async def test_a_query_answered_or_failed_is_settled_once(
    monkeypatch: pytest.MonkeyPatch, fail: bool
) -> None:
    settled: list[int] = []
    monkeypatch.setattr(runtime, "settle_after_work", lambda: settled.append(1))
    rt = SimpleNamespace(memory=_Memory(fail), recall_slots=asyncio.Semaphore(1))
    run = SimpleNamespace(memory_enabled=True, ref="tr/ns/a")
    found = await runtime.recall(rt, run)  # type: ignore[arg-type]
    assert found == (runtime.NO_CONTEXT if fail else "the section")
    assert settled == [1]


def _body(repository: bool) -> dict[str, Any]:
    spec: dict[str, Any] = {
        "flow": "ticketing",
        "engine": "claude-code",
        "ticket": {"id": "PROJ-1", "title": "Fix login race", "description": "Login fails", "type": "bug"},
    }
    if repository:
        spec["repository"] = {"url": "https://github.com/org/api", "language": "go"}
    return {
        "apiVersion": "osmia.dev/v1alpha1",
        "kind": "TaskRun",
        "metadata": {"name": "a", "namespace": "ns", "uid": "u1"},
        "spec": spec,
        "status": {"phase": "Succeeded", "result": {"success": True, "durationSeconds": 30}},
    }


@pytest.mark.parametrize(
    ("repository", "error"),
    [(True, "database is locked"), (False, "unusable result: spec.repository.url: is required")],
)
async def test_an_extraction_is_settled_whatever_its_outcome(
    monkeypatch: pytest.MonkeyPatch, repository: bool, error: str
) -> None:
    settled: list[int] = []
    monkeypatch.setattr(extraction, "settle_after_work", lambda: settled.append(1))
    kube = FakeKube()
    body = kube.add_taskrun(_body(repository))
    scheduler = extraction.ExtractionScheduler(_Memory(fail=True), kube, 1)  # type: ignore[arg-type]
    assert scheduler.schedule(body)
    await scheduler.drain(5.0)
    assert settled == [1]
    recorded = kube.taskruns["a"]["status"]["memory"]["extraction"]
    assert (recorded["state"], recorded["error"]) == ("Failed", error)
