"""The dashboard's pages and JSON without a browser: headers, bounds, errors, tenants, read-only."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer

from osmia.dashboard import create_app
from osmia.dashboard.app import CSP
from osmia.memory import Memory, MemorySettings, NodeFilter
from osmia.memory.browse import MAX_NEIGHBOURHOOD


@pytest.fixture
async def memory(example_db: Path) -> AsyncIterator[Memory]:
    m = await Memory.open(MemorySettings(store_path=example_db), create=False, catch_up=False)
    yield m
    await m.close()


@pytest.fixture
async def client(memory: Memory) -> AsyncIterator[TestClient]:  # type: ignore[type-arg]
    async with TestClient(TestServer(create_app(memory))) as c:
        yield c


PAGES = ("/", "/search", "/search?q=refund&validity=all", "/graph", "/run", "/run?ref=agents/nope")


@pytest.mark.parametrize("path", PAGES)
async def test_pages_answer_with_security_headers(client: TestClient, path: str) -> None:  # type: ignore[type-arg]
    rsp = await client.get(path)
    assert rsp.status == 200, await rsp.text()
    assert rsp.headers["Content-Security-Policy"] == CSP
    assert "script-src 'self'" in CSP and "unsafe-inline" not in CSP
    assert rsp.headers["X-Content-Type-Options"] == "nosniff"
    assert rsp.headers["X-Frame-Options"] == "DENY"
    assert "<script>" not in await rsp.text(), "no inline script in any page"


async def test_unknown_node_is_404_and_bad_graph_request_400(client: TestClient) -> None:  # type: ignore[type-arg]
    assert (await client.get("/node/n000000000000000")).status == 404
    assert (await client.get("/api/graph")).status == 400


async def test_unknown_run_says_so(client: TestClient) -> None:  # type: ignore[type-arg]
    text = await (await client.get("/run?ref=agents/never-ran")).text()
    assert "No run tr/agents/never-ran was learned." in text


async def test_graph_stays_in_one_tenant_and_bounded(memory: Memory) -> None:
    browser = memory.browser()
    for tenant in ("ticketing", "incident-triage"):
        [seed] = await browser.find(NodeFilter(tenant=tenant, limit=1))
        piece = await browser.neighbourhood([seed.id], hops=2)
        assert {n.tenant for n in piece.nodes.values()} == {tenant}
        assert len(piece.nodes) <= MAX_NEIGHBOURHOOD
        ids = set(piece.nodes)
        assert all(e.src in ids and e.dst in ids for e in piece.edges)
        assert sum(len(p) for p in piece.components()) == len(piece.nodes)


async def test_filters_combine(memory: Memory) -> None:
    browser = memory.browser()
    found = await browser.find(NodeFilter(tenant="ticketing", kind="failing_test", validity="all", limit=500))
    assert found and all(n.tenant == "ticketing" and n.kind.value == "failing_test" for n in found)
    superseded = await browser.find(NodeFilter(validity="superseded"))
    assert all(not n.valid for n in superseded)
    assert len(await browser.find(NodeFilter(limit=10_000))) <= 200, "listings are bounded"
    [repo] = [r for r in (await browser.facets())["repository"] if r.endswith("acme/payments-api")]
    texts = await browser.find(NodeFilter(text="refund", repository=repo))
    assert texts and all(n.subject.repository == repo for n in texts)
    assert not await browser.find(NodeFilter(text="refund", repository=repo + "-other"))


async def test_run_page_data_matches_sources(memory: Memory) -> None:
    browser = memory.browser()
    [node] = await browser.find(NodeFilter(kind="flaky_test", limit=1))
    ref = node.sources[0]
    learned = await browser.run(ref)
    assert learned["runs"] and node.id in {n.id for n in learned["taught"]}
    subject = learned["runs"][-1]
    candidates = await memory.explain_like(subject)
    assert subject["tenant"] == node.tenant and candidates
    assert all(c.node.tenant == node.tenant for c in candidates)
