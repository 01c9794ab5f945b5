"""A TaskRun document (a kopf body or a ``kubectl get -o yaml`` file) read into a :class:`TaskRun`.

No API calls. The CRD schema is the first line of defence; this is the second, so that the CLI
can read files that never went through an API server and say exactly which field is wrong.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from osmia.taskrun.limits import (
    INT64_MAX,
    MAX_UID,
    UID,
    check_count,
    check_range,
    check_text,
    dns_label_problem,
    dns_subdomain_problem,
    shown,
)
from osmia.taskrun.model import (
    EXECUTION_MODES,
    KIND,
    TASK_TYPES,
    Flow,
    Phase,
    Repository,
    Result,
    TaskRun,
    TaskRunError,
    Ticket,
)


def _mapping(value: Any, path: str) -> Mapping[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise TaskRunError(path, f"must be a mapping, got {type(value).__name__}")
    return value


def _string(obj: Mapping[str, Any], key: str, path: str, *, required: bool = False) -> str:
    value = obj.get(key)
    if value is None or value == "":
        if required:
            raise TaskRunError(f"{path}.{key}", "is required")
        return ""
    if not isinstance(value, str):
        raise TaskRunError(f"{path}.{key}", f"must be a string, got {type(value).__name__}")
    return check_text(value, f"{path}.{key}")


def _strings(obj: Mapping[str, Any], key: str, path: str) -> tuple[str, ...]:
    value = obj.get(key)
    if value is None:
        return ()
    where = f"{path}.{key}"
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise TaskRunError(where, "must be a list of strings")
    check_count(len(value), where)
    return tuple(check_text(v, f"{where}[{i}]") for i, v in enumerate(value))


def _number(obj: Mapping[str, Any], key: str, path: str, kind: type) -> Any:
    value = obj.get(key)
    if value is None:
        return None
    where = f"{path}.{key}"
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TaskRunError(where, f"must be a number, got {shown(value)}")
    if not math.isfinite(value) or abs(value) > INT64_MAX:
        raise TaskRunError(where, f"must be a finite number within the 64-bit range, got {shown(value)}")
    if kind is int and not float(value).is_integer():
        raise TaskRunError(where, f"must be an integer, got {shown(value)}")
    check_range(value, where)
    return kind(value)


def _enum(value: str, allowed: Sequence[str], path: str) -> str:
    if value not in allowed:
        raise TaskRunError(path, f"must be one of {', '.join(allowed)}; got {shown(value)}")
    return value


def _parse_ticket(spec: Mapping[str, Any]) -> Ticket:
    if "ticket" not in spec:
        raise TaskRunError("spec.ticket", "is required")
    raw = _mapping(spec.get("ticket"), "spec.ticket")
    ticket_type = _string(raw, "type", "spec.ticket") or None
    if ticket_type is not None:
        _enum(ticket_type, TASK_TYPES, "spec.ticket.type")
    return Ticket(
        id=_string(raw, "id", "spec.ticket", required=True),
        description=_string(raw, "description", "spec.ticket", required=True),
        title=_string(raw, "title", "spec.ticket"),
        type=ticket_type,
        labels=_strings(raw, "labels", "spec.ticket"),
        url=_string(raw, "url", "spec.ticket"),
    )


def _tool_calls(raw: Mapping[str, Any], path: str) -> dict[str, int]:
    tool_calls = _mapping(raw.get("toolCalls"), path)
    check_count(len(tool_calls), path, "entries")
    for tool, count in tool_calls.items():
        if not isinstance(tool, str):
            raise TaskRunError(path, f"tool names must be strings, got {shown(tool)}")
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= INT64_MAX:
            raise TaskRunError(f"{path}.{tool}", f"must be a count, got {shown(count)}")
    return dict(tool_calls)


def _parse_result(raw: Mapping[str, Any]) -> Result:
    path = "status.result"
    success = raw.get("success")
    if not isinstance(success, bool):
        raise TaskRunError(f"{path}.success", "is required and must be true or false")
    return Result(
        success=success,
        summary=_string(raw, "summary", path),
        exit_code=_number(raw, "exitCode", path, int),
        failure_reason=_string(raw, "failureReason", path),
        merge_request_url=_string(raw, "mergeRequestURL", path),
        branch_name=_string(raw, "branchName", path),
        files_changed=_strings(raw, "filesChanged", path),
        tests_failed=_strings(raw, "testsFailed", path),
        flaky_tests=_strings(raw, "flakyTests", path),
        duration_seconds=_number(raw, "durationSeconds", path, float),
        token_usage=_number(raw, "tokenUsage", path, int),
        cost_estimate_usd=_number(raw, "costEstimateUSD", path, float),
        tool_calls=_tool_calls(raw, f"{path}.toolCalls"),
        learnings=_strings(raw, "learnings", path),
    )


def _conditions(status: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """``status.conditions``: a list of mappings with string ``type`` and ``status`` (as the CRD says)."""
    raw = status.get("conditions")
    if raw is None:
        return []
    path = "status.conditions"
    if not isinstance(raw, list):
        raise TaskRunError(path, f"must be a list, got {type(raw).__name__}")
    check_count(len(raw), path)
    for index, cond in enumerate(raw):
        where = f"{path}[{index}]"
        cond = _mapping(cond, where)
        for key in ("type", "status"):
            _string(cond, key, where, required=True)
        for key in ("reason", "message"):
            _string(cond, key, where)
        _check_time(cond.get("lastTransitionTime"), f"{where}.lastTransitionTime")
    return raw


# RFC 3339's date-time: a full date, a time with seconds, and ``Z`` or an offset (no ambiguity in
# the pattern, and at most 40 characters are matched: linear on any input).
_RFC3339 = re.compile(r"\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:[Zz]|[+-]\d{2}:\d{2})")


def _check_time(stamp: Any, where: str) -> None:
    """A timestamp as the CRD's ``format: date-time`` has it: RFC 3339, with its offset (YAML may
    have parsed it already: then it must carry its time zone). ISO 8601's other forms
    (``2026-11-10``, ``20261110T032657``, a time without an offset) are refused: a time without
    an offset would be read in the host's time zone."""
    if stamp is None:
        return
    if isinstance(stamp, datetime) and stamp.utcoffset() is not None:
        return
    if isinstance(stamp, str) and len(stamp) <= 40 and _RFC3339.fullmatch(stamp):
        try:
            datetime.fromisoformat(stamp.replace("Z", "+00:00").replace("z", "+00:00"))
            return
        except ValueError:
            pass
    raise TaskRunError(where, f"must be a timestamp (RFC 3339, with Z or an offset), got {shown(stamp)}")


def _finished_at(status: Mapping[str, Any]) -> str:
    """When the run ended: the ``Succeeded`` condition's transition time (Tekton style), else
    ``status.completionTime`` (what the operator writes too, and what a backfill may carry alone)."""
    for cond in _conditions(status):
        if (
            cond.get("type") == "Succeeded"
            and cond.get("status") != "Unknown"
            and cond.get("lastTransitionTime")
        ):
            return str(cond.get("lastTransitionTime"))
    completion = status.get("completionTime")
    _check_time(completion, "status.completionTime")
    return str(completion or "")


def _parse_metadata(body: Mapping[str, Any]) -> tuple[str, str, str]:
    """Namespace, name and uid, checked as the API server checks them.

    The run key joins them with ``/``, so none may contain one: two runs
    must never share a key.
    """
    meta = _mapping(body.get("metadata"), "metadata")
    name = _string(meta, "name", "metadata", required=True)
    if problem := dns_subdomain_problem(name):
        raise TaskRunError("metadata.name", problem)
    namespace = _string(meta, "namespace", "metadata") or "default"
    if problem := dns_label_problem(namespace):
        raise TaskRunError("metadata.namespace", problem)
    uid = _string(meta, "uid", "metadata")
    if uid and (len(uid) > MAX_UID or not UID.match(uid)):
        raise TaskRunError(
            "metadata.uid",
            f"{shown(uid)} is not a valid uid: at most {MAX_UID} letters, digits, '.', '_', ':' and '-'",
        )
    return namespace, name, uid


def parse_taskrun(obj: Any) -> TaskRun:
    """Validate one TaskRun object (kopf body or YAML document) into a :class:`TaskRun`.

    Raises :class:`TaskRunError` naming the first bad field. Every field read
    is checked against the CRD's limits (:data:`CRD_LIMITS`), so a file that
    never went through an API server is held to the same rules.
    """
    body = _mapping(obj, "<document>")
    kind = body.get("kind")
    if kind is not None and kind != KIND:
        raise TaskRunError("kind", f"must be {KIND}, got {shown(kind)}")
    namespace, name, uid = _parse_metadata(body)
    spec = _mapping(body.get("spec"), "spec")
    if "spec" not in body:
        raise TaskRunError("spec", "is required")
    status = _mapping(body.get("status"), "status")

    flow = _enum(_string(spec, "flow", "spec") or Flow.TICKETING.value, [f.value for f in Flow], "spec.flow")
    repo_raw = _mapping(spec.get("repository"), "spec.repository")
    repository = Repository(
        url=_string(repo_raw, "url", "spec.repository", required=flow == Flow.TICKETING),
        language=_string(repo_raw, "language", "spec.repository").lower(),
    )
    memory_raw = _mapping(spec.get("memory"), "spec.memory")
    memory_enabled = memory_raw.get("enabled", True)
    if not isinstance(memory_enabled, bool):
        raise TaskRunError("spec.memory.enabled", "must be true or false")
    execution = _mapping(spec.get("execution"), "spec.execution")
    mode = _enum(
        _string(execution, "mode", "spec.execution") or "job",
        EXECUTION_MODES,
        "spec.execution.mode",
    )

    phase_text = _string(status, "phase", "status")
    phase = Phase(_enum(phase_text, [p.value for p in Phase], "status.phase")) if phase_text else None
    result_raw = status.get("result")
    result = _parse_result(_mapping(result_raw, "status.result")) if result_raw is not None else None

    return TaskRun(
        namespace=namespace,
        name=name,
        uid=uid,
        engine=_string(spec, "engine", "spec", required=True),
        ticket=_parse_ticket(spec),
        flow=Flow(flow),
        fallback_engines=_strings(spec, "fallbackEngines", "spec"),
        repository=repository,
        instructions=_string(spec, "instructions", "spec"),
        memory_enabled=memory_enabled,
        execution_mode=mode,
        timeout_seconds=_number(execution, "timeoutSeconds", "spec.execution", int),
        phase=phase,
        engine_attempts=_strings(status, "engineAttempts", "status"),
        result=result,
        finished_at=_finished_at(status),
    )


def check_consistent(run: TaskRun) -> None:
    """Refuse a result that contradicts the phase: memory must not learn the opposite of what happened."""
    if run.result is None:
        return
    if run.phase is Phase.SUCCEEDED and not run.result.success:
        raise TaskRunError("status.result.success", "is false but status.phase is Succeeded")
    if run.phase in (Phase.FAILED, Phase.TIMED_OUT) and run.result.success:
        raise TaskRunError("status.result.success", f"is true but status.phase is {run.phase.value}")
