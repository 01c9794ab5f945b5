"""Test fixtures: TaskRun documents as ``kubectl get taskrun -o yaml`` prints them.

``taskrun_doc`` builds one full object (metadata with uid, spec, and, unless
``status=False``, a status with phase, conditions and result) from a few
keywords, so tests say only what matters to them. ``kubectl_list`` wraps
several into the ``kind: List`` that ``kubectl get taskruns -o yaml`` prints.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import yaml

API_VERSION = "osmia.dev/v1alpha1"
TERMINAL = ("Succeeded", "Failed", "TimedOut")


def iso(moment: datetime) -> str:
    """Kubernetes timestamp format: ``2026-11-28T12:00:00Z``."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def recent(hours: float = 1.0) -> str:
    """A timestamp ``hours`` ago, so recency never depends on the day the tests run."""
    return iso(datetime.now(UTC) - timedelta(hours=hours))


def stable_uid(namespace: str, name: str) -> str:
    """The same uid for the same object in every test run (re-ingest is a duplicate)."""
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"osmia-test/{namespace}/{name}"))


def _title(name: str) -> str:
    return name.replace("-", " ").capitalize()


def _ticket(
    name: str, ticket_id: str | None, title: str | None, description: str | None, **more: Any
) -> dict:
    title = title if title is not None else _title(name)
    ticket: dict[str, Any] = {
        "id": ticket_id or name.upper()[:20],
        "title": title,
        "description": description if description is not None else f"{title}. Please investigate and fix.",
    }
    ticket.update({k: v for k, v in more.items() if v})
    return ticket


def _result(success: bool, fields: Mapping[str, Any]) -> dict[str, Any]:
    result: dict[str, Any] = {"success": success}
    result.update({k: list(v) if isinstance(v, tuple) else v for k, v in fields.items() if v is not None})
    return {k: v for k, v in result.items() if v != []}


def _status(
    phase: str, engine_attempts: Sequence[str], finished_at: str, result: dict[str, Any] | None
) -> dict[str, Any]:
    status: dict[str, Any] = {"phase": phase, "tenant": None, "engineAttempts": list(engine_attempts)}
    if phase in TERMINAL:
        status["conditions"] = [
            {
                "type": "Succeeded",
                "status": "True" if phase == "Succeeded" else "False",
                "reason": phase,
                "message": f"the run ended: {phase}",
                "lastTransitionTime": finished_at,
            }
        ]
        if result is not None:
            status["result"] = result
    return status


def taskrun_doc(
    name: str,
    *,
    success: bool = True,
    repo: str | None = "https://github.com/org/api",
    engine: str = "claude-code",
    flow: str = "ticketing",
    tests_failed: Iterable[str] = (),
    flaky: Iterable[str] = (),
    learnings: Iterable[str] = (),
    namespace: str = "agents",
    uid: str | None = None,
    phase: str | None = None,
    status: bool = True,
    ticket_id: str | None = None,
    title: str | None = None,
    description: str | None = None,
    task_type: str | None = "bug",
    labels: Iterable[str] = (),
    language: str | None = "go",
    fallback_engines: Iterable[str] = (),
    engine_attempts: Iterable[str] | None = None,
    failure_reason: str | None = None,
    files_changed: Iterable[str] = (),
    duration: float | None = 600,
    summary: str | None = None,
    finished_at: str | None = None,
    memory_enabled: bool = True,
    execution_mode: str = "job",
    spec_extra: Mapping[str, Any] | None = None,
    result_extra: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """One TaskRun object as kubectl prints it.

    ``uid=None`` derives a stable uid from namespace and name; ``uid=""``
    leaves ``metadata.uid`` out. ``phase`` defaults to ``Succeeded`` or
    ``Failed`` from ``success``; a non-terminal phase has no result.
    ``status=False`` gives a run about to start (no status at all).
    ``repo=None`` leaves ``spec.repository`` out (incident-triage runs).
    """
    metadata: dict[str, Any] = {
        "name": name,
        "namespace": namespace,
        "creationTimestamp": recent(2),
        "generation": 1,
        "resourceVersion": "1000",
    }
    if uid != "":
        metadata["uid"] = uid or stable_uid(namespace, name)
    spec: dict[str, Any] = {
        "flow": flow,
        "engine": engine,
        "ticket": _ticket(name, ticket_id, title, description, type=task_type, labels=list(labels)),
        "memory": {"enabled": memory_enabled},
        "execution": {"mode": execution_mode, "timeoutSeconds": 3600},
    }
    if fallback_engines := list(fallback_engines):
        spec["fallbackEngines"] = fallback_engines
    if repo:
        spec["repository"] = {"url": repo, **({"language": language} if language else {})}
    spec.update(spec_extra or {})
    doc: dict[str, Any] = {"apiVersion": API_VERSION, "kind": "TaskRun", "metadata": metadata, "spec": spec}
    if not status:
        return doc
    fields = {
        "summary": summary or ("done" if success else "the agent gave up"),
        "failureReason": None if success else (failure_reason or "tests failed"),
        "testsFailed": tuple(tests_failed),
        "flakyTests": tuple(flaky),
        "learnings": tuple(learnings),
        "filesChanged": tuple(files_changed),
        "durationSeconds": duration,
        **(result_extra or {}),
    }
    the_phase = phase or ("Succeeded" if success else "Failed")
    attempts = list(engine_attempts) if engine_attempts is not None else [engine]
    doc["status"] = _status(the_phase, attempts, finished_at or recent(), _result(success, fields))
    doc["status"]["tenant"] = flow
    return doc


def kubectl_list(items: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """The ``kind: List`` wrapper ``kubectl get taskruns -o yaml`` prints."""
    return {"apiVersion": "v1", "kind": "List", "metadata": {"resourceVersion": ""}, "items": list(items)}


def yaml_stream(docs: Iterable[Any]) -> str:
    """A ``---``-separated multi-document YAML text."""
    return yaml.safe_dump_all(list(docs), sort_keys=False)
