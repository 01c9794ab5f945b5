"""The dashboard's aiohttp application: pages, a JSON endpoint for the graph view, static files.

Every page is a GET; there is no endpoint that writes. Stored text came from agents, so it is
rendered only through Jinja2's autoescaping (never marked safe), and the Content-Security-Policy
allows scripts, styles and connections from this origin only: an injected ``<script>`` or inline
handler cannot run even if escaping were ever bypassed. The tenant is shown on every fact.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import jinja2
from aiohttp import web

from osmia.dashboard.charts import trend_svg
from osmia.logging import get_logger
from osmia.memory import GraphBrowser, Memory, NodeFilter
from osmia.memory.types import Kind, Node

log = get_logger("osmia.dashboard")

HERE = Path(__file__).resolve().parent
SNAPSHOT_SECONDS = 60.0


class Snapshot:
    """The graph-wide figures (overview counts, filter values), taken in the background.

    Counting every node by kind, or listing every repository, reads the whole graph: on a large
    store that is far too slow for a page view, and it need not be fresh to the second. So the
    dashboard takes them once at start and then every ``SNAPSHOT_SECONDS``, and pages show when.
    """

    def __init__(self, memory: Memory) -> None:
        self._memory = memory
        self.taken_at = 0.0
        self.overview: dict[str, Any] = {}
        self.facets: dict[str, list[str]] = {}
        self._ready = asyncio.Event()

    async def take(self) -> None:
        """Read the figures now (one pass; the page handlers never wait for a second one)."""
        browser = self._memory.browser()
        overview, facets = await browser.overview(), await browser.facets()
        next_decay = await self._memory.next_decay_at()
        interval = self._memory.settings.decay_interval_hours
        overview["decay"] = {
            "next": next_decay,
            "last": next_decay - interval * 3600,
            "interval_hours": interval,
        }
        self.overview, self.facets, self.taken_at = overview, facets, time.time()
        self._ready.set()

    async def ready(self) -> Snapshot:
        """This snapshot once the first one is taken."""
        await self._ready.wait()
        return self

    async def keep_fresh(self) -> None:
        """Retake every ``SNAPSHOT_SECONDS`` until cancelled; a failed pass keeps the last one."""
        while True:
            try:
                await self.take()
            except Exception as exc:  # a locked or busy database: keep serving the last snapshot
                log.warning("dashboard snapshot failed", error=str(exc))
            await asyncio.sleep(SNAPSHOT_SECONDS)


MEMORY: web.AppKey[Memory] = web.AppKey("memory", Memory)
SNAPSHOT: web.AppKey[Snapshot] = web.AppKey("snapshot", Snapshot)
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def create_app(memory: Memory) -> web.Application:
    """The dashboard over an open :class:`Memory` (the caller owns it and closes it)."""
    app = web.Application(middlewares=[_security_headers])
    app[MEMORY] = memory
    app[SNAPSHOT] = Snapshot(memory)
    app.cleanup_ctx.append(_refresh_snapshot)
    app.router.add_get("/", overview, name="overview")
    app.router.add_get("/search", search, name="search")
    app.router.add_get("/node/{node_id}", node_page, name="node")
    app.router.add_get("/graph", graph_page, name="graph")
    app.router.add_get("/api/graph", graph_json, name="graph_json")
    app.router.add_get("/run", run_page, name="run")
    app.router.add_static("/static", HERE / "static", name="static")
    return app


async def serve(memory: Memory, host: str, port: int) -> web.AppRunner:
    """Start serving on ``host:port``; returns the runner to ``cleanup()`` when done."""
    runner = web.AppRunner(create_app(memory), access_log=None)
    await runner.setup()
    await web.TCPSite(runner, host, port).start()
    return runner


async def _refresh_snapshot(app: web.Application) -> AsyncIterator[None]:
    task = asyncio.create_task(app[SNAPSHOT].keep_fresh(), name="osmia-dashboard-snapshot")
    yield
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)


def service(host: str, port: int) -> Callable[[Memory], Awaitable[Callable[[], Awaitable[None]]]]:
    """The dashboard as a service the operator starts once memory is open (``dashboard.enabled``)."""

    async def start(memory: Memory) -> Callable[[], Awaitable[None]]:
        runner = await serve(memory, host, port)
        log.info("dashboard served", url=f"http://{host}:{port}/")
        return runner.cleanup

    return start


@web.middleware
async def _security_headers(request: web.Request, handler: Handler) -> web.StreamResponse:
    response = await handler(request)
    response.headers["Content-Security-Policy"] = CSP
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["X-Frame-Options"] = "DENY"
    response.headers["Cache-Control"] = "no-store"
    return response


_templates = jinja2.Environment(
    loader=jinja2.FileSystemLoader(HERE / "templates"),
    autoescape=True,  # every template, whatever its name: stored text is untrusted
    undefined=jinja2.StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
)


def _when(timestamp: float | None) -> str:
    if timestamp is None:
        return "—"
    return datetime.fromtimestamp(timestamp, UTC).strftime("%Y-%m-%d %H:%M UTC")


def _when_exact(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp, UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


_templates.filters["when"] = _when
_templates.filters["when_exact"] = _when_exact
_templates.globals["kinds"] = {k.value: k.label for k in Kind}


def _render(template: str, **context: Any) -> web.Response:
    html = _templates.get_template(template).render(**context)
    return web.Response(text=html, content_type="text/html", charset="utf-8")


def _browser(request: web.Request) -> GraphBrowser:
    return request.app[MEMORY].browser()


def _query(request: web.Request, name: str, default: str = "", limit: int = 200) -> str:
    """One query parameter, bounded in length (it is echoed into the page, escaped)."""
    return request.query.get(name, default)[:limit]


async def overview(request: web.Request) -> web.Response:
    """Nodes by type and tenant, edges by relation, runs and outcomes, decay clock, newest facts."""
    snap = await request.app[SNAPSHOT].ready()
    tenant = _query(request, "tenant")

    def mine(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [r for r in rows if not tenant or r["tenant"] == tenant]

    data = snap.overview
    view = {
        "nodes": mine(data["nodes"]),
        "edges": mine(data["edges"]),
        "runs": mine(data["runs"]),
        "newest": [n for n in data["newest"] if not tenant or n.tenant == tenant],
        "most_connected": [(n, d) for n, d in data["most_connected"] if not tenant or n.tenant == tenant],
    }
    counts = {
        "nodes": sum(r["count"] for r in view["nodes"]),
        "edges": sum(r["count"] for r in view["edges"]),
        "runs": sum(r["count"] for r in view["runs"]),
    }
    return _render(
        "overview.html",
        title="Overview",
        tenant=tenant,
        data=view,
        counts=counts,
        decay=data["decay"],
        taken_at=snap.taken_at,
        facets=snap.facets,
    )


async def search(request: web.Request) -> web.Response:
    """Full text over node content, filtered by tenant, kind, repository, engine and validity."""
    validity = _query(request, "validity", "valid")
    f = NodeFilter(
        text=_query(request, "q"),
        tenant=_query(request, "tenant"),
        kind=_query(request, "kind"),
        repository=_query(request, "repository"),
        engine=_query(request, "engine"),
        validity=validity if validity in ("valid", "superseded", "all") else "valid",  # type: ignore[arg-type]
        limit=50,
    )
    nodes = await _browser(request).find(f)
    facets = (await request.app[SNAPSHOT].ready()).facets
    return _render("search.html", title="Search", f=f, nodes=nodes, facets=facets)


async def node_page(request: web.Request) -> web.Response:
    """One node: content, kind, confidence, decay, validity, sources, typed edges, confidence trend."""
    browser = _browser(request)
    found = await browser.node(request.match_info["node_id"][:64])
    if found is None:
        raise web.HTTPNotFound(text="no such node")
    node, edges, others = found
    points = await browser.trend(node.id)
    return _render(
        "node.html",
        title=node.kind.label,
        node=node,
        edges=edges,
        others=others,
        trend=trend_svg(points),
        points=points,
    )


async def graph_page(request: web.Request) -> web.Response:
    """The neighbourhood of a node or a repository, drawn by cytoscape.js from /api/graph."""
    return _render(
        "graph.html",
        title="Graph",
        node=_query(request, "node", limit=64),
        tenant=_query(request, "tenant"),
        repository=_query(request, "repository"),
        hops=_hops(request),
        facets=(await request.app[SNAPSHOT].ready()).facets,
    )


def _hops(request: web.Request) -> int:
    return 2 if request.query.get("hops") == "2" else 1


async def graph_json(request: web.Request) -> web.Response:
    """Nodes and typed edges of a neighbourhood, in cytoscape.js's element format."""
    browser = _browser(request)
    node_id, repository = _query(request, "node", limit=64), _query(request, "repository")
    if node_id:
        piece = await browser.neighbourhood([node_id], _hops(request))
    elif repository:
        piece = await browser.repository(_query(request, "tenant"), repository, _hops(request))
    else:
        raise web.HTTPBadRequest(text="name a node or a repository (and its tenant)")
    degrees = piece.degrees()
    elements: list[dict[str, Any]] = [
        {"data": _node_data(n, centre=n.id in piece.centre, degree=degrees.get(n.id, 0))}
        for n in sorted(piece.nodes.values(), key=lambda n: n.id)
    ]
    elements += [
        {"data": {"id": f"{e.src}>{e.relation.value}>{e.dst}", "source": e.src, "target": e.dst,
                  "relation": e.relation.value}}
        for e in piece.edges
    ]  # fmt: skip
    return web.json_response(
        {"elements": elements, "truncated": piece.truncated, "components": len(piece.components())}
    )


def _node_data(n: Node, *, centre: bool, degree: int) -> dict[str, Any]:
    return {
        "id": n.id,
        "label": n.content if len(n.content) <= 60 else n.content[:59] + "…",
        "kind": n.kind.value,
        "tenant": n.tenant,
        "confidence": round(n.confidence, 3),
        "valid": n.valid,
        "centre": centre,
        "degree": degree,
    }


async def run_page(request: web.Request) -> web.Response:
    """What one TaskRun taught, and what the ranking gives a run like it, with every verdict."""
    ref = _query(request, "ref")
    browser = _browser(request)
    data = await browser.run(ref) if ref else None
    explained = None
    if data and data["runs"]:
        subject = data["runs"][-1]
        explained = subject, await request.app[MEMORY].explain_like(subject)
    return _render("run.html", title="Run", ref=ref, data=data, explained=explained)


def now() -> float:
    """Wall clock, for templates (a function so tests can read pages deterministically)."""
    return time.time()
