"""Job mode on a cluster with the real Job controller, garbage collector and TTL controller (KWOK nodes).

Each test here guards a bug from issue 11 that tests playing the Job controller
by hand could not catch.
"""

# ruff: noqa: F811  (pytest fixtures imported from test_operator are parameters here)
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.e2e.operator_process import OperatorProcess, wait_for
from tests.e2e.test_operator import (  # noqa: F401 (fixtures)
    Cluster,
    cluster,
    crd,
    finish_job,
    operator,
    private,
    sample,
    taskrun,
)

pytestmark = pytest.mark.e2e


def succeeded_condition(status: dict[str, Any]) -> str:
    return next(c["status"] for c in status.get("conditions") or [] if c["type"] == "Succeeded")


def test_two_long_names_that_differ_only_at_the_end_each_follow_their_own_job(
    operator: OperatorProcess, cluster: Cluster
) -> None:
    head = "nightly-dependency-upgrade-for-the-payments-service-repository-a"
    first, second = f"{head}-1", f"{head}-2"  # 65 characters: cut to 63 they were one Job
    for name in (first, second):
        cluster.apply(taskrun(name, cluster.ns, mode="job"))
    jobs = {}
    for name in (first, second):
        cluster.wait_phase(name, "Running")
        jobs[name] = cluster.status(name)["engineAttempts"]
        proc = cluster.cp.kubectl(
            "get", "jobs", "-n", cluster.ns, "-l", f"osmia.dev/taskrun-uid={uid(cluster, name)}", "-o", "json"
        )
        (job,) = json.loads(proc.stdout)["items"]
        assert len(job["metadata"]["name"]) <= 63
        assert job["metadata"]["annotations"]["osmia.dev/taskrun"] == name
        jobs[name] = job["metadata"]["name"]
    assert jobs[first] != jobs[second]
    finish_job(cluster, jobs[first], ok=True, message={"success": True, "summary": "first"})
    finish_job(cluster, jobs[second], ok=False, message={"success": False, "failureReason": "second"})
    assert cluster.wait_phase(first, "Succeeded")["result"]["summary"] == "first"
    assert cluster.wait_phase(second, "Failed")["result"]["failureReason"] == "second"


def uid(cluster: Cluster, name: str) -> str:
    return str((cluster.get("taskrun", name) or {})["metadata"]["uid"])


def test_a_name_longer_than_63_characters_gets_its_prompt_and_job(
    operator: OperatorProcess, cluster: Cluster
) -> None:
    name = "incident-" + "x" * 100  # a valid TaskRun name, too long for any label value
    cluster.apply(taskrun(name, cluster.ns, mode="job"))
    status = cluster.wait_phase(name, "Running")
    cm = cluster.get("configmap", status["prompt"]["configMap"])
    assert cm is not None and "# Task PROJ-123" in cm["data"]["prompt.md"]
    assert all(len(v) <= 63 for v in cm["metadata"]["labels"].values())
    assert cm["metadata"]["annotations"]["osmia.dev/taskrun"] == name


def test_a_termination_message_the_kubelet_cut_still_yields_the_result(
    operator: OperatorProcess, cluster: Cluster
) -> None:
    cluster.apply(taskrun("cut-1", cluster.ns, mode="job"))
    cluster.wait_phase("cut-1", "Running")
    report = {
        "summary": "long log " * 1000,
        "success": False,
        "failureReason": "tests failed",
        "testsFailed": ["TestCutLogin"],
    }
    kept = json.dumps(report).encode()[-4096:].decode(errors="ignore")  # what the kubelet keeps
    finish_job(cluster, "cut-1-0-claude-code", ok=False, message=kept)
    status = cluster.wait_phase("cut-1", "Failed")
    assert status["result"]["success"] is False
    assert status["result"]["testsFailed"] == ["TestCutLogin"]
    assert status["result"]["failureReason"] == "tests failed"

    def warnings() -> list[str]:
        events = cluster.cp.kubectl(
            "get", "events", "-n", cluster.ns, "--field-selector", "involvedObject.name=cut-1", "-o", "json"
        )
        return [e["message"] for e in json.loads(events.stdout)["items"] if e["type"] == "Warning"]

    wait_for(
        lambda: any("termination message was cut" in m for m in warnings()),
        timeout=20,
        what="a Warning event on the TaskRun (kubectl describe tr)",
    )


def test_external_mode_keeps_succeeded_true_after_extraction_and_counts_the_phase_once(
    operator: OperatorProcess, cluster: Cluster
) -> None:
    """Bug: [Succeeded=True] became [MemoryExtracted=True, Succeeded=Unknown]; the counter went up twice."""
    before = sample(operator.metrics(), 'osmia_taskrun_phase_transitions_total{phase="Succeeded"}')
    cluster.apply(taskrun("ext-1", cluster.ns))
    cluster.finish_external("ext-1", {"success": True, "summary": "done"}, phase="Succeeded")
    status = cluster.wait_extraction("ext-1")
    wait_for(
        lambda: succeeded_condition(cluster.status("ext-1")) == "True", timeout=10, what="Succeeded=True"
    )
    status = cluster.status("ext-1")
    types = {c["type"]: c["status"] for c in status["conditions"]}
    assert types == {"Succeeded": "True", "MemoryExtracted": "True"}
    assert status["completionTime"] and status["observedGeneration"] == 1
    after = sample(operator.metrics(), 'osmia_taskrun_phase_transitions_total{phase="Succeeded"}')
    assert after - before == 1


def test_a_taskrun_carries_no_finalizer_and_no_kopf_annotations(
    operator: OperatorProcess, cluster: Cluster
) -> None:
    """Load: kopf timers and on.create put a finalizer and progress annotations on every run, three
    extra writes per TaskRun and the 409s they caused; the Sweeper needs neither."""
    cluster.apply(taskrun("lean-1", cluster.ns))
    cluster.finish_external("lean-1", {"success": False, "failureReason": "tests failed"})
    cluster.wait_extraction("lean-1")
    body = cluster.get("taskrun", "lean-1") or {}
    meta = body["metadata"]
    assert not meta.get("finalizers")
    assert not [k for k in meta.get("annotations") or {} if k.startswith("kopf.osmia.dev")]
    assert succeeded_condition(body["status"]) == "False"  # settled by the extraction's one write
    # Upgrade: a run that an older operator (kopf timers) put its finalizer on is released, so deleting
    # it does not hang.
    old = yaml.safe_load(taskrun("old-1", cluster.ns))
    old["metadata"]["finalizers"] = ["osmia.dev/finalizer"]
    cluster.apply(yaml.safe_dump(old))
    wait_for(
        lambda: not ((cluster.get("taskrun", "old-1") or {}).get("metadata") or {}).get("finalizers"),
        timeout=30,
        what="kopf to remove the finalizer no handler needs any more",
    )


def test_deleting_a_taskrun_collects_its_prompt_and_jobs_and_finished_jobs_expire(
    control_plane: Any, crd: None, private: Cluster, tmp_path: Path
) -> None:
    cluster = private
    op = OperatorProcess(
        tmp_path,
        control_plane.kubeconfig,
        namespaces=(cluster.ns,),
        extra={"execution": {"ttl_seconds_after_finished": 3}},
    ).start()
    try:
        cluster.apply(taskrun("gone-1", cluster.ns, mode="job"))
        cluster.wait_phase("gone-1", "Running")
        assert cluster.get("job", "gone-1-0-claude-code") and cluster.get("configmap", "gone-1-prompt")
        cluster.cp.kubectl("delete", "taskrun", "gone-1", "-n", cluster.ns, "--wait=true", "--timeout=60s")
        wait_for(
            lambda: (
                cluster.get("job", "gone-1-0-claude-code") is None
                and cluster.get("configmap", "gone-1-prompt") is None
            ),
            timeout=60,
            what="the garbage collector to remove the Job and the prompt ConfigMap",
        )
        wait_for(lambda: not pods(cluster), timeout=60, what="the Job's pods to be collected")

        cluster.apply(taskrun("ttl-1", cluster.ns, mode="job"))
        cluster.wait_phase("ttl-1", "Running")
        finish_job(cluster, "ttl-1-0-claude-code", ok=True, message={"success": True})
        cluster.wait_phase("ttl-1", "Succeeded")
        wait_for(
            lambda: cluster.get("job", "ttl-1-0-claude-code") is None,
            timeout=60,
            what="the TTL-after-finished controller to remove the finished Job",
        )
        assert cluster.status("ttl-1")["phase"] == "Succeeded"  # its result was read before it went
    finally:
        assert op.stop() == 0


def pods(cluster: Cluster) -> list[dict[str, Any]]:
    proc = cluster.cp.kubectl("get", "pods", "-n", cluster.ns, "-o", "json")
    return list(json.loads(proc.stdout)["items"])


def test_a_prompt_configmap_left_by_a_crash_is_rewritten(operator: OperatorProcess, cluster: Cluster) -> None:
    """A retried start finds its ConfigMap already there (409) and rewrites the prompt in it."""
    cluster.cp.kubectl(
        "create", "configmap", "left-1-prompt", "-n", cluster.ns, "--from-literal=prompt.md=stale"
    )
    cluster.apply(taskrun("left-1", cluster.ns))
    assert "# Task PROJ-123" in cluster.prompt("left-1")
