"""Candidates: the nodes a ticket's signals point at, before anything is scored.

Candidates come from the run's tenant only: earlier attempts at the same ticket, facts about the
same repository, general knowledge about the same engine, tenant-wide patterns about its task
type or language, FTS5 (BM25) matches of the ticket text, widened by one graph hop. Each gets the
signals that found it (name → strength); :mod:`osmia.memory.query` scores and selects them.

All of it reads through one :class:`~osmia.memory.store.query_reads.QueryReads` (one read
transaction, synchronous); the state kept between queries is the full-text term counts here, and
the reads' parsed rows and the sets every ticket of an engine shares (``NodeCache``, ``SetCache``).
"""

from __future__ import annotations

from dataclasses import dataclass

from osmia.memory.extractor import attempt_key
from osmia.memory.graph import KnowledgeGraph
from osmia.memory.ranking import RankingConfig
from osmia.memory.scoring import NAMEABLE, NAMED, SAME_TICKET, names_any, noisy_or, ticket_identifiers
from osmia.memory.store.query_reads import QueryReads, fts_phrase
from osmia.memory.text import matched_stems, query_terms, stem
from osmia.memory.types import Kind, Node, QueryRequest, Relation

__all__ = ["CandidateFinder", "Signals"]


# Signals every ticket of the tenant with the same engine, task type or language shares.
_TENANT_WIDE = frozenset({"engine", "task type", "language"})


@dataclass
class Signals:
    """A candidate and what found it: signal name → strength in [0, 1] (the strongest, if twice)."""

    node: Node
    signals: dict[str, float]


class CandidateFinder:
    """Finds one ticket's candidates; keeps the full-text term counts from one query to the next."""

    def __init__(self, graph: KnowledgeGraph) -> None:
        self._graph = graph
        self._df: dict[str, int] = {}  # full-text document frequency per term (see searchable)
        self._df_size = 0
        self._df_cap = 0  # the budget + 1 the cached counts were cut at

    def find(self, reads: QueryReads, req: QueryRequest, c: RankingConfig) -> dict[str, Signals]:
        """Every node of the tenant that any signal points at, with the signals it got.

        Three statements when the full-text term counts are cached: every candidate set at once
        (:meth:`QueryReads.candidate_sets`), then the one-hop widening's neighbour ids and the
        new neighbours' rows.
        """
        found: dict[str, Signals] = {}

        def note(node: Node, name: str, value: float) -> None:
            if node.kind is Kind.ATTEMPT and name != SAME_TICKET:
                return  # an attempt at another ticket is that ticket's business
            entry = found.setdefault(node.id, Signals(node, {}))
            entry.signals[name] = max(value, entry.signals.get(name, 0.0))

        terms = query_terms(req.text)
        searched = self.searchable(reads, terms, c)
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
        for node, share in _text_matches(terms, sets.text, c):
            note(node, "text", c.signal_text_max * share)
            if named and node.kind in NAMEABLE and names_any(node.content, named):
                note(node, NAMED, c.signal_named)
            if req.repository and node.subject.repository == req.repository:
                # Beyond the repository's strongest facts (``limit_repository``) but of the same
                # repository: a text match there is not a match from elsewhere.
                note(node, "repository", c.signal_repository)
        self.widen(reads, req, found, c)
        return found

    def searchable(self, reads: QueryReads, terms: list[str], c: RankingConfig) -> list[str]:
        """The terms worth a full-text lookup: rarest first, while their postings fit the budget.

        FTS5 scores every document that matches any OR-ed term, so a query costs
        the sum of its terms' document frequencies; the commonest words cost
        the most and discriminate the least. Frequencies come from the index
        (one statement for the terms not yet seen, each counted only up to the budget + 1) and are
        cached until the graph grows or shrinks by 10 %.
        Coverage (``matched_stems``) is still counted over all the terms.
        """
        if not terms:
            return []
        size = self._graph.node_count
        # Counted up to the budget + 1 only: a term over the budget alone ends the loop below
        # whatever its count (those sort after every term within it), so no more is needed.
        cap = c.text_max_postings + 1
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
            if postings > c.text_max_postings:
                break
            out.append(term)
        return out

    def widen(
        self, reads: QueryReads, req: QueryRequest, found: dict[str, Signals], c: RankingConfig
    ) -> None:
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
        seeds = seeds[: c.hop_seeds]
        value = {seed.node.id: noisy_or(seed.signals.values()) for seed in seeds}
        hop: dict[str, float] = {}
        for seed_id, other in reads.neighbour_ids(list(value), (Relation.RELATES_TO, Relation.CONTRADICTS)):
            if other not in found:
                hop[other] = max(hop.get(other, 0.0), c.signal_hop_share * value[seed_id])
        for node in sorted(reads.nodes_by_ids(sorted(hop), req.tenant), key=lambda n: n.id):
            if node.valid and node.kind is not Kind.ATTEMPT:
                found[node.id] = Signals(node, {"graph hop": hop[node.id]})


def _text_matches(
    terms: list[str], matches: list[tuple[Node, float]], c: RankingConfig
) -> list[tuple[Node, float]]:
    """FTS5 matches with a share in [0, 1]: BM25 relative to the best, times term coverage.

    A node that shares only one word with the ticket gets nothing: one common
    word is chance, not relevance. Coverage grows to 1 at ``TEXT_FULL_TERMS``.
    """
    rows = [(n, r) for n, r in matches if n.valid]
    if not rows:
        return []
    best = min(r for _n, r in rows)  # BM25 ranks are negative; lower is better
    out = []
    full = c.text_full_terms
    term_stems = [stem(term) for term in terms]
    for node, rank in rows:
        coverage = min(1.0, (matched_stems(term_stems, node.content) - 1) / (full - 1))
        if coverage > 0:
            relative = rank / best if best < 0 else 1.0
            out.append((node, coverage * (0.5 + 0.5 * relative)))
    return out
