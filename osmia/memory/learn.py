"""One extraction's transaction: record the run, merge what it taught, link and trace it.

The write half of :meth:`Memory.ingest <osmia.memory.service.Memory.ingest>`, run on the store
connection's thread in one trip (``store/one_trip.py``); the facade sanitises the run and
observes it before, and keeps its node count and metrics after.
"""

from __future__ import annotations

from osmia.memory import provenance, unlearn
from osmia.memory.merge import MergeResult, merge
from osmia.memory.patterns import recompute
from osmia.memory.store import Store
from osmia.memory.types import IngestResult, Observation, RunSummary
from osmia.taskrun import TaskRun

__all__ = ["learn_run"]


async def learn_run(
    store: Store,
    run: TaskRun,
    summary: RunSummary,
    observations: list[Observation],
    now: float,
    min_pattern_samples: int,
) -> IngestResult | tuple[MergeResult, int]:
    """What the run's transaction merged and the edges it added, or why it did nothing
    (already extracted, by this run key or its twin; forgotten with ``forget --run``)."""
    async with store.transaction():
        # Checked inside the write transaction: another process (the CLI) may ingest the same run.
        recorded = await store.run_counts(run.run_key)
        if recorded is not None:
            return IngestResult(run.run_key, "duplicate", *recorded, reason="already extracted")
        recorded = await store.twin_counts(run.run_key, run.ref, bool(run.uid))
        if recorded is not None:
            why = "already extracted " + ("without its uid" if run.uid else "with its uid")
            return IngestResult(run.run_key, "duplicate", *recorded, reason=why)
        if await unlearn.is_forgotten(store, run.run_key, run.ref, bool(run.uid)):
            return IngestResult(run.run_key, "skipped", reason="forgotten (osmia memory forget --run)")
        # The run is recorded first: its statistics (kept by triggers) feed the patterns.
        # Facts and recomputed patterns are then merged together, in one read and one write.
        await store.insert_run(summary, 0, 0)
        patterns = await recompute(store, summary, min_pattern_samples)
        merged = await merge(store, run.tenant, [*observations, *patterns], run.ref, now)
        new_edges = await store.insert_edges(merged.edges)
        await provenance.record(store, run.run_key, run.ref, merged.events, now)
        await store.set_run_counts(run.run_key, len(merged.nodes), new_edges)
    return merged, new_edges
