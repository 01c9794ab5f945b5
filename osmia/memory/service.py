"""``Memory``: the one facade the controller and the CLI use.

open → ingest / context / explain / decay → close, plus the admin reads
(status, search, show, export, import, forget). It owns the store, the graph
queries and the metrics; it serialises access to its single connection so that
concurrent callers never interleave transactions.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Mapping
from contextlib import suppress
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TypeVar

from osmia import metrics
from osmia.memory import decay as decay_mod
from osmia.memory import transfer, unlearn
from osmia.memory.browse import GraphBrowser
from osmia.memory.extractor import observe, summarize
from osmia.memory.graph import KnowledgeGraph
from osmia.memory.learn import learn_run
from osmia.memory.portable import EXPORT_FORMAT, EXPORT_VERSION, ImportRefused, PortableGraph, read_export
from osmia.memory.prompt import render_section
from osmia.memory.query import Ranker
from osmia.memory.ranking import RankingConfig
from osmia.memory.ranking import preset as ranking_preset
from osmia.memory.run_view import observed_at, request_for
from osmia.memory.sanitize import sanitized
from osmia.memory.selection import to_injected
from osmia.memory.settings import MemorySettings
from osmia.memory.store import Store, StoreError, explain_sqlite_error
from osmia.memory.store.one_trip import in_one_trip
from osmia.memory.text import fts_query
from osmia.memory.types import (
    Candidate,
    DecayResult,
    Edge,
    IngestResult,
    MemoryContext,
    Node,
    NodeType,
    QueryRequest,
)
from osmia.taskrun import TaskRun

if TYPE_CHECKING:  # networkx loads only for GraphML/GEXF exports (osmia/memory/browse.py)
    import networkx as nx

__all__ = [
    "EXPORT_FORMAT",
    "EXPORT_VERSION",
    "ImportRefused",
    "Memory",
    "MemorySettings",
    "observed_at",
    "request_for",
]

T = TypeVar("T")


class Memory:
    """The knowledge graph of one database file. Create with :meth:`open`."""

    def __init__(
        self,
        store: Store,
        settings: MemorySettings,
        clock: Callable[[], float],
        *,
        update_gauges: bool,
        ranking: RankingConfig | None = None,
    ) -> None:
        self._store = store
        self._graph = KnowledgeGraph(store)
        # An explicit configuration (benchmarks, tests) wins over the preset the settings name.
        self._ranker = Ranker(store, self._graph, ranking or ranking_preset(settings.ranking_preset))
        self._settings = settings
        self._clock = clock
        self._lock = asyncio.Lock()
        self._update_gauges = update_gauges
        self._wrote = False  # only a memory that wrote tidies up on close: read verbs stay read-only

    @classmethod
    async def open(
        cls,
        settings: MemorySettings,
        *,
        clock: Callable[[], float] = time.time,
        create: bool = True,
        catch_up: bool = True,
        update_gauges: bool = True,
        deferred_checkpoints: bool = False,
        read_only: bool = False,
        ranking: RankingConfig | None = None,
    ) -> Memory:
        """Open the database, count its nodes and apply missed decay cycles once.

        Queries rank with ``ranking`` when given, else with the preset ``settings.ranking_preset``
        names (an unknown name is a ``ValueError`` naming the presets, before the file is opened).

        A long-running owner (the operator) passes ``deferred_checkpoints`` and calls
        :meth:`maintain` between extractions, so no extraction pays for a checkpoint.
        ``read_only`` (the CLI's read verbs) never creates, migrates, decays or writes the
        file, and works on read-only media; the write methods then fail.
        """
        if ranking is None:
            ranking = ranking_preset(settings.ranking_preset)
        store = await Store.open(
            settings.store_path,
            busy_timeout_ms=settings.busy_timeout_ms,
            create=create and not read_only,
            deferred_checkpoints=deferred_checkpoints,
            read_only=read_only,
        )
        catch_up = catch_up and not read_only
        memory = cls(store, settings, clock, update_gauges=update_gauges, ranking=ranking)
        try:
            await memory._graph.load()
            if catch_up:
                await memory.decay(paced=False)
            await memory._refresh_gauges()
            if memory._wrote or store.migrated:
                # A migration or a catch-up decay rewrote much of the file into the WAL; fold it
                # back now, so that reads come from the mapped file rather than WAL frames.
                await memory.maintain()
        except BaseException:
            await store.close()
            raise
        return memory

    @property
    def settings(self) -> MemorySettings:
        """The settings this memory was opened with."""
        return self._settings

    @property
    def ranking(self) -> RankingConfig:
        """The ranking configuration queries use (``explain`` prints it)."""
        return self._ranker.config

    @property
    def graph(self) -> KnowledgeGraph:
        """Graph questions about this memory's nodes (neighbourhoods, relations)."""
        return self._graph

    async def lasting_texts(self, limit: int) -> list[str]:
        """The text of the ``limit`` nodes decay keeps longest, every tenant's: what queries recall
        most, which a long-running process warms its text machinery on at start-up
        (:func:`osmia.memory.warmup.warm_up`)."""
        return await self._guarded("query", lambda: self._store.lasting_texts(limit))

    async def renders_as_stored(self) -> bool:
        """Whether every stored line that can carry this version's stamp does, so the prompt shows
        them without cleaning them again (:mod:`osmia.memory.clean_stamp`): a start-up then need
        not warm the cleaning on them (:func:`osmia.memory.warmup.warm_up`)."""
        return await self._guarded("query", self._store.stamps_recorded_current)

    async def close(self) -> None:
        """Wait for the write in progress, tidy up after writes (:meth:`maintain`), then close."""
        async with self._lock:
            if self._wrote:
                with suppress(StoreError, sqlite3.Error, ValueError):  # a failing database still closes
                    done = False
                    while not done:  # the lines written without a stamp, a short transaction a batch
                        async with self._store.transaction():
                            done = await self._store.stamp_written()
                    await self._store.maintain()
            await self._store.close()

    async def maintain(self) -> None:
        """Housekeeping outside extractions: merge full-text segments, checkpoint the WAL, and stamp
        a batch of the lines written since without a stamp, or of a store's lines another cleaning
        stamped (:meth:`~osmia.memory.store.nodes.NodeQueries.restamp`)."""
        await self._guarded("maintain", self._maintain)

    async def _maintain(self) -> None:
        await self._store.maintain()
        if not self._store.stamps_current():
            async with self._store.transaction():
                await self._store.restamp()

    async def _refresh_gauges(self) -> None:
        if not self._update_gauges:
            return
        counts = await self._store.counts_by_type()
        for node_type in NodeType:
            metrics.NODES.labels(type=node_type.value).set(counts.get(node_type.value, 0))

    async def _guarded(self, operation: str, work: Callable[[], Awaitable[T]]) -> T:
        """Run ``work`` under the lock; count database errors and explain them."""
        async with self._lock:
            try:
                return await work()
            except StoreError:
                metrics.DB_ERRORS.labels(operation=operation).inc()
                raise
            except sqlite3.Error as exc:
                metrics.DB_ERRORS.labels(operation=operation).inc()
                raise explain_sqlite_error(self._settings.store_path, exc) from exc

    # --- ingest -----------------------------------------------------------------

    async def ingest(self, run: TaskRun, *, finished_at: float | None = None) -> IngestResult:
        """Extract a finished run into the graph, exactly once per run key, in one transaction."""
        if not run.terminal:
            metrics.EXTRACTIONS.labels(outcome="skipped").inc()
            return IngestResult(run.run_key, "skipped", reason="the run has not finished")
        started = time.perf_counter()
        try:
            clean = sanitized(run)  # the one redaction step: every stored field, the runs table too
            result = await self._guarded("ingest", lambda: self._ingest(clean, finished_at))
        except Exception:
            metrics.EXTRACTIONS.labels(outcome="failed").inc()
            raise
        metrics.EXTRACTIONS.labels(outcome=result.state).inc()
        if result.state == "done":
            metrics.EXTRACTION_SECONDS.observe(time.perf_counter() - started)
        return result

    async def _ingest(self, run: TaskRun, finished_at: float | None) -> IngestResult:
        now = finished_at if finished_at is not None else observed_at(run, self._clock())
        summary = summarize(run, now)
        refused: Counter[str] = Counter()
        observations = observe(run, refused)
        # The whole transaction runs on the connection's thread in one trip (store/one_trip.py):
        # its dozen statements cost one hand-over between threads instead of one each.
        samples = self._settings.min_pattern_samples
        outcome = await in_one_trip(
            self._store, lambda store: learn_run(store, run, summary, observations, now, samples)
        )
        if isinstance(outcome, IngestResult):
            return outcome
        merged, new_edges = outcome
        for check, count in refused.items():  # a replayed run (a duplicate) is not counted again
            metrics.REFUSED_LEARNINGS.labels(check=check).inc(count)
        written = merged.nodes
        self._graph.nodes_added(len(merged.created))
        for node in written.values():
            metrics.CONFIDENCE.observe(node.confidence)
        if self._update_gauges:
            for node_id in merged.created:
                metrics.NODES.labels(type=written[node_id].type.value).inc()
        self._wrote = True
        return IngestResult(run.run_key, "done", nodes=len(written), edges=new_edges)

    # --- query ------------------------------------------------------------------

    async def context(self, run: TaskRun) -> MemoryContext:
        """The nodes and the ``## Prior Knowledge`` section for a run about to start."""
        started = time.perf_counter()
        candidates = await self._guarded("query", lambda: self._rank(request_for(run), explain=False))
        injected = tuple(to_injected(c.node, c.score) for c in candidates if c.kept)
        metrics.QUERIES.labels(engine=run.engine).inc()
        metrics.QUERY_SECONDS.observe(time.perf_counter() - started)
        metrics.INJECTED.observe(len(injected))
        return MemoryContext(injected=injected, section=render_section(injected))

    async def explain(self, run: TaskRun) -> list[Candidate]:
        """Every candidate considered for a run, with score parts and verdicts."""
        return await self._guarded("query", lambda: self._rank(request_for(run)))

    async def _rank(self, req: QueryRequest, *, explain: bool = True) -> list[Candidate]:
        """Rank for ``req`` now; without ``explain`` only the kept candidates (a prompt needs no more)."""
        return await self._ranker.rank(
            req,
            now=self._clock(),
            max_facts=self._settings.max_facts_per_query,
            token_budget=self._settings.token_budget,
            explain=explain,
        )

    # --- decay ------------------------------------------------------------------

    async def decay(self, cycles: int | None = None, *, paced: bool = True) -> DecayResult:
        """Apply the cycles due now (``None``) or exactly ``cycles`` more, then prune.

        The lock is taken per step (the epoch, then each batch of deletes), so extractions and
        queries of this process interleave with a large prune instead of waiting for all of it;
        ``paced`` also leaves the write lock free between batches for other processes' writers
        (:func:`decay_mod.prune_pause`). The catch-up at :meth:`open` is not paced: nothing is
        served before it ends, and a week's catch-up at 1M nodes took twice as long paced.
        """
        started = time.perf_counter()
        result = await self._guarded("decay", lambda: self._advance(cycles))
        pruned: list[tuple[str, str]] = []
        while True:
            held = time.perf_counter()
            try:
                done, more = await self._guarded("decay", lambda: decay_mod.prune_batch(self._store))
            except StoreError as exc:
                # The cycles are committed: a retry of ``decay --cycles N`` would apply them twice.
                raise StoreError(
                    f"{exc} — note: the {result.cycles} decay cycle(s) were applied and {len(pruned)} "
                    "node(s) pruned before this; the nodes still due are pruned by the next decay "
                    "(`osmia memory decay` without --cycles, or the operator): do not repeat --cycles"
                ) from exc
            held = time.perf_counter() - held
            pruned.extend(done)
            self._graph.nodes_removed(len(done))
            if not more:
                break
            if paced:
                await asyncio.sleep(decay_mod.prune_pause(held))  # other processes' writers get in
        self._wrote = self._wrote or result.cycles > 0 or bool(pruned)
        result = replace(
            result,
            pruned=len(pruned),
            remaining=self._graph.node_count,
            duration_seconds=time.perf_counter() - started,
        )
        metrics.DECAY_CYCLES.inc(result.cycles)
        metrics.PRUNED.inc(result.pruned)
        metrics.DECAY_SECONDS.observe(result.duration_seconds)
        if self._update_gauges:
            # Adjusted by what was pruned: recounting every type would scan the whole graph per pass.
            for _node_id, node_type in pruned:
                metrics.NODES.labels(type=node_type).dec()
        return result

    async def _advance(self, cycles: int | None) -> DecayResult:
        threshold = self._settings.prune_threshold
        if cycles is None:
            result, boundary = await decay_mod.decay_due(
                self._store, self._clock(), self._settings.decay_interval_seconds, threshold
            )
            metrics.LAST_DECAY.set(boundary)
            return result
        return await decay_mod.decay_now(self._store, cycles, threshold)

    async def next_decay_at(self) -> float:
        """When the next cycle is due (Unix time); a store whose clock has not started (no decay yet)
        is not written: its first cycle is due an interval from now."""

        async def work() -> float:
            last = await decay_mod.clock_or_now(self._store, self._clock())
            return last + self._settings.decay_interval_seconds

        return await self._guarded("status", work)

    # --- admin ------------------------------------------------------------------

    async def status(self, tenant: str | None = None) -> dict[str, Any]:
        """Counts, schema and decay clock: what ``osmia memory status`` prints."""

        async def work() -> dict[str, Any]:
            store = self._store
            # First: on a damaged file the counts below may fail or be wrong.
            integrity = await store.integrity_check()
            if integrity != "ok":
                raise StoreError(
                    f"memory database {self._settings.store_path}: failed SQLite's quick_check "
                    f"({integrity.splitlines()[0]}) — the file is corrupt; move it aside and restore "
                    "a backup with `osmia memory import`"
                )
            meta = await store.meta_items()
            return {
                "database": str(self._settings.store_path),
                "tenant": tenant,
                "nodes": await store.count("nodes", tenant),
                "nodes_by_type": await store.counts_by_type(tenant),
                "edges": await store.count("edges", tenant),
                "runs": await store.count("runs", tenant),
                "last_decay_at": float(meta[decay_mod.LAST_DECAY_KEY])
                if decay_mod.LAST_DECAY_KEY in meta
                else None,
                "decay_interval_hours": self._settings.decay_interval_hours,
                "integrity": integrity,
            }

        return await self._guarded("status", work)

    async def search(self, text: str, tenant: str | None = None, limit: int = 20) -> list[tuple[Node, float]]:
        """Full-text search over node content (BM25), optionally within one tenant."""
        match = fts_query(text)
        if not match:
            return []
        return await self._guarded("query", lambda: self._store.search_text(match, tenant, limit))

    async def show(self, node_id: str, tenant: str | None = None) -> tuple[Node, list[Edge]] | None:
        """One node with its edges (``None`` if absent or outside ``tenant``)."""

        async def work() -> tuple[Node, list[Edge]] | None:
            node = await self._store.get_node(node_id)
            if node is None or (tenant is not None and node.tenant != tenant):
                return None
            return node, await self._store.edges_of(node_id)

        return await self._guarded("status", work)

    def browser(self) -> GraphBrowser:
        """Read-only views of the graph for people (the dashboard, graph exports)."""
        return GraphBrowser(self._store)

    async def graph_for_export(self, tenant: str | None = None) -> nx.MultiDiGraph:
        """The whole graph (or one tenant's part) as networkx, for GraphML/GEXF exports."""
        return await self._guarded("export", lambda: transfer.networkx_graph(self._store, tenant))

    async def explain_like(self, run: Mapping[str, Any]) -> list[Candidate]:
        """Every candidate the ranking considers now for a run with ``run``'s subject.

        ``run`` is a learned run as :meth:`GraphBrowser.run` lists it (tenant, repository,
        engine, task type, language). The ticket's text is not stored, so full-text matches
        are not part of this; ``explain`` on the TaskRun itself gives the exact breakdown.
        """
        req = QueryRequest(
            tenant=str(run["tenant"]),
            repository=str(run["repository"]),
            engine=str(run["engine"]),
            task_type=str(run["task_type"]),
            language=str(run["language"]),
            text="",
        )
        return await self._rank(req)

    async def forget(self, node_id: str, tenant: str | None = None) -> bool:
        """Delete one node and its edges for good (the admin's explicit choice)."""

        async def work() -> bool:
            node = await self._store.get_node(node_id)
            if node is None or (tenant is not None and node.tenant != tenant):
                return False
            async with self._store.transaction():
                await self._store.delete_node(node_id)
            self._graph.nodes_removed(1)
            self._wrote = True
            return True

        done = await self._guarded("forget", work)
        await self._guarded("status", self._refresh_gauges)
        return done

    async def forget_run(self, name: str, tenant: str | None = None) -> unlearn.ForgetResult:
        """Unlearn every extracted run called ``NAMESPACE/NAME`` (or with that run key), in one transaction.

        Facts only it supports go, facts others support lose its contribution, the patterns and
        profile it fed are recomputed, and a replayed event for it is skipped from then on
        (osmia/memory/unlearn.py). With ``tenant``, only that tenant's runs. Empty ``runs``: none found.
        """

        async def work() -> unlearn.ForgetResult:
            # One trip to the connection's thread for the whole transaction, as an extraction
            # (store/one_trip.py): its ~30 statements no longer each wait for a thread hand-over.
            now, min_samples = self._clock(), self._settings.min_pattern_samples
            result = await in_one_trip(
                self._store,
                lambda store: unlearn.forget_runs(store, name, tenant, now=now, min_samples=min_samples),
            )
            self._graph.nodes_removed(len(result.deleted))
            self._wrote = self._wrote or bool(result.runs)
            return result

        result = await self._guarded("forget", work)
        if self._update_gauges:
            for _node_id, node_type in result.deleted:
                metrics.NODES.labels(type=node_type).dec()
        return result

    async def export(self, tenant: str | None = None) -> dict[str, Any]:
        """The whole graph (or one tenant's) as plain data; :meth:`import_` reverses it."""
        return await self._guarded("export", lambda: transfer.export_graph(self._store, tenant))

    async def import_(
        self, data: dict[str, Any] | PortableGraph, *, replace: bool = False
    ) -> tuple[int, int, int]:
        """Load an export into this database; refuses a non-empty one unless ``replace``.

        The export is validated and cleaned first (:func:`osmia.memory.portable.read_export`);
        a refused file writes nothing.
        """
        graph = data if isinstance(data, PortableGraph) else read_export(data, self._clock())

        async def work() -> tuple[int, int, int]:
            await transfer.import_graph(self._store, graph, self._settings.prune_threshold, replace=replace)
            await self._graph.load()
            self._wrote = True
            return len(graph.nodes), len(graph.edges), len(graph.runs)

        counts = await self._guarded("import", work)
        await self._guarded("status", self._refresh_gauges)
        return counts
