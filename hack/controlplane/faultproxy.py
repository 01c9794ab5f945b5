"""A TLS reverse proxy on loopback in front of the API server that fails a share of the calls.

For the chaos tests: the operator talks to the proxy (``write_kubeconfig``), the
proxy forwards each request to the real API server as the admin and streams the
answer back (watches included). While ``rate`` > 0 that share of requests is
answered with an error the API server could give under stress instead (503,
500, 429 with Retry-After, or a dropped connection), chosen at random. Needs
aiohttp (a dependency of kopf); runs its own event loop in a thread.
"""

from __future__ import annotations

import asyncio
import base64
import json
import random
import socket
import ssl
import threading
from collections import Counter
from pathlib import Path
from typing import Any

from aiohttp import ClientError, ClientSession, ClientTimeout, TCPConnector, web

_HOP_HEADERS = {"host", "connection", "content-length", "transfer-encoding", "keep-alive", "content-encoding"}


def _status(code: int, reason: str, message: str) -> bytes:
    body = {"kind": "Status", "apiVersion": "v1", "status": "Failure", "message": message, "reason": reason}
    return json.dumps({**body, "code": code}).encode()


class FaultProxy:
    """Forward to ``upstream``; fail ``rate`` of the requests while it is above zero."""

    def __init__(self, upstream: str, pki: Path, *, rate: float = 0.0, seed: int = 0) -> None:
        self.upstream = upstream.rstrip("/")
        self.pki = pki
        self.rate = rate
        self.counts: Counter[str] = Counter()
        self._random = random.Random(seed)
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="faultproxy", daemon=True)
        self._runner: web.AppRunner | None = None
        self._session: ClientSession | None = None
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            self.port = int(sock.getsockname()[1])

    @property
    def url(self) -> str:
        """Where clients connect."""
        return f"https://127.0.0.1:{self.port}"

    def start(self) -> FaultProxy:
        """Listen (the API server's own certificate, valid for 127.0.0.1) and forward."""
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._start(), self._loop).result(30)
        return self

    async def _start(self) -> None:
        client_ctx = ssl.create_default_context(cafile=str(self.pki / "ca.crt"))
        client_ctx.load_cert_chain(str(self.pki / "admin.crt"), str(self.pki / "admin.key"))
        self._session = ClientSession(
            connector=TCPConnector(ssl=client_ctx, limit=200),
            timeout=ClientTimeout(total=None, sock_connect=10),
            auto_decompress=False,
        )
        server_ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        server_ctx.load_cert_chain(str(self.pki / "apiserver.crt"), str(self.pki / "apiserver.key"))
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", "/{tail:.*}", self._handle)
        # Watches proxied for the operator stay open until their clients go: on stop, cut them after
        # a second instead of aiohttp's default minute of graceful shutdown.
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", self.port, ssl_context=server_ctx).start()

    def stop(self) -> None:
        """Close the listener and the upstream connections, then the loop."""
        if not self._thread.is_alive():
            return
        asyncio.run_coroutine_threadsafe(self._stop(), self._loop).result(30)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)

    async def _stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
        if self._session is not None:
            await self._session.close()

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        if self.rate > 0 and self._random.random() < self.rate:
            return await self._fail(request)
        assert self._session is not None
        headers = {k: v for k, v in request.headers.items() if k.lower() not in _HOP_HEADERS}
        body = await request.read()
        self.counts["forwarded"] += 1
        try:
            upstream = await self._session.request(
                request.method,
                self.upstream + request.path_qs,
                headers=headers,
                data=body or None,
                # Forward exactly the client's headers: no Content-Type of aiohttp's own (octet-stream → 415).
                skip_auto_headers=("Content-Type", "User-Agent", "Accept-Encoding"),
            )
        except (OSError, ClientError):
            self.counts["upstream-down"] += 1
            return web.Response(status=503, body=_status(503, "ServiceUnavailable", "upstream unavailable"))
        async with upstream:
            response = web.StreamResponse(status=upstream.status)
            for key, value in upstream.headers.items():
                if key.lower() not in _HOP_HEADERS:
                    response.headers[key] = value
            if upstream.headers.get("Content-Encoding"):
                response.headers["Content-Encoding"] = upstream.headers["Content-Encoding"]
            await response.prepare(request)
            try:
                async for chunk in upstream.content.iter_any():
                    await response.write(chunk)
            except (OSError, ClientError):  # the API server went away mid-stream (a watch)
                return response
            await response.write_eof()
            return response

    async def _fail(self, request: web.Request) -> web.StreamResponse:
        kind = self._random.choice(("503", "500", "429", "drop"))
        self.counts[f"failed-{kind}"] += 1
        if kind == "drop":
            if request.transport is not None:
                request.transport.close()
            return web.Response(status=503)
        code = int(kind)
        reason = {503: "ServiceUnavailable", 500: "InternalError", 429: "TooManyRequests"}[code]
        headers = {"Content-Type": "application/json", **({"Retry-After": "1"} if code == 429 else {})}
        return web.Response(
            status=code, body=_status(code, reason, "injected by faultproxy"), headers=headers
        )

    def write_kubeconfig(self, path: Path) -> Path:
        """A kubeconfig that reaches the API server through this proxy (same CA, admin certificate)."""

        def b64(name: str) -> str:
            return base64.b64encode((self.pki / name).read_bytes()).decode()

        config: dict[str, Any] = {
            "apiVersion": "v1",
            "kind": "Config",
            "clusters": [
                {
                    "name": "proxy",
                    "cluster": {"server": self.url, "certificate-authority-data": b64("ca.crt")},
                }
            ],
            "users": [
                {
                    "name": "admin",
                    "user": {
                        "client-certificate-data": b64("admin.crt"),
                        "client-key-data": b64("admin.key"),
                    },
                }
            ],
            "contexts": [{"name": "proxy", "context": {"cluster": "proxy", "user": "admin"}}],
            "current-context": "proxy",
        }
        path.write_text(json.dumps(config))
        path.chmod(0o600)
        return path
