"""Graph questions, answered where the graph lives: the store's indexed ``edges`` table.

Ranking widens its candidates by one hop; ``osmia memory show`` lists a node's
relations. Both are index lookups in SQLite (the primary key ``(src, dst,
relation)`` one way, ``edges_dst (dst, relation, src)`` the other), so opening
a store costs nothing per edge and memory does not grow with the graph.

An earlier design kept a networkx copy of every node id and edge in memory.
The benchmarks measured it (docs/performance.md): 180 MB and 4 s to load at
100k nodes, 1.9 GB and 46 s at 1M, and a cold one-hop walk over its Python
objects was slower than the indexed query. Whole-graph algorithms, if ever
needed, should load the subgraph they need from these same queries.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from osmia.memory.store import Store
from osmia.memory.types import Relation


class KnowledgeGraph:
    """Neighbourhoods and relations of nodes, plus the node count that ranking's caches key on."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._node_count = 0

    async def load(self) -> None:
        """Read the node count (on open, and after an import replaced everything)."""
        self._node_count = await self._store.count("nodes")

    def nodes_added(self, count: int) -> None:
        """Account for nodes an extraction created."""
        self._node_count += count

    def nodes_removed(self, count: int) -> None:
        """Account for nodes pruned or forgotten."""
        self._node_count = max(0, self._node_count - count)

    @property
    def node_count(self) -> int:
        """Nodes in the store, all tenants (kept in step by the facade; cheap to ask)."""
        return self._node_count

    async def neighbours(
        self, node_ids: Sequence[str], relations: Iterable[Relation]
    ) -> dict[str, list[str]]:
        """For each of ``node_ids``, the nodes one hop away over ``relations`` in either direction, sorted.

        Edges only ever join nodes of one tenant; callers that need a guarantee
        still read the neighbours with a tenant filter (ranking does).
        """
        out: dict[str, set[str]] = {}
        for node_id, other in await self._store.neighbour_ids(node_ids, tuple(relations)):
            out.setdefault(node_id, set()).add(other)
        return {node_id: sorted(others) for node_id, others in sorted(out.items())}

    async def relations_of(self, node_id: str) -> list[tuple[str, str, Relation]]:
        """Every edge touching a node as ``(src, dst, relation)``, sorted."""
        return sorted({(e.src, e.dst, e.relation) for e in await self._store.edges_of(node_id)})
