"""/readyz beside /metrics: not ready before startup or when the database does not answer."""

from __future__ import annotations

import asyncio
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator

import pytest
from prometheus_client import CollectorRegistry, Counter

from osmia.controller import readiness


@pytest.fixture
def loop() -> Iterator[asyncio.AbstractEventLoop]:
    """An event loop running in a thread, as the operator's is while the HTTP thread probes it."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    yield loop
    loop.call_soon_threadsafe(loop.stop)
    thread.join(5)
    loop.close()


@pytest.fixture
def served() -> Iterator[tuple[str, readiness.Readiness]]:
    state = readiness.Readiness()
    registry = CollectorRegistry()
    Counter("osmia_probe_test", "a counter", registry=registry).inc()
    from wsgiref.simple_server import make_server

    server = make_server("127.0.0.1", 0, readiness.app(registry, state), readiness._Server)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}", state
    server.shutdown()


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as rsp:
            return rsp.status, rsp.read().decode()
    except urllib.error.HTTPError as err:
        return err.code, err.read().decode()


def test_not_ready_until_startup_finished(served: tuple[str, readiness.Readiness]) -> None:
    url, _state = served
    status, body = get(url + "/readyz")
    assert status == 503 and "startup handler has not finished" in body


def test_ready_when_the_database_answers(
    served: tuple[str, readiness.Readiness], loop: asyncio.AbstractEventLoop
) -> None:
    url, state = served
    calls: list[int] = []

    async def answers() -> float:
        calls.append(1)
        return 0.0

    state.ready(loop, answers)
    assert get(url + "/readyz") == (200, "ready\n")
    assert get(url + "/readyz")[0] == 200
    assert len(calls) == 2, "each probe asks the database"


def test_not_ready_when_the_database_fails_or_hangs(
    served: tuple[str, readiness.Readiness], loop: asyncio.AbstractEventLoop
) -> None:
    url, state = served

    async def fails() -> None:
        raise RuntimeError("database is locked")

    state.ready(loop, fails)
    status, body = get(url + "/readyz")
    assert status == 503 and "database is locked" in body

    async def hangs() -> None:
        await asyncio.sleep(60)

    state.ready(loop, hangs)
    ok, why = state.probe(timeout=0.2)
    assert not ok and "did not answer" in why


def test_memory_disabled_is_ready_and_shutdown_is_not(
    served: tuple[str, readiness.Readiness], loop: asyncio.AbstractEventLoop
) -> None:
    url, state = served
    state.ready(loop, None)
    assert get(url + "/readyz") == (200, "ready (memory disabled)\n")
    state.not_ready("shutting down")
    assert get(url + "/readyz") == (503, "shutting down\n")


def test_metrics_are_still_served(served: tuple[str, readiness.Readiness]) -> None:
    url, _state = served
    for path in ("/metrics", "/"):
        status, body = get(url + path)
        assert status == 200 and "osmia_probe_test_total 1.0" in body
