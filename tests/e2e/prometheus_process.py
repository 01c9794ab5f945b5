"""A real Prometheus server on loopback that scrapes a local ``osmia run`` (e2e helper).

The binaries come from hack/controlplane/build-prometheus.sh (built from the Go
module proxy, cached outside the repository). ``build_prometheus`` runs it; it
is a no-op when the cache is warm.
"""

from __future__ import annotations

import json
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

import yaml

from tests.e2e.operator_process import REPO, free_port, wait_for

BUILD_SCRIPT = REPO / "hack" / "controlplane" / "build-prometheus.sh"


class PrometheusError(RuntimeError):
    """Prometheus could not be built, started or queried."""


def build_prometheus() -> Path:
    """Run build-prometheus.sh and return the cached bin directory (prometheus, promtool)."""
    proc = subprocess.run(["bash", str(BUILD_SCRIPT)], stdout=subprocess.PIPE, text=True, check=False)
    lines = proc.stdout.strip().splitlines()
    if proc.returncode != 0 or not lines:
        raise PrometheusError(f"{BUILD_SCRIPT} failed with exit code {proc.returncode}")
    bin_dir = Path(lines[-1]).resolve()
    for name in ("prometheus", "promtool"):
        if not (bin_dir / name).is_file():
            raise PrometheusError(f"{BUILD_SCRIPT} did not produce {bin_dir / name}")
    return bin_dir


class PrometheusServer:
    """One ``prometheus`` process: one static target, 1 s scrapes, optional rule file, data in ``folder``."""

    SCRAPE_SECONDS = 1

    def __init__(
        self,
        bin_dir: Path,
        folder: Path,
        *,
        target: str,
        target_labels: dict[str, str],
        rule_file: Path | None = None,
    ) -> None:
        self.bin_dir = bin_dir
        self.folder = folder
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = folder / "prometheus.log"
        self.config = folder / "prometheus.yml"
        interval = f"{self.SCRAPE_SECONDS}s"
        config: dict[str, Any] = {
            "global": {
                "scrape_interval": interval,
                "scrape_timeout": interval,
                "evaluation_interval": interval,
            },
            "scrape_configs": [
                {"job_name": "osmia", "static_configs": [{"targets": [target], "labels": target_labels}]}
            ],
        }
        if rule_file is not None:
            config["rule_files"] = [str(rule_file)]
        self.config.write_text(yaml.safe_dump(config))
        self.proc: subprocess.Popen[bytes] | None = None
        self.started_at = 0.0

    def promtool(self, *args: str) -> subprocess.CompletedProcess[str]:
        """Run promtool from the same build."""
        return subprocess.run(
            [str(self.bin_dir / "promtool"), *args], capture_output=True, text=True, check=False
        )

    def start(self) -> PrometheusServer:
        """Start; wait until /-/ready answers and the target has been scraped once."""
        check = self.promtool("check", "config", str(self.config))
        if check.returncode != 0:
            raise PrometheusError(f"promtool check config failed:\n{check.stdout}{check.stderr}")
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [
                    str(self.bin_dir / "prometheus"),
                    f"--config.file={self.config}",
                    f"--storage.tsdb.path={self.folder / 'data'}",
                    f"--web.listen-address=127.0.0.1:{self.port}",
                    "--log.level=warn",
                ],
                stdout=out,
                stderr=subprocess.STDOUT,
                cwd=self.folder,
            )
        self.started_at = time.time()
        wait_for(self._ready, timeout=60, what=f"prometheus /-/ready (log: {self.log})")
        # Targets reach the scrape loop after a discovery update (up to 5 s): wait for the first scrape,
        # or whatever the caller does next would happen before Prometheus saw anything.
        wait_for(lambda: self.query('up{job="osmia"} == 1'), timeout=30, what="the first scrape")
        return self

    def _ready(self) -> bool:
        if self.proc is not None and self.proc.poll() is not None:
            raise PrometheusError(f"prometheus exited with {self.proc.returncode}:\n{self.log.read_text()}")
        try:
            with urllib.request.urlopen(f"{self.url}/-/ready", timeout=2) as rsp:
                return bool(rsp.status == 200)
        except OSError:
            return False

    def api(self, path: str, **params: str | float) -> Any:
        """GET /api/v1/<path>; the ``data`` of a successful answer, else PrometheusError."""
        query = urllib.parse.urlencode(params)
        try:
            with urllib.request.urlopen(f"{self.url}/api/v1/{path}?{query}", timeout=10) as rsp:
                body = json.loads(rsp.read())
        except urllib.error.HTTPError as exc:  # 400/422: a bad query; the body says why
            body = json.loads(exc.read() or b"{}")
        if body.get("status") != "success":
            raise PrometheusError(f"{path} {params}: {body.get('errorType')}: {body.get('error')}")
        return body["data"]

    def query(self, expr: str, at: float | None = None) -> list[dict[str, Any]]:
        """Instant query (at ``at``, default now); the result vector (scalars become one sample)."""
        params: dict[str, str | float] = {"query": expr}
        if at is not None:
            params["time"] = at
        data = self.api("query", **params)
        if data["resultType"] == "scalar":
            return [{"metric": {}, "value": data["result"]}]
        return list(data["result"])

    def query_range(self, expr: str, start: float, end: float, step: float) -> list[dict[str, Any]]:
        """Range query: the result matrix."""
        return list(self.api("query_range", query=expr, start=start, end=end, step=step)["result"])

    def wait_scraped_after(self, moment: float, scrapes: int = 2) -> None:
        """Wait until the target has been scraped ``scrapes`` times after ``moment`` (Unix time)."""
        horizon = moment + scrapes * self.SCRAPE_SECONDS

        def check() -> bool:
            got = self.query('max(timestamp(up{job="osmia"} == 1))')
            return bool(got) and float(got[0]["value"][1]) >= horizon

        wait_for(check, timeout=30, interval=0.5, what=f"two scrapes after {moment}")

    def stop(self, timeout: float = 30.0) -> int:
        """SIGTERM, then wait for the exit code."""
        if self.proc is None or self.proc.poll() is not None:
            return self.proc.returncode if self.proc else 0
        self.proc.terminate()
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait()
