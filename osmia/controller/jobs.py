"""Job mode: the Job an engine attempt runs in, and how its outcome becomes ``status.result``.

Pure functions over plain dicts (the shapes the Kubernetes API returns), so
they are tested without a cluster.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from osmia.config import EngineConfig, ExecutionConfig
from osmia.controller.names import LABEL_LIMIT, NAME_LIMIT, child_name, label_value
from osmia.controller.runner_spec import add_runner_spec, runner_options
from osmia.taskrun import TaskRun
from osmia.termination import read_result

LABEL_TASKRUN = "osmia.dev/taskrun"
"""Label with the TaskRun's name (or its head and a hash when longer than 63 characters)."""
LABEL_TASKRUN_UID = "osmia.dev/taskrun-uid"
"""Label with the TaskRun's uid: how the reconciler finds a run's Jobs."""
LABEL_ENGINE = "osmia.dev/engine"
ANNOTATION_TASKRUN = "osmia.dev/taskrun"
"""Annotation with the TaskRun's full name (labels may hold only a hash of it)."""
ANNOTATION_ATTEMPT = "osmia.dev/attempt"
PROMPT_KEY = "prompt.md"
TERMINATION_LOG = "/dev/termination-log"


def prompt_configmap_name(taskrun: str) -> str:
    """The owned ConfigMap holding the prompt: ``<name>-prompt``, hashed when that is too long."""
    return child_name(taskrun, "-prompt", NAME_LIMIT)


def job_name(taskrun: str, attempt: int, engine: str) -> str:
    """Deterministic, unique Job name per attempt (≤ 63 chars), so a retried create finds the same Job."""
    return child_name(taskrun, f"-{attempt}-{engine}", LABEL_LIMIT)


def owned_labels(owner: Mapping[str, Any]) -> dict[str, str]:
    """Labels on everything a TaskRun owns: its name (fitted to 63 chars) and its uid."""
    meta = owner["metadata"]
    return {LABEL_TASKRUN: label_value(str(meta["name"])), LABEL_TASKRUN_UID: str(meta["uid"])}


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
    labels = {**owned_labels(owner), LABEL_ENGINE: engine}
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
            "annotations": {ANNOTATION_ATTEMPT: str(attempt), ANNOTATION_TASKRUN: run.name},
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


def result_from(job_state: str, message: str, exit_code: int | None) -> tuple[dict[str, Any], bool]:
    """``status.result`` from the Job's verdict and the agent's termination message, and whether the
    message was read whole.

    The message is the agent's JSON (:mod:`osmia.termination`); unknown or
    mistyped fields are dropped, a cut message gives what survived, and the
    Job's own verdict wins when the agent says nothing about success.
    """
    reported, whole = read_result(message)
    job_ok = job_state == "Complete"
    result: dict[str, Any] = {**reported, "success": bool(reported.get("success", job_ok)) and job_ok}
    if exit_code is not None and "exitCode" not in result:
        result["exitCode"] = exit_code
    if not result["success"] and not result.get("failureReason"):
        result["failureReason"] = (
            "the agent reported failure" if job_ok else f"the job failed (exit code {exit_code})"
        )
    if message and "{" not in message:  # plain text (a crash log): keep its tail as the summary
        result.setdefault("summary", message[-2000:])
    return result, whole
