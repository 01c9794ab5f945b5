"""Ranking: which few nodes a run should be told about.

Candidates come from the run's tenant only: earlier attempts at the same ticket,
facts about the same repository, general knowledge about the same engine,
tenant-wide patterns about its task type or language, FTS5 (BM25) matches of
the ticket text, widened by one graph hop.

Each candidate is scored ``relevance × confidence × recency``
(:mod:`osmia.memory.scoring`) and judged in score order (:mod:`osmia.memory.selection`).

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
from dataclasses import dataclass
from typing import Any

from osmia.memory.extractor import attempt_key
from osmia.memory.graph import KnowledgeGraph
from osmia.memory.lessons import lesson
from osmia.memory.prompt import HEADING, PREAMBLE, estimate_tokens, render_line
from osmia.memory.ranking import DEFAULT, RankingConfig
from osmia.memory.scoring import (
    NAMEABLE,
    NAMED,
    SAME_TICKET,
    names_any,
    noisy_or,
    recency,
    score,
    specificity_applies,
    ticket_identifiers,
)
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
from osmia.memory.store.query_reads import NodeCache, QueryReads, fts_phrase
from osmia.memory.text import matched_terms, query_terms, word_bag
from osmia.memory.types import Candidate, Kind, Node, QueryRequest, Relation, ScoreParts
from osmia.memory.vocabulary import Vocabulary, sentence_key, vocabulary_words

__all__ = ["Ranker"]


# Signals every ticket of the tenant with the same engine, task type or language shares.
_TENANT_WIDE = frozenset({"engine", "task type", "language"})


@dataclass
class _Signals:
    node: Node
    signals: dict[str, float]


class Ranker:
    """Collects, scores and selects candidates for one :class:`QueryRequest`."""

    def __init__(self, store: Store, graph: KnowledgeGraph, config: RankingConfig = DEFAULT) -> None:
        self._store = store
        self._graph = graph
        self.config = config
        self._df: dict[str, int] = {}  # full-text document frequency per term (see _searchable)
        self._df_size = 0
        self._df_cap = 0  # the budget + 1 the cached counts were cut at
        self._nodes = NodeCache()  # parsed rows, reused while a row reads back unchanged

    def candidates(self, reads: QueryReads, req: QueryRequest) -> dict[str, _Signals]:
        """Every node of the tenant that any signal points at, with the signals it got.

        Three statements when the full-text term counts are cached: every candidate set at once
        (:meth:`QueryReads.candidate_sets`), then the one-hop widening's neighbour ids and the
        new neighbours' rows.
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
        # Tenant-wide patterns, and the repository's own (its failure modes: a repository candidate).
        for node in (*sets.patterns, *(n for n in sets.repository if n.kind is Kind.PATTERN)):
            if node.subject.task_type and node.subject.task_type == req.task_type:
                note(node, "task type", c.signal_task_type)
            if node.subject.language and node.subject.language == req.language:
                note(node, "language", c.signal_language)
        named = ticket_identifiers(req.text) if c.signal_named > 0 else ()
        for node, share in self._text_matches(terms, sets.text):
            note(node, "text", c.signal_text_max * share)
            if named and node.kind in NAMEABLE and names_any(node.content, named):
                note(node, NAMED, c.signal_named)
            if req.repository and node.subject.repository == req.repository:
                # Beyond the repository's strongest facts (``limit_repository``) but of the same
                # repository: a text match there is not a match from elsewhere.
                note(node, "repository", c.signal_repository)
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
        (one statement for the terms not yet seen, each counted only up to the budget + 1) and are
        cached until the graph grows or shrinks by 10 %.
        Coverage (``matched_terms``) is still counted over all the terms.
        """
        if not terms:
            return []
        size = self._graph.node_count
        # Counted up to the budget + 1 only: a term over the budget alone ends the loop below
        # whatever its count (those sort after every term within it), so no more is needed.
        cap = self.config.text_max_postings + 1
        if abs(size - self._df_size) > 0.1 * max(size, 1) or cap != self._df_cap:
            self._df.clear()
            self._df_size = size
            self._df_cap = cap
        missing = [t for t in terms if t not in self._df]
        if missing:
            counts = reads.term_doc_counts(missing, at_most=cap)
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
        """One hop over relates_to/contradicts from the strongest seeds, same tenant only.

        The neighbours' ids come from the edge indexes; only the rows of those not found yet are
        read (at 1M nodes ~12 of the ~150 neighbours of a query's seeds).
        """
        # Only from what was found for this ticket: a fact found by its engine, task type or language
        # alone is shared by every ticket of the tenant (an incident runbook's outcome relates every
        # incident lesson), so its neighbours would be everything, not what this ticket is about.
        seeds = sorted(
            (e for e in found.values() if not _TENANT_WIDE.issuperset(e.signals)),
            key=lambda e: (-noisy_or(e.signals.values()), e.node.id),
        )
        seeds = seeds[: self.config.hop_seeds]
        value = {seed.node.id: noisy_or(seed.signals.values()) for seed in seeds}
        hop: dict[str, float] = {}
        for seed_id, other in reads.neighbour_ids(list(value), (Relation.RELATES_TO, Relation.CONTRADICTS)):
            if other not in found:
                hop[other] = max(hop.get(other, 0.0), self.config.signal_hop_share * value[seed_id])
        for node in sorted(reads.nodes_by_ids(sorted(hop), req.tenant), key=lambda n: n.id):
            if node.valid and node.kind is not Kind.ATTEMPT:
                found[node.id] = _Signals(node, {"graph hop": hop[node.id]})

    def _in_order(
        self,
        found: dict[str, _Signals],
        req: QueryRequest,
        now: float,
        vocabulary: Vocabulary,
        busiest: dict[str, int],
        *,
        explain: bool,
        postpone: Callable[[_Signals], bool] | None = None,
    ) -> Iterator[tuple[ScoreParts, Node]]:
        """Candidates in selection order: earlier attempts at the ticket first, newest first; then by score.

        With ``explain`` every candidate is scored exactly. Without, candidates below a threshold
        (``select``'s first checks: dropped whatever else is kept) are left out, and each is
        scored in steps, each step only once its bound from the step before is the best left:
        first the noisy-or of its signals × confidence × recency, then its score without
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
        # stage 0: the noisy-or of its signals × confidence × recency (no discount applied yet);
        # stage 1: its score without specificity (``exact=False``); stage 2: its exact score.
        # A candidate is scored further only when it comes first, so the order is the exact one
        # and the caller, stopping at ``max_facts``, leaves the rest unscored (~60 of ~100).
        heap: list[tuple[tuple[bool, bool, float, str], int, Any]] = []
        for entry in found.values():
            node, signals = entry.node, entry.signals
            upper = min(1.0, noisy_or(signals.values()))
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

        costs: dict[str, int] = {}

        def cost(node: Node, _parts: ScoreParts | None = None) -> int:
            """Tokens the node's line would take (its score is not on it), rendered once per query."""
            found = costs.get(node.id)
            if found is None:
                found = costs[node.id] = estimate_tokens(render_line(to_injected(node, 0.0)) + "\n")
            return found

        # Without explain, work is saved on candidates that cannot be kept in the first pass,
        # whatever their exact score; each is decided when it first comes up, before it is scored:
        # - its kind's cap is already full: it waits unscored (most of a query's learnings: ~20
        #   specificity scores a ticket at 100k nodes, none kept), scored only if room is left
        #   once every candidate had its turn;
        # - once a line did not fit the budget (``tight``), it is priced first, and dropped if it
        #   does not fit what is left (the budget only shrinks, in both passes).
        postponed: list[_Signals] = []
        per_group: dict[tuple[Kind, bool], int] = {}
        tight = False

        def postpone(entry: _Signals) -> bool:
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
        # quote of something kept then is kept still).
        for entry in postponed:
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
