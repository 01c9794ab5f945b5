"""kopf handlers: the TaskRun lifecycle.

create → tenant, memory query, prompt ConfigMap, ``Pending`` → ``Running``
(and the first Job in job mode); Job finished → result, fallback or terminal
phase; terminal phase → background extraction; a timer enforces timeouts.
Every memory decision is delegated to :class:`osmia.memory.service.Memory`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import kopf
import structlog

from osmia import metrics
from osmia.config import Config
from osmia.controller import readiness
from osmia.controller.extraction import ExtractionScheduler
from osmia.controller.jobs import (
    ANNOTATION_ATTEMPT,
    LABEL_ENGINE,
    LABEL_TASKRUN,
    PROMPT_KEY,
    build_job,
    job_deadline_exceeded,
    job_finished,
    job_name,
    owner_reference,
    prompt_configmap_name,
    result_from,
    termination_message,
)
from osmia.controller.kube import GROUP, PLURAL, VERSION, Kube, load_credentials
from osmia.controller.prompt import prompt_digest, render_prompt
from osmia.controller.status import extraction_patch, now_iso, phase_patch
from osmia.memory.service import Memory, MemorySettings
from osmia.memory.store import StoreError
from osmia.memory.types import MemoryContext
from osmia.process import settle_heap
from osmia.taskrun import TERMINAL_PHASES, Phase, TaskRun, TaskRunError, parse_taskrun

log = structlog.get_logger("osmia.controller")
registry = kopf.OperatorRegistry()

TIMEOUT_CHECK_SECONDS = 5.0
DRAIN_SECONDS = 20.0
MAINTENANCE_SECONDS = 15.0
TERMINAL = frozenset(p.value for p in TERMINAL_PHASES)
NO_CONTEXT = MemoryContext(injected=(), section="")


@dataclass
class Runtime:
    """What the handlers share, kept in kopf's memo."""

    config: Config
    kube: Kube
    memory: Memory | None = None
    scheduler: ExtractionScheduler | None = None
    decay_task: asyncio.Task[None] | None = None
    maintenance_task: asyncio.Task[None] | None = None
    phases: dict[str, str] = field(default_factory=dict)

    def track_phase(self, uid: str, phase: str | None) -> None:
        """Keep the ``osmia_taskruns{phase}`` gauge in step with what the watch shows."""
        if phase is None:
            self.phases.pop(uid, None)
        else:
            self.phases[uid] = phase
        counts = Counter(self.phases.values())
        for p in Phase:
            metrics.TASKRUNS.labels(phase=p.value).set(counts.get(p.value, 0))


# --- operator lifecycle ---------------------------------------------------------------


@kopf.on.login(registry=registry)
def login(**kwargs: Any) -> kopf.ConnectionInfo | None:
    """Authenticate kopf the same way as our own client: in-cluster, else the kubeconfig."""
    return kopf.login_via_client(**kwargs)


@kopf.on.startup(registry=registry)
async def startup(memo: kopf.Memo, settings: kopf.OperatorSettings, **_: Any) -> None:
    """Persistence in annotations (status is schema-pruned), memory opened, decay loop started."""
    config: Config = memo["config"]
    settings.persistence.progress_storage = kopf.AnnotationsProgressStorage(prefix="kopf.osmia.dev")
    settings.persistence.diffbase_storage = kopf.AnnotationsDiffBaseStorage(prefix="kopf.osmia.dev")
    settings.persistence.finalizer = "osmia.dev/finalizer"
    settings.posting.level = logging.WARNING  # only warnings become Kubernetes events
    runtime = Runtime(config=config, kube=Kube(load_credentials()))
    metrics.start_series_at_zero(
        memory=config.memory.enabled, engines=config.engines, phases=(p.value for p in Phase)
    )
    if config.memory.enabled:
        try:
            runtime.memory = await Memory.open(
                MemorySettings.from_config(config.memory), deferred_checkpoints=True
            )
        except StoreError as exc:  # a database we must not touch: stop, loudly, instead of retrying
            log.error("cannot open memory", error=str(exc))
            raise kopf.PermanentError(str(exc)) from exc
        runtime.scheduler = ExtractionScheduler(
            runtime.memory, runtime.kube, config.memory.extraction_concurrency
        )
        runtime.decay_task = asyncio.create_task(decay_loop(runtime.memory), name="osmia-decay")
        runtime.maintenance_task = asyncio.create_task(
            maintenance_loop(runtime.memory), name="osmia-maintenance"
        )
        log.info("memory open", store=str(config.memory.store_path))
    else:
        log.info("memory disabled: no database, no extraction, no Prior Knowledge")
    memo["runtime"] = runtime
    settle_heap()
    # Ready = startup done (kopf starts watching next) and the database answers a read on each probe.
    check = runtime.memory.next_decay_at if runtime.memory else None
    readiness.STATE.ready(asyncio.get_running_loop(), check)


@kopf.on.cleanup(registry=registry)
async def cleanup(memo: kopf.Memo, **_: Any) -> None:
    """Stop decay, let extractions finish (or roll back), close the database."""
    readiness.STATE.not_ready("shutting down")
    runtime: Runtime | None = memo.get("runtime")
    if runtime is None:
        return
    for task in (runtime.decay_task, runtime.maintenance_task):
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
    if runtime.scheduler is not None:
        await runtime.scheduler.drain(DRAIN_SECONDS)
    if runtime.memory is not None:
        await runtime.memory.close()


@kopf.on.probe(id="extractions_in_flight", registry=registry)
def extractions_in_flight(memo: kopf.Memo, **_: Any) -> int:
    """Liveness detail: how many extractions are queued or running."""
    runtime: Runtime | None = memo.get("runtime")
    return runtime.scheduler.in_flight if runtime and runtime.scheduler else 0


async def decay_loop(memory: Memory) -> None:
    """Apply each decay cycle when it falls due; keep going after a database error."""
    while True:
        due = await memory.next_decay_at()
        await asyncio.sleep(max(1.0, due - time.time()))
        try:
            result = await memory.decay()
            log.info("decay", cycles=result.cycles, pruned=result.pruned, remaining=result.remaining)
        except StoreError as exc:
            log.error("decay failed", error=str(exc))
            await asyncio.sleep(60)


async def maintenance_loop(memory: Memory) -> None:
    """Merge full-text segments and checkpoint the WAL every ``MAINTENANCE_SECONDS``, between extractions."""
    while True:
        await asyncio.sleep(MAINTENANCE_SECONDS)
        try:
            await memory.maintain()
        except StoreError as exc:
            log.error("maintenance failed", error=str(exc))


# --- TaskRun created ----------------------------------------------------------------------


@kopf.on.create(GROUP, VERSION, PLURAL, registry=registry)
async def taskrun_created(body: kopf.Body, memo: kopf.Memo, **_: Any) -> None:
    """Tenant, memory, prompt, then launch (job mode) or wait (external mode)."""
    await start_run(memo["runtime"], dict(body))


async def start_run(rt: Runtime, body: dict[str, Any]) -> None:
    """Prepare and start one TaskRun; safe to repeat after a crash (every step is idempotent)."""
    meta = body["metadata"]
    ns, name = meta["namespace"], meta["name"]
    if (body.get("status") or {}).get("phase") not in (None, Phase.PENDING.value):
        return
    try:
        run = parse_taskrun(body)
    except TaskRunError as exc:
        await rt.kube.patch_status(ns, name, never_started(body, f"invalid TaskRun: {exc}"))
        return
    await rt.kube.patch_status(ns, name, phase_patch(body, Phase.PENDING, "preparing", tenant=run.tenant))
    context = await recall(rt, run)
    prompt = render_prompt(run, context.section)
    await rt.kube.apply_configmap(ns, prompt_configmap(body, prompt))
    fields: dict[str, Any] = {
        "tenant": run.tenant,
        "startTime": now_iso(),
        "prompt": {"configMap": prompt_configmap_name(name), "sha256": prompt_digest(prompt)},
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
        await rt.kube.patch_status(
            ns, name, phase_patch(body, Phase.RUNNING, "waiting for the executor", **fields)
        )
        return
    engine = first_configured(rt, run, ())
    if engine is None:
        why = f"engine {run.engine!r} has no entry under engines: in osmia-config.yaml"
        await rt.kube.patch_status(ns, name, {**never_started(body, why), **without_memory(fields)})
        return
    await launch(rt, run, body, attempt=0, engine=engine)
    fields["engineAttempts"] = [engine]
    message = f"job {job_name(name, 0, engine)} started"
    await rt.kube.patch_status(ns, name, phase_patch(body, Phase.RUNNING, message, **fields))


def memory_wanted(rt: Runtime, run: TaskRun) -> bool:
    """Memory is used only when the operator has it on and the run did not opt out."""
    return rt.memory is not None and run.memory_enabled


async def recall(rt: Runtime, run: TaskRun) -> MemoryContext:
    """The Prior Knowledge for a run; a memory failure never stops the run itself."""
    if rt.memory is None or not memory_wanted(rt, run):
        return NO_CONTEXT
    try:
        return await rt.memory.context(run)
    except StoreError as exc:
        log.error("memory query failed; starting without Prior Knowledge", taskrun=run.ref, error=str(exc))
        return NO_CONTEXT


def prompt_configmap(owner: Mapping[str, Any], prompt: str) -> dict[str, Any]:
    """The owned ConfigMap ``<name>-prompt`` with key ``prompt.md``."""
    name = owner["metadata"]["name"]
    return {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {
            "name": prompt_configmap_name(name),
            "namespace": owner["metadata"]["namespace"],
            "labels": {LABEL_TASKRUN: name},
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


def first_configured(rt: Runtime, run: TaskRun, tried: tuple[str, ...]) -> str | None:
    """The next engine (primary, then fallbacks in order) that is configured and not yet tried."""
    for engine in (run.engine, *run.fallback_engines):
        if engine not in tried and engine in rt.config.engines:
            return engine
    return None


async def launch(rt: Runtime, run: TaskRun, body: Mapping[str, Any], *, attempt: int, engine: str) -> None:
    """Create the Job for one engine attempt (idempotent by name)."""
    job = build_job(
        run,
        attempt=attempt,
        engine=engine,
        engine_config=rt.config.engines[engine],
        execution=rt.config.execution,
        owner=body,
    )
    await rt.kube.create_job(run.namespace, job)


# --- Job finished -----------------------------------------------------------------------------


@kopf.on.event("batch", "v1", "jobs", labels={LABEL_TASKRUN: kopf.PRESENT}, registry=registry)
async def job_event(event: kopf.RawEvent, body: kopf.Body, memo: kopf.Memo, **_: Any) -> None:
    """A Job of ours changed; act once it has finished."""
    if event["type"] == "DELETED":
        return
    verdict = job_finished(body)
    if verdict is not None:
        await finish_attempt(memo["runtime"], dict(body), verdict)


async def finish_attempt(rt: Runtime, job: dict[str, Any], verdict: str) -> None:
    """Turn a finished attempt into a result, a fallback attempt, or a terminal phase."""
    meta = job["metadata"]
    ns, engine = meta["namespace"], meta["labels"][LABEL_ENGINE]
    attempt = int((meta.get("annotations") or {}).get(ANNOTATION_ATTEMPT, "0"))
    body = await rt.kube.get_taskrun(ns, meta["labels"][LABEL_TASKRUN])
    if body is None:
        return
    status = body.get("status") or {}
    attempts = list(status.get("engineAttempts") or [])
    if status.get("phase") in TERMINAL or attempts[attempt:] != [engine]:
        return  # a replayed event, or an attempt that is no longer current
    name = body["metadata"]["name"]
    message, exit_code = termination_message(await rt.kube.job_pods(ns, meta["name"]))
    result = result_from(verdict, message, exit_code)
    if job_deadline_exceeded(job):
        result = {**result, "success": False, "failureReason": "the job ran past its deadline"}
        await rt.kube.patch_status(
            ns, name, phase_patch(body, Phase.TIMED_OUT, "deadline exceeded", result=result)
        )
        return
    if result["success"]:
        await rt.kube.patch_status(
            ns, name, phase_patch(body, Phase.SUCCEEDED, f"{engine} succeeded", result=result)
        )
        return
    run = parse_taskrun(body)
    fallback = first_configured(rt, run, tuple(attempts))
    if fallback is None:
        await rt.kube.patch_status(
            ns, name, phase_patch(body, Phase.FAILED, f"{engine} failed", result=result)
        )
        return
    await launch(rt, run, body, attempt=len(attempts), engine=fallback)
    note = f"{engine} failed ({result.get('failureReason', '')}); trying {fallback}"
    await rt.kube.patch_status(
        ns, name, phase_patch(body, Phase.RUNNING, note, engineAttempts=[*attempts, fallback])
    )


# --- timeouts ------------------------------------------------------------------------------------


def _running(status: kopf.Status, **_: Any) -> bool:
    return status.get("phase") == Phase.RUNNING.value


@kopf.timer(GROUP, VERSION, PLURAL, interval=TIMEOUT_CHECK_SECONDS, when=_running, registry=registry)
async def enforce_timeout(body: kopf.Body, memo: kopf.Memo, **_: Any) -> None:
    """``TimedOut`` once a running TaskRun outlives its ``timeoutSeconds``; its Job is deleted."""
    rt: Runtime = memo["runtime"]
    status, spec = body.get("status") or {}, body.get("spec") or {}
    limit = (spec.get("execution") or {}).get("timeoutSeconds") or rt.config.execution.default_timeout_seconds
    started = status.get("startTime")
    if not started:
        return
    elapsed = time.time() - datetime.fromisoformat(str(started).replace("Z", "+00:00")).timestamp()
    if elapsed < limit:
        return
    ns, name = body["metadata"]["namespace"], body["metadata"]["name"]
    for attempt, engine in enumerate(status.get("engineAttempts") or []):
        await rt.kube.delete_job(ns, job_name(name, attempt, engine))
    why = f"timed out after {limit} s"
    result = {"success": False, "failureReason": why}
    await rt.kube.patch_status(ns, name, phase_patch(body, Phase.TIMED_OUT, why, result=result))


def condition_settled(status: Mapping[str, Any]) -> bool:
    """True once the ``Succeeded`` condition says True or False (not Unknown)."""
    return any(
        c.get("type") == "Succeeded" and c.get("status") in ("True", "False")
        for c in status.get("conditions") or []
        if isinstance(c, Mapping)
    )


# --- terminal phase → extraction ---------------------------------------------------------------


@kopf.on.event(GROUP, VERSION, PLURAL, registry=registry)
async def taskrun_event(event: kopf.RawEvent, body: kopf.Body, memo: kopf.Memo, **_: Any) -> None:
    """Track phases; schedule extraction once a run is terminal and not yet extracted."""
    rt: Runtime = memo["runtime"]
    uid = str(body["metadata"].get("uid"))
    if event["type"] == "DELETED":
        rt.track_phase(uid, None)
        return
    status = body.get("status") or {}
    phase = status.get("phase")
    rt.track_phase(uid, phase or Phase.PENDING.value)
    if phase not in TERMINAL:
        return
    ns, name = body["metadata"]["namespace"], body["metadata"]["name"]
    if not condition_settled(status):  # an external executor wrote the phase: settle the condition
        metrics.TASKRUN_PHASES.labels(phase=phase).inc()
        await rt.kube.patch_status(ns, name, phase_patch(body, Phase(phase), f"{phase} (reported)"))
    state = ((status.get("memory") or {}).get("extraction") or {}).get("state")
    if state not in (None, "Pending"):
        return
    wanted = ((body.get("spec") or {}).get("memory") or {}).get("enabled", True)
    if rt.scheduler is None or not wanted:
        why = "memory is disabled" + ("" if rt.scheduler is None else " for this run")
        await rt.kube.patch_status(ns, name, extraction_patch(body, "Skipped", error=why))
        return
    rt.scheduler.schedule(dict(body))
