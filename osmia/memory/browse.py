"""Read-only views of the graph for people: what the dashboard and the graph exports show.

The ranking path (:mod:`osmia.memory.query`) answers "what should this run be told"; this module
answers "what does memory believe": counts, filtered listings, a node's neighbourhood, what one run
taught. Every method only reads, and every listing is bounded, so a page costs the same on a graph
of a thousand nodes as on one of a million. networkx is used where it is the right tool, off the
operator's hot path: connected parts and degrees of a neighbourhood, and the GraphML/GEXF exports.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from osmia.memory import provenance
from osmia.memory.fading import effective
from osmia.memory.merge import CONTRADICTED_SHARE, MAX_SOURCES, REINFORCE_GAIN
from osmia.memory.store import Store, run_id
from osmia.memory.text import fts_query
from osmia.memory.types import Edge, Kind, Node, Relation

if TYPE_CHECKING:  # networkx (~14 MB) loads only for exports and the dashboard, not to serve
    import networkx as nx

Validity = Literal["valid", "superseded", "all"]
MAX_LISTING = 200
MAX_NEIGHBOURHOOD = 150
REPOSITORY_SEEDS = 40


@dataclass(frozen=True)
class NodeFilter:
    """What a listing may be narrowed to; empty strings mean "any"."""

    text: str = ""
    tenant: str = ""
    kind: str = ""
    repository: str = ""
    engine: str = ""
    validity: Validity = "valid"
    limit: int = 50


@dataclass
class Neighbourhood:
    """A bounded piece of one tenant's graph around some centre nodes."""

    centre: list[str]
    nodes: dict[str, Node] = field(default_factory=dict)
    edges: list[Edge] = field(default_factory=list)
    hops: int = 1
    truncated: bool = False

    def graph(self) -> nx.MultiDiGraph:
        """The piece as a networkx graph (node and edge attributes as in the export)."""
        return to_networkx(self.nodes.values(), self.edges)

    def components(self) -> list[list[str]]:
        """Weakly connected parts, largest first (ids sorted inside each part)."""
        import networkx as nx

        parts = nx.weakly_connected_components(self.graph())
        return sorted((sorted(p) for p in parts), key=lambda p: (-len(p), p[0]))

    def degrees(self) -> dict[str, int]:
        """Each node's number of edges within the piece."""
        return {str(n): int(d) for n, d in self.graph().degree()}


class GraphBrowser:
    """Bounded read-only questions about the graph, for the dashboard and exports."""

    def __init__(self, store: Store) -> None:
        self._store = store

    async def overview(self, newest: int = 12) -> dict[str, Any]:
        """Counts by tenant, type and kind, edges by relation, run outcomes, newest and best-connected facts.

        The node and edge counts scan the graph (O(n)): the dashboard takes this as a snapshot in the
        background and serves it with its age, rather than on every page view. Run outcomes come
        from the running aggregates the runs table keeps (schema v2), the newest facts from the
        rowid order: both O(1) in the graph's size.
        """
        store = self._store
        nodes = await store._rows(
            "SELECT tenant, type, kind, count(*), sum(valid_to IS NULL) FROM nodes "
            "GROUP BY tenant, type, kind ORDER BY tenant, type, kind"
        )
        edges = await store._rows(
            "SELECT n.tenant, e.relation, count(*) FROM edges e JOIN nodes n ON n.id = e.src "
            "GROUP BY n.tenant, e.relation ORDER BY 1, 2"
        )
        runs = await store._rows("SELECT tenant, sum(runs), sum(successes) FROM run_stats GROUP BY tenant")
        failures = await store._rows(
            "SELECT tenant, failure_class, sum(runs) FROM run_failures GROUP BY tenant, failure_class "
            "ORDER BY tenant, failure_class"
        )
        newest_nodes = await store._nodes("1 ORDER BY seq DESC LIMIT ?", (newest,))
        connected = await store._rows(
            "SELECT id, count(*) AS degree FROM (SELECT src AS id FROM edges UNION ALL "
            "SELECT dst FROM edges) GROUP BY id ORDER BY degree DESC, id LIMIT ?",
            (newest,),
        )
        by_id = {n.id: n for n in await store.nodes_by_ids([r[0] for r in connected])}
        outcomes = [{"tenant": r[0], "success": True, "failure_class": "", "count": int(r[2])} for r in runs]
        outcomes += [
            {"tenant": r[0], "success": False, "failure_class": r[1], "count": int(r[2])} for r in failures
        ]
        return {
            "nodes": [
                {"tenant": r[0], "type": r[1], "kind": r[2], "count": r[3], "valid": r[4]} for r in nodes
            ],
            "edges": [{"tenant": r[0], "relation": r[1], "count": r[2]} for r in edges],
            "runs": sorted(outcomes, key=lambda o: (o["tenant"], not o["success"], o["failure_class"])),
            "runs_total": sum(int(r[1]) for r in runs),
            "newest": newest_nodes,
            "most_connected": [(by_id[r[0]], int(r[1])) for r in connected if r[0] in by_id],
        }

    async def find(self, f: NodeFilter) -> list[Node]:
        """Nodes matching every filter: full-text ranked when ``text`` is given, else by confidence."""
        limit = max(1, min(f.limit, MAX_LISTING))
        clauses, params = _filter_clauses(f)
        if f.text.strip():
            # Every word must occur (AND): what a search box means, and far cheaper than the
            # OR-ed terms ranking uses, because FTS5 scores only the intersection.
            match = " ".join(part for part in fts_query(f.text).split(" OR ") if part)
            if not match:
                return []
            # Ranked by BM25, then filtered: a generous window keeps filters from emptying the page.
            found = await self._store.search_text(match, f.tenant or None, limit * 8)
            wanted = {n.id for n in await self._store.nodes_by_ids([n.id for n, _ in found])
                      if _matches(n, f)}  # fmt: skip
            return [n for n, _rank in found if n.id in wanted][:limit]
        where = " AND ".join(clauses) or "1"
        return await self._store._nodes(f"{where} ORDER BY confidence DESC, id LIMIT ?", (*params, limit))

    async def node(self, node_id: str) -> tuple[Node, list[Edge], dict[str, Node]] | None:
        """One node, its edges, and the nodes at their other ends (same tenant by construction)."""
        node = await self._store.get_node(node_id)
        if node is None:
            return None
        edges = await self._store.edges_of(node_id)
        others = {e.dst if e.src == node_id else e.src for e in edges}
        return node, edges, {n.id: n for n in await self._store.nodes_by_ids(others, node.tenant)}

    async def neighbourhood(self, centre: Sequence[str], hops: int = 1) -> Neighbourhood:
        """The nodes within ``hops`` (1 or 2) edges of ``centre``, in the centre's tenant, bounded."""
        hops = 1 if hops < 2 else 2
        seeds = await self._store.nodes_by_ids(centre)
        out = Neighbourhood(centre=[n.id for n in seeds], hops=hops)
        if not seeds:
            return out
        tenant = seeds[0].tenant
        out.nodes = {n.id: n for n in seeds if n.tenant == tenant}
        frontier = list(out.nodes)
        for _ in range(hops):
            pairs = await self._store.neighbour_ids(frontier, tuple(Relation))
            new = sorted({b for _a, b in pairs} - out.nodes.keys())
            room = MAX_NEIGHBOURHOOD - len(out.nodes)
            if len(new) > room:
                out.truncated = True
                new = new[: max(room, 0)]
            found = await self._store.nodes_by_ids(new, tenant)
            out.nodes.update((n.id, n) for n in found)
            frontier = [n.id for n in found]
            if not frontier:
                break
        ids = list(out.nodes)
        rows = await self._store._rows(
            f"SELECT src, dst, relation, weight, created_at FROM edges WHERE src IN ({_marks(ids)}) "
            f"AND dst IN ({_marks(ids)}) ORDER BY src, dst, relation",
            (*ids, *ids),
        )
        out.edges = [Edge(r[0], r[1], Relation(r[2]), r[3], r[4]) for r in rows]
        return out

    async def repository(self, tenant: str, repository: str, hops: int = 1) -> Neighbourhood:
        """A repository's strongest facts and their neighbourhood."""
        seeds = await self._store._nodes(
            "tenant = ? AND repository = ? ORDER BY confidence DESC, id LIMIT ?",
            (tenant, repository, REPOSITORY_SEEDS),
        )
        return await self.neighbourhood([n.id for n in seeds], hops)

    async def run(self, ref: str) -> dict[str, Any]:
        """What one TaskRun (``tr/NAMESPACE/NAME`` or ``NAMESPACE/NAME``) taught: its run rows and nodes."""
        ref = ref if ref.startswith("tr/") else f"tr/{ref}"
        rows = await self._store._rows(
            "SELECT run_key, tenant, repository, language, engine, task_type, success, failure_class, "
            "duration, finished_at, nodes, edges FROM runs WHERE ref = ? ORDER BY finished_at",
            (ref,),
        )
        # What each run observed, from its provenance (indexed by run); runs learned before
        # provenance (schema v6) have none, and are found by their place in the sources lists.
        seqs: list[int] = []
        for r in rows:
            found = await self._store.rows(
                "SELECT DISTINCT node FROM node_runs WHERE run = ? AND event = ?",
                (run_id(str(r[0])), provenance.OBSERVED),
            )
            seqs.extend(int(f[0]) for f in found)
        if seqs:
            taught = await self._store._nodes(
                f"seq IN ({_marks(seqs)}) ORDER BY confidence DESC, id LIMIT ?", (*seqs, MAX_LISTING)
            )
        else:
            taught = await self._store._nodes(
                "sources LIKE ? ESCAPE '\\' ORDER BY confidence DESC, id LIMIT ?",
                (f'%"{_like(ref)}"%', MAX_LISTING),
            )
        keys = ("run_key", "tenant", "repository", "language", "engine", "task_type", "success",
                "failure_class", "duration", "finished_at", "nodes", "edges")  # fmt: skip
        return {"ref": ref, "runs": [dict(zip(keys, r, strict=True)) for r in rows], "taught": taught}

    async def trend(self, node_id: str, now: float | None = None) -> list[TrendPoint]:
        """How a fact's confidence moved: each observation (replayed from its provenance, as merging
        computed it), the decay between them, and its confidence now.

        Facts from before provenance (schema v6) have one baseline event: their trend starts there.
        """
        node = await self._store.get_node(node_id)
        if node is None:
            return []
        moment = time.time() if now is None else now
        seqs = await self._store.rows("SELECT seq FROM nodes WHERE id = ?", (node_id,))
        events = await provenance.events_of_node(self._store, int(seqs[0][0])) if seqs else []
        points: list[TrendPoint] = []
        previous: tuple[float, int] | None = None  # (confidence, epoch) after the last observation
        for i, ev in enumerate(events):
            if ev.event not in (provenance.OBSERVED, provenance.BASELINE, provenance.CONTRADICTED):
                continue
            if previous is not None and ev.epoch > previous[1]:
                decayed = effective(previous[0], node.decay_rate, ev.epoch - previous[1])
                points.append(TrendPoint(ev.at, decayed, "decayed"))
            states, _edges = provenance.replay(
                {0: events[: i + 1]},
                decay_rates={0: node.decay_rate},
                threshold=None,
                gain=REINFORCE_GAIN,
                share=CONTRADICTED_SHARE,
                max_sources=MAX_SOURCES,
            )
            state = states[0]
            if state is None:
                continue
            value = effective(state.confidence, node.decay_rate, ev.epoch - state.epoch)
            what = {provenance.OBSERVED: "observed", provenance.CONTRADICTED: "contradicted"}.get(
                ev.event, "baseline"
            )
            points.append(TrendPoint(ev.at, value, what))
            previous = (value, ev.epoch)
        if not points:
            points.append(TrendPoint(node.valid_from, node.confidence, "first seen"))
        points.append(TrendPoint(max(moment, points[-1].at), node.confidence, "now"))
        return points

    async def facets(self) -> dict[str, list[str]]:
        """The values filters can take: tenants, kinds, repositories and engines that occur."""
        out: dict[str, list[str]] = {"kind": [k.value for k in Kind]}
        for column in ("tenant", "repository", "engine"):
            rows = await self._store._rows(
                f"SELECT DISTINCT {column} FROM nodes WHERE {column} != '' ORDER BY 1 LIMIT ?", (MAX_LISTING,)
            )
            out[column] = [r[0] for r in rows]
        return out


def to_networkx(nodes: Iterable[Node], edges: Iterable[Edge]) -> nx.MultiDiGraph:
    """A networkx multigraph with scalar attributes only, so GraphML and GEXF can hold it."""
    import networkx as nx

    graph = nx.MultiDiGraph()
    for n in nodes:
        graph.add_node(
            n.id, **{k: _xml_text(v) if isinstance(v, str) else v for k, v in node_attributes(n).items()}
        )
    for e in edges:
        graph.add_edge(e.src, e.dst, key=e.relation.value, relation=e.relation.value, weight=e.weight,
                       created_at=e.created_at)  # fmt: skip
    return graph


def node_attributes(n: Node) -> dict[str, Any]:
    """The exported attributes of one node (lists as JSON text: GraphML has no list type)."""
    return {
        "label": n.content,
        "tenant": n.tenant,
        "kind": n.kind.value,
        "type": n.type.value,
        "key": n.key,
        "repository": n.subject.repository,
        "engine": n.subject.engine,
        "task_type": n.subject.task_type,
        "language": n.subject.language,
        "confidence": float(n.confidence),
        "decay_rate": float(n.decay_rate),
        "valid_from": float(n.valid_from),
        "valid_to": float(n.valid_to) if n.valid_to is not None else -1.0,
        "last_seen": float(n.last_seen),
        "occurrences": int(n.occurrences),
        "sources": json.dumps(n.sources),
    }


def _xml_text(text: str) -> str:
    """``text`` without what XML 1.0 cannot hold (controls, surrogates, U+FFFE, U+FFFF): a store written
    before cleaning dropped noncharacters would otherwise give a GraphML file that does not parse."""
    if text.isascii() and text.isprintable():
        return text
    return "".join(
        c
        for c in text
        if c in "\t\n\r" or " " <= c <= "\ud7ff" or "\ue000" <= c <= "\ufffd" or c >= "\U00010000"
    )


def _matches(n: Node, f: NodeFilter) -> bool:
    return (
        (not f.tenant or n.tenant == f.tenant)
        and (not f.kind or n.kind.value == f.kind)
        and (not f.repository or n.subject.repository == f.repository)
        and (not f.engine or n.subject.engine == f.engine)
        and (f.validity == "all" or (f.validity == "valid") == n.valid)
    )


def _filter_clauses(f: NodeFilter) -> tuple[list[str], list[Any]]:
    clauses: list[str] = []
    params: list[Any] = []
    for column, value in (("tenant", f.tenant), ("kind", f.kind), ("repository", f.repository),
                          ("engine", f.engine)):  # fmt: skip
        if value:
            clauses.append(f"{column} = ?")
            params.append(value)
    if f.validity == "valid":
        clauses.append("valid_to IS NULL")
    elif f.validity == "superseded":
        clauses.append("valid_to IS NOT NULL")
    return clauses, params


def _marks(items: Sequence[object]) -> str:
    return ", ".join("?" * len(items)) or "NULL"


def _like(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


_EVENT_NAMES = {provenance.OBSERVED: "observed", provenance.CONTRADICTED: "contradicted"}


@dataclass(frozen=True)
class TrendPoint:
    """A fact's confidence at one moment, and what happened then (``observed``, ``decay``, ``now``...)."""

    at: float
    confidence: float
    what: str
