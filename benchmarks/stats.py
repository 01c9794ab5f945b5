"""Timing helpers shared by the benchmark steps.

No engine import at module level: ``benchmarks.ab`` runs these against older
revisions of ``osmia`` too.
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import time
from collections.abc import Callable, Iterable
from types import TracebackType
from typing import Any

# Not timed: the first tickets and extractions after start-up warm the caches.
QUERY_WARMUP = 20
EXTRACTION_WARMUP = 10


def pct(values: list[float], q: float) -> float:
    """The q-quantile (nearest rank) of ``values``."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered) + 0.5) - 1))]


def summary_ms(values: list[float]) -> dict[str, float]:
    """p50/p95/p99/max of durations given in seconds, in milliseconds."""
    ms = [v * 1000.0 for v in values]
    return {
        "n": len(ms),
        "p50": pct(ms, 0.5),
        "p95": pct(ms, 0.95),
        "p99": pct(ms, 0.99),
        "max": max(ms or [0]),
    }


def _engine_function(name: str, module: str = "osmia.process") -> Callable[..., Any] | None:
    """``<module>.<name>`` of the engine under test, or None (an older engine lacks it)."""
    try:
        found_module = importlib.import_module(module)
    except ImportError:
        return None
    found: Callable[..., Any] | None = getattr(found_module, name, None)
    return found


async def stored_lines(memory: Any) -> list[str]:
    """The stored lines the engine's operator warms on at start-up (``Memory.lasting_texts``; none
    for an engine whose operator does not)."""
    lasting = getattr(memory, "lasting_texts", None)
    try:
        size = getattr(importlib.import_module("osmia.memory.warmup"), "STORED_LINES", 0)
    except ImportError:
        size = 0
    return list(await lasting(size)) if lasting is not None and size else []


async def renders_cleaned(memory: Any) -> bool:
    """Whether the engine's prompt cleans the stored lines again where it shows them, so its
    operator warms the cleaning on them (``Memory.renders_as_stored``; always, for an engine
    without it)."""
    as_stored = getattr(memory, "renders_as_stored", None)
    return True if as_stored is None else not await as_stored()


async def maintained_until_stamped(memory: Any) -> None:
    """Run ``memory.maintain()`` until the store has no line left to stamp (osmia/memory/clean_stamp.py):
    what the operator's maintenance loop has done some passes after an upgrade or a burst of
    writes. Nothing for an engine without stamps."""
    settled = getattr(memory._store, "stamps_current", None)
    while settled is not None and not settled():
        await memory.maintain()


class OperatorHeap:
    """The operator's handling of its heap, for the engine under test (an older one: what it did).

    On entry, what its startup handler does once memory is open (``warm_up``: the text automata's
    first-use costs, osmia/memory/warmup.py, on the stored ``lines`` too) and once start-up is
    done (``settle_heap``: ``gc.freeze``);
    then what its maintenance loop does from then on: hold the cyclic collector's full passes
    (``full_collections_held``) and run one between units of work every ``MAINTENANCE_SECONDS``
    (osmia/process.py), and what its handlers do once each query or extraction is done
    (``settle_after_work``). :meth:`between` is both for work run back to back, like the
    benchmark's queries: call it before each one; never inside a timed operation. Extractions get
    the full pass with each maintenance pass and :meth:`after_work` after each one
    (:func:`timed_extractions`).
    """

    def __init__(self, seconds: float, lines: list[str] | None = None, render: bool = True) -> None:
        self.seconds = seconds
        self.lines = lines or []  # the stored lines its start-up warms on (:func:`stored_lines`)
        self.render = render  # ... and whether it warms their rendering too (:func:`renders_cleaned`)
        self.warm_seconds = 0.0  # what that warm-up took
        self.pauses: list[float] = []  # durations of the full passes run (seconds)
        self._collect = _engine_function("collect_between_work")
        self._settle = _engine_function("settle_after_work")
        self._stack = contextlib.ExitStack()
        self._last = time.perf_counter()

    def __enter__(self) -> OperatorHeap:
        warm = _engine_function("warm_up", "osmia.memory.warmup")
        if warm is not None:
            parameters = inspect.signature(warm).parameters
            if "render" in parameters:
                self.warm_seconds = warm(self.lines, render=self.render)
            else:
                self.warm_seconds = warm(self.lines) if parameters else warm()
        settle = _engine_function("settle_heap")
        if settle is not None:
            settle()
        held = _engine_function("full_collections_held")
        if held is not None:
            self._stack.enter_context(held())
        self._last = time.perf_counter()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._stack.close()

    def between(self) -> None:
        """Between two units of work run back to back: what the last one left is settled, as the
        operator does once each is done (:meth:`after_work`), then the maintenance timer's full
        pass, when ``seconds`` of wall time went by since the last."""
        self.after_work()
        if time.perf_counter() - self._last >= self.seconds:
            self.after_maintenance()

    def after_work(self) -> None:
        """What the operator does once a query is answered or a run extracted (``settle_after_work``:
        freeze what the work left in the caches; nothing for an engine whose operator does not)."""
        if self._settle is not None:
            self._settle()

    def after_maintenance(self) -> None:
        """The full pass the maintenance loop runs after each maintenance pass (none for an engine
        whose operator does not)."""
        if self._collect is not None:
            self.pauses.append(self._collect())
        self._last = time.perf_counter()


async def timed_extractions(
    memory: Any,
    runs: Iterable[tuple[dict[str, Any], float]],
    clock: Any,
    maintenance_seconds: float,
    heap: OperatorHeap | None = None,
    cpu: list[float] | None = None,
) -> tuple[list[float], list[float]]:
    """Ingest ``runs`` as the operator would, returning extraction and maintenance durations (s).

    The clock follows each run's finish time; ``memory.maintain()`` (when this
    engine has it) runs between extractions whenever ``maintenance_seconds`` of
    that simulated clock have passed, and is timed apart from them, followed, as in
    the operator's maintenance loop, by the cyclic collector's full pass (``heap``:
    when the engine's operator runs it there; timed with the maintenance, and also
    kept in ``heap.pauses``). ``cpu``, if given, gets each extraction's CPU time (s, every
    thread's: the SQL runs on the store's worker), which a busy machine inflates far less than
    the wall time.
    """
    from osmia.taskrun import parse_taskrun

    maintain = getattr(memory, "maintain", None)
    extractions: list[float] = []
    upkeep: list[float] = []
    maintained_at = clock.now
    for doc, at in runs:
        clock.now = at
        if maintain is not None and at - maintained_at >= maintenance_seconds:
            started = time.perf_counter()
            await maintain()
            if heap is not None:
                heap.after_maintenance()
            upkeep.append(time.perf_counter() - started)
            maintained_at = at
        run = parse_taskrun(doc)
        started, cpu_started = time.perf_counter(), time.process_time()
        result = await memory.ingest(run, finished_at=at)
        extractions.append(time.perf_counter() - started)
        if cpu is not None:
            cpu.append(time.process_time() - cpu_started)
        if heap is not None:
            heap.after_work()
        if getattr(result, "state", "done") != "done":  # an old engine's result may not say
            raise RuntimeError(f"run {run.run_key} was not extracted ({result.state}): no time to measure")
    return extractions, upkeep
