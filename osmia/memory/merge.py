"""Merge observations into the graph: reinforce repeats, contradict conflicts, supersede replacements.

Graphiti-style temporal edges: a replaced node is closed (``valid_to``), never
silently deleted; a contradicted node keeps its history but loses to the
newer one on confidence. Runs inside the caller's transaction.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field, replace

from osmia.memory.provenance import CLOSED, CONTRADICTED, OBSERVED, RELATED, Event
from osmia.memory.resolve import resolve
from osmia.memory.store import Store
from osmia.memory.types import Edge, Kind, Node, Observation, Relation

REINFORCE_GAIN = 0.25  # a repeat closes this share of the gap to certainty
CONTRADICTED_SHARE = 0.8  # a contradicted node ends at most at this share of the newer one
MAX_SOURCES = 20

# Confidence lost per decay cycle, by kind (see docs/memory.md for half-lives).
DECAY_RATES: dict[Kind, float] = {
    Kind.SUCCESS: 0.03,
    Kind.FAILURE: 0.03,
    Kind.FAILING_TEST: 0.05,
    Kind.FLAKY_TEST: 0.02,
    Kind.TEST_FIXED: 0.05,
    Kind.HOT_PATH: 0.01,
    Kind.ENGINE_CAPABILITY: 0.03,
    Kind.LEARNING: 0.01,
    Kind.PATTERN: 0.01,
    Kind.ENGINE_PROFILE: 0.01,
    Kind.ATTEMPT: 0.03,
}


def node_id(tenant: str, key: str) -> str:
    """Deterministic id: the same fact in the same tenant always has the same id."""
    return "n" + hashlib.sha256(f"{tenant}\x00{key}".encode()).hexdigest()[:15]


@dataclass
class MergeResult:
    """Nodes written (created or changed), edges added, and what the run did to each fact (provenance)."""

    nodes: dict[str, Node] = field(default_factory=dict)
    created: set[str] = field(default_factory=set)
    edges: list[Edge] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)


# Provenance: what a run did to a fact, recorded so that forgetting the run can replay the fact
# without it (osmia/memory/unlearn.py). Patterns and profiles are not recorded: they are recomputed
# from the runs table instead.


def _observed(result: MergeResult, obs: Observation, node: Node) -> None:
    if not obs.recomputed:
        result.events.append(Event(node.id, OBSERVED, obs.confidence, None))


# A supersession or contradiction is recorded even when the older fact is already closed: without
# a forgotten run it may have been open, and the replay applies the event only if it is.


def _closed(result: MergeResult, obs: Observation, node: Node, old: Node | None) -> None:
    if not obs.recomputed and old is not None and old.id != node.id:
        result.events.append(Event(old.id, CLOSED, None, node.id))


def _contradicted(result: MergeResult, obs: Observation, node: Node, old: Node | None) -> None:
    if not obs.recomputed and old is not None and old.id != node.id:
        result.events.append(Event(old.id, CONTRADICTED, CONTRADICTED_SHARE * node.confidence, node.id))


def _related(result: MergeResult, obs: Observation, node: Node, other: Node) -> None:
    if not obs.recomputed:
        result.events.append(Event(other.id, RELATED, None, node.id))


def _newer_than_run(obs: Observation, node: Node, old: Node | None, now: float) -> bool:
    """Whether ``old``, which ``obs`` would close, was stated after the run of ``obs`` finished.

    Recomputed statements (patterns, profiles) describe every run so far and always replace.
    """
    return not obs.recomputed and old is not None and old.valid and old.id != node.id and old.last_seen > now


def _add_source(sources: list[str], ref: str) -> list[str]:
    kept = [s for s in sources if s != ref] + [ref]
    return kept[-MAX_SOURCES:]


def _apply_one(existing: Node | None, obs: Observation, tenant: str, ref: str, now: float) -> Node:
    if existing is None:
        return Node(
            id=node_id(tenant, obs.key),
            tenant=tenant,
            kind=obs.kind,
            key=obs.key,
            content=obs.content,
            subject=obs.subject,
            confidence=obs.confidence,
            decay_rate=DECAY_RATES[obs.kind],
            valid_from=now,
            last_seen=now,
            sources=[ref],
        )
    if obs.recomputed:
        confidence = obs.confidence
    else:
        reinforced = existing.confidence + (1 - existing.confidence) * REINFORCE_GAIN
        confidence = max(reinforced, obs.confidence)
    reopened = existing.valid_to is not None
    return replace(
        existing,
        content=obs.content,
        subject=obs.subject,
        confidence=round(min(1.0, confidence), 6),
        last_seen=max(now, existing.last_seen),  # a run ingested late does not make a fact older
        valid_from=now if reopened else existing.valid_from,
        valid_to=None,
        occurrences=existing.occurrences + 1,
        sources=_add_source(existing.sources, ref),
    )


async def merge(
    store: Store, tenant: str, observations: list[Observation], ref: str, now: float
) -> MergeResult:
    """Write ``observations`` of one run into ``tenant``'s graph; returns what changed."""
    # Which node each observation is about: a paraphrase reinforces the lesson it restates,
    # a test named in another form the test's node, a newer statement closes the older one.
    observations = await resolve(store, tenant, observations)
    keys = {o.key for o in observations}
    for o in observations:
        keys.update(o.replaces, o.conflicts, o.relates)
    by_key = await store.nodes_by_keys(tenant, keys)
    stored = {node.id: node for node in by_key.values()}  # their text and subject, as read
    result = MergeResult()
    for obs in observations:
        before = by_key.get(obs.key)
        node = _apply_one(before, obs, tenant, ref, now)
        if before is None:
            result.created.add(node.id)
        by_key[obs.key] = result.nodes[node.id] = node
        _observed(result, obs, node)
    for obs in observations:
        node = by_key[obs.key]
        for key in obs.replaces:
            old = by_key.get(key)
            if _newer_than_run(obs, node, old, now):
                # A backfill in another order (``kubectl get`` lists by name): the stored statement
                # was made after this run, so this run's is the one it replaces.
                assert old is not None
                result.events.append(Event(node.id, CLOSED, None, old.id))
                if node.valid:
                    node.valid_to = now
                    result.edges.append(Edge(old.id, node.id, Relation.SUPERSEDES, 1.0, now))
                continue
            _closed(result, obs, node, old)
            if old is not None and old.valid and old.id != node.id:
                old.valid_to = now
                result.nodes[old.id] = old
                result.edges.append(Edge(node.id, old.id, Relation.SUPERSEDES, 1.0, now))
        for key in obs.conflicts:
            old = by_key.get(key)
            _contradicted(result, obs, node, old)
            if old is not None and old.valid and old.id != node.id:
                old.confidence = round(min(old.confidence, CONTRADICTED_SHARE * node.confidence), 6)
                result.nodes[old.id] = old
                result.edges.append(Edge(node.id, old.id, Relation.CONTRADICTS, 1.0, now))
        for key in obs.relates:
            other = by_key.get(key)
            if other is not None and other.id != node.id:
                result.edges.append(Edge(node.id, other.id, Relation.RELATES_TO, 1.0, now))
                _related(result, obs, node, other)
    await store.upsert_nodes(sorted(result.nodes.values(), key=lambda n: n.id), stored=stored)
    return result
