"""The candidate reads of retrieval: by subject, by pattern, by full text, and term statistics."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from osmia.memory.store.base import StoreBase
from osmia.memory.store.rows import node_from_row, node_select
from osmia.memory.types import Node


class RetrievalQueries(StoreBase):
    """Tenant-scoped candidate sets for ranking, strongest first."""

    async def candidates_by_subject(
        self, tenant: str, column: str, value: str, limit: int, *, general_only: bool = False
    ) -> list[Node]:
        """Valid nodes whose ``repository`` or ``engine`` equals ``value``, strongest first."""
        if column not in ("repository", "engine"):
            raise ValueError(column)
        extra = " AND repository = ''" if general_only else ""
        return await self._nodes(
            f"tenant = ? AND {column} = ? AND valid_to IS NULL{extra} ORDER BY confidence DESC, id LIMIT ?",
            (tenant, value, limit),
        )

    async def candidates_by_pattern(
        self, tenant: str, task_type: str, language: str, limit: int
    ) -> list[Node]:
        """Valid cross-run patterns about a task type or language (engine-independent)."""
        # ``+engine``: the order is by effective confidence (computed), so no index gives it, and
        # without statistics SQLite would read (tenant, engine = '') from ``nodes_engine``, which
        # is every repository fact of the tenant; the partial ``nodes_patterns`` index is the few
        # patterns.
        return await self._nodes(
            "tenant = ? AND kind = 'pattern' AND valid_to IS NULL AND +engine = '' "
            "AND (task_type = ? OR language = ?) ORDER BY confidence DESC, id LIMIT ?",
            (tenant, task_type, language, limit),
        )

    async def search_text(self, match: str, tenant: str | None, limit: int) -> list[tuple[Node, float]]:
        """FTS5 matches with their BM25 rank (lower is better), optionally one tenant's."""
        where = "nodes_fts MATCH ?"
        params: list[Any] = [match]
        if tenant is not None:
            where += " AND n.tenant = ?"
            params.append(tenant)
        cols = node_select("n")
        rows = await self._rows(
            f"SELECT {cols}, bm25(nodes_fts) AS rank FROM nodes_fts JOIN nodes n ON n.seq = nodes_fts.rowid "
            f"WHERE {where} ORDER BY rank, n.id LIMIT ?",
            [*params, limit],
        )
        return [(node_from_row(r), float(r[-1])) for r in rows]

    async def term_doc_counts(self, terms: Sequence[str], tenant: str | None = None) -> dict[str, int]:
        """How many nodes the full-text index matches for each term (tokenised, stemmed, as it indexes),
        optionally only one tenant's."""
        counts: dict[str, int] = {}
        if tenant is None:
            sql, extra = "SELECT count(*) FROM nodes_fts WHERE nodes_fts MATCH ?", tuple[str, ...]()
        else:
            # CROSS JOIN keeps the full-text index first: otherwise SQLite may walk the tenant's
            # nodes and evaluate the MATCH once per row (seconds at 10k nodes).
            sql = (
                "SELECT count(*) FROM nodes_fts CROSS JOIN nodes n ON n.seq = nodes_fts.rowid "
                "WHERE nodes_fts MATCH ? AND n.tenant = ?"
            )
            extra = (tenant,)
        for term in terms:
            phrase = '"' + term.replace('"', '""') + '"'
            found = await self._scalar(sql, (phrase, *extra))
            counts[term] = int(found)
        return counts

    async def learning_spread(self, sentences: Sequence[str], tenant: str) -> dict[str, int]:
        """In how many repositories of ``tenant`` a learning states each sentence (a full-text phrase)."""
        counts: dict[str, int] = {}
        for sentence in sentences:
            phrase = '"' + sentence.replace('"', '""') + '"'
            found = await self._scalar(
                "SELECT count(DISTINCT n.repository) FROM nodes_fts CROSS JOIN nodes n "
                "ON n.seq = nodes_fts.rowid WHERE nodes_fts MATCH ? AND n.tenant = ? AND n.kind = 'learning'",
                (phrase, tenant),
            )
            counts[sentence] = int(found)
        return counts

    async def lesson_nodes(self, tenant: str, repository: str, kinds: Sequence[str]) -> list[Node]:
        """Valid learnings or test facts of one repository (the ``nodes_lessons`` partial index)."""
        marks = ", ".join("?" * len(kinds))
        return await self._nodes(
            f"tenant = ? AND repository = ? AND kind IN ({marks}) AND valid_to IS NULL "
            "AND kind IN ('learning', 'flaky_test', 'failing_test', 'test_fixed') ORDER BY id",
            (tenant, repository, *kinds),
        )
