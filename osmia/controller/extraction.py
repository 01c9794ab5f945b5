"""Background extraction: finished TaskRuns → memory, bounded, never blocking a handler.

Exactly once per TaskRun even across restarts: the memory store records every
processed run key in the same transaction as its knowledge, so a run scheduled
twice (a replayed watch event, a restart before the status patch landed) is
ingested once and reported ``Done`` both times.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any, cast

import kopf
import structlog

from osmia.controller.kube import Kube
from osmia.controller.status import extraction_state, final_patch, settle_patch
from osmia.controller.writes import write_status
from osmia.memory.service import Memory
from osmia.memory.store import StoreError
from osmia.process import settle_after_work
from osmia.taskrun import TaskRunError, check_consistent, parse_taskrun

log = structlog.get_logger("osmia.extraction")


def _post_warning(body: Mapping[str, Any], message: str) -> None:
    """A Warning Event on the TaskRun (``kubectl describe tr``); best effort outside a handler."""
    try:
        kopf.warn(cast(kopf.Body, dict(body)), reason="Extraction", message=message)
    except Exception:  # no kopf context (unit tests, benchmarks): the log line above stands
        log.debug("could not post an event", message=message)


class ExtractionScheduler:
    """Runs extractions as background tasks, at most ``concurrency`` at once."""

    def __init__(self, memory: Memory, kube: Kube, concurrency: int) -> None:
        self._memory = memory
        self._kube = kube
        self._slots = asyncio.Semaphore(concurrency)
        self._tasks: dict[str, asyncio.Task[None]] = {}

    @property
    def in_flight(self) -> int:
        """Extractions scheduled or running."""
        return len(self._tasks)

    def schedule(self, body: Mapping[str, Any]) -> bool:
        """Queue one finished TaskRun; ``False`` if it is already queued."""
        uid = str(body["metadata"].get("uid") or body["metadata"]["name"])
        if uid in self._tasks:
            return False
        task = asyncio.create_task(self._extract(dict(body)), name=f"extract:{uid}")
        self._tasks[uid] = task
        task.add_done_callback(lambda _t: self._tasks.pop(uid, None))
        return True

    async def _extract(self, body: dict[str, Any]) -> None:
        meta = body["metadata"]
        namespace, name = meta["namespace"], meta["name"]
        async with self._slots:
            outcome: dict[str, Any]
            try:
                run = parse_taskrun(body)
                check_consistent(run)
                result = await self._memory.ingest(run)
                outcome = {"state": "Done", "nodes": result.nodes, "edges": result.edges}
                log.info("extracted", taskrun=f"{namespace}/{name}", state=result.state, nodes=result.nodes)
            except TaskRunError as exc:
                outcome = {"state": "Failed", "error": f"unusable result: {exc}"}
                log.warning("extraction refused", taskrun=f"{namespace}/{name}", error=str(exc))
                _post_warning(body, f"memory extraction refused: {exc}")
            except StoreError as exc:
                outcome = {"state": "Failed", "error": str(exc)}
                log.error("extraction failed", taskrun=f"{namespace}/{name}", error=str(exc))
            except Exception as exc:  # a bug must not kill the operator, nor hide
                outcome = {"state": "Failed", "error": f"internal error: {exc!r}"}
                log.exception("extraction crashed", taskrun=f"{namespace}/{name}")
            finally:
                settle_after_work()  # what the extraction left in the caches is not walked again
        # Recorded outside the slot: the status write is an API round trip, and holding a slot through
        # it capped extraction at concurrency / round trip (~45/s with 2 slots), not at memory's speed.
        await self._record(body, outcome)

    async def _record(self, body: dict[str, Any], outcome: dict[str, Any]) -> None:
        """Write the outcome onto the newest body, unless another write already recorded one.

        The same write settles an executor-reported phase (``Succeeded`` True/False): one status
        write per finished run instead of two.

        A failure here leaves the state ``Pending``; the operator's Sweeper schedules
        the run again and the store, which already holds its run key, answers at once.
        """
        meta = body["metadata"]

        def build(current: dict[str, Any]) -> dict[str, Any] | None:
            if extraction_state(current.get("status") or {}) not in (None, "Pending"):
                return settle_patch(current) or None
            return final_patch(current, **outcome)

        try:
            await write_status(self._kube, body, build)
        except Exception as exc:  # the TaskRun may be gone; knowledge is already safe
            log.warning(
                "could not record extraction", taskrun=f"{meta['namespace']}/{meta['name']}", error=str(exc)
            )

    async def drain(self, timeout: float) -> None:
        """Let running extractions finish (shutdown); cancel what is left after ``timeout``.

        A cancelled extraction rolls back as a whole and is redone after restart.
        """
        tasks = list(self._tasks.values())
        if not tasks:
            return
        _done, pending = await asyncio.wait(tasks, timeout=timeout)
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
