"""kopf handlers: the TaskRun lifecycle, wired to kopf.

A new run → :func:`osmia.controller.start.start_run` (tenant, memory query,
prompt ConfigMap, ``Running`` and the first Job). A ``Running`` run is
reconciled from its Jobs and pods (:mod:`osmia.controller.reconcile`) every
few seconds and, sooner, on each Job event. A terminal run gets its condition
settled and its extraction scheduled. The TaskRun watch handler feeds
:class:`osmia.controller.sweep.Sweeper`, which does each of these at once and
retries every failed call with backoff, so a failed API call delays a run but
never strands it. Every memory decision is delegated to
:class:`osmia.memory.service.Memory`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any, cast

import kopf
import structlog

from osmia import metrics
from osmia.config import Config
from osmia.controller import readiness
from osmia.controller.extraction import ExtractionScheduler
from osmia.controller.jobs import ANNOTATION_TASKRUN, LABEL_TASKRUN, LABEL_TASKRUN_UID, job_finished
from osmia.controller.kube import GROUP, PLURAL, VERSION, Kube, load_credentials
from osmia.controller.reconcile import reconcile_running
from osmia.controller.runtime import Runtime
from osmia.controller.sweep import Sweeper
from osmia.memory.service import Memory, MemorySettings
from osmia.memory.store import StoreError
from osmia.memory.warmup import STORED_LINES, warm_up
from osmia.process import collect_between_work, full_collections_held, settle_heap
from osmia.taskrun import Phase

log = structlog.get_logger("osmia.controller")
registry = kopf.OperatorRegistry()

DRAIN_SECONDS = 20.0
MAINTENANCE_SECONDS = 15.0


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
    settings.posting.loggers = True  # ... including those of the per-object loggers handed to handlers
    runtime = Runtime(config=config, kube=Kube(load_credentials()), settings=settings)
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
        # The text automata's first-use costs, paid now rather than by the first runs, on a built-in
        # corpus and on the lines queries recall most (memory/warmup.py).
        try:
            lines = await runtime.memory.lasting_texts(STORED_LINES)
        except StoreError as exc:  # a warm-up is no reason not to serve
            log.warning("cannot read stored lines to warm up on", error=str(exc))
            lines = []
        try:
            render = not await runtime.memory.renders_as_stored()
        except StoreError:
            render = True
        warmed = warm_up(lines, render=render)
        log.info("memory open", store=str(config.memory.store_path), warm_up_ms=round(warmed * 1000))
        for start in memo.get("services", ()):
            runtime.stops.append(await start(runtime.memory))
    else:
        log.info("memory disabled: no database, no extraction, no Prior Knowledge")
    memo["runtime"] = runtime
    sweeper = Sweeper(runtime, lambda body: object_logger(runtime, body))
    memo["sweeper"] = sweeper
    runtime.sweep_task = asyncio.create_task(sweeper.run(), name="osmia-sweep")
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
    for stop in runtime.stops:
        await stop()
    for task in (runtime.sweep_task, runtime.decay_task, runtime.maintenance_task):
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
    """Every ``MAINTENANCE_SECONDS``, between extractions: merge full-text segments, checkpoint the
    WAL, and run the cyclic collector's full pass (held off queries and extractions: osmia/process.py)."""
    with full_collections_held():
        while True:
            await asyncio.sleep(MAINTENANCE_SECONDS)
            try:
                await memory.maintain()
            except StoreError as exc:
                log.error("maintenance failed", error=str(exc))
            finally:
                collect_between_work()


# --- TaskRuns: started, reconciled while Running, converged once terminal --------------------------
# One watch handler feeds the Sweeper (osmia/controller/sweep.py) and takes the fast path; the Sweeper's
# loop retries every failed action with backoff and follows Running runs. No kopf timers and no
# on.create: both would put a finalizer and progress annotations on every TaskRun (API writes per run).


def object_logger(rt: Runtime, body: dict[str, Any]) -> kopf.Logger:
    """kopf's per-object logger outside a TaskRun handler: its warnings become Events on the run."""
    return kopf.ObjectLogger(body=kopf.Body(cast(Any, body)), settings=rt.settings)


@kopf.on.event("batch", "v1", "jobs", labels={LABEL_TASKRUN: kopf.PRESENT}, registry=registry)
async def job_event(event: kopf.RawEvent, body: kopf.Body, memo: kopf.Memo, **_: Any) -> None:
    """Keep the Job's newest version for the reconciler; when it finished, reconcile its run now.

    Failures are only logged: the Sweeper reconciles the run regardless.
    """
    rt: Runtime = memo["runtime"]
    meta = body["metadata"]
    key = (str(meta.get("namespace")), str(meta.get("name")))
    if event["type"] == "DELETED":
        rt.jobs.pop(key, None)
        return
    rt.jobs[key] = (time.monotonic(), dict(body))  # the reconciler follows the run from this
    if job_finished(body) is None:
        return
    sweeper: Sweeper = memo["sweeper"]
    name = (meta.get("annotations") or {}).get(ANNOTATION_TASKRUN) or meta["labels"][LABEL_TASKRUN]
    owner_uid = (meta.get("labels") or {}).get(LABEL_TASKRUN_UID)
    try:
        # The run's newest body from the watch when it is tracked (no GET; a stale one only costs a 409).
        run = sweeper.body(owner_uid) if owner_uid else None
        if run is None:
            run = await rt.kube.get_taskrun(meta["namespace"], name)
        if run is None or owner_uid not in (None, run["metadata"]["uid"]):
            return
        await reconcile_running(rt, run, object_logger(rt, run))
    except Exception as exc:
        log.warning("job event not handled; the sweep will retry", job=meta["name"], error=str(exc))


@kopf.on.event(GROUP, VERSION, PLURAL, registry=registry)
async def taskrun_event(
    event: kopf.RawEvent, body: kopf.Body, memo: kopf.Memo, logger: kopf.Logger, **_: Any
) -> None:
    """Track phases and the work each run still needs; start or converge it now (the fast path)."""
    rt: Runtime = memo["runtime"]
    sweeper: Sweeper = memo["sweeper"]
    uid = str(body["metadata"].get("uid"))
    if event["type"] == "DELETED":
        rt.track_phase(uid, None)
        sweeper.forget(body)
        return
    status = body.get("status") or {}
    rt.track_phase(uid, status.get("phase") or Phase.PENDING.value)
    if sweeper.observe(body) in ("start", "converge"):
        await sweeper.act_now(body, logger)
