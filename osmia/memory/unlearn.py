"""Unlearning a run: remove everything one TaskRun taught, as if it had never been extracted.

The answer to a poisoned or mistaken run (docs/operations.md). In one transaction:

* every fact the run observed is replayed from its remaining provenance events
  (osmia/memory/provenance.py): a fact no other run supports is deleted with its edges;
  a fact others support gets back the confidence, occurrences, validity and
  ``last_seen`` it would have had without the run, and loses the run from its sources;
* a fact the run superseded is reopened and a fact it contradicted gets its confidence
  back, unless another run did the same; edges only the run asserted are removed;
* the run's row leaves the runs table (its triggers update the run statistics) and the
  patterns and engine profile it fed are recomputed from what remains: restated,
  moved back to another band, or deleted when too few runs are left to back them;
* the run key is recorded in ``forgotten_runs``, so a replayed watch event does not
  extract it again.

The work is the run's own provenance rows and the rows of the facts it touched (both
indexed), never a scan of the graph.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any

from osmia.memory.fading import effective
from osmia.memory.merge import CONTRADICTED_SHARE, MAX_SOURCES, REINFORCE_GAIN, _apply_one
from osmia.memory.patterns import recompute
from osmia.memory.provenance import (
    CLOSED,
    CONTRADICTED,
    RELATED,
    Replayed,
    events_of_nodes,
    events_of_run,
    fill_sources,
    pruned_before,
    replay,
)
from osmia.memory.store import NODE_SELECT, RUN_COLUMNS, Store, node_from_row, run_id
from osmia.memory.types import Edge, Node, Observation, Relation, RunSummary

_RELATION_OF = {CLOSED: Relation.SUPERSEDES, CONTRADICTED: Relation.CONTRADICTS, RELATED: Relation.RELATES_TO}


@dataclass
class ForgetResult:
    """What ``forget --run`` did: the run keys forgotten and the nodes deleted or rewritten."""

    runs: list[str] = field(default_factory=list)
    deleted: list[tuple[str, str]] = field(default_factory=list)  # (id, type)
    updated: int = 0
    edges_removed: int = 0

    def as_dict(self) -> dict[str, Any]:
        """The JSON shape ``osmia memory forget --run --json`` prints."""
        return {
            "runs": self.runs,
            "deleted_nodes": len(self.deleted),
            "updated_nodes": self.updated,
            "removed_edges": self.edges_removed,
        }


def run_ref(name: str) -> str:
    """``NAMESPACE/NAME`` (or a ``tr/`` reference as prompts cite it) → the stored reference."""
    return name if name.startswith("tr/") else f"tr/{name}"


async def is_forgotten(store: Store, run_key: str, ref: str = "", has_uid: bool = True) -> bool:
    """Whether an admin unlearned this run (a replayed event must not teach it again), under this
    key or, for a document without its uid (``ref`` given), under any uid of that name; a run with
    its uid is also forgotten when its uid-less key was."""
    rows = await store.rows("SELECT 1 FROM forgotten_runs WHERE run_key = ?", (run_key,))
    if rows or not ref:
        return bool(rows)
    if has_uid:
        rows = await store.rows(
            "SELECT 1 FROM forgotten_runs WHERE run_key = ?", (run_key.rsplit("/", 1)[0],)
        )
    else:
        rows = await store.rows("SELECT 1 FROM forgotten_runs WHERE ref = ? LIMIT 1", (ref,))
    return bool(rows)


async def find_runs(store: Store, name: str) -> list[RunSummary]:
    """The extracted runs called ``NAMESPACE/NAME`` (every uid), or with that exact run key."""
    rows = await store.rows(
        f"SELECT {RUN_COLUMNS} FROM runs WHERE ref = ? "
        f"UNION SELECT {RUN_COLUMNS} FROM runs WHERE run_key = ? ORDER BY 1",
        (run_ref(name), name),
    )
    return [
        RunSummary(
            run_key=r[0], ref=r[1], tenant=r[2], repository=r[3], language=r[4], engine=r[5],
            task_type=r[6], success=bool(r[7]), failure_class=r[8], duration_seconds=r[9],
            finished_at=r[10], ticket_id=r[13], failed_engines=tuple(json.loads(r[14])),
        )
        for r in rows
    ]  # fmt: skip


async def forget_runs(
    store: Store, name: str, tenant: str | None, *, now: float, min_samples: int
) -> ForgetResult:
    """Unlearn every extracted run called ``name`` (only ``tenant``'s when given) in one transaction."""
    result = ForgetResult()
    async with store.transaction():
        for run in await find_runs(store, name):
            if tenant is None or run.tenant == tenant:
                await forget_run(store, run, now=now, min_samples=min_samples, result=result)
    return result


async def forget_run(
    store: Store, run: RunSummary, *, now: float, min_samples: int, result: ForgetResult
) -> None:
    """Unlearn one extracted run (inside the caller's transaction); adds to ``result``."""
    epoch, threshold = await store.decay_clock()
    patterns_before = await recompute(store, run, min_samples)
    events = await events_of_run(store, run.run_key)
    await store.execute("DELETE FROM node_runs WHERE run = ?", (run_id(run.run_key),))
    touched = sorted({seq for seq, _e, _o in events})
    # Facts that contradict one another are replayed together: a contradiction caps a fact at a
    # share of the other's confidence, which the forgotten run may have changed.
    group = sorted(set(touched) | set(await _contradiction_partners(store, touched)))
    nodes = await _nodes_by_seq(store, group)
    histories = await events_of_nodes(store, sorted(nodes))
    states, replayed_edges = replay(
        histories,
        decay_rates={seq: n.decay_rate for seq, n in nodes.items()},
        threshold=threshold,
        gain=REINFORCE_GAIN,
        share=CONTRADICTED_SHARE,
        max_sources=MAX_SOURCES,
    )
    await fill_sources(store, states, MAX_SOURCES)  # the events were read without their references
    gone: list[int] = []
    rebuilt_nodes: list[Node] = []
    restarted: list[tuple[str, float]] = []
    for seq, node in sorted(nodes.items()):
        state = states[seq]
        if state is None or pruned_before(state, node.decay_rate, threshold, epoch):
            gone.append(seq)
            result.deleted.append((node.id, node.type.value))
            continue
        rebuilt = replace(
            node,
            confidence=effective(state.confidence, node.decay_rate, epoch - state.epoch),
            valid_from=node.valid_from if state.valid_from is None else state.valid_from,
            valid_to=state.valid_to,
            last_seen=state.last_seen,
            occurrences=state.occurrences,
            sources=_replayed_sources(node, state, run.ref),
        )
        if rebuilt != node:
            rebuilt_nodes.append(rebuilt)
        if state.restarted_at is not None:
            restarted.append((node.id, state.restarted_at))
    # Written together: a few statements per forget, not a few per fact it touched.
    for i in range(0, len(gone), 500):
        chunk = gone[i : i + 500]
        await store.execute(f"DELETE FROM nodes WHERE seq IN ({', '.join('?' * len(chunk))})", chunk)
    if rebuilt_nodes:
        await store.upsert_nodes(rebuilt_nodes)
        result.updated += len(rebuilt_nodes)
    # Without the run such a fact was pruned on the way, and its edges of then with it.
    if restarted:
        await store.executemany(
            "DELETE FROM edges WHERE (src = ? OR dst = ?) AND created_at < ?",
            [(node_id, node_id, at) for node_id, at in restarted],
        )
    # Candidates for removal: the run's own edge events, and every remaining edge event of the
    # replayed facts (one made while the run kept a fact alive may not apply without it).
    remaining = [(seq, ev.event, ev.other) for seq, evs in histories.items() for ev in evs]
    result.edges_removed += await _fix_edges(store, events + remaining, replayed_edges, set(nodes))
    await store.execute("DELETE FROM runs WHERE run_key = ?", (run.run_key,))
    await store.execute("DELETE FROM run_refs WHERE run = ?", (run_id(run.run_key),))
    await store.execute(
        "INSERT OR REPLACE INTO forgotten_runs (run_key, ref, tenant, forgotten_at) VALUES (?, ?, ?, ?)",
        (run.run_key, run.ref, run.tenant, now),
    )
    patterns_after = await recompute(store, run, min_samples)
    await _restate_patterns(store, run, patterns_before, patterns_after, now, result)
    result.runs.append(run.run_key)


def _replayed_sources(node: Node, state: Replayed, forgotten: str) -> list[str]:
    if not state.baseline:
        return state.sources
    # Observed before provenance: the runs named then stay, ahead of those replayed since.
    older = [s for s in node.sources if s != forgotten and s not in state.sources]
    return (older + state.sources)[-MAX_SOURCES:]


async def _contradiction_partners(store: Store, seqs: list[int]) -> list[int]:
    """Nodes joined to ``seqs`` by a ``contradicts`` edge, either way (primary key and ``edges_dst``)."""
    out: list[int] = []
    for i in range(0, len(seqs), 400):
        chunk = seqs[i : i + 400]
        marks = ", ".join("?" * len(chunk))
        rows = await store.rows(
            f"SELECT o.seq FROM nodes n JOIN edges e ON e.src = n.id AND e.relation = 'contradicts' "
            f"JOIN nodes o ON o.id = e.dst WHERE n.seq IN ({marks}) "
            f"UNION SELECT o.seq FROM nodes n JOIN edges e ON e.dst = n.id AND e.relation = 'contradicts' "
            f"JOIN nodes o ON o.id = e.src WHERE n.seq IN ({marks})",
            [*chunk, *chunk],
        )
        out.extend(int(r[0]) for r in rows)
    return out


async def _nodes_by_seq(store: Store, seqs: list[int]) -> dict[int, Node]:
    out: dict[int, Node] = {}
    for i in range(0, len(seqs), 500):
        chunk = seqs[i : i + 500]
        rows = await store.rows(
            f"SELECT seq, {NODE_SELECT} FROM nodes WHERE seq IN ({', '.join('?' * len(chunk))})", chunk
        )
        out.update((int(r[0]), node_from_row(r[1:])) for r in rows)
    return out


async def _fix_edges(
    store: Store,
    events: list[tuple[int, int, int | None]],
    replayed: set[tuple[int, int, int, float]],
    group: set[int],
) -> int:
    """Edges as the replayed merges made them: drop the edges of ``events`` that no replayed event
    makes (what only the forgotten run made, or made possible), add what it prevented (a
    supersession of a fact the run had closed first). Returns the edges removed."""
    wanted = {(other, seq, event) for other, seq, event, _at in replayed}
    removed = 0
    for seq, event, other in sorted(set(events), key=lambda e: (e[0], e[1], -1 if e[2] is None else e[2])):
        relation = _RELATION_OF.get(event)
        if relation is None or other is None or (other, seq, event) in wanted:
            continue
        removed += await store.execute(
            "DELETE FROM edges WHERE src = (SELECT id FROM nodes WHERE seq = ?) "
            "AND dst = (SELECT id FROM nodes WHERE seq = ?) AND relation = ?",
            (other, seq, relation.value),
        )
    # One row per edge (the earliest time a replayed event made it): a fact observed by many runs
    # has its relation replayed once per run, and re-inserting each was most of a forget's work.
    first: dict[tuple[int, int, int], float] = {}
    for other, seq, event, at in replayed:
        if seq in group and at < first.get((other, seq, event), float("inf")):
            first[(other, seq, event)] = at
    if first:
        await store.executemany(
            "INSERT OR IGNORE INTO edges (src, dst, relation, weight, created_at) "
            "SELECT s.id, d.id, ?, 1.0, ? FROM nodes s, nodes d WHERE s.seq = ? AND d.seq = ?",
            [(_RELATION_OF[ev].value, at, other, seq) for (other, seq, ev), at in sorted(first.items())],
        )
    return removed


async def _restate_patterns(
    store: Store,
    run: RunSummary,
    before: list[Observation],
    after: list[Observation],
    now: float,
    result: ForgetResult,
) -> None:
    """Patterns and profile the run fed, recomputed from the runs that remain."""
    after_keys = {o.key for o in after}
    stale: set[str] = set()
    for obs in before:
        if obs.key in after_keys:
            continue
        # Restated in another band (the new statement closes this one) or no longer backed.
        if not any(obs.key in o.replaces for o in after):
            stale.update((obs.key, *obs.replaces))
    keys = {o.key for o in before} | after_keys | stale
    for o in after:
        keys.update(o.replaces)
    by_key = await store.nodes_by_keys(run.tenant, keys)
    for key in sorted(stale):
        node = by_key.pop(key, None)
        if node is not None:
            await store.execute("DELETE FROM nodes WHERE id = ?", (node.id,))
            result.deleted.append((node.id, node.type.value))
    written: dict[str, Node] = {}
    edges: list[Edge] = []
    for obs in after:
        existing = by_key.get(obs.key)
        node = _apply_one(existing, obs, run.tenant, "", now)
        node.sources = [] if existing is None else [s for s in existing.sources if s != run.ref]
        node.occurrences = 1 if existing is None else existing.occurrences
        by_key[obs.key] = written[node.id] = node
        for key in obs.replaces:
            old = by_key.get(key)
            if old is not None and old.valid and old.id != node.id:
                old.valid_to = now
                written[old.id] = old
                edges.append(Edge(node.id, old.id, Relation.SUPERSEDES, 1.0, now))
    for obs in before:  # statements the run fed that stay as they are: drop it from their sources
        node = by_key.get(obs.key)
        if node is not None and node.id not in written and run.ref in node.sources:
            written[node.id] = replace(node, sources=[s for s in node.sources if s != run.ref])
    if written:
        await store.upsert_nodes(sorted(written.values(), key=lambda n: n.id))
        result.updated += len(written)
    if edges:
        await store.insert_edges(edges)


async def forgotten_rows(store: Store) -> list[tuple[Any, ...]]:
    """Forgotten runs as ``(run_key, ref, forgotten_at, tenant)`` for export."""
    rows = await store.rows("SELECT run_key, ref, forgotten_at, tenant FROM forgotten_runs ORDER BY run_key")
    return [tuple(r) for r in rows]


async def import_forgotten(store: Store, rows: list[tuple[Any, ...]]) -> None:
    """Load exported forgotten runs (inside the import's transaction)."""
    await store.executemany(
        "INSERT OR REPLACE INTO forgotten_runs (run_key, ref, forgotten_at, tenant) VALUES (?, ?, ?, ?)",
        [(str(r[0]), str(r[1]), float(r[2]), str(r[3])) for r in rows],
    )
