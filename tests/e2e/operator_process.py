"""Run ``osmia run`` as a real process against the local control plane (e2e helper)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

import yaml

REPO = Path(__file__).resolve().parents[2]


def free_port() -> int:
    """A loopback port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for(check: Callable[[], Any], timeout: float = 30.0, interval: float = 0.3, what: str = "") -> Any:
    """Poll ``check`` until it returns something truthy; fail with ``what`` after ``timeout``."""
    deadline = time.monotonic() + timeout
    last: Any = None
    while time.monotonic() < deadline:
        last = check()
        if last:
            return last
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout} s waiting for {what or check} (last: {last!r})")


# The engines every test operator runs (the chart's admission policy in tests is given the same).
ENGINES: dict[str, dict[str, Any]] = {
    "claude-code": {"image": "registry.example/claude-code-runner:1.0"},
    "aider": {"image": "registry.example/aider-runner:1.0"},
}


class OperatorProcess:
    """One ``osmia run`` subprocess with its own config, database and ports."""

    running: ClassVar[set[OperatorProcess]] = set()  # every started one, so the session can stop leftovers

    def __init__(
        self,
        folder: Path,
        kubeconfig: Path,
        *,
        namespaces: tuple[str, ...],
        memory: bool = True,
        extra: dict[str, Any] | None = None,
        peering: tuple[str, int] | None = None,
    ):
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self.peering = peering  # (name, priority) for kopf peering; None runs standalone
        self.namespaces = namespaces  # each operator watches only its own: tests run several at once
        self.kubeconfig = kubeconfig
        self.db = folder / "memory.db"
        self.metrics_port = free_port()
        self.liveness_port = free_port()
        self.log = folder / "operator.log"
        self.config = folder / "osmia-config.yaml"
        config: dict[str, Any] = {
            "memory": {"enabled": memory, "store_path": str(self.db), "extraction_concurrency": 2},
            "operator": {
                "metrics_port": self.metrics_port,
                "metrics_host": "127.0.0.1",
                "liveness_port": self.liveness_port,
                "log_format": "json",
            },
            "engines": ENGINES,
        }
        for section, values in (extra or {}).items():
            config.setdefault(section, {}).update(values)
        self.config.write_text(yaml.safe_dump(config))
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> OperatorProcess:
        """Start and wait until kopf's liveness endpoint answers."""
        env = {**os.environ, "KUBECONFIG": str(self.kubeconfig)}
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "osmia",
                    "run",
                    "--config",
                    str(self.config),
                    *(
                        ("--peering", peering[0], "--priority", str(peering[1]))
                        if (peering := self.peering)
                        else ("--standalone",)
                    ),
                    "--liveness",
                    f"http://127.0.0.1:{self.liveness_port}/healthz",
                    *(arg for ns in self.namespaces for arg in ("--namespace", ns)),
                ],
                stdout=out,
                stderr=subprocess.STDOUT,
                env=env,
                cwd=REPO,
            )
        OperatorProcess.running.add(self)
        wait_for(self._alive, timeout=60, what=f"operator liveness (log: {self.log})")
        return self

    @classmethod
    def stop_all(cls) -> None:
        """Kill whatever a failed test left running."""
        for op in list(cls.running):
            op.stop(signal.SIGKILL, timeout=10)

    def _alive(self) -> bool:
        if self.proc is not None and self.proc.poll() is not None:
            raise AssertionError(
                f"operator exited with {self.proc.returncode}:\n{self.log.read_text()[-3000:]}"
            )
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.liveness_port}/healthz", timeout=2) as rsp:
                return bool(rsp.status == 200)
        except OSError:
            return False

    def metrics(self) -> str:
        """The Prometheus exposition text."""
        with urllib.request.urlopen(f"http://127.0.0.1:{self.metrics_port}/metrics", timeout=5) as rsp:
            return str(rsp.read().decode())

    def log_events(self) -> list[dict[str, Any]]:
        """The structured log lines written so far."""
        out = []
        for line in self.log.read_text().splitlines():
            try:
                out.append(json.loads(line))
            except ValueError:
                continue
        return out

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 30.0) -> int:
        """Send ``sig`` and wait for the exit code."""
        OperatorProcess.running.discard(self)
        if self.proc is None or self.proc.poll() is not None:
            return self.proc.returncode if self.proc else 0
        self.proc.send_signal(sig)
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait()
