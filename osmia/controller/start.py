"""A TaskRun's start: tenant, memory recall, prompt ConfigMap, then ``Running`` (and its first Job).

Every step is idempotent, so the Sweeper may repeat the whole of it after a
failed call or a crash: the one status write applies only while the run is
still ``Pending``, the ConfigMap is created or updated, the Job is created by
its deterministic name.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from osmia.controller.jobs import (
    ANNOTATION_TASKRUN,
    PROMPT_KEY,
    build_job,
    job_name,
    owned_labels,
    owner_reference,
    prompt_configmap_name,
)
from osmia.controller.prompt import prompt_digest, render_prompt
from osmia.controller.runtime import Runtime, first_configured, memory_wanted, recall
from osmia.controller.status import now_iso, phase_patch
from osmia.controller.writes import write_status
from osmia.taskrun import Phase, TaskRun, TaskRunError, parse_taskrun


def _pending(body: Mapping[str, Any]) -> bool:
    return (body.get("status") or {}).get("phase") in (None, Phase.PENDING.value)


async def start_run(
    rt: Runtime, body: dict[str, Any], logger: logging.Logger | logging.LoggerAdapter[Any]
) -> None:
    """Prepare and start one TaskRun; safe to repeat after a crash (every step is idempotent)."""
    if not _pending(body):
        return
    try:
        run = parse_taskrun(body)
    except TaskRunError as exc:
        why = f"invalid TaskRun: {exc}"
        logger.warning(why)
        await write_status(rt.kube, body, lambda b: never_started(b, why) if _pending(b) else None)
        return
    # One status write per start, at the end: the ConfigMap and the Job are idempotent by name, so a
    # start repeated after a crash or a failed call does the same again, and the status says Running
    # only once everything it names exists.
    context = await recall(rt, run)
    prompt = render_prompt(run, context.section)
    await rt.kube.apply_configmap(run.namespace, prompt_configmap(body, prompt))
    fields: dict[str, Any] = {
        "tenant": run.tenant,
        "startTime": (body.get("status") or {}).get("startTime") or now_iso(),
        "prompt": {"configMap": prompt_configmap_name(run.name), "sha256": prompt_digest(prompt)},
        "memory": {
            "injected": [n.status_entry() for n in context.injected],
            "extraction": {
                "state": "Pending" if memory_wanted(rt, run) else "Skipped",
                "nodes": 0,
                "edges": 0,
            },
        },
    }
    if run.execution_mode == "external":
        await write_status(
            rt.kube,
            body,
            lambda b: (
                phase_patch(b, Phase.RUNNING, "waiting for the executor", **fields) if _pending(b) else None
            ),
        )
        return
    engine = first_configured(rt, run, ())
    if engine is None:
        why = f"engine {run.engine!r} has no entry under engines: in osmia-config.yaml"
        logger.warning(why)
        await write_status(
            rt.kube,
            body,
            lambda b: {**never_started(b, why), **without_memory(fields)} if _pending(b) else None,
        )
        return
    await launch(rt, run, body, attempt=0, engine=engine)
    fields["engineAttempts"] = [engine]
    message = f"job {job_name(run.name, 0, engine)} started"
    await write_status(
        rt.kube, body, lambda b: phase_patch(b, Phase.RUNNING, message, **fields) if _pending(b) else None
    )


def prompt_configmap(owner: Mapping[str, Any], prompt: str) -> dict[str, Any]:
    """The owned ConfigMap ``<name>-prompt`` with key ``prompt.md`` (garbage-collected with the run)."""
    name = owner["metadata"]["name"]
    return {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {
            "name": prompt_configmap_name(name),
            "namespace": owner["metadata"]["namespace"],
            "labels": owned_labels(owner),
            "annotations": {ANNOTATION_TASKRUN: name},
            "ownerReferences": [owner_reference(owner)],
        },
        "data": {PROMPT_KEY: prompt},
    }


def never_started(body: Mapping[str, Any], why: str) -> dict[str, Any]:
    """Terminal ``Failed`` for a run that could not start; nothing for memory to learn."""
    return {
        **phase_patch(body, Phase.FAILED, why),
        "result": {"success": False, "failureReason": why},
        "memory": {"injected": [], "extraction": {"state": "Skipped", "nodes": 0, "edges": 0, "error": why}},
    }


def without_memory(fields: dict[str, Any]) -> dict[str, Any]:
    """Keep tenant and prompt of a run that never started, not its memory state."""
    return {k: v for k, v in fields.items() if k != "memory"}


async def launch(rt: Runtime, run: TaskRun, body: Mapping[str, Any], *, attempt: int, engine: str) -> bool:
    """Create the Job for one engine attempt (idempotent by name); ``False`` if it already existed."""
    job = build_job(
        run,
        attempt=attempt,
        engine=engine,
        engine_config=rt.config.engines[engine],
        execution=rt.config.execution,
        owner=body,
    )
    return await rt.kube.create_job(run.namespace, job)
