"""What the handlers share (kept in kopf's memo) and the small decisions they all make."""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import structlog

from osmia import metrics
from osmia.config import Config
from osmia.controller.extraction import ExtractionScheduler
from osmia.controller.jobs import job_finished
from osmia.controller.kube import Kube
from osmia.memory.service import Memory
from osmia.memory.store import StoreError
from osmia.memory.types import MemoryContext
from osmia.process import settle_after_work
from osmia.taskrun import TaskRun

log = structlog.get_logger("osmia.controller")
NO_CONTEXT = MemoryContext(injected=(), section="")
JOB_FRESH_SECONDS = 30.0
"""How long an unfinished Job's watched version stands in for a read (see :func:`current_job`)."""
RECALL_CONCURRENCY = 2
"""Memory queries waiting on memory at once (the rest wait here, behind the extractions' turn)."""

# Something served beside the operator while memory is open (the dashboard): started with the open
# Memory, it returns the coroutine function that stops it.
MemoryService = Callable[[Memory], Awaitable[Callable[[], Awaitable[None]]]]


@dataclass
class Runtime:
    """The operator's shared state: configuration, API client, memory and its extraction queue."""

    config: Config
    kube: Kube
    memory: Memory | None = None
    scheduler: ExtractionScheduler | None = None
    sweep_task: asyncio.Task[None] | None = None
    decay_task: asyncio.Task[None] | None = None
    maintenance_task: asyncio.Task[None] | None = None
    phases: dict[str, str] = field(default_factory=dict)
    phase_counts: Counter[str] = field(default_factory=Counter)
    settings: Any = None  # kopf.OperatorSettings, for per-object loggers outside a TaskRun handler
    stops: list[Callable[[], Awaitable[None]]] = field(default_factory=list)
    # Memory serves queries and extractions one at a time, first come first served. Unbounded, a burst
    # of starts queues hundreds of queries ahead of every extraction; bounded like the extractions, the
    # two alternate, so finished runs are learned from while new ones keep starting.
    # The Jobs of ours as the Job watch last showed them, with when (monotonic): a Running run is followed
    # from here while the entry is younger than JOB_FRESH_SECONDS, and re-read otherwise.
    jobs: dict[tuple[str, str], tuple[float, dict[str, Any]]] = field(default_factory=dict)
    recall_slots: asyncio.Semaphore = field(default_factory=lambda: asyncio.Semaphore(RECALL_CONCURRENCY))

    def track_phase(self, uid: str, phase: str | None) -> None:
        """Keep the ``osmia_taskruns{phase}`` gauge in step with what the watch shows (O(1) per event)."""
        old = self.phases.pop(uid, None) if phase is None else self.phases.get(uid)
        if old == phase:
            return
        if phase is not None:
            self.phases[uid] = phase
        if old is not None:
            self.phase_counts[old] -= 1
            metrics.TASKRUNS.labels(phase=old).set(self.phase_counts[old])
        if phase is not None:
            self.phase_counts[phase] += 1
            metrics.TASKRUNS.labels(phase=phase).set(self.phase_counts[phase])


async def current_job(rt: Runtime, namespace: str, name: str) -> dict[str, Any] | None:
    """A Job as the watch showed it within ``JOB_FRESH_SECONDS`` (a finished one: as last shown), else read.

    A finished Job does not change back, so its last watched version is enough; an unfinished one is
    re-read at most every ``JOB_FRESH_SECONDS`` per run instead of on every reconcile, in case an event
    (a deletion while the watch was down) was missed.
    """
    cached = rt.jobs.get((namespace, name))
    now = time.monotonic()
    if cached is not None and (now - cached[0] < JOB_FRESH_SECONDS or job_finished(cached[1]) is not None):
        return cached[1]
    job = await rt.kube.get_job(namespace, name)
    if job is None:
        rt.jobs.pop((namespace, name), None)
    else:
        rt.jobs[(namespace, name)] = (now, job)
    return job


def memory_wanted(rt: Runtime, run: TaskRun) -> bool:
    """Memory is used only when the operator has it on and the run did not opt out."""
    return rt.memory is not None and run.memory_enabled


async def recall(rt: Runtime, run: TaskRun) -> MemoryContext:
    """The Prior Knowledge for a run; a memory failure never stops the run itself."""
    if rt.memory is None or not memory_wanted(rt, run):
        return NO_CONTEXT
    try:
        async with rt.recall_slots:
            try:
                return await rt.memory.context(run)
            finally:
                settle_after_work()  # what the query left in the caches is not walked again
    except StoreError as exc:
        log.error("memory query failed; starting without Prior Knowledge", taskrun=run.ref, error=str(exc))
        return NO_CONTEXT


def first_configured(rt: Runtime, run: TaskRun, tried: tuple[str, ...]) -> str | None:
    """The next engine (primary, then fallbacks in order) that is configured and not yet tried."""
    for engine in (run.engine, *run.fallback_engines):
        if engine not in tried and engine in rt.config.engines:
            return engine
    return None
