"""Ranking: which few nodes a run should be told about.

Candidates come from the run's tenant only: nodes about the same repository,
general knowledge about the same engine, patterns about its task type or
language, FTS5 (BM25) matches of the ticket text, widened by one graph hop.

    score = relevance × confidence × recency

* relevance ∈ [0, 1] combines the signals that matched with a noisy-or,
  ``1 − Π(1 − sᵢ)``, then applies discounts for a different repository, task
  type or engine (the weights are the constants below; docs/memory.md
  explains them);
* confidence is the node's stored (decayed) confidence;
* recency is ``0.5 ** (age_days / RECENCY_HALF_LIFE_DAYS)`` of ``last_seen``.

Selection walks candidates by score (ties broken by id), drops near-twins of
something already kept, and stops at ``max_facts`` or the token budget.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from osmia.memory.graph import KnowledgeGraph
from osmia.memory.prompt import HEADING, PREAMBLE, estimate_tokens, render_line
from osmia.memory.store import Store
from osmia.memory.text import TEMPLATE_WORDS, matched_terms, query_terms, words
from osmia.memory.types import Candidate, InjectedNode, Kind, Node, QueryRequest, Relation, ScoreParts

SIGNAL_REPOSITORY = 0.7
# Below the engine's own patterns for this task type (0.45): the profile summarises every task type.
SIGNAL_ENGINE_PROFILE = 0.35
SIGNAL_ENGINE = 0.45
SIGNAL_TASK_TYPE = 0.3
SIGNAL_LANGUAGE = 0.25
SIGNAL_TEXT_MIN = 0.0
SIGNAL_TEXT_MAX = 0.6
TEXT_FULL_TERMS = 4
# Full-text work per query: the sum of the searched terms' document counts (rarest terms first).
# 1000 keeps the FTS5 part near a millisecond at any store size; benchmarks/ found the same
# nDCG with 1000 as with 8000 at 1k-1M nodes (docs/performance.md).
TEXT_MAX_POSTINGS = 1000
SIGNAL_HOP_SHARE = 0.5

DISCOUNT_OTHER_REPOSITORY = 0.5
DISCOUNT_OTHER_TASK_TYPE = 0.8
DISCOUNT_OTHER_ENGINE = 0.85
DISCOUNT_OTHER_LANGUAGE = 0.6
# A pattern is a statistic about one task type: about another one it says little about this ticket
# (the engine's profile covers its other task types).
DISCOUNT_PATTERN_OTHER_TASK_TYPE = 0.4

# Long next to the decay half-lives (14-69 days, merge.DECAY_RATES): confidence already fades with
# age, so recency only separates facts whose confidence is alike. At 30 days a fact's age counted
# twice and sparse histories lost their repository facts (docs/performance.md, profile 8).
RECENCY_HALF_LIFE_DAYS = 180.0
MIN_RELEVANCE = 0.2
MIN_SCORE = 0.03
NEAR_TWIN = 0.75
# At most this many nodes of one kind in a section, so one kind cannot crowd out the rest.
MAX_PER_KIND = {Kind.LEARNING: 3, Kind.FLAKY_TEST: 3, Kind.FAILING_TEST: 3}
DEFAULT_MAX_PER_KIND = 2

LIMIT_REPOSITORY = 60
LIMIT_ENGINE = 60
LIMIT_PATTERN = 60
LIMIT_TEXT = 60
HOP_SEEDS = 20


@dataclass
class _Signals:
    node: Node
    signals: dict[str, float]


def _noisy_or(values: Iterable[float]) -> float:
    miss = 1.0
    for v in values:
        miss *= 1.0 - v
    return 1.0 - miss


def recency(last_seen: float, now: float) -> float:
    """Halves every ``RECENCY_HALF_LIFE_DAYS`` since the node was last seen."""
    age_days = max(0.0, now - last_seen) / 86400.0
    return float(0.5 ** (age_days / RECENCY_HALF_LIFE_DAYS))


def _names_engine(node: Node, engine: str) -> bool:
    """A capability fact is about both engines: the one that failed and the one that then succeeded."""
    return node.kind is Kind.ENGINE_CAPABILITY and node.key.rsplit(">", 1)[-1] == engine


def relevance(
    node: Node, signals: dict[str, float], req: QueryRequest
) -> tuple[float, tuple[tuple[float, str], ...]]:
    """Combine matched signals, then discount mismatching subjects; returns value and discounts applied."""
    value = _noisy_or(signals.values())
    discounts: list[tuple[float, str]] = []
    s = node.subject
    for differs, factor, why in (
        (bool(s.repository) and bool(req.repository) and s.repository != req.repository,
         DISCOUNT_OTHER_REPOSITORY, "other repository"),
        (bool(s.task_type) and bool(req.task_type) and s.task_type != req.task_type,
         DISCOUNT_PATTERN_OTHER_TASK_TYPE if node.kind is Kind.PATTERN else DISCOUNT_OTHER_TASK_TYPE,
         "other task type"),
        (bool(s.engine) and bool(req.engine) and s.engine != req.engine
         and not _names_engine(node, req.engine), DISCOUNT_OTHER_ENGINE, "other engine"),
        (bool(s.language) and bool(req.language) and s.language != req.language and node.kind is Kind.PATTERN,
         DISCOUNT_OTHER_LANGUAGE, "other language"),
    ):  # fmt: skip
        if differs:
            value *= factor
            discounts.append((factor, why))
    return min(1.0, value), tuple(discounts)


class Ranker:
    """Collects, scores and selects candidates for one :class:`QueryRequest`."""

    def __init__(self, store: Store, graph: KnowledgeGraph) -> None:
        self._store = store
        self._graph = graph
        self._df: dict[str, int] = {}  # full-text document frequency per term (see _searchable)
        self._df_size = 0

    async def candidates(self, req: QueryRequest) -> dict[str, _Signals]:
        """Every node of the tenant that any signal points at, with the signals it got."""
        found: dict[str, _Signals] = {}

        def note(node: Node, name: str, value: float) -> None:
            entry = found.setdefault(node.id, _Signals(node, {}))
            entry.signals[name] = max(value, entry.signals.get(name, 0.0))

        if req.repository:
            for node in await self._store.candidates_by_subject(
                req.tenant, "repository", req.repository, LIMIT_REPOSITORY
            ):
                note(node, "repository", SIGNAL_REPOSITORY)
        if req.engine:
            for node in await self._store.candidates_by_subject(
                req.tenant, "engine", req.engine, LIMIT_ENGINE, general_only=True
            ):
                profile = node.kind is Kind.ENGINE_PROFILE
                note(node, "engine", SIGNAL_ENGINE_PROFILE if profile else SIGNAL_ENGINE)
        if req.task_type or req.language:
            for node in await self._store.candidates_by_pattern(
                req.tenant, req.task_type, req.language, LIMIT_PATTERN
            ):
                if node.subject.task_type and node.subject.task_type == req.task_type:
                    note(node, "task type", SIGNAL_TASK_TYPE)
                if node.subject.language and node.subject.language == req.language:
                    note(node, "language", SIGNAL_LANGUAGE)
        for node, share in await self._text_matches(req):
            note(node, "text", SIGNAL_TEXT_MIN + (SIGNAL_TEXT_MAX - SIGNAL_TEXT_MIN) * share)
        await self._widen(req, found)
        return found

    async def _text_matches(self, req: QueryRequest) -> list[tuple[Node, float]]:
        """FTS5 matches with a share in [0, 1]: BM25 relative to the best, times term coverage.

        A node that shares only one word with the ticket gets nothing: one common
        word is chance, not relevance. Coverage grows to 1 at ``TEXT_FULL_TERMS``.
        """
        terms = query_terms(req.text)
        searched = await self._searchable(terms)
        if not searched:
            return []
        match = " OR ".join('"' + t.replace('"', '""') + '"' for t in searched)
        rows = [(n, r) for n, r in await self._store.search_text(match, req.tenant, LIMIT_TEXT) if n.valid]
        if not rows:
            return []
        best = min(r for _n, r in rows)  # BM25 ranks are negative; lower is better
        out = []
        for node, rank in rows:
            coverage = min(1.0, (matched_terms(terms, node.content) - 1) / (TEXT_FULL_TERMS - 1))
            if coverage > 0:
                relative = rank / best if best < 0 else 1.0
                out.append((node, coverage * (0.5 + 0.5 * relative)))
        return out

    async def _searchable(self, terms: list[str]) -> list[str]:
        """The terms worth a full-text lookup: rarest first, while their postings fit the budget.

        FTS5 scores every document that matches any OR-ed term, so a query costs
        the sum of its terms' document frequencies; the commonest words cost
        the most and discriminate the least. Frequencies come from the index
        (one count per term not yet seen) and are cached until the graph grows or shrinks by 10 %.
        Coverage (``matched_terms``) is still counted over all the terms.
        """
        if not terms:
            return []
        size = self._graph.node_count
        if abs(size - self._df_size) > 0.1 * max(size, 1):
            self._df.clear()
            self._df_size = size
        missing = [t for t in terms if t not in self._df]
        if missing:
            counts = await self._store.term_doc_counts(missing)
            for t in missing:
                self._df[t] = counts.get(t, 0)
        out, postings = [], 0
        for term in sorted(terms, key=lambda t: (self._df[t], t)):
            postings += self._df[term]
            if postings > TEXT_MAX_POSTINGS:
                break
            out.append(term)
        return out

    async def _widen(self, req: QueryRequest, found: dict[str, _Signals]) -> None:
        """One hop over relates_to/contradicts from the strongest seeds, same tenant only."""
        seeds = sorted(found.values(), key=lambda e: (-_noisy_or(e.signals.values()), e.node.id))[:HOP_SEEDS]
        value = {seed.node.id: _noisy_or(seed.signals.values()) for seed in seeds}
        hop: dict[str, float] = {}
        neighbours = await self._graph.neighbours(list(value), (Relation.RELATES_TO, Relation.CONTRADICTS))
        for seed_id, others in neighbours.items():
            for other in others:
                if other not in found:
                    hop[other] = max(hop.get(other, 0.0), SIGNAL_HOP_SHARE * value[seed_id])
        if not hop:
            return
        for node in await self._store.nodes_by_ids(hop, tenant=req.tenant):
            if node.valid:
                found[node.id] = _Signals(node, {"graph hop": hop[node.id]})

    def score(self, entry: _Signals, req: QueryRequest, now: float) -> ScoreParts:
        """The three parts of one candidate's score."""
        rel, discounts = relevance(entry.node, entry.signals, req)
        node = entry.node
        return ScoreParts(
            rel, node.confidence, recency(node.last_seen, now), tuple(entry.signals.items()), discounts
        )

    async def rank(
        self, req: QueryRequest, *, now: float, max_facts: int, token_budget: int
    ) -> list[Candidate]:
        """Every candidate with its verdict, best first; the kept ones are the injection."""
        found = await self.candidates(req)
        scored = sorted(
            ((self.score(e, req, now), e.node) for e in found.values()),
            key=lambda pair: (-pair[0].score, pair[1].id),
        )
        budget = token_budget - estimate_tokens(f"{HEADING}\n\n{PREAMBLE}\n\n")
        kept: list[Node] = []
        out: list[Candidate] = []
        bags: dict[str, frozenset[str]] = {}

        def bag(node: Node) -> frozenset[str]:
            """The words :func:`~osmia.memory.text.similarity` compares, tokenised once per query."""
            found = bags.get(node.id)
            if found is None:
                found = bags[node.id] = frozenset(words(node.content)) - TEMPLATE_WORDS
            return found

        costs: dict[str, int] = {}

        def cost(node: Node, parts: ScoreParts) -> int:
            """Tokens the node's line would take, rendered once per query."""
            found = costs.get(node.id)
            if found is None:
                found = costs[node.id] = estimate_tokens(render_line(to_injected(node, parts.score)) + "\n")
            return found

        for parts, node in scored:
            verdict = self._verdict(node, parts, kept, max_facts, budget, bag, cost)
            if verdict == "kept":
                kept.append(node)
                budget -= cost(node, parts)
            out.append(Candidate(node, parts, verdict == "kept", verdict))
        return out

    @staticmethod
    def _verdict(
        node: Node,
        parts: ScoreParts,
        kept: list[Node],
        max_facts: int,
        budget: int,
        bag: Callable[[Node], frozenset[str]],
        cost: Callable[[Node, ScoreParts], int],
    ) -> str:
        if parts.relevance < MIN_RELEVANCE:
            return f"dropped: relevance {parts.relevance:.2f} below {MIN_RELEVANCE}"
        if parts.score < MIN_SCORE:
            return f"dropped: score {parts.score:.3f} below {MIN_SCORE}"
        if len(kept) >= max_facts:  # first of the checks that need the kept list: it is the cheapest
            return f"dropped: max_facts_per_query ({max_facts}) reached"
        mine = bag(node)
        twin = next((k for k in kept if _jaccard(bag(k), mine) >= NEAR_TWIN), None)
        if twin is not None:
            return f"dropped: near-twin of {twin.id}"
        cap = MAX_PER_KIND.get(node.kind, DEFAULT_MAX_PER_KIND)
        group = _cap_group(node)
        if sum(1 for k in kept if _cap_group(k) == group) >= cap:
            scope = "repository" if group[1] else "tenant-wide"
            return f"dropped: already {cap} {scope} {node.kind.value} nodes"
        if cost(node, parts) > budget:
            return "dropped: over the token budget"
        return "kept"


def _cap_group(node: Node) -> tuple[Kind, bool]:
    """What :data:`MAX_PER_KIND` counts together: one kind, about a repository or tenant-wide.

    A repository's own patterns (its failure mode) and tenant-wide ones (success
    rates, durations) answer different questions; sharing one cap, the
    tenant-wide ones crowded the failure mode out (docs/performance.md).
    """
    return node.kind, bool(node.subject.repository)


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
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
    )
