"""The operator end to end: real kube-apiserver + etcd, real kubectl, real `osmia run`, real SQLite."""

from __future__ import annotations

import itertools
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.e2e.operator_process import REPO, OperatorProcess, wait_for

pytestmark = pytest.mark.e2e
_names = itertools.count()


# --- helpers ----------------------------------------------------------------------------------


def taskrun(
    name: str,
    namespace: str,
    *,
    flow: str = "ticketing",
    engine: str = "claude-code",
    repo: str | None = "https://github.com/org/api",
    mode: str = "external",
    description: str = "Login fails under concurrent requests",
    fallbacks: tuple[str, ...] = (),
    timeout: int | None = None,
    memory: bool | None = None,
) -> str:
    spec: dict[str, Any] = {
        "flow": flow,
        "engine": engine,
        "ticket": {"id": "PROJ-123", "title": "Fix login race", "description": description, "type": "bug"},
        "execution": {"mode": mode},
    }
    if repo:
        spec["repository"] = {"url": repo, "language": "go"}
    if fallbacks:
        spec["fallbackEngines"] = list(fallbacks)
    if timeout:
        spec["execution"]["timeoutSeconds"] = timeout
    if memory is not None:
        spec["memory"] = {"enabled": memory}
    doc = {
        "apiVersion": "osmia.dev/v1alpha1",
        "kind": "TaskRun",
        "metadata": {"name": name, "namespace": namespace},
        "spec": spec,
    }
    return yaml.safe_dump(doc)


class Cluster:
    """kubectl shortcuts for one test namespace."""

    def __init__(self, cp: Any, namespace: str) -> None:
        self.cp = cp
        self.ns = namespace

    def apply(self, manifest: str) -> None:
        self.cp.kubectl("apply", "-f", "-", input=manifest)

    def get(self, kind: str, name: str) -> dict[str, Any] | None:
        proc = self.cp.kubectl("get", kind, name, "-n", self.ns, "-o", "json", check=False)
        return json.loads(proc.stdout) if proc.returncode == 0 else None

    def status(self, name: str) -> dict[str, Any]:
        body = self.get("taskrun", name) or {}
        return dict(body.get("status") or {})

    def patch_status(self, kind: str, name: str, status: dict[str, Any], check: bool = True) -> Any:
        return self.cp.kubectl(
            "patch",
            kind,
            name,
            "-n",
            self.ns,
            "--subresource=status",
            "--type=merge",
            "-p",
            json.dumps({"status": status}),
            check=check,
        )

    def wait_phase(self, name: str, phase: str, timeout: float = 30) -> dict[str, Any]:
        return dict(
            wait_for(
                lambda: (s := self.status(name)).get("phase") == phase and s,
                timeout,
                what=f"{self.ns}/{name} phase {phase}",
            )
        )

    def wait_extraction(self, name: str, state: str = "Done", timeout: float = 30) -> dict[str, Any]:
        def check() -> Any:
            status = self.status(name)
            return ((status.get("memory") or {}).get("extraction") or {}).get("state") == state and status

        return dict(wait_for(check, timeout, what=f"{self.ns}/{name} extraction {state}"))

    def prompt(self, name: str) -> str:
        self.wait_phase(name, "Running")
        cm = wait_for(lambda: self.get("configmap", f"{name}-prompt"), what=f"{name}-prompt")
        return str(cm["data"]["prompt.md"])

    def finish_external(self, name: str, result: dict[str, Any], phase: str = "Failed") -> None:
        self.wait_phase(name, "Running")
        self.patch_status("taskrun", name, {"phase": phase, "result": result})


def prior_knowledge(prompt: str) -> str:
    if "## Prior Knowledge" not in prompt:
        return ""
    section = prompt.split("## Prior Knowledge", 1)[1]
    return "## Prior Knowledge" + section.split("\n\nEngine: ", 1)[0]


# --- fixtures ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def crd(control_plane: Any) -> None:
    control_plane.kubectl("apply", "-f", str(REPO / "deploy" / "crds"))
    control_plane.kubectl("wait", "--for=condition=Established", "crd/taskruns.osmia.dev", "--timeout=60s")


@pytest.fixture(scope="module")
def operator(
    control_plane: Any, crd: None, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[OperatorProcess]:
    op = OperatorProcess(tmp_path_factory.mktemp("operator"), control_plane.kubeconfig, namespaces=("e2e-*",))
    op.start()
    yield op
    assert op.stop() == 0, op.log.read_text()[-3000:]


def new_namespace(control_plane: Any, prefix: str) -> Cluster:
    # A random part too: this module may be imported twice (as a test module and by the modules that
    # share its fixtures), each copy with its own counter.
    namespace = f"{prefix}-{next(_names)}-{uuid.uuid4().hex[:8]}"
    control_plane.kubectl("create", "namespace", namespace)
    return Cluster(control_plane, namespace)


@pytest.fixture
def cluster(control_plane: Any) -> Cluster:
    """A fresh namespace watched by the shared operator."""
    return new_namespace(control_plane, "e2e")


@pytest.fixture
def private(control_plane: Any) -> Cluster:
    """A fresh namespace that only a test's own operator watches."""
    return new_namespace(control_plane, "own")


# --- the flow -----------------------------------------------------------------------------------


def test_run_b_gets_what_run_a_learned(operator: OperatorProcess, cluster: Cluster) -> None:
    cluster.apply(taskrun("fix-login-7", cluster.ns))
    first = cluster.prompt("fix-login-7")
    assert "## Prior Knowledge" not in first  # nothing known yet: the section is left out
    cluster.finish_external(
        "fix-login-7",
        {"success": False, "failureReason": "tests failed", "testsFailed": ["TestConcurrentLogin"]},
    )
    done = cluster.wait_extraction("fix-login-7")
    assert done["memory"]["extraction"]["nodes"] > 0

    cluster.apply(taskrun("fix-login-8", cluster.ns))
    section = prior_knowledge(cluster.prompt("fix-login-8"))
    print(f"\nPrior Knowledge received by run B:\n{section}")
    line = next(x for x in section.splitlines() if "TestConcurrentLogin" in x)
    assert f"tr/{cluster.ns}/fix-login-7" in line
    status = cluster.status("fix-login-8")
    assert status["tenant"] == "ticketing"
    assert any(f"tr/{cluster.ns}/fix-login-7" in n["sources"] for n in status["memory"]["injected"])
    assert re.fullmatch(r"[0-9a-f]{64}", status["prompt"]["sha256"])
    prompt = cluster.prompt("fix-login-8")
    order = [
        prompt.index(h)
        for h in (
            "# Task PROJ-123",
            "## Instructions",
            "## Guard Rails",
            "## Prior Knowledge",
            "Engine: claude-code",
        )
    ]
    assert order == sorted(order)
    cm = cluster.get("configmap", "fix-login-8-prompt") or {}
    assert cm["metadata"]["ownerReferences"][0]["kind"] == "TaskRun"


def test_tenants_never_see_each_other(operator: OperatorProcess, cluster: Cluster) -> None:
    marker = "Kafka consumer lag runbook"
    cluster.apply(
        taskrun("inc-1", cluster.ns, flow="incident-triage", repo=None, description=f"{marker} page")
    )
    cluster.finish_external(
        "inc-1",
        {"success": True, "learnings": [f"{marker}: restart the consumer group first"]},
        phase="Succeeded",
    )
    cluster.wait_extraction("inc-1")
    cluster.apply(
        taskrun("tk-1", cluster.ns, repo="https://github.com/org/lagged", description=f"{marker} fix")
    )
    cluster.finish_external(
        "tk-1",
        {
            "success": False,
            "failureReason": "tests failed",
            "testsFailed": ["TestLag"],
            "learnings": [f"{marker}: ticketing lesson about lag"],
        },
    )
    cluster.wait_extraction("tk-1")

    cluster.apply(
        taskrun("inc-2", cluster.ns, flow="incident-triage", repo=None, description=f"{marker} again")
    )
    incident = prior_knowledge(cluster.prompt("inc-2"))
    assert "restart the consumer group" in incident
    assert "ticketing lesson" not in incident and "TestLag" not in incident

    cluster.apply(
        taskrun("tk-2", cluster.ns, repo="https://github.com/org/lagged", description=f"{marker} again")
    )
    ticketing = prior_knowledge(cluster.prompt("tk-2"))
    assert "TestLag" in ticketing
    assert "restart the consumer group" not in ticketing
    assert cluster.status("inc-2")["tenant"] == "incident-triage"


def test_job_mode_mounts_the_prompt_fills_the_result_and_falls_back(
    operator: OperatorProcess, cluster: Cluster
) -> None:
    cluster.apply(taskrun("job-1", cluster.ns, mode="job", fallbacks=("aider",)))
    cluster.wait_phase("job-1", "Running")
    job = wait_for(lambda: cluster.get("job", "job-1-0-claude-code"), what="first job")
    pod_spec = job["spec"]["template"]["spec"]
    assert pod_spec["volumes"][0]["configMap"]["name"] == "job-1-prompt"
    container = pod_spec["containers"][0]
    assert container["image"] == "registry.example/claude-code-runner:1.0"
    assert container["securityContext"]["readOnlyRootFilesystem"] is True
    assert {"name": "OSMIA_PROMPT_FILE", "value": "/osmia/prompt/prompt.md"} in container["env"]

    finish_job(
        cluster,
        "job-1-0-claude-code",
        ok=False,
        message={"success": False, "failureReason": "build failed: go.sum missing"},
    )
    wait_for(lambda: cluster.get("job", "job-1-1-aider"), what="fallback job")
    assert cluster.status("job-1")["engineAttempts"] == ["claude-code", "aider"]

    finish_job(
        cluster,
        "job-1-1-aider",
        ok=True,
        message={
            "success": True,
            "summary": "added the lock",
            "filesChanged": ["internal/auth/login.go"],
            "learnings": ["Run go mod tidy before building"],
            "tokenUsage": 1234,
        },
    )
    status = cluster.wait_phase("job-1", "Succeeded")
    assert status["result"]["success"] is True
    assert status["result"]["summary"] == "added the lock"
    assert status["result"]["tokenUsage"] == 1234
    done = cluster.wait_extraction("job-1")
    assert done["memory"]["extraction"]["nodes"] > 0
    cluster.apply(taskrun("job-2", cluster.ns, mode="external", engine="aider"))
    section = prior_knowledge(cluster.prompt("job-2"))
    assert "claude-code failed and aider then succeeded" in section


def job_pod(cluster: Cluster, job: str, timeout: float = 60) -> dict[str, Any]:
    """The pod the Job controller made for ``job``, once KWOK's kubelet reports it Running."""

    def running() -> Any:
        proc = cluster.cp.kubectl(
            "get", "pods", "-n", cluster.ns, "-l", f"batch.kubernetes.io/job-name={job}", "-o", "json"
        )
        pods = [
            p for p in json.loads(proc.stdout)["items"] if (p.get("status") or {}).get("phase") == "Running"
        ]
        return pods[0] if pods else None

    return dict(wait_for(running, timeout, what=f"a running pod of job {job}"))


def finish_job(cluster: Cluster, job: str, *, ok: bool, message: dict[str, Any] | str) -> None:
    """End the agent in the Job's pod: KWOK writes the terminated status (exit code, termination
    message) as a kubelet would, and the real Job controller turns it into the Job's verdict."""
    pod = job_pod(cluster, job)
    text = message if isinstance(message, str) else json.dumps(message)
    cluster.cp.kubectl(
        "annotate",
        "pod",
        pod["metadata"]["name"],
        "-n",
        cluster.ns,
        f"osmia.dev/e2e-message={text}",
        f"osmia.dev/e2e-exit-code={0 if ok else 1}",
    )


def test_bad_input_is_refused_or_reported_and_the_operator_keeps_serving(
    operator: OperatorProcess, cluster: Cluster
) -> None:
    bad = taskrun("bad-1", cluster.ns).replace("engine: claude-code", "engine: Claude Code!")
    refused = cluster.cp.kubectl("apply", "-f", "-", input=bad, check=False)
    assert refused.returncode != 0 and "spec.engine" in refused.stderr

    cluster.apply(taskrun("odd-1", cluster.ns))
    cluster.wait_phase("odd-1", "Running")
    malformed = cluster.patch_status(
        "taskrun", "odd-1", {"phase": "Done", "result": {"summary": "x"}}, check=False
    )
    assert malformed.returncode != 0 and "status.phase" in malformed.stderr

    # Accepted by the schema, but it contradicts itself: memory must not learn from it.
    cluster.patch_status("taskrun", "odd-1", {"phase": "Succeeded", "result": {"success": False}})
    failed = cluster.wait_extraction("odd-1", "Failed")
    assert "status.result.success" in failed["memory"]["extraction"]["error"]

    cluster.apply(taskrun("ok-1", cluster.ns))
    cluster.finish_external("ok-1", {"success": False, "testsFailed": ["TestStillServing"]})
    cluster.wait_extraction("ok-1")


def test_a_run_past_its_timeout_is_timed_out(operator: OperatorProcess, cluster: Cluster) -> None:
    cluster.apply(taskrun("slow-1", cluster.ns, timeout=2))
    status = cluster.wait_phase("slow-1", "TimedOut", timeout=40)
    assert status["result"]["success"] is False and "timed out" in status["result"]["failureReason"]
    cluster.wait_extraction("slow-1")


def test_metrics_show_the_contract_metrics_moving(operator: OperatorProcess, cluster: Cluster) -> None:
    before = operator.metrics()
    cluster.apply(taskrun("m-1", cluster.ns))
    cluster.finish_external("m-1", {"success": False, "testsFailed": ["TestMetrics"]})
    cluster.wait_extraction("m-1")
    cluster.apply(taskrun("m-2", cluster.ns))
    cluster.prompt("m-2")
    after = operator.metrics()
    assert sample(after, 'osmia_memory_queries_total{engine="claude-code"}') > sample(
        before, 'osmia_memory_queries_total{engine="claude-code"}'
    )
    assert sample(after, 'osmia_memory_extractions_total{outcome="done"}') > sample(
        before, 'osmia_memory_extractions_total{outcome="done"}'
    )
    assert sample(after, 'osmia_memory_nodes_total{type="fact"}') > 0
    assert sample(after, "osmia_memory_confidence_distribution_count") > sample(
        before, "osmia_memory_confidence_distribution_count"
    )
    assert sample(after, "osmia_memory_query_duration_seconds_count") > 0
    assert sample(after, "osmia_memory_extraction_duration_seconds_count") > 0
    assert sample(after, 'osmia_taskruns{phase="Running"}') >= 1
    for name in (
        "osmia_memory_decay_cycles_total",
        "osmia_memory_pruned_nodes_total",
        "osmia_memory_last_decay_timestamp_seconds",
    ):
        assert name in after
    assert "fix-login" not in after and cluster.ns not in after  # no names in labels


def sample(text: str, series: str) -> float:
    for line in text.splitlines():
        if line.startswith(series + " "):
            return float(line.rsplit(" ", 1)[1])
    return 0.0


# --- restarts and modes ------------------------------------------------------------------------


def test_sigkill_during_extraction_loses_and_duplicates_nothing(
    control_plane: Any, crd: None, private: Cluster, tmp_path: Path
) -> None:
    cluster = private
    runs = 60
    for i in range(runs):  # finished while no operator runs: all of them queue at start
        cluster.apply(taskrun(f"k-{i}", cluster.ns, repo=f"https://github.com/org/repo{i % 3}"))
        cluster.patch_status(
            "taskrun",
            f"k-{i}",
            {
                "phase": "Failed",
                "result": {
                    "success": False,
                    "testsFailed": [f"TestCrash{i % 5}"],
                    "learnings": [f"lesson number {i} about crashes"],
                },
            },
        )
    first = OperatorProcess(tmp_path, control_plane.kubeconfig, namespaces=(cluster.ns,)).start()
    wait_for(lambda: count_runs(first.db) > 0, interval=0.01, what="the first committed extraction")
    first.stop(signal.SIGKILL)
    partial = count_runs(first.db)
    second = OperatorProcess(tmp_path, control_plane.kubeconfig, namespaces=(cluster.ns,))
    second.metrics_port, second.liveness_port = first.metrics_port, first.liveness_port
    second.start()
    try:
        for i in range(runs):
            cluster.wait_extraction(f"k-{i}", timeout=60)
    finally:
        assert second.stop() == 0
    assert partial < runs, "the kill landed after every extraction; nothing was interrupted"
    with sqlite3.connect(first.db) as conn:
        assert conn.execute("SELECT count(*) FROM runs").fetchone()[0] == runs
        for sources, occurrences in conn.execute("SELECT sources, occurrences FROM nodes"):
            refs = json.loads(sources)
            assert len(refs) == len(set(refs)), "a run was counted twice"
            assert occurrences >= len(refs)
        failing = conn.execute("SELECT occurrences FROM nodes WHERE kind = 'failing_test'").fetchall()
        assert sum(o for (o,) in failing) == runs  # one observation per run, none lost, none twice


def count_runs(db: Path) -> int:
    """Committed extractions (0 while the database or its schema does not exist yet)."""
    if not db.exists():
        return 0
    try:
        with sqlite3.connect(db, timeout=5) as conn:
            return int(conn.execute("SELECT count(*) FROM runs").fetchone()[0])
    except sqlite3.OperationalError:
        return 0


def test_memory_disabled_means_no_database_and_no_section(
    control_plane: Any, crd: None, private: Cluster, tmp_path: Path
) -> None:
    cluster = private
    op = OperatorProcess(tmp_path, control_plane.kubeconfig, namespaces=(cluster.ns,), memory=False).start()
    try:
        cluster.apply(taskrun("off-1", cluster.ns))
        cluster.finish_external("off-1", {"success": False, "testsFailed": ["TestOff"]})
        status = cluster.wait_extraction("off-1", "Skipped")
        assert status["memory"]["injected"] == []
        cluster.apply(taskrun("off-2", cluster.ns))
        assert "## Prior Knowledge" not in cluster.prompt("off-2")
        assert not op.db.exists() and not list(tmp_path.glob("*.db*"))
        assert "osmia_memory_queries_total{" not in op.metrics()
    finally:
        assert op.stop() == 0


def test_a_run_can_opt_out_of_memory(operator: OperatorProcess, cluster: Cluster) -> None:
    cluster.apply(taskrun("opt-out", cluster.ns, memory=False))
    assert cluster.status("opt-out") is not None
    cluster.finish_external("opt-out", {"success": False, "testsFailed": ["TestOptOut"]})
    status = cluster.wait_extraction("opt-out", "Skipped")
    assert status["memory"]["injected"] == []


def test_peering_keeps_one_operator_active_and_fails_over(
    control_plane: Any, crd: None, private: Cluster, tmp_path: Path
) -> None:
    cluster = private
    peering = {
        "apiVersion": "kopf.dev/v1",
        "kind": "KopfPeering",
        "metadata": {"name": "osmia-e2e", "namespace": cluster.ns},
    }
    cluster.apply(yaml.safe_dump(peering))
    high = OperatorProcess(
        tmp_path / "high", control_plane.kubeconfig, namespaces=(cluster.ns,), peering=("osmia-e2e", 100)
    )
    low = OperatorProcess(
        tmp_path / "low", control_plane.kubeconfig, namespaces=(cluster.ns,), peering=("osmia-e2e", 10)
    )
    high.start()
    wait_for(lambda: len(peers(cluster)) == 1, what="the first operator in the peering object")
    low.start()
    wait_for(lambda: len(peers(cluster)) == 2, what="both operators in the peering object")
    try:
        cluster.apply(taskrun("peer-1", cluster.ns))
        cluster.prompt("peer-1")
        assert queries(high) == 1 and queries(low) == 0  # the lower priority one paused
        assert high.stop() == 0  # a clean exit leaves the peering: the other one resumes
        wait_for(lambda: len(peers(cluster)) == 1, what="the stopped operator to leave")
        cluster.apply(taskrun("peer-2", cluster.ns))
        cluster.prompt("peer-2")
        assert queries(low) == 1
    finally:
        high.stop()
        assert low.stop() == 0


def peers(cluster: Cluster) -> dict[str, Any]:
    body = cluster.get("kopfpeering", "osmia-e2e") or {}
    return dict(body.get("status") or {})


def queries(op: OperatorProcess) -> float:
    return sample(op.metrics(), 'osmia_memory_queries_total{engine="claude-code"}')


def test_a_corrupt_database_stops_the_operator_with_a_clear_error_and_is_left_alone(
    control_plane: Any, crd: None, private: Cluster, tmp_path: Path
) -> None:
    op = OperatorProcess(tmp_path, control_plane.kubeconfig, namespaces=(private.ns,))
    op.db.write_bytes(os.urandom(8192))
    before = op.db.read_bytes()
    proc = subprocess.run(
        [sys.executable, "-m", "osmia", "run", "--config", str(op.config), "--standalone", "-n", private.ns],
        env={**os.environ, "KUBECONFIG": str(control_plane.kubeconfig)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode != 0
    assert f"memory database {op.db}" in proc.stderr and "restore a backup" in proc.stderr
    assert op.db.read_bytes() == before
