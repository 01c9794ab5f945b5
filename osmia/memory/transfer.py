"""Whole-graph transfer: an export as plain data, its import into a store, networkx for GraphML/GEXF.

The work of :meth:`Memory.export <osmia.memory.service.Memory.export>`, ``import_`` and
``graph_for_export``, each on a :class:`~osmia.memory.store.Store`; the facade holds the lock,
counts database errors and keeps its node count and gauges. The format itself (validation,
cleaning of what a file holds) is :mod:`osmia.memory.portable`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from osmia.memory import provenance, unlearn
from osmia.memory.browse import to_networkx
from osmia.memory.portable import ImportRefused, PortableGraph, build_export
from osmia.memory.store import (
    CLEAN_CURSOR_KEY,
    CLEAN_VERSION_KEY,
    EPOCH_KEY,
    PRUNE_RECOMPUTE_KEY,
    THRESHOLD_KEY,
    Store,
)
from osmia.memory.types import Edge, Node

if TYPE_CHECKING:  # networkx loads only for GraphML/GEXF exports (osmia/memory/browse.py)
    import networkx as nx

__all__ = ["INTERNAL_META", "export_graph", "import_graph", "networkx_graph"]

# The store's decay clock is its own: an import starts a new epoch (nodes carry effective confidences);
# so is which cleaning its lines' stamps were computed with (an import stamps what it writes).
INTERNAL_META = frozenset(
    {EPOCH_KEY, THRESHOLD_KEY, PRUNE_RECOMPUTE_KEY, CLEAN_VERSION_KEY, CLEAN_CURSOR_KEY}
)


async def _subgraph(store: Store, tenant: str | None) -> tuple[list[Node], list[Edge]]:
    """The nodes (every tenant's, or one's) and the edges between them."""
    nodes = await store.iter_nodes(tenant)
    ids = {n.id for n in nodes}
    return nodes, [e for e in await store.all_edges() if e.src in ids and e.dst in ids]


async def export_graph(store: Store, tenant: str | None) -> dict[str, Any]:
    """The whole graph (or one tenant's) as plain data, read in one snapshot."""
    async with store.snapshot():
        nodes, edges = await _subgraph(store, tenant)
        runs = [r for r in await store.run_rows() if tenant is None or r[2] == tenant]
        meta = {k: v for k, v in (await store.meta_items()).items() if k not in INTERNAL_META}
        return build_export(
            tenant,
            meta,
            nodes,
            edges,
            runs,
            provenance=await provenance.export_rows(store, tenant),
            forgotten=[
                list(r) for r in await unlearn.forgotten_rows(store) if tenant is None or r[3] == tenant
            ],
        )


async def import_graph(store: Store, graph: PortableGraph, prune_threshold: float, *, replace: bool) -> None:
    """Load a validated export in one transaction; refuses a store that holds anything unless ``replace``."""
    if not replace and await store.count("nodes") + await store.count("runs") > 0:
        raise ImportRefused("the database is not empty; import into a new file or pass --replace")
    async with store.transaction():
        await store.wipe()
        # Imported confidences are effective as exported: they start this store's epoch 0, and
        # their prune epochs are computed against this memory's threshold.
        await store.set_meta(THRESHOLD_KEY, repr(float(prune_threshold)))
        await store.upsert_nodes(graph.nodes)
        await store.insert_edges(graph.edges)
        await store.insert_run_rows(graph.runs)
        if graph.provenance is None:  # an export from before provenance: nodes start from their state
            await provenance.baseline_all(store)
        else:
            await provenance.import_rows(store, graph.provenance)
        await unlearn.import_forgotten(store, graph.forgotten)
        await provenance.import_run_refs(store)
        for key, value in sorted(graph.meta.items()):
            await store.set_meta(key, value)


async def networkx_graph(store: Store, tenant: str | None) -> nx.MultiDiGraph:
    """The whole graph (or one tenant's part) as networkx, for GraphML/GEXF exports."""
    return to_networkx(*await _subgraph(store, tenant))
