"""The operator under faults: SIGKILLs, API server and etcd restarts, one API call in ten failing.

Each test runs a flow of TaskRuns in both modes on the real cluster (Job
controller, scheduler, KWOK node). A harness thread plays the executor
(external mode) and the agents (job mode: it tells KWOK how each pod ends).
Afterwards every run must have reached its true terminal phase, none may be
``TimedOut``, every extraction must have happened exactly once, and the
knowledge must equal that of a clean replay of the same runs into a fresh
database (``osmia memory ingest``).
"""

# ruff: noqa: F811  (pytest fixtures imported from test_operator are parameters here)
from __future__ import annotations

import json
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import yaml
from kubernetes import client
from kubernetes import config as kubeconfig
from kubernetes.client.exceptions import ApiException

from tests.e2e.operator_process import REPO, OperatorProcess, wait_for
from tests.e2e.test_operator import Cluster, crd, private, taskrun  # noqa: F401 (fixtures)

# Flows of 40-120 runs on a shared 2-core machine: minutes, not the suite's default 300 s per test.
pytestmark = [pytest.mark.e2e, pytest.mark.timeout(1200)]
sys.path.insert(0, str(REPO / "hack" / "controlplane"))

from faultproxy import FaultProxy  # noqa: E402

GROUP, VERSION, PLURAL = "osmia.dev", "v1alpha1", "taskruns"


# --- the flow ---------------------------------------------------------------------------------


def run_name(mode: str, i: int) -> str:
    return f"{mode[:3]}-{i:03d}"


def expected_phase(mode: str, i: int) -> str:
    """External: the executor's verdict. Job: claude-code fails on even i; aider then succeeds when 4 | i."""
    if mode == "external":
        return "Succeeded" if i % 3 == 0 else "Failed"
    return "Succeeded" if i % 2 == 1 or i % 4 == 0 else "Failed"


def external_result(i: int) -> dict[str, Any]:
    if i % 3 == 0:
        return {"success": True, "summary": f"fixed {i}", "learnings": [f"chaos lesson {i % 5}"]}
    return {"success": False, "failureReason": "tests failed", "testsFailed": [f"TestChaos{i % 7}"]}


def agent_outcome(job: str, i: int) -> tuple[int, str]:
    """Exit code and termination message of the agent in ``job`` of run ``i``."""
    if job.endswith("-0-claude-code") and i % 2 == 0:
        return 1, json.dumps(
            {"success": False, "failureReason": "build failed", "testsFailed": [f"TestJob{i % 5}"]}
        )
    if job.endswith("-1-aider") and i % 4 != 0:
        return 1, json.dumps({"success": False, "testsFailed": [f"TestFallback{i % 3}"]})
    return 0, json.dumps({"success": True, "summary": f"job {i} done", "learnings": [f"job lesson {i % 4}"]})


class Harness(threading.Thread):
    """The outside world: finishes external runs and ends agents' pods, forever until stopped."""

    def __init__(self, kube_config: Path, namespace: str) -> None:
        super().__init__(daemon=True, name="chaos-harness")
        api = kubeconfig.new_client_from_config(str(kube_config))
        self.custom = client.CustomObjectsApi(api)
        self.core = client.CoreV1Api(api)
        self.ns = namespace
        self.done: set[str] = set()
        self.errors = 0
        self._stop_event = threading.Event()

    def stop(self) -> None:
        self._stop_event.set()
        self.join(30)

    def run(self) -> None:
        while not self._stop_event.wait(0.3):
            try:
                self._tick()
            except Exception:  # the API server may be down for a while: try again
                self.errors += 1

    def _tick(self) -> None:
        runs = self.custom.list_namespaced_custom_object(GROUP, VERSION, self.ns, PLURAL)["items"]
        for body in runs:
            name = body["metadata"]["name"]
            status = body.get("status") or {}
            if name.startswith("ext-") and status.get("phase") == "Running" and name not in self.done:
                i = int(name.split("-")[1])
                phase = expected_phase("external", i)
                patch = {"status": {"phase": phase, "result": external_result(i)}}
                self.custom.patch_namespaced_custom_object_status(
                    GROUP, VERSION, self.ns, PLURAL, name, patch
                )
                self.done.add(name)
        for pod in self.core.list_namespaced_pod(self.ns).items:
            annotations = pod.metadata.annotations or {}
            if pod.status.phase != "Running" or "osmia.dev/e2e-exit-code" in annotations:
                continue
            job = (pod.metadata.labels or {}).get("batch.kubernetes.io/job-name", "")
            owner = (pod.metadata.annotations or {}).get("osmia.dev/taskrun") or job.split("-")[0]
            i = int(job.split("-")[1])
            code, message = agent_outcome(job, i)
            del owner
            patch = {
                "metadata": {
                    "annotations": {"osmia.dev/e2e-exit-code": str(code), "osmia.dev/e2e-message": message}
                }
            }
            try:
                self.core.patch_namespaced_pod(pod.metadata.name, self.ns, patch)
            except ApiException as exc:
                if exc.status != 404:
                    raise


def create_runs(cluster: Cluster, names: list[tuple[str, int]]) -> None:
    """One ``kubectl apply`` per batch: TaskRuns of both modes, with a fallback for job mode."""
    docs = []
    for mode, i in names:
        doc = yaml.safe_load(
            taskrun(
                run_name(mode, i),
                cluster.ns,
                mode=mode,
                repo=f"https://github.com/org/chaos{i % 4}",
                fallbacks=("aider",) if mode == "job" else (),
                timeout=900,
            )
        )
        docs.append(doc)
    cluster.apply(yaml.safe_dump_all(docs))


def all_runs(cluster: Cluster) -> list[dict[str, Any]]:
    proc = cluster.cp.kubectl("get", "taskruns", "-n", cluster.ns, "-o", "json")
    return list(json.loads(proc.stdout)["items"])


def wait_all_extracted(cluster: Cluster, total: int, timeout: float) -> list[dict[str, Any]]:
    def check() -> Any:
        runs = all_runs(cluster)
        done = [
            r
            for r in runs
            if ((r.get("status") or {}).get("memory") or {}).get("extraction", {}).get("state") == "Done"
        ]
        return runs if len(runs) == total and len(done) == total else None

    return list(wait_for(check, timeout, interval=2, what=f"all {total} runs extracted"))


def check_outcome(cluster: Cluster, runs: list[dict[str, Any]], db: Path, tmp_path: Path) -> None:
    """True terminal phases, no false TimedOut, exactly-once extraction, knowledge = clean replay."""
    wrong = []
    for body in runs:
        mode, index = body["metadata"]["name"].split("-")
        want = expected_phase("external" if mode == "ext" else "job", int(index))
        status = body["status"]
        if status["phase"] != want:
            wrong.append((body["metadata"]["name"], status["phase"], want, status.get("result")))
        conditions = {c["type"]: c["status"] for c in status["conditions"]}
        assert conditions["Succeeded"] == ("True" if want == "Succeeded" else "False"), body["metadata"][
            "name"
        ]
        assert conditions["MemoryExtracted"] == "True"
    assert not wrong, wrong
    assert not [r for r in runs if r["status"]["phase"] == "TimedOut"]

    # The replay takes the runs in the order the operator extracted them (rowid order of its ledger):
    # what a run teaches may depend on what came before it, never on crashes, retries or faults.
    with sqlite3.connect(db) as conn:
        order = {ref: n for n, (ref,) in enumerate(conn.execute("SELECT ref FROM runs ORDER BY rowid"))}
    ns = cluster.ns
    ordered = sorted(runs, key=lambda r: order.get(f"tr/{ns}/{r['metadata']['name']}", len(order)))
    replay_db = tmp_path / "replay.db"
    dump = tmp_path / "runs.json"
    dump.write_text(json.dumps({"apiVersion": "v1", "kind": "List", "items": ordered}))
    proc = subprocess.run(
        [sys.executable, "-m", "osmia", "memory", "--db", str(replay_db), "ingest", str(dump)],
        capture_output=True,
        text=True,
        check=False,
        cwd=REPO,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    mine, clean = knowledge(db), knowledge(replay_db)
    assert mine["runs"] == clean["runs"]
    differ = {
        k: (mine["nodes"].get(k), clean["nodes"].get(k))
        for k in set(mine["nodes"]) | set(clean["nodes"])
        if mine["nodes"].get(k) != clean["nodes"].get(k)
    }
    assert not differ, f"{len(differ)} nodes differ from a clean replay, e.g. {sorted(differ.items())[:5]}"
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM runs").fetchone()[0] == len(runs)


def knowledge(db: Path) -> dict[str, Any]:
    """What a database knows, independent of the order runs were extracted in."""
    with sqlite3.connect(db) as conn:
        nodes = {}
        for tenant, kind, key, occurrences, sources in conn.execute(
            "SELECT tenant, kind, key, occurrences, sources FROM nodes"
        ):
            refs = json.loads(sources)
            assert len(refs) == len(set(refs)), f"{key}: a run counted twice"
            # Sources are capped to the newest 20: beyond that, which ones remain depends on order.
            nodes[(tenant, kind, key)] = (occurrences, sorted(refs) if occurrences <= 20 else len(refs))
        runs = sorted(r for (r,) in conn.execute("SELECT ref FROM runs"))
    return {"nodes": nodes, "runs": runs}


@contextmanager
def harness(cp: Any, namespace: str) -> Iterator[Harness]:
    h = Harness(cp.kubeconfig, namespace)
    h.start()
    try:
        yield h
    finally:
        h.stop()


def operator(tmp_path: Path, kube: Path, ns: str) -> OperatorProcess:
    return OperatorProcess(
        tmp_path, kube, namespaces=(ns,), extra={"execution": {"ttl_seconds_after_finished": None}}
    )


def flow(
    cp: Any,
    cluster: Cluster,
    tmp_path: Path,
    *,
    per_mode: int,
    waves: int,
    disturb: Callable[[int, OperatorProcess], OperatorProcess],
    kube: Path | None = None,
) -> tuple[list[dict[str, Any]], OperatorProcess]:
    """Create ``per_mode`` runs of each mode in ``waves``, calling ``disturb`` between waves."""
    op = operator(tmp_path, kube or cp.kubeconfig, cluster.ns).start()
    names = [(mode, i) for i in range(per_mode) for mode in ("external", "job")]
    size = -(-len(names) // waves)
    with harness(cp, cluster.ns):
        for wave in range(waves):
            create_runs(cluster, names[wave * size : (wave + 1) * size])
            op = disturb(wave, op)
        runs = wait_all_extracted(cluster, len(names), timeout=420)
    return runs, op


# --- the tests ----------------------------------------------------------------------------------


def test_sigkill_at_20_random_points_of_a_120_run_flow(
    control_plane: Any, crd: None, private: Cluster, tmp_path: Path
) -> None:
    rng = random.Random(11)
    kills = 20
    waves = 5

    def disturb(wave: int, op: OperatorProcess) -> OperatorProcess:
        for _ in range(kills // waves):
            time.sleep(rng.uniform(0.2, 3.0))
            op.stop(signal.SIGKILL)
            fresh = operator(tmp_path, control_plane.kubeconfig, private.ns)
            fresh.metrics_port, fresh.liveness_port = op.metrics_port, op.liveness_port
            op = fresh.start()
        return op

    runs, op = flow(control_plane, private, tmp_path, per_mode=60, waves=waves, disturb=disturb)
    try:
        check_outcome(private, runs, op.db, tmp_path)
    finally:
        assert op.stop() == 0


def test_api_server_and_etcd_restarts_mid_flow(
    control_plane: Any, crd: None, private: Cluster, tmp_path: Path
) -> None:
    def disturb(wave: int, op: OperatorProcess) -> OperatorProcess:
        time.sleep(2)
        if wave == 0:
            control_plane.restart("kube-apiserver", downtime=2)
        elif wave == 1:
            control_plane.restart("etcd", downtime=2)
        return op

    runs, op = flow(control_plane, private, tmp_path, per_mode=20, waves=3, disturb=disturb)
    try:
        check_outcome(private, runs, op.db, tmp_path)
    finally:
        assert op.stop() == 0


def test_one_api_call_in_ten_failing_for_a_while(
    control_plane: Any, crd: None, private: Cluster, tmp_path: Path
) -> None:
    proxy = FaultProxy(control_plane.server, control_plane.pki, rate=0.1, seed=7).start()
    try:
        kube = proxy.write_kubeconfig(tmp_path / "proxy.kubeconfig")

        def disturb(wave: int, op: OperatorProcess) -> OperatorProcess:
            time.sleep(8)
            if wave == 2:
                proxy.rate = 0.0  # the storm passes; everything must converge
            return op

        runs, op = flow(control_plane, private, tmp_path, per_mode=20, waves=3, disturb=disturb, kube=kube)
        try:
            check_outcome(private, runs, op.db, tmp_path)
        finally:
            assert op.stop() == 0
        failed = sum(v for k, v in proxy.counts.items() if k.startswith("failed-"))
        assert failed >= 10, proxy.counts  # the faults really happened
    finally:
        proxy.stop()
