"""Job mode: the Job an engine attempt runs in, and how its outcome becomes ``status.result``.

Pure functions over plain dicts (the shapes the Kubernetes API returns), so
they are tested without a cluster.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from osmia.config import EngineConfig, ExecutionConfig
from osmia.controller.runner_spec import add_runner_spec, runner_options
from osmia.taskrun import TaskRun

LABEL_TASKRUN = "osmia.dev/taskrun"
LABEL_ENGINE = "osmia.dev/engine"
ANNOTATION_ATTEMPT = "osmia.dev/attempt"
PROMPT_KEY = "prompt.md"
TERMINATION_LOG = "/dev/termination-log"
# Fields an engine may report in its termination message (camelCase, as in status.result).
RESULT_FIELDS: dict[str, type | tuple[type, ...]] = {
    "success": bool,
    "summary": str,
    "exitCode": int,
    "failureReason": str,
    "mergeRequestURL": str,
    "branchName": str,
    "filesChanged": list,
    "testsFailed": list,
    "flakyTests": list,
    "durationSeconds": (int, float),
    "tokenUsage": int,
    "costEstimateUSD": (int, float),
    "toolCalls": dict,
    "learnings": list,
}


def prompt_configmap_name(taskrun: str) -> str:
    """The owned ConfigMap holding the prompt."""
    return f"{taskrun}-prompt"


def job_name(taskrun: str, attempt: int, engine: str) -> str:
    """Deterministic Job name per attempt, so a retried create finds the same Job (≤ 63 chars)."""
    suffix = f"-{attempt}-{engine}"
    return (taskrun[: 63 - len(suffix)].rstrip("-.") + suffix)[:63]


def build_job(
    run: TaskRun,
    *,
    attempt: int,
    engine: str,
    engine_config: EngineConfig,
    execution: ExecutionConfig,
    owner: Mapping[str, Any],
) -> dict[str, Any]:
    """The Job manifest for one engine attempt: prompt mounted read-only, locked-down pod."""
    name = job_name(run.name, attempt, engine)
    timeout = run.timeout_seconds or execution.default_timeout_seconds
    labels = {LABEL_TASKRUN: run.name, LABEL_ENGINE: engine}
    env = [
        {"name": "OSMIA_PROMPT_FILE", "value": f"{execution.prompt_mount_path}/{PROMPT_KEY}"},
        {"name": "OSMIA_ENGINE", "value": engine},
        {"name": "OSMIA_TASKRUN", "value": f"{run.namespace}/{run.name}"},
        {"name": "OSMIA_TICKET_ID", "value": run.ticket.id},
        *({"name": k, "value": v} for k, v in sorted(engine_config.env.items())),
    ]
    container: dict[str, Any] = {
        "name": "agent",
        "image": engine_config.image,
        "env": env,
        "volumeMounts": [
            {"name": "prompt", "mountPath": execution.prompt_mount_path, "readOnly": True},
            {"name": "work", "mountPath": "/workspace"},
            {"name": "tmp", "mountPath": "/tmp"},
        ],
        "workingDir": "/workspace",
        "terminationMessagePath": TERMINATION_LOG,
        "terminationMessagePolicy": "FallbackToLogsOnError",
        "securityContext": {
            "runAsNonRoot": True,
            "allowPrivilegeEscalation": False,
            "readOnlyRootFilesystem": True,
            "capabilities": {"drop": ["ALL"]},
        },
    }
    if engine_config.command:
        container["command"] = list(engine_config.command)
    if engine_config.args:
        container["args"] = list(engine_config.args)
    if engine_config.resources:
        container["resources"] = engine_config.container_resources()
    pod_spec: dict[str, Any] = {
        "restartPolicy": "Never",
        "automountServiceAccountToken": engine_config.service_account is not None,
        "securityContext": {"runAsNonRoot": True, "seccompProfile": {"type": "RuntimeDefault"}},
        "containers": [container],
        "volumes": [
            {"name": "prompt", "configMap": {"name": prompt_configmap_name(run.name)}},
            {"name": "work", "emptyDir": {}},
            {"name": "tmp", "emptyDir": {}},
        ],
    }
    if engine_config.service_account:
        pod_spec["serviceAccountName"] = engine_config.service_account
    add_runner_spec(container, pod_spec, run=run, timeout=timeout, **runner_options(engine_config))
    spec: dict[str, Any] = {
        "backoffLimit": execution.backoff_limit,
        "activeDeadlineSeconds": timeout,
        "template": {"metadata": {"labels": labels}, "spec": pod_spec},
    }
    if execution.ttl_seconds_after_finished is not None:
        spec["ttlSecondsAfterFinished"] = execution.ttl_seconds_after_finished
    return {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": {
            "name": name,
            "namespace": run.namespace,
            "labels": labels,
            "annotations": {ANNOTATION_ATTEMPT: str(attempt)},
            "ownerReferences": [owner_reference(owner)],
        },
        "spec": spec,
    }


def owner_reference(owner: Mapping[str, Any]) -> dict[str, Any]:
    """A controller owner reference to the TaskRun, so its Jobs and ConfigMap go with it."""
    meta = owner["metadata"]
    return {
        "apiVersion": owner.get("apiVersion", "osmia.dev/v1alpha1"),
        "kind": owner.get("kind", "TaskRun"),
        "name": meta["name"],
        "uid": meta["uid"],
        "controller": True,
        "blockOwnerDeletion": True,
    }


def job_finished(job: Mapping[str, Any]) -> str | None:
    """``Complete``, ``Failed`` or ``None`` (still running) from the Job's conditions."""
    for cond in (job.get("status") or {}).get("conditions") or []:
        if cond.get("status") == "True" and cond.get("type") in ("Complete", "Failed"):
            return str(cond["type"])
    return None


def job_deadline_exceeded(job: Mapping[str, Any]) -> bool:
    """True when the Job failed because it ran past ``activeDeadlineSeconds``."""
    return any(
        c.get("type") == "Failed" and c.get("reason") == "DeadlineExceeded"
        for c in (job.get("status") or {}).get("conditions") or []
    )


def termination_message(pods: Sequence[Mapping[str, Any]]) -> tuple[str, int | None]:
    """The newest terminated agent container's message and exit code."""
    best: tuple[str, str, int | None] = ("", "", None)
    for pod in pods:
        for cs in (pod.get("status") or {}).get("containerStatuses") or []:
            term = (cs.get("state") or {}).get("terminated") or (cs.get("lastState") or {}).get("terminated")
            if term:
                finished = str(term.get("finishedAt") or "")
                if finished >= best[0]:
                    best = (finished, str(term.get("message") or ""), term.get("exitCode"))
    return best[1], best[2]


# Size limits of the CRD's status.result schema: a report is cut to fit, never refused.
_MAX_ITEMS = {"filesChanged": 10000, "testsFailed": 1000, "flakyTests": 1000, "learnings": 50}
_MAX_CHARS = {"summary": 65536, "failureReason": 4096, "branchName": 255, "mergeRequestURL": 2048}


def _well_typed(key: str, value: Any) -> bool:
    """A reported field Osmia knows, with the right type (``True`` is not an int here)."""
    expected = RESULT_FIELDS.get(key)
    if expected is None or not isinstance(value, expected):
        return False
    if isinstance(value, list):
        return all(isinstance(item, str) for item in value)
    if isinstance(value, dict):
        return all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in value.values())
    return key == "success" or not isinstance(value, bool)


def _fit(key: str, value: Any) -> Any:
    """Cut strings and lists to the schema's limits."""
    if key in _MAX_ITEMS:
        return [item[:1000] for item in value[: _MAX_ITEMS[key]]]
    if key in _MAX_CHARS:
        return value[: _MAX_CHARS[key]]
    return value


_JSON_OBJECT = re.compile(r"\{.*\}", re.DOTALL)


def result_from(job_state: str, message: str, exit_code: int | None) -> dict[str, Any]:
    """``status.result`` from the Job's verdict and the agent's termination message.

    The message is the agent's JSON; unknown or mistyped fields are dropped, and
    the Job's own verdict wins when the agent says nothing about success.
    """
    reported: dict[str, Any] = {}
    match = _JSON_OBJECT.search(message or "")
    if match:
        try:
            parsed = json.loads(match.group(0))
        except ValueError:
            parsed = None
        if isinstance(parsed, dict):
            reported = {k: _fit(k, v) for k, v in parsed.items() if _well_typed(k, v)}
    job_ok = job_state == "Complete"
    result: dict[str, Any] = {**reported, "success": bool(reported.get("success", job_ok)) and job_ok}
    if exit_code is not None and "exitCode" not in result:
        result["exitCode"] = exit_code
    if not result["success"] and not result.get("failureReason"):
        result["failureReason"] = (
            "the agent reported failure" if job_ok else f"the job failed (exit code {exit_code})"
        )
    if message and not match:
        result.setdefault("summary", message[-2000:])
    return result
