"""Job mode with the real runner: the pod's termination message is what ``osmia agent`` wrote.

A real kube-apiserver has no kubelet, so the test plays it: it reads the Job
the operator created, runs the runner locally as a process with that pod's
environment and the prompt read back from the ConfigMap (only paths that
exist in a container are pointed at temporary folders, and git is told that
the repository's URL lives in a local bare repository), then reports the
runner's termination log and exit code as the pod's. The operator turns
that into ``status.result``; the next run's Prior Knowledge holds what the
runner measured.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.agent.conftest import FIXTURES, HERE, TRANSCRIPTS, git
from tests.e2e.operator_process import OperatorProcess, wait_for
from tests.e2e.test_operator import Cluster, crd, new_namespace, prior_knowledge, taskrun

pytestmark = pytest.mark.e2e
REPO_URL = "https://git.example.com/org/calc"
__all__ = ["crd"]  # the CRD fixture, used by the operator fixture below


@pytest.fixture(scope="module")
def runner_operator(
    control_plane: Any, crd: None, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[OperatorProcess]:
    engine = {
        "image": "registry.example/osmia-runner:0.1.0",
        "env": {"OSMIA_TEST_COMMAND": f"{sys.executable} {HERE / 'fake_tests.py'}"},
    }
    op = OperatorProcess(
        tmp_path_factory.mktemp("runner-operator"),
        control_plane.kubeconfig,
        namespaces=("rn-*",),
        extra={"engines": {"claude-code": engine}},
    )
    op.start()
    yield op
    assert op.stop() == 0, op.log.read_text()[-3000:]


def seed_remote(folder: Path) -> Path:
    bare = folder / "calc.git"
    git("init", "--quiet", "--bare", "--initial-branch=main", str(bare), cwd=folder)
    seed = folder / "seed"
    (seed / "tests").mkdir(parents=True)
    (seed / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    (seed / "tests" / "test_calc.py").write_text(
        "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"
    )
    git("init", "--quiet", "--initial-branch=main", cwd=seed)
    git("add", "-A", cwd=seed)
    git("commit", "--quiet", "-m", "seed", cwd=seed)
    git("push", "--quiet", str(bare), "main", cwd=seed)
    return bare


def run_runner_as_the_pod(job: dict[str, Any], prompt: str, folder: Path, remote: Path) -> tuple[int, str]:
    """``osmia agent`` with the pod's env; returns its exit code and termination message."""
    container = job["spec"]["template"]["spec"]["containers"][0]
    pod_env = {e["name"]: e["value"] for e in container["env"]}
    folder.mkdir(parents=True, exist_ok=True)
    prompt_file = folder / "prompt.md"
    prompt_file.write_text(prompt)
    termination = folder / "termination-log"
    fake_bin = folder / "bin"
    fake_bin.mkdir()
    script = (HERE / "fake_engine.py").read_text().replace("#!/usr/bin/env python3", f"#!{sys.executable}", 1)
    (fake_bin / "claude").write_text(script)
    (fake_bin / "claude").chmod(0o755)
    env = {
        **pod_env,
        # Paths of the container, pointed at places that exist here:
        "OSMIA_PROMPT_FILE": str(prompt_file),
        "OSMIA_WORKSPACE": str(folder / "workspace"),
        "OSMIA_TERMINATION_LOG": str(termination),
        "HOME": str(folder),
        "PATH": f"{fake_bin}{os.pathsep}{os.environ['PATH']}",
        "PYTHONPATH": str(HERE.parents[1]),
        # The repository's server is a local bare repository:
        "GIT_CONFIG_COUNT": "1",
        "GIT_CONFIG_KEY_0": f"url.file://{remote}.insteadOf",
        "GIT_CONFIG_VALUE_0": REPO_URL,
        # The stand-in engine replays Claude Code's transcript:
        "FAKE_TRANSCRIPT": str(FIXTURES / TRANSCRIPTS["claude-code"]),
    }
    done = subprocess.run(
        [sys.executable, "-m", "osmia.agent"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    print(done.stderr[-2000:])
    return done.returncode, termination.read_text()


def report_pod(cluster: Cluster, job: dict[str, Any], exit_code: int, message: str) -> None:
    """Play kubelet and job controller with the runner's real exit code and termination message."""
    name = job["metadata"]["name"]
    labels = {"job-name": name, **job["spec"]["template"]["metadata"]["labels"]}
    container = job["spec"]["template"]["spec"]["containers"][0]
    pod = {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": f"{name}-pod", "namespace": cluster.ns, "labels": labels},
        "spec": {"restartPolicy": "Never", "containers": [{"name": "agent", "image": container["image"]}]},
    }
    cluster.apply(yaml.safe_dump(pod))
    now = "2026-12-01T09:00:00Z"
    terminated = {"exitCode": exit_code, "finishedAt": now, "message": message}
    state = {"name": "agent", "image": container["image"], "imageID": "", "ready": False, "restartCount": 0}
    cluster.patch_status(
        "pod",
        f"{name}-pod",
        {
            "phase": "Succeeded" if exit_code == 0 else "Failed",
            "containerStatuses": [{**state, "state": {"terminated": terminated}}],
        },
    )
    ok = exit_code == 0
    conditions = [
        {
            "type": "SuccessCriteriaMet" if ok else "FailureTarget",
            "status": "True",
            "lastTransitionTime": now,
        },
        {"type": "Complete" if ok else "Failed", "status": "True", "lastTransitionTime": now},
    ]
    extra = {"succeeded": 1, "completionTime": now} if ok else {"failed": 1}
    cluster.patch_status("job", name, {"startTime": now, "conditions": conditions, **extra})


def test_the_termination_message_is_the_runners_measured_result(
    runner_operator: OperatorProcess, control_plane: Any, tmp_path: Path
) -> None:
    cluster = new_namespace(control_plane, "rn")
    remote = seed_remote(tmp_path)
    cluster.apply(taskrun("calc-1", cluster.ns, mode="job", repo=REPO_URL, description="add() returns a - b"))
    prompt = cluster.prompt("calc-1")
    assert ".osmia/learnings.md" in prompt and "/dev/termination-log" not in prompt
    jobs = wait_for(
        lambda: json.loads(cluster.cp.kubectl("get", "jobs", "-n", cluster.ns, "-o", "json").stdout)["items"],
        what="the job",
    )
    job = jobs[0]
    env = {e["name"]: e.get("value") for e in job["spec"]["template"]["spec"]["containers"][0]["env"]}
    assert env["OSMIA_REPOSITORY_URL"] == REPO_URL
    assert env["OSMIA_ENGINE"] == "claude-code" and env["OSMIA_TICKET_ID"] == "PROJ-123"
    assert 0 < int(env["OSMIA_ENGINE_TIMEOUT_SECONDS"]) < job["spec"]["activeDeadlineSeconds"]

    code, message = run_runner_as_the_pod(job, prompt, tmp_path / "pod", remote)
    assert code == 0, message
    measured = json.loads(message)
    assert len(message.encode()) <= 4096
    report_pod(cluster, job, code, message)

    status = cluster.wait_phase("calc-1", "Succeeded")
    result = status["result"]
    for key in (
        "success",
        "filesChanged",
        "flakyTests",
        "tokenUsage",
        "toolCalls",
        "learnings",
        "branchName",
    ):
        assert result[key] == measured[key], key
    assert result["costEstimateUSD"] == pytest.approx(measured["costEstimateUSD"])
    assert result["filesChanged"] == ["calc.py"] and result["flakyTests"] == ["test_flaky"]
    assert result["tokenUsage"] == 7000 + 1000 + 500 + 175
    assert git("branch", "--list", result["branchName"], cwd=remote).strip() != ""
    cluster.wait_extraction("calc-1")

    cluster.apply(taskrun("calc-2", cluster.ns, repo=REPO_URL, description="add() returns a - b again"))
    section = prior_knowledge(cluster.prompt("calc-2"))
    print(f"\nPrior Knowledge after the measured run:\n{section}")
    flaky = next(line for line in section.splitlines() if "test_flaky" in line)
    assert f"tr/{cluster.ns}/calc-1" in flaky
    assert any("add() had its operator flipped" in line for line in section.splitlines())
