"""The reads of retrieval outside ranking: full-text search.

Ranking's own reads are :mod:`osmia.memory.store.query_reads`, run on the connection's thread in one
trip (:meth:`osmia.memory.store.base.StoreBase.read`)."""

from __future__ import annotations

from osmia.memory.store.base import StoreBase
from osmia.memory.store.query_reads import QueryReads
from osmia.memory.types import Node


class RetrievalQueries(StoreBase):
    """Tenant-scoped reads for ranking and search."""

    async def search_text(self, match: str, tenant: str | None, limit: int) -> list[tuple[Node, float]]:
        """FTS5 matches with their BM25 rank (lower is better), optionally one tenant's."""
        return await self.read(lambda db: QueryReads(db).search_text(match, tenant, limit))
