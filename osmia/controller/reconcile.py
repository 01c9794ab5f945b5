"""Level-triggered convergence of a run: from what exists now, not from the one event that was seen.

``reconcile_running`` looks at a ``Running`` run's current Job (and its pods)
and moves the run on: result and terminal phase, the next fallback engine,
``TimedOut``. ``converge_terminal`` settles a terminal run's ``Succeeded``
condition and hands it to extraction. Both are called from the Sweeper's
loop (:mod:`osmia.controller.sweep`), which retries with backoff, and from
watch events as a fast path; any call may fail or be repeated, and every
write is built from the current body (:mod:`osmia.controller.writes`), so the
outcome is the same.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from osmia.controller.jobs import (
    job_deadline_exceeded,
    job_finished,
    job_name,
    result_from,
    termination_message,
)
from osmia.controller.runtime import Runtime, current_job, first_configured
from osmia.controller.start import launch
from osmia.controller.status import condition_settled, extraction_state, final_patch, phase_patch
from osmia.controller.writes import write_status
from osmia.taskrun import TERMINAL_PHASES, Phase, parse_taskrun

Logger = logging.Logger | logging.LoggerAdapter[Any]
TERMINAL = frozenset(p.value for p in TERMINAL_PHASES)


def _still(attempts: list[str]) -> Any:
    """A guard for builders: the run is still ``Running`` the same attempt the decision was made on."""

    def check(body: Mapping[str, Any]) -> bool:
        status = body.get("status") or {}
        return (
            status.get("phase") == Phase.RUNNING.value
            and list(status.get("engineAttempts") or []) == attempts
        )

    return check


def owned_by(child: Mapping[str, Any], owner: Mapping[str, Any]) -> bool:
    """True when ``child`` has an owner reference to this very TaskRun (same uid)."""
    uid = owner["metadata"].get("uid")
    return any(ref.get("uid") == uid for ref in (child.get("metadata") or {}).get("ownerReferences") or [])


def timeout_seconds(rt: Runtime, body: Mapping[str, Any]) -> int:
    """The run's ``spec.execution.timeoutSeconds``, else the configured default."""
    spec = body.get("spec") or {}
    limit = (spec.get("execution") or {}).get("timeoutSeconds")
    return int(limit or rt.config.execution.default_timeout_seconds)


def elapsed_seconds(body: Mapping[str, Any]) -> float | None:
    """Seconds since ``status.startTime``, or ``None`` before the run started."""
    started = (body.get("status") or {}).get("startTime")
    if not started:
        return None
    return time.time() - datetime.fromisoformat(str(started).replace("Z", "+00:00")).timestamp()


async def reconcile_running(rt: Runtime, body: dict[str, Any], logger: Logger) -> None:
    """Move a ``Running`` run on from what exists now; raises on a failed call (the Sweeper retries)."""
    status = body.get("status") or {}
    if status.get("phase") != Phase.RUNNING.value:
        return
    mode = ((body.get("spec") or {}).get("execution") or {}).get("mode") or "job"
    attempts = list(status.get("engineAttempts") or [])
    if mode == "job" and attempts and await _follow_job(rt, body, attempts, logger):
        return
    await _enforce_timeout(rt, body, attempts, logger)


async def _follow_job(rt: Runtime, body: dict[str, Any], attempts: list[str], logger: Logger) -> bool:
    """Act on the current attempt's Job; ``True`` when the run moved on (or must wait for GC)."""
    meta = body["metadata"]
    ns, name = meta["namespace"], meta["name"]
    attempt, engine = len(attempts) - 1, attempts[-1]
    job = await current_job(rt, ns, job_name(name, attempt, engine))
    still = _still(attempts)
    if job is not None and not owned_by(job, body):
        # A Job of an earlier TaskRun of the same name, not yet collected: ours follows it.
        run = parse_taskrun(body)
        await launch(rt, run, body, attempt=attempt, engine=engine)
        return True
    if job is None:
        # Jobs are created before the attempt is recorded, so a recorded attempt's Job existed:
        # it was deleted (TTL, a person) before its result was read. Its outcome is unknown.
        why = f"the Job of attempt {attempt} ({engine}) was deleted before Osmia read its result"
        logger.warning(why)
        await write_status(
            rt.kube,
            body,
            lambda b: (
                {
                    **phase_patch(b, Phase.FAILED, why, result={"success": False, "failureReason": why}),
                    "memory": {"extraction": {"state": "Skipped", "nodes": 0, "edges": 0, "error": why}},
                }
                if still(b)
                else None
            ),
        )
        return True
    verdict = job_finished(job)
    if verdict is None:
        return False
    pods = await rt.kube.job_pods(ns, str(job["metadata"]["uid"]))
    message, exit_code = termination_message(pods)
    result, whole = result_from(verdict, message, exit_code)
    if not whole:
        kept = ", ".join(sorted(result)) or "nothing"
        logger.warning(f"{engine}: the termination message was cut or is not JSON; kept {kept}")
    if job_deadline_exceeded(job):
        result = {**result, "success": False, "failureReason": "the job ran past its deadline"}
        await write_status(
            rt.kube,
            body,
            lambda b: (
                phase_patch(b, Phase.TIMED_OUT, "deadline exceeded", result=result) if still(b) else None
            ),
        )
        return True
    if result["success"]:
        await write_status(
            rt.kube,
            body,
            lambda b: (
                phase_patch(b, Phase.SUCCEEDED, f"{engine} succeeded", result=result) if still(b) else None
            ),
        )
        return True
    run = parse_taskrun(body)
    fallback = first_configured(rt, run, tuple(attempts))
    if fallback is None:
        await write_status(
            rt.kube,
            body,
            lambda b: phase_patch(b, Phase.FAILED, f"{engine} failed", result=result) if still(b) else None,
        )
        return True
    await launch(rt, run, body, attempt=len(attempts), engine=fallback)
    note = f"{engine} failed ({result.get('failureReason', '')}); trying {fallback}"
    logger.warning(note)
    await write_status(
        rt.kube,
        body,
        lambda b: (
            phase_patch(b, Phase.RUNNING, note, engineAttempts=[*attempts, fallback]) if still(b) else None
        ),
    )
    return True


async def _enforce_timeout(rt: Runtime, body: dict[str, Any], attempts: list[str], logger: Logger) -> None:
    """``TimedOut`` once a run still ``Running`` outlives its timeout; then its Jobs are deleted."""
    elapsed = elapsed_seconds(body)
    limit = timeout_seconds(rt, body)
    if elapsed is None or elapsed < limit:
        return
    why = f"timed out after {limit} s"
    logger.warning(why)
    result = {"success": False, "failureReason": why}
    still = _still(attempts)
    written = await write_status(
        rt.kube,
        body,
        lambda b: phase_patch(b, Phase.TIMED_OUT, why, result=result) if still(b) else None,
    )
    if written is None:
        return
    ns, name = body["metadata"]["namespace"], body["metadata"]["name"]
    for attempt, engine in enumerate(attempts):
        await rt.kube.delete_job(ns, job_name(name, attempt, engine))


def needs_convergence(status: Mapping[str, Any]) -> bool:
    """A terminal run whose condition is not settled or whose extraction is not decided."""
    if status.get("phase") not in TERMINAL:
        return False
    return not condition_settled(status) or extraction_state(status) in (None, "Pending")


async def converge_terminal(rt: Runtime, body: dict[str, Any], logger: Logger) -> None:
    """Hand a terminal run to extraction, or settle its condition (and skip extraction) in one write.

    With extraction wanted, nothing is written here: the extraction's own write records its outcome
    and settles the ``Succeeded`` condition together (:func:`osmia.controller.status.final_patch`).
    """
    status = body.get("status") or {}
    if status.get("phase") not in TERMINAL:
        return
    undecided = extraction_state(status) in (None, "Pending")
    wanted = ((body.get("spec") or {}).get("memory") or {}).get("enabled", True)
    if undecided and rt.scheduler is not None and wanted:
        rt.scheduler.schedule(body)
        return
    why = "memory is disabled" + ("" if rt.scheduler is None else " for this run")
    await write_status(rt.kube, body, lambda b: final_patch(b, "Skipped", error=why))
