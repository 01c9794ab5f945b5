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

Selection walks candidates by score (ties broken by id), earlier attempts at
the same ticket first, drops near-twins of something already kept and
tenant-wide statistics that say nothing about this engine and task type, and
stops at ``max_facts`` or the token budget. Every weight and cap is a field of
one :class:`~osmia.memory.ranking.RankingConfig` (the default preset unless a
caller passes another).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from osmia.memory.extractor import attempt_key
from osmia.memory.graph import KnowledgeGraph
from osmia.memory.lessons import lesson
from osmia.memory.prompt import HEADING, PREAMBLE, estimate_tokens, render_line
from osmia.memory.ranking import DEFAULT, RankingConfig
from osmia.memory.statistics import generic_statistic_verdict, specificity, states_strength
from osmia.memory.store import Store
from osmia.memory.store.query_reads import NodeCache, QueryReads, fts_phrase
from osmia.memory.text import TEMPLATE_WORDS, matched_terms, query_terms, words
from osmia.memory.types import Candidate, InjectedNode, Kind, Node, QueryRequest, Relation, ScoreParts
from osmia.memory.vocabulary import Vocabulary, sentence_key, vocabulary_words

SAME_TICKET = "same ticket"
CAPPED = "dropped: already"  # the verdict of a node over its kind's cap (it may still fill room left)
# What one run can report on its own: a learning, an outcome. Reported by one run only, it is an
# anecdote and ranks below what several runs confirmed (RankingConfig.single_report_factor).
ANECDOTES = frozenset({Kind.LEARNING, Kind.SUCCESS, Kind.FAILURE})


@dataclass
class _Signals:
    node: Node
    signals: dict[str, float]


def _noisy_or(values: Iterable[float]) -> float:
    miss = 1.0
    for v in values:
        miss *= 1.0 - v
    return 1.0 - miss


def recency(last_seen: float, now: float, config: RankingConfig = DEFAULT) -> float:
    """Halves every ``recency_half_life_days`` since the node was last seen."""
    age_days = max(0.0, now - last_seen) / 86400.0
    return float(0.5 ** (age_days / config.recency_half_life_days))


def _names_engine(node: Node, engine: str) -> bool:
    """A capability fact is about both engines: the one that failed and the one that then succeeded."""
    return node.kind is Kind.ENGINE_CAPABILITY and node.key.rsplit(">", 1)[-1] == engine


def relevance(
    node: Node, signals: dict[str, float], req: QueryRequest, config: RankingConfig = DEFAULT
) -> tuple[float, tuple[tuple[float, str], ...]]:
    """Combine matched signals, then discount mismatching subjects; returns value and discounts applied.

    An earlier attempt at the same ticket is relevant with certainty (1, no discount).
    """
    if SAME_TICKET in signals:
        return 1.0, ()
    value = _noisy_or(signals.values())
    discounts: list[tuple[float, str]] = []
    s = node.subject
    c = config
    for differs, factor, why in (
        (bool(s.repository) and bool(req.repository) and s.repository != req.repository,
         c.discount_other_repository, "other repository"),
        (bool(s.task_type) and bool(req.task_type) and s.task_type != req.task_type
         and node.kind is not Kind.LEARNING,
         c.discount_pattern_other_task_type if node.kind is Kind.PATTERN else c.discount_other_task_type,
         "other task type"),
        (bool(s.engine) and bool(req.engine) and s.engine != req.engine
         and not _names_engine(node, req.engine), c.discount_other_engine, "other engine"),
        (bool(s.language) and bool(req.language) and s.language != req.language and node.kind is Kind.PATTERN,
         c.discount_other_language, "other language"),
    ):  # fmt: skip
        if differs:
            value *= factor
            discounts.append((factor, why))
    return min(1.0, value), tuple(discounts)


class Ranker:
    """Collects, scores and selects candidates for one :class:`QueryRequest`."""

    def __init__(self, store: Store, graph: KnowledgeGraph, config: RankingConfig = DEFAULT) -> None:
        self._store = store
        self._graph = graph
        self.config = config
        self._df: dict[str, int] = {}  # full-text document frequency per term (see _searchable)
        self._df_size = 0
        self._nodes = NodeCache()  # parsed rows, reused while a row reads back unchanged

    def candidates(self, reads: QueryReads, req: QueryRequest) -> dict[str, _Signals]:
        """Every node of the tenant that any signal points at, with the signals it got.

        Two statements when the term counts are cached: every candidate set at once
        (:meth:`QueryReads.candidate_sets`), then the one-hop widening.
        """
        found: dict[str, _Signals] = {}

        c = self.config

        def note(node: Node, name: str, value: float) -> None:
            if node.kind is Kind.ATTEMPT and name != SAME_TICKET:
                return  # an attempt at another ticket is that ticket's business
            entry = found.setdefault(node.id, _Signals(node, {}))
            entry.signals[name] = max(value, entry.signals.get(name, 0.0))

        terms = query_terms(req.text)
        searched = self._searchable(reads, terms)
        sets = reads.candidate_sets(
            req.tenant,
            attempt_prefix=attempt_key(req.ticket_id) if req.ticket_id.strip() else "",
            attempt_limit=c.max_attempts + 1,
            repository=req.repository,
            repository_limit=c.limit_repository,
            engine=req.engine,
            engine_limit=c.limit_engine,
            task_type=req.task_type,
            language=req.language,
            pattern_limit=c.limit_pattern,
            match=" OR ".join(fts_phrase(t) for t in searched),
            text_limit=c.limit_text,
        )
        own = req.run_key
        for node in sets.attempts:
            if node.valid and node.kind is Kind.ATTEMPT and not (own and node.key.endswith(":" + own)):
                note(node, SAME_TICKET, 1.0)
        for node in sets.repository:
            note(node, "repository", c.signal_repository)
        for node in sets.engine:
            profile = node.kind is Kind.ENGINE_PROFILE
            note(node, "engine", c.signal_engine_profile if profile else c.signal_engine)
        for node in sets.patterns:
            if node.subject.task_type and node.subject.task_type == req.task_type:
                note(node, "task type", c.signal_task_type)
            if node.subject.language and node.subject.language == req.language:
                note(node, "language", c.signal_language)
        for node, share in self._text_matches(terms, sets.text):
            note(node, "text", c.signal_text_max * share)
        self._widen(reads, req, found)
        return found

    def _text_matches(self, terms: list[str], matches: list[tuple[Node, float]]) -> list[tuple[Node, float]]:
        """FTS5 matches with a share in [0, 1]: BM25 relative to the best, times term coverage.

        A node that shares only one word with the ticket gets nothing: one common
        word is chance, not relevance. Coverage grows to 1 at ``TEXT_FULL_TERMS``.
        """
        rows = [(n, r) for n, r in matches if n.valid]
        if not rows:
            return []
        best = min(r for _n, r in rows)  # BM25 ranks are negative; lower is better
        out = []
        full = self.config.text_full_terms
        for node, rank in rows:
            coverage = min(1.0, (matched_terms(terms, node.content) - 1) / (full - 1))
            if coverage > 0:
                relative = rank / best if best < 0 else 1.0
                out.append((node, coverage * (0.5 + 0.5 * relative)))
        return out

    def _searchable(self, reads: QueryReads, terms: list[str]) -> list[str]:
        """The terms worth a full-text lookup: rarest first, while their postings fit the budget.

        FTS5 scores every document that matches any OR-ed term, so a query costs
        the sum of its terms' document frequencies; the commonest words cost
        the most and discriminate the least. Frequencies come from the index
        (one statement for the terms not yet seen) and are cached until the graph grows or shrinks by 10 %.
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
            counts = reads.term_doc_counts(missing)
            for t in missing:
                self._df[t] = counts.get(t, 0)
        out, postings = [], 0
        for term in sorted(terms, key=lambda t: (self._df[t], t)):
            postings += self._df[term]
            if postings > self.config.text_max_postings:
                break
            out.append(term)
        return out

    def _widen(self, reads: QueryReads, req: QueryRequest, found: dict[str, _Signals]) -> None:
        """One hop over relates_to/contradicts from the strongest seeds, same tenant only."""
        seeds = sorted(found.values(), key=lambda e: (-_noisy_or(e.signals.values()), e.node.id))
        seeds = seeds[: self.config.hop_seeds]
        value = {seed.node.id: _noisy_or(seed.signals.values()) for seed in seeds}
        hop: dict[str, float] = {}
        nodes: dict[str, Node] = {}
        for seed_id, node in reads.neighbours(
            list(value), (Relation.RELATES_TO, Relation.CONTRADICTS), req.tenant
        ):
            if node.id not in found:
                hop[node.id] = max(hop.get(node.id, 0.0), self.config.signal_hop_share * value[seed_id])
                nodes[node.id] = node
        for node_id in sorted(hop):
            node = nodes[node_id]
            if node.valid and node.kind is not Kind.ATTEMPT:
                found[node_id] = _Signals(node, {"graph hop": hop[node_id]})

    def score(
        self,
        entry: _Signals,
        req: QueryRequest,
        now: float,
        vocabulary: Vocabulary,
        busiest: dict[str, int] | None = None,
        *,
        exact: bool = True,
    ) -> ScoreParts:
        """The three parts of one candidate's score.

        A learning's relevance is also scaled by its specificity
        (:func:`osmia.memory.statistics.specificity`): "Tests pass" ranks below every
        learning that names something rare in the tenant; and by corroboration: a learning
        only one run reported ranks below a lesson several runs reported (in any words).
        A hot path's relevance is scaled by its runs relative to ``busiest`` (repository →
        the most runs any of its candidate hot paths has): the folder most runs touch first.
        The specificity factor is at most 1, so ``exact=False`` (no specificity) gives an
        upper bound of the score, the exact score when :meth:`_specific` is false.
        """
        c = self.config
        rel, discounts = relevance(entry.node, entry.signals, req, c)
        node = entry.node
        if exact and self._specific(entry):
            spec = specificity(node.content, vocabulary)
            factor = round(c.specificity_floor + (1 - c.specificity_floor) * spec, 3)
            if factor < 1.0:
                rel *= factor
                discounts = (*discounts, (factor, f"specificity {spec:.2f}"))
        # Within the ticket's own repository (what one run there said against what several runs
        # there confirmed); another repository's anecdote already carries that discount, and both
        # together would put every text match from elsewhere below the relevance floor.
        if (
            node.kind in ANECDOTES
            and node.occurrences < 2
            and c.single_report_factor < 1.0
            and node.subject.repository == req.repository
        ):
            rel *= c.single_report_factor
            discounts = (*discounts, (c.single_report_factor, "reported by one run"))
        if node.kind is Kind.SUCCESS and c.success_factor < 1.0:
            rel *= c.success_factor
            discounts = (*discounts, (c.success_factor, "an outcome, not a lesson"))
        if c.strength_factor < 1.0 and states_strength(node, req):
            rel *= c.strength_factor
            discounts = (*discounts, (c.strength_factor, "a strength, not a warning"))
        if node.kind is Kind.HOT_PATH and busiest and c.hot_path_share_floor < 1.0:
            most = busiest.get(node.subject.repository, 0)
            if most > node.occurrences:
                share = node.occurrences / most
                factor = round(c.hot_path_share_floor + (1 - c.hot_path_share_floor) * share, 3)
                rel *= factor
                discounts = (*discounts, (factor, f"{node.occurrences} of {most} runs of the busiest folder"))
        return ScoreParts(
            rel, node.confidence, recency(node.last_seen, now, c), tuple(entry.signals.items()), discounts
        )

    def _specific(self, entry: _Signals) -> bool:
        """Whether the candidate's score is scaled by its specificity (a learning, not the same ticket)."""
        return (
            entry.node.kind is Kind.LEARNING
            and self.config.specificity_floor < 1.0
            and SAME_TICKET not in entry.signals
        )

    def _in_order(
        self,
        found: dict[str, _Signals],
        req: QueryRequest,
        now: float,
        vocabulary: Vocabulary,
        busiest: dict[str, int],
        *,
        explain: bool,
    ) -> Iterator[tuple[ScoreParts, Node]]:
        """Candidates in selection order: earlier attempts at the ticket first, newest first; then by score.

        With ``explain`` every candidate is scored exactly. Without, candidates below a threshold
        (``select``'s first checks: dropped whatever else is kept) are left out, and a learning's
        specificity (most of a query's work, docs/performance.md profile 11) is computed only once
        the learning's upper bound (its score without specificity) is the best left: each
        candidate comes out once no other can still come before it, so the order is the exact
        one, and the caller stops at ``max_facts`` without scoring the rest exactly.
        """
        c = self.config
        if explain:
            yield from sorted(
                ((self.score(e, req, now, vocabulary, busiest), e.node) for e in found.values()),
                key=lambda pair: _order(*pair),
            )
            return
        bounds = []
        for entry in found.values():
            bound = self.score(entry, req, now, vocabulary, busiest, exact=False)
            if not below_thresholds(c, bound):
                bounds.append((_order(bound, entry.node), bound, entry))
        bounds.sort(key=lambda item: item[0])
        ready: list[tuple[tuple[bool, float, str], ScoreParts, Node]] = []  # a heap, exact scores
        for key, bound, entry in bounds:
            while ready and ready[0][0] < key:  # nothing left can come before it
                _key, parts, node = heapq.heappop(ready)
                yield parts, node
            parts = self.score(entry, req, now, vocabulary, busiest) if self._specific(entry) else bound
            if not below_thresholds(c, parts):
                heapq.heappush(ready, (_order(parts, entry.node), parts, entry.node))
        while ready:
            _key, parts, node = heapq.heappop(ready)
            yield parts, node

    def _vocabulary(
        self, reads: QueryReads, req: QueryRequest, found: dict[str, _Signals], now: float
    ) -> Vocabulary:
        """Rarity of every word of the candidate learnings and the spread of each of their sentences.

        Rarity is ``1 − log(1 + df) / log(1 + N)`` with ``df`` the tenant's nodes holding the
        word and ``N`` the tenant's nodes (at least ``specificity_min_nodes``); spread is in how
        many of the tenant's repositories a learning states the same sentence. The store keeps
        both as nodes are written (:mod:`osmia.memory.vocabulary`); one trip reads them for the
        learnings that can make the section.
        """
        c = self.config
        if c.specificity_floor >= 1.0:
            return Vocabulary()
        # Only learnings that can make the section are worth counting: the strongest few by
        # relevance × confidence × recency (the others' words count as rare: an upper bound).
        learnings = sorted(
            (
                (
                    _noisy_or(e.signals.values()) * e.node.confidence * recency(e.node.last_seen, now, c),
                    e.node,
                )
                for e in found.values()
                if e.node.kind is Kind.LEARNING
            ),
            key=lambda pair: (-pair[0], pair[1].id),
        )
        contenders = [n for value, n in learnings if value >= c.min_score][: c.specificity_candidates]
        terms: set[str] = set()
        sentences: set[int] = set()
        for node in contenders:
            sentences.add(sentence_key(node.content))
            if not lesson(node.content).strong:  # a named identifier is specific whatever its words
                terms.update(vocabulary_words(node.content))
        if not contenders:
            return Vocabulary()
        size, counts, spread = reads.vocabulary(req.tenant, sorted(terms), sorted(sentences))
        return Vocabulary(counts, max(c.specificity_min_nodes, size), spread)

    async def rank(
        self, req: QueryRequest, *, now: float, max_facts: int, token_budget: int, explain: bool = True
    ) -> list[Candidate]:
        """Every candidate with its verdict, best first; the kept ones are the injection.

        The whole ranking runs on the store connection's thread in one trip
        (:meth:`~osmia.memory.store.base.StoreBase.read`), its reads synchronous. With
        ``explain=False`` (a prompt, not ``osmia memory explain``) only the kept candidates
        are returned, and no work is done for those that cannot be kept: the same kept
        nodes, in the same order (``tests/memory/test_query_paths.py``).
        """
        return await self._store.read(
            lambda db: self.rank_with(
                QueryReads(db, self._nodes),
                req,
                now=now,
                max_facts=max_facts,
                token_budget=token_budget,
                explain=explain,
            )
        )

    def rank_with(
        self,
        reads: QueryReads,
        req: QueryRequest,
        *,
        now: float,
        max_facts: int,
        token_budget: int,
        explain: bool = True,
    ) -> list[Candidate]:
        """:meth:`rank` over ``reads`` (on the connection's thread)."""
        found = self.candidates(reads, req)
        vocabulary = self._vocabulary(reads, req, found, now)
        busiest: dict[str, int] = {}
        for e in found.values():
            if e.node.kind is Kind.HOT_PATH:
                repo = e.node.subject.repository
                busiest[repo] = max(busiest.get(repo, 0), e.node.occurrences)
        scored = self._in_order(found, req, now, vocabulary, busiest, explain=explain)
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

        deferred: list[int] = []
        for parts, node in scored:
            if not explain and len(kept) >= max_facts:
                break  # the rest are "dropped: max_facts_per_query reached" (no prompt shows why)
            verdict = select(self.config, req, node, parts, kept, max_facts, budget, bag, cost)
            if verdict == "kept":
                kept.append(node)
                budget -= cost(node, parts)
            capped = verdict.startswith(CAPPED)
            if explain or verdict == "kept" or capped:  # a prompt needs the capped ones for the second pass
                if capped:
                    deferred.append(len(out))
                out.append(Candidate(node, parts, verdict == "kept", verdict))
        if not deferred or len(kept) >= max_facts:
            return out
        # The caps keep one kind from crowding the others out; once every kind had its turn, room
        # left in the section goes to the capped nodes, best first, after everything kept so far.
        late: list[Candidate] = []
        for index in deferred:
            c = out[index]
            verdict = select(
                self.config, req, c.node, c.parts, kept, max_facts, budget, bag, cost, capped=False
            )
            if verdict == "kept":
                kept.append(c.node)
                budget -= cost(c.node, c.parts)
                out[index] = Candidate(c.node, c.parts, True, "kept")
                late.append(out[index])
        if not late:
            return out
        moved = {id(c) for c in late}
        first = [c for c in out if c.kept and id(c) not in moved]
        return first + late + [c for c in out if not c.kept]


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
        (k for k in kept if node.kind is not Kind.ATTEMPT and _jaccard(bag(k), mine) >= c.near_twin), None
    )
    if twin is not None:
        return f"dropped: near-twin of {twin.id}"
    cap = c.cap(node.kind)
    group = _cap_group(node)
    if capped and sum(1 for k in kept if _cap_group(k) == group) >= cap:
        scope = "repository" if group[1] else "tenant-wide"
        return f"{CAPPED} {cap} {scope} {node.kind.value} nodes"
    if cost(node, parts) > budget:
        return "dropped: over the token budget"
    return "kept"


def _order(parts: ScoreParts, node: Node) -> tuple[bool, float, str]:
    """The selection order's key: attempts at the same ticket first (newest first), then by score, then id."""
    return (
        node.kind is not Kind.ATTEMPT,
        -(node.last_seen if node.kind is Kind.ATTEMPT else parts.score),
        node.id,
    )


def below_thresholds(c: RankingConfig, parts: ScoreParts) -> bool:
    """Relevance below ``min_relevance`` or score below ``min_score``: dropped, whatever is kept."""
    return parts.relevance < c.min_relevance or parts.score < c.min_score


def _cap_group(node: Node) -> tuple[Kind, bool]:
    """What ``RankingConfig.max_per_kind`` counts together: one kind, about a repository or tenant-wide.

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
