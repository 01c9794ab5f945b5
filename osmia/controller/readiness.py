"""Readiness: can this operator serve? Answered on ``/readyz`` beside ``/metrics``.

Liveness (kopf's ``/healthz``) says the operator's loop runs; readiness says more:
the startup handler finished (schema migrated, catch-up decay applied, memory
open; kopf starts watching TaskRuns right after it) and the database answers a
read now. The chart's readinessProbe uses ``/readyz``, its startupProbe
``/healthz``, so a long migration is neither killed nor sent traffic.

The HTTP server is the one ``prometheus_client.start_http_server`` would start
(a threading WSGI server), with one more path; the check runs on the
operator's event loop, where the database connection lives.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable, Iterable
from socketserver import ThreadingMixIn
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

from prometheus_client import CollectorRegistry, make_wsgi_app

CHECK_TIMEOUT_SECONDS = 2.0


class Readiness:
    """Whether startup finished, and how to ask the database if it answers."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._check: Callable[[], Awaitable[object]] | None = None
        self._reason = "starting: the startup handler has not finished"

    def ready(self, loop: asyncio.AbstractEventLoop, check: Callable[[], Awaitable[object]] | None) -> None:
        """Startup finished on ``loop``; ``check`` (None: memory disabled) must answer for each probe."""
        self._loop, self._check = loop, check

    def not_ready(self, reason: str) -> None:
        """Stop answering ready (shutting down), with the reason shown to the probe."""
        self._loop, self._check, self._reason = None, None, reason

    def probe(self, timeout: float = CHECK_TIMEOUT_SECONDS) -> tuple[bool, str]:
        """Ready or not, and why; called from the HTTP server's thread."""
        loop, check = self._loop, self._check
        if loop is None:
            return False, self._reason
        if check is None:
            return True, "ready (memory disabled)"
        future = asyncio.run_coroutine_threadsafe(_call(check), loop)
        try:
            future.result(timeout)
        except TimeoutError:
            future.cancel()
            return False, f"the memory database did not answer within {timeout:g} s"
        except Exception as exc:  # any failure of the read means "cannot serve"
            return False, f"the memory database failed: {exc}"
        return True, "ready"


async def _call(check: Callable[[], Awaitable[object]]) -> None:
    await check()


STATE = Readiness()


class _Server(ThreadingMixIn, WSGIServer):
    daemon_threads = True


class _QuietHandler(WSGIRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        """Probes and scrapes every few seconds: no access log."""


def app(registry: CollectorRegistry, state: Readiness = STATE) -> Callable[..., Iterable[bytes]]:
    """A WSGI app: ``/readyz`` from ``state``, every other path the Prometheus exposition."""
    metrics_app = make_wsgi_app(registry)

    def serve(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if environ.get("PATH_INFO") == "/readyz":
            ok, why = state.probe()
            start_response(
                "200 OK" if ok else "503 Service Unavailable", [("Content-Type", "text/plain; charset=utf-8")]
            )
            return [f"{why}\n".encode()]
        result: Iterable[bytes] = metrics_app(environ, start_response)
        return result

    return serve


def start_server(port: int, host: str, registry: CollectorRegistry) -> WSGIServer:
    """Serve ``/metrics`` and ``/readyz`` on ``host:port`` from a daemon thread."""
    server = make_server(host, port, app(registry), _Server, handler_class=_QuietHandler)
    threading.Thread(target=server.serve_forever, name="osmia-metrics", daemon=True).start()
    return server
