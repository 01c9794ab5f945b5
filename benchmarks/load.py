"""The operator under load: a burst of TaskRuns, then a steady rate, finished by an external executor.

One command (``benchmarks/load``): starts etcd + kube-apiserver on loopback
(hack/controlplane), the operator as a real ``osmia run`` process with memory
on, and plays the external executor from this process. Measured, per phase
(burst, steady):

* create → prompt ConfigMap: from just before the TaskRun's create call to the
  ConfigMap's ADDED event on a watch;
* terminal → extraction Done: from just before the executor's terminal status
  patch to the watch event showing ``status.memory.extraction.state: Done``;
* the operator's CPU seconds and peak RSS (``/proc``), and API requests per
  TaskRun (the API server's ``apiserver_request_total`` delta minus the
  requests this harness made itself).

Figures and their targets are printed as JSON and a Markdown table
(docs/performance.md, "The operator under load").
"""

from __future__ import annotations

import argparse
import json
import math
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from kubernetes import client, watch
from kubernetes import config as kubeconfig

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "hack" / "controlplane"))

from controlplane import ControlPlane  # noqa: E402

GROUP, VERSION, PLURAL = "osmia.dev", "v1alpha1", "taskruns"
NAMESPACE = "load"
TARGETS = {"create_to_prompt_p99_s": 2.0, "terminal_to_done_p99_s": 5.0, "peak_rss_mb": 300.0, "lost": 0}


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (``q`` in 0..100); NaN for no values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(1, min(len(ordered), math.ceil(q / 100 * len(ordered))))
    return ordered[rank - 1]


@dataclass
class Clock:
    """Client-side timestamps per TaskRun name (monotonic seconds)."""

    created: dict[str, float] = field(default_factory=dict)
    prompt: dict[str, float] = field(default_factory=dict)
    terminal: dict[str, float] = field(default_factory=dict)
    done: dict[str, float] = field(default_factory=dict)
    phase_of: dict[str, str] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)


def taskrun(name: str, i: int) -> dict[str, Any]:
    """An external-mode TaskRun; four repositories so recall and extraction do real work."""
    return {
        "apiVersion": f"{GROUP}/{VERSION}",
        "kind": "TaskRun",
        "metadata": {"name": name, "namespace": NAMESPACE},
        "spec": {
            "engine": "claude-code",
            "repository": {"url": f"https://github.com/org/load{i % 4}", "language": "go"},
            "ticket": {
                "id": f"LOAD-{i}",
                "title": "Fix flaky login",
                "description": f"Login fails under load {i % 9}",
            },
            "execution": {"mode": "external"},
        },
    }


def result(i: int) -> tuple[str, dict[str, Any]]:
    if i % 3 == 0:
        return "Succeeded", {"success": True, "summary": "fixed", "learnings": [f"load lesson {i % 11}"]}
    return "Failed", {"success": False, "failureReason": "tests failed", "testsFailed": [f"TestLoad{i % 13}"]}


class Harness:
    """Creates TaskRuns, finishes them as the executor, and timestamps what the operator does."""

    def __init__(self, kube: Path) -> None:
        api = kubeconfig.new_client_from_config(str(kube))
        self.api = api
        self.custom = client.CustomObjectsApi(api)
        self.core = client.CoreV1Api(api)
        self.clock = Clock()
        self.requests = 0  # API requests made by this harness (subtracted from the server's count)
        self._stop = threading.Event()
        self._pool = ThreadPoolExecutor(max_workers=8)
        self._threads = [
            threading.Thread(target=self._watch_configmaps, daemon=True),
            threading.Thread(target=self._watch_taskruns, daemon=True),
        ]

    def start(self) -> None:
        for t in self._threads:
            t.start()
        time.sleep(1.0)

    def stop(self) -> None:
        self._stop.set()
        self._pool.shutdown(wait=True)

    def create(self, i: int) -> None:
        name = f"tr-{i:05d}"
        with self.clock.lock:
            self.clock.created[name] = time.monotonic()
            self.requests += 1
        self.custom.create_namespaced_custom_object(GROUP, VERSION, NAMESPACE, PLURAL, taskrun(name, i))

    def create_async(self, i: int) -> None:
        self._pool.submit(self.create, i)

    def _finish(self, name: str) -> None:
        i = int(name.split("-")[1])
        phase, res = result(i)
        with self.clock.lock:
            self.clock.terminal[name] = time.monotonic()
            self.requests += 1
        self.custom.patch_namespaced_custom_object_status(
            GROUP, VERSION, NAMESPACE, PLURAL, name, {"status": {"phase": phase, "result": res}}
        )

    def _watch_configmaps(self) -> None:
        while not self._stop.is_set():
            try:
                self._configmap_events()
            except Exception:  # a watch the server ended (504 while its cache catches up): watch again
                time.sleep(0.5)

    def _configmap_events(self) -> None:
        while not self._stop.is_set():
            self.requests += 1
            for event in watch.Watch().stream(
                self.core.list_namespaced_config_map, NAMESPACE, timeout_seconds=30
            ):
                name = event["object"].metadata.name
                if event["type"] == "ADDED" and name.endswith("-prompt"):
                    with self.clock.lock:
                        self.clock.prompt.setdefault(name[: -len("-prompt")], time.monotonic())

    def _watch_taskruns(self) -> None:
        while not self._stop.is_set():
            try:
                self._taskrun_events()
            except Exception:  # as above: a fresh watch lists every run again, so nothing is missed
                time.sleep(0.5)

    def _taskrun_events(self) -> None:
        while not self._stop.is_set():
            self.requests += 1
            stream = watch.Watch().stream(
                self.custom.list_namespaced_custom_object,
                GROUP,
                VERSION,
                NAMESPACE,
                PLURAL,
                timeout_seconds=30,
            )
            for event in stream:
                body = event["object"]
                name = body["metadata"]["name"]
                status = body.get("status") or {}
                now = time.monotonic()
                with self.clock.lock:
                    phase = status.get("phase")
                    first_running = phase == "Running" and name not in self.clock.terminal
                    state = ((status.get("memory") or {}).get("extraction") or {}).get("state")
                    if state == "Done":
                        self.clock.done.setdefault(name, now)
                    if phase:
                        self.clock.phase_of[name] = phase
                if first_running:
                    with self.clock.lock:
                        self.clock.terminal[name] = float("inf")  # claimed; set for real in _finish
                    self._pool.submit(self._finish, name)


def request_total(cp: ControlPlane) -> float:
    """Sum of ``apiserver_request_total`` over every label set."""
    out = cp.kubectl("get", "--raw", "/metrics").stdout
    return sum(
        float(line.rsplit(" ", 1)[1])
        for line in out.splitlines()
        if line.startswith("apiserver_request_total{")
    )


def proc_cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def proc_peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_operator(folder: Path, kube: Path) -> subprocess.Popen[bytes]:
    liveness = free_port()
    config = {
        "memory": {"enabled": True, "store_path": str(folder / "memory.db")},
        "operator": {"metrics_port": 0, "log_format": "json", "log_level": "info"},
        "engines": {"claude-code": {"image": "registry.example/claude-code-runner:1.0"}},
    }
    (folder / "osmia-config.yaml").write_text(yaml.safe_dump(config))
    log = (folder / "operator.log").open("ab")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "osmia",
            "run",
            "--config",
            str(folder / "osmia-config.yaml"),
            "--standalone",
            "--liveness",
            f"http://127.0.0.1:{liveness}/healthz",
            "-n",
            NAMESPACE,
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
        env={**os.environ, "KUBECONFIG": str(kube)},
        cwd=REPO,
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"operator exited: {(folder / 'operator.log').read_text()[-2000:]}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{liveness}/healthz", timeout=2):
                return proc
        except OSError:
            time.sleep(0.3)
    raise RuntimeError("operator not live after 120 s")


def summarize(clock: Clock, names: list[str]) -> dict[str, Any]:
    prompt = [clock.prompt[n] - clock.created[n] for n in names if n in clock.prompt and n in clock.created]
    done = [
        clock.done[n] - clock.terminal[n]
        for n in names
        if n in clock.done and clock.terminal.get(n, float("inf")) != float("inf")
    ]
    out: dict[str, Any] = {"taskruns": len(names)}
    for label, values in (("create_to_prompt", prompt), ("terminal_to_done", done)):
        for q in (50, 95, 99):
            out[f"{label}_p{q}_s"] = round(percentile(values, q), 3)
    out["lost"] = sum(1 for n in names if n not in clock.done)
    return out


def wait_established(cp: ControlPlane, timeout: float = 60.0) -> None:
    """Wait for the CRD; ``kubectl wait`` fails outright while the CRD has no conditions yet."""
    deadline = time.monotonic() + timeout
    while True:
        proc = cp.kubectl(
            "wait", "--for=condition=Established", "crd/taskruns.osmia.dev", "--timeout=10s", check=False
        )
        if proc.returncode == 0:
            return
        if time.monotonic() > deadline:
            raise RuntimeError(f"the TaskRun CRD is not Established: {proc.stderr.strip()}")
        time.sleep(0.5)


def run(
    cp: ControlPlane, work: Path, *, burst: int, rate: float, seconds: float, settle: float
) -> dict[str, Any]:
    """The whole measurement against a running control plane; returns the figures."""
    cp.kubectl("apply", "-f", str(REPO / "deploy" / "crds"))
    wait_established(cp)
    cp.kubectl("create", "namespace", NAMESPACE, check=False)
    operator = start_operator(work, cp.kubeconfig)
    harness = Harness(cp.kubeconfig)
    try:
        harness.start()
        requests_before = request_total(cp)
        cpu_before = proc_cpu_seconds(operator.pid)
        rss_before = proc_peak_rss_mb(operator.pid)
        plane = {c: cp._running_pid(c) for c in ("kube-apiserver", "etcd")}
        plane_before = {c: proc_cpu_seconds(pid) for c, pid in plane.items() if pid}
        started = time.monotonic()
        for i in range(burst):
            harness.create_async(i)
        burst_names = [f"tr-{i:05d}" for i in range(burst)]
        steady_start = time.monotonic()
        n = burst
        while time.monotonic() - steady_start < seconds:
            due = burst + int((time.monotonic() - steady_start) * rate)
            while n < due:
                harness.create_async(n)
                n += 1
            time.sleep(0.02)
        steady_names = [f"tr-{i:05d}" for i in range(burst, n)]
        deadline = time.monotonic() + settle
        while time.monotonic() < deadline and len(harness.clock.done) < n:
            time.sleep(0.5)
        elapsed = time.monotonic() - started
        cpu = proc_cpu_seconds(operator.pid) - cpu_before
        plane_cpu = {c: proc_cpu_seconds(plane[c]) - v for c, v in plane_before.items() if plane[c]}
        rss = proc_peak_rss_mb(operator.pid)
        requests = request_total(cp) - requests_before
    finally:
        harness.stop()
        operator.send_signal(signal.SIGTERM)
        try:
            operator.wait(60)
        except subprocess.TimeoutExpired:
            operator.kill()
    own = harness.requests + 2  # the two /metrics reads
    figures = {
        "burst": summarize(harness.clock, burst_names),
        "steady": summarize(harness.clock, steady_names),
        "steady_rate_per_s": rate,
        "wall_s": round(elapsed, 1),
        "operator_cpu_s": round(cpu, 1),
        "operator_cpu_share": round(cpu / elapsed, 3),
        "operator_cpu_ms_per_taskrun": round(1000 * cpu / max(1, n), 1),
        "apiserver_cpu_s": round(plane_cpu.get("kube-apiserver", float("nan")), 1),
        "etcd_cpu_s": round(plane_cpu.get("etcd", float("nan")), 1),
        "operator_peak_rss_mb": round(rss, 1),
        "operator_rss_before_mb": round(rss_before, 1),
        "api_requests_per_taskrun": round((requests - own) / max(1, n), 2),
        "load_average_1m": round(os.getloadavg()[0], 2),
        "lost": sum(1 for i in range(n) if f"tr-{i:05d}" not in harness.clock.done),
    }
    return figures


def report(figures: dict[str, Any]) -> str:
    """A Markdown table with the targets."""
    b, s = figures["burst"], figures["steady"]
    rows = [
        ("TaskRuns", b["taskruns"], s["taskruns"], ""),
        (
            "create → prompt ConfigMap p50 / p95 / p99 (s)",
            _ps(b, "create_to_prompt"),
            _ps(s, "create_to_prompt"),
            "p99 ≤ 2 s (steady)",
        ),
        (
            "terminal → extraction Done p50 / p95 / p99 (s)",
            _ps(b, "terminal_to_done"),
            _ps(s, "terminal_to_done"),
            "p99 ≤ 5 s (steady)",
        ),
        ("lost (never Done)", b["lost"], s["lost"], "0"),
    ]
    lines = ["| | burst | steady | target |", "|---|---|---|---|"]
    lines += [f"| {a} | {x} | {y} | {t} |" for a, x, y, t in rows]
    lines += [
        "",
        f"operator CPU {figures['operator_cpu_s']} s over {figures['wall_s']} s "
        f"({figures['operator_cpu_share']:.0%} of one core, {figures['operator_cpu_ms_per_taskrun']} ms "
        f"per TaskRun; "
        f"kube-apiserver {figures['apiserver_cpu_s']} s, etcd {figures['etcd_cpu_s']} s); "
        f"peak RSS {figures['operator_peak_rss_mb']} MB ({figures['operator_rss_before_mb']} MB before) "
        f"(target ≤ 300 MB); {figures['api_requests_per_taskrun']} API requests per TaskRun; "
        f"1-min load average at the end {figures['load_average_1m']}.",
    ]
    return "\n".join(lines)


def _ps(d: dict[str, Any], label: str) -> str:
    return " / ".join(f"{d[f'{label}_p{q}_s']:.2f}" for q in (50, 95, 99))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--burst", type=int, default=1000)
    parser.add_argument("--rate", type=float, default=10.0)
    parser.add_argument("--seconds", type=float, default=100.0)
    parser.add_argument("--settle", type=float, default=300.0, help="longest wait for the last extractions")
    parser.add_argument("--smoke", action="store_true", help="20 in a burst, then 5/s for 4 s")
    parser.add_argument("--out", type=Path, help="also write results.json here")
    args = parser.parse_args(argv)
    if args.smoke:
        args.burst, args.rate, args.seconds, args.settle = 20, 5.0, 4.0, 120.0
    with tempfile.TemporaryDirectory(prefix="osmia-load-") as tmp:
        work = Path(tmp)
        if args.out:  # keep the operator's log and database beside the results
            work = args.out / "work"
            work.mkdir(parents=True, exist_ok=True)
        cp = ControlPlane(work / "controlplane")
        cp.build()
        cp.up(fresh=True, controllers=False)
        try:
            figures = run(
                cp, work, burst=args.burst, rate=args.rate, seconds=args.seconds, settle=args.settle
            )
        finally:
            cp.down()
    print(json.dumps(figures, indent=2))
    print(report(figures))
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "load-results.json").write_text(json.dumps(figures, indent=2) + "\n")
    return 0 if figures["lost"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
