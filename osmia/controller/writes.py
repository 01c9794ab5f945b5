"""Status writes that never undo one another: build from a body, send only if it is still current.

Each write is a function from the current TaskRun body to a status patch (or
``None`` when, on that body, there is nothing left to do). The patch carries
the body's ``resourceVersion``; if someone wrote in between (the executor, an
extraction, another handler), the API server refuses it with 409, the body is
read again and the patch rebuilt from it. So a ``conditions`` list is always
merged into the newest one, and a phase a handler computed from an old view
never overwrites a phase written since.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from osmia import metrics
from osmia.controller.kube import Conflict, Gone, Kube

Builder = Callable[[dict[str, Any]], dict[str, Any] | None]
MAX_CONFLICTS = 8


class WriteConflict(RuntimeError):
    """The TaskRun kept changing under a write; the caller's retry (kopf backoff) takes over."""


async def write_status(kube: Kube, body: Mapping[str, Any], build: Builder) -> dict[str, Any] | None:
    """Apply ``build(body)`` to the TaskRun, rebuilding from a fresh read after each conflict.

    Returns the object as written, or ``None`` when the builder found nothing
    to do or the TaskRun is gone. Counts the phase transition it made, once.
    """
    current: dict[str, Any] | None = dict(body)
    meta = dict(body["metadata"])
    namespace, name = meta["namespace"], meta["name"]
    for _ in range(MAX_CONFLICTS):
        if current is None:
            return None
        patch = build(current)
        if patch is None:
            return None
        version = (current.get("metadata") or {}).get("resourceVersion")
        try:
            written = await kube.patch_status(namespace, name, patch, resource_version=version)
        except Gone:
            return None
        except Conflict:
            current = await kube.get_taskrun(namespace, name)
            continue
        count_transition(current, written)
        return written
    raise WriteConflict(f"{namespace}/{name}: still changing after {MAX_CONFLICTS} tries")


def count_transition(before: Mapping[str, Any], after: Mapping[str, Any]) -> None:
    """``osmia_taskrun_phase_transitions{phase}``: once per phase change this operator wrote.

    A terminal phase an executor reported counts when the operator settles its
    condition (the write that makes it final), not when the phase appears.
    """
    old, new = before.get("status") or {}, after.get("status") or {}
    phase = new.get("phase")
    if not phase:
        return
    if old.get("phase") != phase or (_succeeded(old) == "Unknown" and _succeeded(new) in ("True", "False")):
        metrics.TASKRUN_PHASES.labels(phase=phase).inc()


def _succeeded(status: Mapping[str, Any]) -> str:
    for cond in status.get("conditions") or []:
        if isinstance(cond, Mapping) and cond.get("type") == "Succeeded":
            return str(cond.get("status"))
    return "Unknown"
