"""The in-memory graph view (networkx), loaded from the store and kept in step with it.

Only ids, tenants and relations live here; node text and scores stay in
SQLite. The view answers neighbourhood questions (one-hop expansion,
contradictions, supersession chains) without a database round trip.
"""

from __future__ import annotations

from collections.abc import Iterable

import networkx as nx

from osmia.memory.types import Edge, Relation


class KnowledgeGraph:
    """A multi-digraph of node ids; parallel edges are keyed by relation."""

    def __init__(self) -> None:
        self._g: nx.MultiDiGraph = nx.MultiDiGraph()

    def add_node(self, node_id: str, tenant: str) -> None:
        """Add (or keep) one node."""
        self._g.add_node(node_id, tenant=tenant)

    def add_edge(self, edge: Edge) -> None:
        """Add one relation; both ends must already be nodes."""
        self._g.add_edge(edge.src, edge.dst, key=edge.relation.value, weight=edge.weight)

    def remove_nodes(self, node_ids: Iterable[str]) -> None:
        """Drop nodes and every edge touching them (prune, forget)."""
        self._g.remove_nodes_from(list(node_ids))

    def clear(self) -> None:
        """Forget everything (before a reload)."""
        self._g.clear()

    def __contains__(self, node_id: object) -> bool:
        return bool(self._g.has_node(node_id))

    @property
    def node_count(self) -> int:
        """Nodes in the view."""
        return int(self._g.number_of_nodes())

    @property
    def edge_count(self) -> int:
        """Edges in the view."""
        return int(self._g.number_of_edges())

    def tenant_of(self, node_id: str) -> str | None:
        """The tenant recorded for a node, or None if absent."""
        data = self._g.nodes.get(node_id)
        return None if data is None else str(data["tenant"])

    def neighbours(
        self, node_id: str, relations: Iterable[Relation], tenant: str
    ) -> list[tuple[str, Relation, float]]:
        """Nodes one hop away (either direction) over ``relations``, same tenant only, sorted."""
        if not self._g.has_node(node_id):
            return []
        wanted = {r.value for r in relations}
        found: dict[tuple[str, str], float] = {}
        for _src, other, key, data in self._g.out_edges(node_id, keys=True, data=True):
            if key in wanted:
                found[(other, key)] = float(data.get("weight", 1.0))
        for other, _dst, key, data in self._g.in_edges(node_id, keys=True, data=True):
            if key in wanted:
                found[(other, key)] = float(data.get("weight", 1.0))
        return sorted(
            (other, Relation(key), w) for (other, key), w in found.items() if self.tenant_of(other) == tenant
        )

    def relations_of(self, node_id: str) -> list[tuple[str, str, Relation]]:
        """Every edge touching a node as (src, dst, relation), sorted."""
        if not self._g.has_node(node_id):
            return []
        out = [(s, d, Relation(k)) for s, d, k in self._g.out_edges(node_id, keys=True)]
        out += [(s, d, Relation(k)) for s, d, k in self._g.in_edges(node_id, keys=True)]
        return sorted(set(out))
