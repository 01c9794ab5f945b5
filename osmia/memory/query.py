"""Ranking: which few nodes a run should be told about.

Candidates (:mod:`osmia.memory.candidates`: the run's tenant only, found by its ticket, repository,
engine, task type, language, text and one graph hop) are each scored ``relevance × confidence ×
recency`` (:mod:`osmia.memory.scoring`) and judged in score order (:mod:`osmia.memory.selection`).

Selection walks candidates by score (ties broken by id), earlier attempts at
the same ticket first, drops near-twins of something already kept and
tenant-wide statistics that say nothing about this engine and task type, and
stops at ``max_facts`` or the token budget. Every weight and cap is a field of
one :class:`~osmia.memory.ranking.RankingConfig` (the default preset unless a
caller passes another).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterator
from typing import Any

from osmia.memory.candidates import CandidateFinder, Signals
from osmia.memory.graph import KnowledgeGraph
from osmia.memory.lessons import lesson
from osmia.memory.prompt import HEADING, PREAMBLE, estimate_tokens, line_tokens
from osmia.memory.ranking import DEFAULT, RankingConfig
from osmia.memory.scoring import NAMED, noisy_or, recency, relevance, score, specificity_applies
from osmia.memory.selection import (
    CAPPED,
    OVER_BUDGET,
    below_thresholds,
    cap_group,
    select,
    selection_order,
    to_injected,
)
from osmia.memory.store import Store
from osmia.memory.store.query_reads import NodeCache, QueryReads, SetCache
from osmia.memory.text import word_bag
from osmia.memory.types import Candidate, Kind, Node, QueryRequest, ScoreParts
from osmia.memory.vocabulary import Vocabulary, sentence_key, vocabulary_words

__all__ = ["Ranker"]

# Lines priced and kept between queries: a query prices ~15, mostly the same facts ticket after
# ticket; each entry holds its node (~1-2.5 KB) even once the node cache let it go.
PRICES_KEPT = 2048


class Ranker:
    """Collects, scores and selects candidates for one :class:`QueryRequest`."""

    def __init__(self, store: Store, graph: KnowledgeGraph, config: RankingConfig = DEFAULT) -> None:
        self._store = store
        self.config = config
        self._finder = CandidateFinder(graph)  # keeps the full-text term counts between queries
        self._nodes = NodeCache()  # parsed rows, reused while a row reads back unchanged
        self._sets = SetCache()  # an engine's facts and tenant-wide patterns, while the store is unchanged
        # Each node's line price (tokens) with the node it was priced for: the node cache gives the
        # same object while its row reads back unchanged, a changed row a new one, and a price is a
        # function of the row (5.6 µs to work out, for ~15 lines a query).
        self._prices: dict[str, tuple[Node, int]] = {}

    def candidates(self, reads: QueryReads, req: QueryRequest) -> dict[str, Signals]:
        """Every node of the tenant that any signal points at, with the signals it got
        (:meth:`CandidateFinder.find` under this ranker's configuration)."""
        return self._finder.find(reads, req, self.config)

    def _in_order(
        self,
        found: dict[str, Signals],
        req: QueryRequest,
        now: float,
        vocabulary: Vocabulary,
        busiest: dict[str, int],
        *,
        explain: bool,
        postpone: Callable[[Signals], bool] | None = None,
    ) -> Iterator[tuple[ScoreParts, Node]]:
        """Candidates in selection order: earlier attempts at the ticket first, newest first; then by score.

        With ``explain`` every candidate is scored exactly. Without, candidates below a threshold
        (``select``'s first checks: dropped whatever else is kept) are left out, and each is
        scored in steps, each step only once its bound from the step before is the best left:
        first its relevance before the rules (signals and subject discounts) × confidence ×
        recency, then its score without
        specificity (a learning's specificity was most of a query's work, docs/performance.md
        profile 11), then its exact score. A candidate comes out once no other can still come
        before it, so the order is the exact one, and the caller stops at ``max_facts`` leaving
        the rest unscored (docs/performance.md §21). A candidate not yet scored exactly when it
        comes first is offered to ``postpone``; if that takes it, it is left out here (the caller
        scores it if it ever needs it: a kind whose cap is full, docs/performance.md §22).
        """
        c = self.config
        if explain:
            yield from sorted(
                (
                    (score(c, e.node, e.signals, req, now, vocabulary, busiest), e.node)
                    for e in found.values()
                ),
                key=lambda pair: selection_order(*pair),
            )
            return
        # A heap of (key, stage, payload), where each key is a lower bound of the candidate's
        # exact selection key (nothing gets a better key by being scored more exactly):
        # stage 0: its relevance before the rules of ``score`` (the noisy-or of its signals with
        # the other-repository, task type, engine, language and place discounts: each rule only
        # scales it down) × confidence × recency; stage 1: its score without specificity
        # (``exact=False``); stage 2: its exact score. A candidate is scored further only when it
        # comes first, so the order is the exact one and the caller, stopping at ``max_facts``,
        # leaves the rest unscored. The discounts in stage 0 leave out at once what they alone
        # put below ``min_relevance`` (a repository's patterns of another task type and
        # language: ~14 of a query's ~100 candidates at 100k nodes), and order the rest closer
        # to their exact score: 54 scorings a query were loose ones before (docs/performance.md §28).
        heap: list[tuple[tuple[bool, bool, float, str], int, Any]] = []
        for entry in found.values():
            node, signals = entry.node, entry.signals
            upper, _discounts = relevance(node, signals, req, c)
            if upper < c.min_relevance:
                continue  # its relevance can only be lower
            if node.kind is Kind.ATTEMPT:
                order = -node.last_seen
            else:
                order = -(upper * node.confidence * recency(node.last_seen, now, c))
                if -order < c.min_score:
                    continue  # and so can its score
            heap.append(((node.kind is not Kind.ATTEMPT, NAMED not in signals, order, node.id), 0, entry))
        heapq.heapify(heap)
        while heap:
            _key, stage, payload = heapq.heappop(heap)
            if stage == 2:
                yield payload
                continue
            entry = payload
            if postpone is not None and postpone(entry):
                continue
            parts = score(c, entry.node, entry.signals, req, now, vocabulary, busiest, exact=stage == 1)
            exact = stage == 1 or not specificity_applies(c, entry.node, entry.signals)
            if below_thresholds(c, parts):
                continue
            item = (parts, entry.node) if exact else entry
            heapq.heappush(heap, (selection_order(parts, entry.node), 2 if exact else 1, item))

    def _vocabulary(
        self, reads: QueryReads, req: QueryRequest, found: dict[str, Signals], now: float
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
                    noisy_or(e.signals.values()) * e.node.confidence * recency(e.node.last_seen, now, c),
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

        The whole ranking runs in one read transaction, its reads synchronous, on the calling
        thread's read-only connection (:meth:`~osmia.memory.store.base.StoreBase.read`: no thread
        hop; the store connection's worker thread only when that one cannot serve). With
        ``explain=False`` (a prompt, not ``osmia memory explain``) only the kept candidates
        are returned, and no work is done for those that cannot be kept: the same kept
        nodes, in the same order (``tests/memory/test_query_paths.py``).
        """
        return await self._store.read(
            lambda db: self.rank_with(
                QueryReads(db, self._nodes, self._sets),
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
        """:meth:`rank` over ``reads`` (synchronous: on the thread that owns their connection)."""
        found = self.candidates(reads, req)
        vocabulary = self._vocabulary(reads, req, found, now)
        busiest: dict[str, int] = {}
        for e in found.values():
            if e.node.kind is Kind.HOT_PATH:
                repo = e.node.subject.repository
                busiest[repo] = max(busiest.get(repo, 0), e.node.occurrences)
        c = self.config
        budget = token_budget - estimate_tokens(f"{HEADING}\n\n{PREAMBLE}\n\n")
        kept: list[Node] = []
        out: list[Candidate] = []

        def bag(node: Node) -> frozenset[str]:
            """The words :func:`~osmia.memory.text.similarity` compares (cached per text)."""
            return word_bag(node.content)

        prices = self._prices

        def cost(node: Node, _parts: ScoreParts | None = None) -> int:
            """Tokens the node's line would take (its score is not on it), priced once per node read."""
            found = prices.get(node.id)
            if found is not None and found[0] is node:
                return found[1]
            if len(prices) >= PRICES_KEPT:
                prices.clear()
            price = line_tokens(to_injected(node, 0.0))
            prices[node.id] = (node, price)
            return price

        # Without explain, work is saved on candidates that cannot be kept in the first pass,
        # whatever their exact score; each is decided when it first comes up, before it is scored:
        # - its kind's cap is already full: it waits unscored (most of a query's learnings: ~20
        #   specificity scores a ticket at 100k nodes, none kept), scored only if room is left
        #   once every candidate had its turn;
        # - once a line did not fit the budget (``tight``), it is priced first, and dropped if it
        #   does not fit what is left (the budget only shrinks, in both passes).
        postponed: list[Signals] = []
        per_group: dict[tuple[Kind, bool], int] = {}
        tight = False

        def postpone(entry: Signals) -> bool:
            node = entry.node
            if tight and cost(node) > budget:
                return True
            if per_group.get(cap_group(node), 0) < c.cap(node.kind):
                return False
            if node.kind not in c.no_fill_kinds:  # those never fill room: nothing to wait for
                postponed.append(entry)
            return True

        scored = self._in_order(
            found, req, now, vocabulary, busiest, explain=explain, postpone=None if explain else postpone
        )
        deferred: list[int] = []
        for parts, node in scored:
            if not explain and len(kept) >= max_facts:
                break  # the rest are "dropped: max_facts_per_query reached" (no prompt shows why)
            verdict = select(c, req, node, parts, kept, max_facts, budget, bag, cost)
            if verdict == "kept":
                kept.append(node)
                budget -= cost(node)
                per_group[cap_group(node)] = per_group.get(cap_group(node), 0) + 1
            tight = tight or verdict == OVER_BUDGET
            capped = verdict.startswith(CAPPED)
            if explain or verdict == "kept" or capped:  # a prompt needs the capped ones for the second pass
                if capped and node.kind not in c.no_fill_kinds:
                    deferred.append(len(out))
                out.append(Candidate(node, parts, verdict == "kept", verdict))
        if len(kept) >= max_facts or not (deferred or postponed):
            return out
        # The caps keep one kind from crowding the others out; once every kind had its turn, room
        # left in the section goes to the capped nodes, best first, after everything kept so far.
        # The postponed ones are scored now and take their place in that order (their verdicts in
        # the first pass would have been "capped" or a drop the second pass repeats: a twin or a
        # quote of something kept then is kept still). One whose line does not fit what is left of
        # the budget now is not scored: the budget only shrinks, so it could only be dropped (the
        # slowest queries at 100k nodes scored 15-35 learnings here, all then over the budget:
        # kept earlier attempts had filled it; docs/performance.md §35).
        for entry in postponed:
            if cost(entry.node) > budget:
                continue
            parts = score(c, entry.node, entry.signals, req, now, vocabulary, busiest)
            if not below_thresholds(c, parts):
                deferred.append(len(out))
                out.append(Candidate(entry.node, parts, False, f"{CAPPED} (postponed)"))
        deferred.sort(key=lambda index: selection_order(out[index].parts, out[index].node))
        late: list[Candidate] = []
        for index in deferred:
            candidate = out[index]
            verdict = select(
                c, req, candidate.node, candidate.parts, kept, max_facts, budget, bag, cost, capped=False
            )
            if verdict == "kept":
                kept.append(candidate.node)
                budget -= cost(candidate.node)
                out[index] = Candidate(candidate.node, candidate.parts, True, "kept")
                late.append(out[index])
        if not late:
            return out
        moved = {id(c) for c in late}
        first = [c for c in out if c.kept and id(c) not in moved]
        return first + late + [x for x in out if not x.kept]
