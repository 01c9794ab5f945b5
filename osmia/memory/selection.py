"""Selection: the verdict on each candidate, in score order, given what is already kept.

A candidate is dropped below the thresholds, as a tenant-wide statistic that says nothing about
the ticket's engine and task type, past ``max_facts``, as a near-twin of a kept node or as what a
kept earlier attempt at the ticket already quotes, over its kind's cap (deferred: it may still fill
room left once every kind had its turn), or over the token budget; otherwise it is kept.
"""

from __future__ import annotations

from collections.abc import Callable

from osmia.memory.clean_stamp import holds
from osmia.memory.ranking import RankingConfig
from osmia.memory.scoring import NAMED
from osmia.memory.statistics import generic_statistic_verdict
from osmia.memory.types import InjectedNode, Kind, Node, QueryRequest, ScoreParts

OVER_BUDGET = "dropped: over the token budget"
CAPPED = "dropped: already"  # the verdict of a node over its kind's cap (it may still fill room left)


def select(
    c: RankingConfig,
    req: QueryRequest,
    node: Node,
    parts: ScoreParts,
    kept: list[Node],
    max_facts: int,
    budget: int,
    bag: Callable[[Node], frozenset[str]],
    cost: Callable[[Node, ScoreParts], int],
    *,
    capped: bool = True,
) -> str:
    """The verdict on one candidate given what is already kept: ``kept`` or ``dropped: <why>``.

    ``capped=False`` skips the per-kind caps (the second pass over capped nodes).
    """
    if below_thresholds(c, parts):  # first: ``Ranker._in_order`` leaves these out without explain
        if parts.relevance < c.min_relevance:
            return f"dropped: relevance {parts.relevance:.2f} below {c.min_relevance}"
        return f"dropped: score {parts.score:.3f} below {c.min_score}"
    if c.gate_generic_statistics:
        gated = generic_statistic_verdict(node, req)
        if gated:
            return f"dropped: {gated}"
    if len(kept) >= max_facts:  # first of the checks that need the kept list: it is the cheapest
        return f"dropped: max_facts_per_query ({max_facts}) reached"
    mine = bag(node)
    twin = next(
        (k for k in kept if node.kind is not Kind.ATTEMPT and jaccard(bag(k), mine) >= c.near_twin), None
    )
    if twin is not None:
        return f"dropped: near-twin of {twin.id}"
    # An earlier attempt at the ticket quotes its learnings (cut at 120 characters) and its failure
    # reason: a fact every word of which it already holds would be said twice.
    quoted = next(
        (
            k
            for k in kept
            if k.kind is Kind.ATTEMPT and node.kind is not Kind.ATTEMPT and containment(mine, bag(k)) == 1.0
        ),
        None,
    )
    if quoted is not None:
        return f"dropped: said by the earlier attempt {quoted.id}"
    # ... and an outcome ("codex failed a bug task in …: timeout (…)") that only those attempts'
    # runs reported says what their lines say.
    if node.kind in _OUTCOMES and _only_from_attempts(node, kept):
        return "dropped: said by the earlier attempts"
    cap = c.cap(node.kind)
    group = cap_group(node)
    if capped and sum(1 for k in kept if cap_group(k) == group) >= cap:
        scope = "repository" if group[1] else "tenant-wide"
        return f"{CAPPED} {cap} {scope} {node.kind.value} nodes"
    if cost(node, parts) > budget:
        return OVER_BUDGET
    return "kept"


_OUTCOMES = (Kind.SUCCESS, Kind.FAILURE)


def _only_from_attempts(node: Node, kept: list[Node]) -> bool:
    """Whether every run ``node`` came from is a kept earlier attempt (its sources are not capped)."""
    if not node.sources or node.occurrences > len(node.sources):
        return False
    attempts = {ref for k in kept if k.kind is Kind.ATTEMPT for ref in k.sources}
    return bool(attempts) and set(node.sources) <= attempts


def selection_order(parts: ScoreParts, node: Node) -> tuple[bool, bool, float, str]:
    """The selection order's key: attempts at the same ticket first (newest first), then facts naming
    what the ticket names, then by score, then id."""
    return (
        node.kind is not Kind.ATTEMPT,
        not any(name == NAMED for name, _value in parts.signals),
        -(node.last_seen if node.kind is Kind.ATTEMPT else parts.score),
        node.id,
    )


def below_thresholds(c: RankingConfig, parts: ScoreParts) -> bool:
    """Relevance below ``min_relevance`` or score below ``min_score``: dropped, whatever is kept."""
    return parts.relevance < c.min_relevance or parts.score < c.min_score


def cap_group(node: Node) -> tuple[Kind, bool]:
    """What ``RankingConfig.max_per_kind`` counts together: one kind, about a repository or tenant-wide.

    A repository's own patterns (its failure mode) and tenant-wide ones (success
    rates, durations) answer different questions; sharing one cap, the
    tenant-wide ones crowded the failure mode out (docs/performance.md).
    """
    return node.kind, bool(node.subject.repository)


def containment(part: frozenset[str], whole: frozenset[str]) -> float:
    """The share of ``part``'s words that ``whole`` holds (0 for an empty ``part``)."""
    if not part:
        return 0.0
    return len(part & whole) / len(part)


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    """:func:`osmia.memory.text.similarity` on word sets already computed."""
    if not a or not b:
        return 0.0
    return len(a & b) / len(a | b)


def to_injected(node: Node, score: float) -> InjectedNode:
    """The prompt/status view of a kept node."""
    return InjectedNode(
        id=node.id,
        kind=node.kind.value,
        content=node.content,
        confidence=node.confidence,
        score=score,
        sources=tuple(node.sources),
        clean=holds(node.content, node.sources, node.clean_stamp),
    )
