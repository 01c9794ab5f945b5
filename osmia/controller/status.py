"""Status patches: phases, conditions (Tekton style) and the memory fields.

Pure builders of ``status`` dicts for a merge patch of the status subresource.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from osmia import metrics
from osmia.taskrun import Phase

_SUCCEEDED_CONDITION = {
    Phase.PENDING: ("Unknown", "Pending"),
    Phase.RUNNING: ("Unknown", "Running"),
    Phase.SUCCEEDED: ("True", "Succeeded"),
    Phase.FAILED: ("False", "Failed"),
    Phase.TIMED_OUT: ("False", "TimedOut"),
}


def now_iso() -> str:
    """The current time as Kubernetes writes it (RFC 3339, seconds, UTC)."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def condition(kind: str, status: str, reason: str, message: str) -> dict[str, Any]:
    """One standard condition entry."""
    return {
        "type": kind,
        "status": status,
        "reason": reason,
        "message": message[:1024],
        "lastTransitionTime": now_iso(),
    }


def merge_conditions(existing: Any, *updates: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Replace conditions by type, keeping the transition time when the status did not change."""
    merged: dict[str, dict[str, Any]] = {}
    for cond in existing or []:
        if isinstance(cond, Mapping) and "type" in cond:
            merged[str(cond["type"])] = dict(cond)
    for update in updates:
        old = merged.get(str(update["type"]))
        new = dict(update)
        if old is not None and old.get("status") == new["status"]:
            new["lastTransitionTime"] = old.get("lastTransitionTime", new["lastTransitionTime"])
        merged[str(update["type"])] = new
    return [merged[k] for k in sorted(merged)]


def phase_patch(body: Mapping[str, Any], phase: Phase, message: str, **fields: Any) -> dict[str, Any]:
    """Status patch moving the run to ``phase`` with its ``Succeeded`` condition; counts the transition."""
    status, reason = _SUCCEEDED_CONDITION[phase]
    old_status = body.get("status") or {}
    if old_status.get("phase") != phase.value:
        metrics.TASKRUN_PHASES.labels(phase=phase.value).inc()
    return {
        "phase": phase.value,
        "conditions": merge_conditions(
            old_status.get("conditions"), condition("Succeeded", status, reason, message)
        ),
        **fields,
    }


def extraction_patch(
    body: Mapping[str, Any], state: str, *, nodes: int = 0, edges: int = 0, error: str = ""
) -> dict[str, Any]:
    """``status.memory.extraction`` plus a ``MemoryExtracted`` condition."""
    extraction: dict[str, Any] = {"state": state, "nodes": nodes, "edges": edges}
    if state in ("Done", "Failed", "Skipped"):
        extraction["finishedAt"] = now_iso()
    if error:
        extraction["error"] = error[:4096]
    cond_status = {"Done": "True", "Failed": "False", "Skipped": "False"}.get(state, "Unknown")
    message = error or f"{state}: {nodes} nodes, {edges} edges"
    old_status = body.get("status") or {}
    return {
        "memory": {"extraction": extraction},
        "conditions": merge_conditions(
            old_status.get("conditions"), condition("MemoryExtracted", cond_status, state, message)
        ),
    }
