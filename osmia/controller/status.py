"""Status patches: phases, conditions (Tekton style) and the memory fields.

Pure builders of ``status`` dicts for a merge patch of the status subresource.
Every builder takes the body it was computed from; :mod:`osmia.controller.writes`
sends the patch only if that body is still current, so a patch built from a
stale body (whose ``conditions`` list would replace a newer one) never lands.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from osmia.taskrun import TERMINAL_PHASES, Phase

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
    """Status patch moving the run to ``phase`` with its ``Succeeded`` condition.

    Also records ``observedGeneration`` and, for a terminal phase reached now,
    ``completionTime``. Pure: the transition is counted once the write lands.
    """
    status, reason = _SUCCEEDED_CONDITION[phase]
    old_status = body.get("status") or {}
    patch: dict[str, Any] = {
        "phase": phase.value,
        "conditions": merge_conditions(
            old_status.get("conditions"), condition("Succeeded", status, reason, message)
        ),
        **observed(body),
        **fields,
    }
    if phase.terminal and not old_status.get("completionTime"):
        patch.setdefault("completionTime", now_iso())
    return patch


def observed(body: Mapping[str, Any]) -> dict[str, Any]:
    """``observedGeneration``: the spec generation this status was computed from."""
    generation = (body.get("metadata") or {}).get("generation")
    return {"observedGeneration": generation} if isinstance(generation, int) else {}


def condition_settled(status: Mapping[str, Any]) -> bool:
    """True once the ``Succeeded`` condition says True or False (not Unknown)."""
    return any(
        c.get("type") == "Succeeded" and c.get("status") in ("True", "False")
        for c in status.get("conditions") or []
        if isinstance(c, Mapping)
    )


def extraction_state(status: Mapping[str, Any]) -> str | None:
    """``status.memory.extraction.state``, or ``None`` when not written yet."""
    state = ((status.get("memory") or {}).get("extraction") or {}).get("state")
    return str(state) if state is not None else None


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


def settle_patch(body: Mapping[str, Any]) -> dict[str, Any]:
    """Make a terminal phase an executor reported final (``Succeeded`` True/False); ``{}`` if it is."""
    status = body.get("status") or {}
    phase = status.get("phase")
    if phase not in {p.value for p in TERMINAL_PHASES} or condition_settled(status):
        return {}
    return phase_patch(body, Phase(str(phase)), f"{phase} (reported)")


def final_patch(body: Mapping[str, Any], state: str, **outcome: Any) -> dict[str, Any] | None:
    """One write that records the extraction outcome and settles the condition if it is not yet.

    ``None`` when the extraction is already decided on ``body`` and the condition settled (nothing
    to do). The extraction's conditions are merged into the settled list, so neither undoes the other.
    """
    status = body.get("status") or {}
    settle = settle_patch(body)
    if extraction_state(status) not in (None, "Pending"):
        return settle or None
    after = {**body, "status": {**status, **settle}}
    return {**settle, **extraction_patch(after, state, **outcome)}
