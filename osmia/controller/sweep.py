"""One level-triggered loop for every TaskRun that still needs the operator, instead of kopf timers.

kopf timers cost, per TaskRun, a finalizer (a patch at creation and one at
deletion, each followed by kopf's wait for the patched version), a task that
wakes every few seconds, and per-object state; and ``@kopf.on.create`` adds a
progress annotation patch. At 10 runs/s that was most of the API requests and
most of the operator's memory. The :class:`Sweeper` keeps, per TaskRun that is
not finished, its newest body (fed by the TaskRun watch handler) and the time
it is next due, and one loop acts on what is due:

* ``start``: no phase or ``Pending`` → :func:`osmia.controller.start.start_run`;
* ``running``: ``Running`` → :func:`osmia.controller.reconcile.reconcile_running`, every
  ``RECONCILE_SECONDS`` in job mode (the Job watch is the fast path), at the timeout otherwise;
* ``converge``: terminal with the condition unsettled or the extraction undecided →
  :func:`osmia.controller.reconcile.converge_terminal`.

The watch handler runs ``start`` and ``converge`` at once (the fast path); the
loop is the safety net that makes every failed call a retry, with backoff, so
no run depends on one event or one call. After a restart kopf lists every
TaskRun again, so the tracked set is rebuilt from what exists.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import structlog

from osmia.controller.reconcile import (
    converge_terminal,
    needs_convergence,
    reconcile_running,
    timeout_seconds,
)
from osmia.controller.runtime import Runtime
from osmia.controller.start import start_run
from osmia.controller.status import phase_patch
from osmia.controller.writes import write_status
from osmia.taskrun import Phase

log = structlog.get_logger("osmia.controller")
Logger = logging.Logger | logging.LoggerAdapter[Any]
LoggerFor = Callable[[dict[str, Any]], Logger]

RECONCILE_SECONDS = 5.0
"""How often a job-mode ``Running`` run is reconciled from its Jobs without an event."""
CONVERGE_SECONDS = 5.0
"""How soon a terminal run handed to extraction is looked at again if nothing recorded an outcome."""
RETRY_BACKOFF_SECONDS = 2.0
"""The first delay after a failed action; doubled per failure up to ``MAX_BACKOFF_SECONDS``."""
MAX_BACKOFF_SECONDS = 60.0
FAST_PATH_GRACE_SECONDS = 2.0
"""How long the loop leaves new ``start``/``converge`` work to the watch handler's fast path."""
TICK_SECONDS = 0.5
"""How often the loop looks for due work."""
CONCURRENCY = 16
"""Actions the loop runs at once (each is a few API calls and perhaps a memory query)."""


def work_for(status: Mapping[str, Any]) -> str | None:
    """What a TaskRun with this status still needs from the operator, if anything."""
    phase = status.get("phase")
    if phase in (None, Phase.PENDING.value):
        return "start"
    if phase == Phase.RUNNING.value:
        return "running"
    if needs_convergence(status):
        return "converge"
    return None


@dataclass
class Tracked:
    """A TaskRun the operator still acts on: its newest body and when it is next due."""

    body: dict[str, Any]
    work: str
    due: float
    failures: int = 0
    acted_on: str | None = None  # resourceVersion of the body last acted on with success


class Sweeper:
    """Tracks unfinished TaskRuns and acts on each when due; every failure is retried with backoff."""

    def __init__(
        self,
        rt: Runtime,
        logger_for: LoggerFor,
        *,
        clock: Callable[[], float] = time.monotonic,
        concurrency: int = CONCURRENCY,
    ) -> None:
        self._rt = rt
        self._logger_for = logger_for
        self._clock = clock
        self._tracked: dict[str, Tracked] = {}
        self._busy: set[str] = set()
        self._slots = asyncio.Semaphore(concurrency)
        self._tasks: set[asyncio.Task[None]] = set()

    def __len__(self) -> int:
        return len(self._tracked)

    def observe(self, body: Mapping[str, Any]) -> str | None:
        """Take the newest body from the watch; returns the work it needs now (``None``: forgotten)."""
        uid = _uid(body)
        work = work_for(body.get("status") or {})
        if work is None:
            self._tracked.pop(uid, None)
            return None
        old = self._tracked.get(uid)
        if old is not None and old.work == work:
            old.body = dict(body)
            if work == "running":  # a new attempt or a changed timeout moves the next look
                old.due = min(old.due, self._next_running(old.body))
            return work
        # start/converge: the watch handler acts at once; the loop looks only if that did not finish it.
        due = self._clock() + FAST_PATH_GRACE_SECONDS if work != "running" else self._first_running(body)
        self._tracked[uid] = Tracked(body=dict(body), work=work, due=due)
        return work

    def body(self, uid: str) -> dict[str, Any] | None:
        """The newest body seen of a tracked (unfinished) TaskRun, by uid."""
        item = self._tracked.get(uid)
        return item.body if item is not None else None

    def forget(self, body: Mapping[str, Any]) -> None:
        """The TaskRun was deleted."""
        self._tracked.pop(_uid(body), None)

    async def act_now(self, body: Mapping[str, Any], logger: Logger) -> None:
        """The fast path from the watch: do the ``start``/``converge`` work now unless it is under way."""
        uid = _uid(body)
        item = self._tracked.get(uid)
        if item is None or item.work == "running" or uid in self._busy:
            return
        if item.acted_on is not None and item.acted_on == _version(item.body):
            return  # done on this very body; its own write brings the next event
        self._busy.add(uid)
        await self._act(uid, item, logger)

    async def run(self) -> None:
        """The loop: every ``TICK_SECONDS``, start what is due (bounded); runs until cancelled."""
        try:
            while True:
                await asyncio.sleep(TICK_SECONDS)
                now = self._clock()
                for uid, item in list(self._tracked.items()):
                    if item.due <= now and uid not in self._busy:
                        self._busy.add(uid)  # claimed before the task starts, so no tick starts it twice
                        task = asyncio.create_task(self._slotted(uid, item), name=f"sweep:{uid}")
                        self._tasks.add(task)
                        task.add_done_callback(self._tasks.discard)
        finally:
            for task in list(self._tasks):
                task.cancel()
            await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _slotted(self, uid: str, item: Tracked) -> None:
        async with self._slots:
            if self._tracked.get(uid) is not item or item.due > self._clock():
                self._busy.discard(uid)  # it moved on or went away meanwhile
                return
            await self._act(uid, item, self._logger_for(item.body))

    async def _act(self, uid: str, item: Tracked, logger: Logger) -> None:
        """One action on the newest body (``uid`` already claimed in ``_busy``); schedules the next look."""
        body, work = item.body, item.work
        try:
            await self._action(work)(self._rt, body, logger)
        except Exception as exc:
            item.failures += 1
            delay = min(MAX_BACKOFF_SECONDS, RETRY_BACKOFF_SECONDS * 2 ** (item.failures - 1))
            item.due = self._clock() + delay
            error = str(exc) or repr(exc)
            log.warning(
                f"{work} failed; retried in {delay:.0f} s",
                taskrun=f"{body['metadata'].get('namespace')}/{body['metadata'].get('name')}",
                error=error,
            )
            if item.failures == 1:  # once per streak: an Event on the TaskRun, not one per retry
                logger.warning(f"{work} failed, retrying with backoff: {error}")
                if work == "start":
                    await self._show_pending(body, error)
            return
        finally:
            self._busy.discard(uid)
        item.failures = 0
        item.acted_on = _version(body)
        if self._tracked.get(uid) is not item:
            return
        if work == "running":
            item.due = self._next_running(item.body)
        elif work == "converge":
            item.due = self._clock() + CONVERGE_SECONDS  # until the extraction's outcome shows up
        else:
            item.due = self._clock() + RECONCILE_SECONDS  # started: its own event moves it on before that

    async def _show_pending(self, body: dict[str, Any], error: str) -> None:
        """A start that did not complete at once shows ``Pending`` with why, while it is retried.

        The fast path writes status once, straight to ``Running``; this slow path costs one
        write per failing streak so that ``kubectl get tr`` does not show a run with no phase.
        """
        message = f"start failed, retrying: {error}"[:1024]
        with contextlib.suppress(Exception):  # the API may be what failed; the retry is what matters
            await write_status(
                self._rt.kube,
                body,
                lambda b: (
                    phase_patch(b, Phase.PENDING, message)
                    if not (b.get("status") or {}).get("phase")
                    else None
                ),
            )

    @staticmethod
    def _action(work: str) -> Callable[[Runtime, dict[str, Any], Logger], Awaitable[None]]:
        return {"start": start_run, "running": reconcile_running, "converge": converge_terminal}[work]

    def _first_running(self, body: Mapping[str, Any]) -> float:
        """A run first seen ``Running`` (a restart, or just started): job mode is looked at now."""
        if _mode(body) == "job":
            return self._clock()
        return self._next_running(body)

    def _next_running(self, body: Mapping[str, Any]) -> float:
        """Job mode: the next reconcile; external mode: the moment the timeout runs out."""
        now = self._clock()
        if _mode(body) == "job":
            return now + RECONCILE_SECONDS
        started = (body.get("status") or {}).get("startTime")
        if not started:
            return now + RECONCILE_SECONDS
        try:
            start = datetime.fromisoformat(str(started).replace("Z", "+00:00")).timestamp()
        except ValueError:
            return now + RECONCILE_SECONDS
        left = start + timeout_seconds(self._rt, body) - time.time()
        return now + max(0.0, left) + 0.5


def _uid(body: Mapping[str, Any]) -> str:
    meta = body["metadata"]
    return str(meta.get("uid") or f"{meta.get('namespace')}/{meta.get('name')}")


def _version(body: Mapping[str, Any]) -> str | None:
    version = (body.get("metadata") or {}).get("resourceVersion")
    return str(version) if version is not None else None


def _mode(body: Mapping[str, Any]) -> str:
    return str(((body.get("spec") or {}).get("execution") or {}).get("mode") or "job")
