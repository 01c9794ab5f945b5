"""The reads of retrieval outside ranking: full-text search and a repository's lessons.

Ranking's own reads are :mod:`osmia.memory.store.query_reads`, run on the connection's thread in one
trip (:meth:`osmia.memory.store.base.StoreBase.read`)."""

from __future__ import annotations

from collections.abc import Sequence

from osmia.memory.store.base import StoreBase
from osmia.memory.store.query_reads import QueryReads
from osmia.memory.types import Node


class RetrievalQueries(StoreBase):
    """Tenant-scoped reads for ranking and search."""

    async def search_text(self, match: str, tenant: str | None, limit: int) -> list[tuple[Node, float]]:
        """FTS5 matches with their BM25 rank (lower is better), optionally one tenant's."""
        return await self.read(lambda db: QueryReads(db).search_text(match, tenant, limit))

    async def lesson_nodes(self, tenant: str, repository: str, kinds: Sequence[str]) -> list[Node]:
        """Valid learnings or test facts of one repository (the ``nodes_lessons`` partial index)."""
        marks = ", ".join("?" * len(kinds))
        return await self._nodes(
            f"tenant = ? AND repository = ? AND kind IN ({marks}) AND valid_to IS NULL "
            "AND kind IN ('learning', 'flaky_test', 'failing_test', 'test_fixed') ORDER BY id",
            (tenant, repository, *kinds),
        )
