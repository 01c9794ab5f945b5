"""An in-memory stand-in for :class:`osmia.controller.kube.Kube`, for error paths only.

It keeps ``resourceVersion`` like the API server (a write with a stale one is
refused with Conflict) and applies merge patches like it (maps merge, lists
are replaced), and it can be told to fail the next calls. Everything else is
tested against a real API server in tests/e2e.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from osmia.controller.kube import Conflict, Gone


def merge(target: dict[str, Any], patch: Mapping[str, Any]) -> dict[str, Any]:
    """RFC 7386 merge patch."""
    for key, value in patch.items():
        if value is None:
            target.pop(key, None)
        elif isinstance(value, Mapping) and isinstance(target.get(key), dict):
            merge(target[key], value)
        else:
            target[key] = copy.deepcopy(value)
    return target


class FakeKube:
    """TaskRuns, Jobs and pods in dicts; ``fail`` holds method names whose next call raises."""

    def __init__(self) -> None:
        self.taskruns: dict[str, dict[str, Any]] = {}
        self.jobs: dict[str, dict[str, Any]] = {}
        self.pods: dict[str, list[dict[str, Any]]] = {}
        self.fail: list[str] = []
        self.calls: list[str] = []
        self._version = 0

    def _tick(self, obj: dict[str, Any]) -> None:
        self._version += 1
        obj["metadata"]["resourceVersion"] = str(self._version)

    def _call(self, name: str) -> None:
        self.calls.append(name)
        if name in self.fail:
            self.fail.remove(name)
            raise RuntimeError(f"injected failure of {name}")

    def add_taskrun(self, body: dict[str, Any]) -> dict[str, Any]:
        obj = copy.deepcopy(body)
        self._tick(obj)
        self.taskruns[obj["metadata"]["name"]] = obj
        return copy.deepcopy(obj)

    def external_write(self, name: str, status: Mapping[str, Any]) -> dict[str, Any]:
        """What an executor's ``kubectl patch --subresource=status`` does (no version check)."""
        obj = self.taskruns[name]
        merge(obj.setdefault("status", {}), status)
        self._tick(obj)
        return copy.deepcopy(obj)

    async def patch_status(
        self, namespace: str, name: str, status: Mapping[str, Any], *, resource_version: str | None = None
    ) -> dict[str, Any]:
        self._call("patch_status")
        obj = self.taskruns.get(name)
        if obj is None:
            raise Gone(name)
        if resource_version is not None and resource_version != obj["metadata"]["resourceVersion"]:
            raise Conflict(name)
        merge(obj.setdefault("status", {}), status)
        self._tick(obj)
        return copy.deepcopy(obj)

    async def get_taskrun(self, namespace: str, name: str) -> dict[str, Any] | None:
        self._call("get_taskrun")
        obj = self.taskruns.get(name)
        return copy.deepcopy(obj) if obj else None

    async def get_job(self, namespace: str, name: str) -> dict[str, Any] | None:
        self._call("get_job")
        job = self.jobs.get(name)
        return copy.deepcopy(job) if job else None

    async def create_job(self, namespace: str, body: dict[str, Any]) -> bool:
        self._call("create_job")
        name = body["metadata"]["name"]
        if name in self.jobs:
            return False
        job = copy.deepcopy(body)
        job["metadata"]["uid"] = f"job-uid-{name}"
        self.jobs[name] = job
        return True

    async def delete_job(self, namespace: str, name: str) -> None:
        self._call("delete_job")
        self.jobs.pop(name, None)

    async def job_pods(self, namespace: str, job_uid: str) -> list[dict[str, Any]]:
        self._call("job_pods")
        return copy.deepcopy(self.pods.get(job_uid, []))

    async def apply_configmap(self, namespace: str, body: dict[str, Any]) -> None:
        self._call("apply_configmap")
