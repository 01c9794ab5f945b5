"""The TaskRun CRD against a real API server: what `kubectl apply` accepts and refuses.

Uses the session fixture `control_plane` (tests/e2e/conftest.py), which runs a
local kube-apiserver + etcd and offers `control_plane.kubectl(*args, input=None,
check=True)`.
"""

from __future__ import annotations

import copy
import json
import subprocess
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
import yaml

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
CRD_DIR = ROOT / "deploy" / "crds"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
CRD_NAME = "taskruns.osmia.dev"
URL_RULE_MESSAGE = "spec.repository.url is required when spec.flow is ticketing"


def _text(value: str | bytes | None) -> str:
    if value is None:
        return ""
    return value.decode() if isinstance(value, bytes) else value


def _output(proc: subprocess.CompletedProcess[Any]) -> str:
    return _text(proc.stdout) + _text(proc.stderr)


def load_fixture(name: str) -> dict[str, Any]:
    doc = yaml.safe_load((FIXTURES / name).read_text())
    assert isinstance(doc, dict)
    return doc


def ticketing(name: str) -> dict[str, Any]:
    doc = load_fixture("taskrun-ticketing.yaml")
    doc["metadata"]["name"] = name
    return doc


def incident(name: str) -> dict[str, Any]:
    doc = load_fixture("taskrun-incident.yaml")
    doc["metadata"]["name"] = name
    return doc


class Cluster:
    """Thin helpers around control_plane.kubectl, scoped to one namespace."""

    def __init__(self, control_plane: Any, namespace: str) -> None:
        self.cp = control_plane
        self.ns = namespace

    def kubectl(self, *args: str, input: str | None = None) -> subprocess.CompletedProcess[Any]:
        proc: subprocess.CompletedProcess[Any] = self.cp.kubectl(
            *args, "-n", self.ns, input=input, check=False
        )
        return proc

    def apply(self, doc: dict[str, Any]) -> subprocess.CompletedProcess[Any]:
        return self.kubectl("apply", "-f", "-", input=yaml.safe_dump(doc))

    def apply_ok(self, doc: dict[str, Any]) -> None:
        proc = self.apply(doc)
        assert proc.returncode == 0, _output(proc)

    def get(self, name: str) -> dict[str, Any]:
        proc = self.kubectl("get", "taskrun", name, "-o", "json")
        assert proc.returncode == 0, _output(proc)
        obj: dict[str, Any] = json.loads(_text(proc.stdout))
        return obj

    def patch(
        self, name: str, body: dict[str, Any], *, status: bool = False
    ) -> subprocess.CompletedProcess[Any]:
        args = ["patch", "taskrun", name, "--type=merge", "-p", json.dumps(body)]
        if status:
            args.append("--subresource=status")
        return self.kubectl(*args)


def _wait_until_served(control_plane: Any, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        proc = control_plane.kubectl("get", "taskruns", "--all-namespaces", check=False)
        if proc.returncode == 0:
            return
        if time.monotonic() > deadline:
            pytest.fail(f"TaskRun API never became available: {_output(proc)}")
        time.sleep(0.5)


@pytest.fixture(scope="module")
def cluster(control_plane: Any) -> Any:
    proc = control_plane.kubectl("apply", "-f", str(CRD_DIR), check=False)
    assert proc.returncode == 0, _output(proc)
    proc = control_plane.kubectl(
        "wait",
        "--for=condition=Established",
        f"crd/{CRD_NAME}",
        "--timeout=60s",
        check=False,
    )
    assert proc.returncode == 0, _output(proc)
    # Established can precede discovery; kubectl needs the kind in discovery.
    _wait_until_served(control_plane)

    namespace = f"crd-validation-{uuid.uuid4().hex[:8]}"
    proc = control_plane.kubectl("create", "namespace", namespace, check=False)
    assert proc.returncode == 0, _output(proc)
    yield Cluster(control_plane, namespace)
    # No namespace controller runs here, so do not wait for the deletion to finish.
    control_plane.kubectl("delete", "namespace", namespace, "--wait=false", check=False)


# --- the CRD itself ---------------------------------------------------------


def test_crd_is_established_with_names(cluster: Cluster) -> None:
    proc = cluster.cp.kubectl("get", "crd", CRD_NAME, "-o", "json", check=False)
    assert proc.returncode == 0, _output(proc)
    crd = json.loads(_text(proc.stdout))
    conditions = {c["type"]: c["status"] for c in crd["status"]["conditions"]}
    assert conditions.get("Established") == "True"
    assert conditions.get("NamesAccepted") == "True"
    assert crd["status"]["acceptedNames"]["shortNames"] == ["tr"]
    assert crd["status"]["acceptedNames"]["categories"] == ["osmia"]


def test_crd_server_dry_run_is_idempotent(cluster: Cluster) -> None:
    proc = cluster.cp.kubectl("apply", "--dry-run=server", "-f", str(CRD_DIR), check=False)
    assert proc.returncode == 0, _output(proc)


# --- valid objects ----------------------------------------------------------


def test_valid_ticketing_run_applies_with_defaults(cluster: Cluster) -> None:
    cluster.apply_ok(ticketing("valid-ticketing"))
    spec = cluster.get("valid-ticketing")["spec"]
    assert spec["flow"] == "ticketing"
    assert spec["memory"] == {"enabled": True}
    assert spec["execution"] == {"mode": "job", "timeoutSeconds": 3600}
    assert spec["ticket"]["id"] == "PROJ-123"


def test_minimal_ticketing_run_applies(cluster: Cluster) -> None:
    doc = {
        "apiVersion": "osmia.dev/v1alpha1",
        "kind": "TaskRun",
        "metadata": {"name": "minimal"},
        "spec": {
            "engine": "aider",
            "ticket": {"id": "GH#42", "description": "Fix the typo in README."},
            "repository": {"url": "git@github.com:org/docs.git"},
        },
    }
    cluster.apply_ok(doc)
    spec = cluster.get("minimal")["spec"]
    assert spec["flow"] == "ticketing"
    assert spec["memory"]["enabled"] is True
    assert spec["execution"]["mode"] == "job"


def test_incident_triage_run_without_repository_applies(cluster: Cluster) -> None:
    doc = incident("valid-incident")
    assert "repository" not in doc["spec"]
    cluster.apply_ok(doc)
    spec = cluster.get("valid-incident")["spec"]
    assert spec["flow"] == "incident-triage"
    assert spec["memory"]["enabled"] is False
    assert spec["execution"]["mode"] == "external"


def test_boundary_values_apply(cluster: Cluster) -> None:
    doc = ticketing("boundaries")
    doc["spec"]["fallbackEngines"] = ["aider", "codex", "a", "b-2", "c3"]
    doc["spec"]["ticket"]["title"] = "t" * 512
    doc["spec"]["ticket"]["id"] = "A" + "b" * 99
    doc["spec"]["ticket"]["labels"] = [f"l{i}" for i in range(50)]
    doc["spec"]["execution"]["timeoutSeconds"] = 86400
    cluster.apply_ok(doc)


def test_unknown_fields_are_pruned(cluster: Cluster) -> None:
    doc = ticketing("pruned")
    doc["spec"]["surprise"] = "x"
    doc["spec"]["ticket"]["priority"] = "P1"
    # kubectl's default (strict) field validation refuses unknown fields ...
    proc = cluster.apply(doc)
    assert proc.returncode != 0
    assert "unknown field" in _output(proc)
    # ... and when a client skips that check the API server prunes them.
    proc = cluster.kubectl("apply", "--validate=false", "-f", "-", input=yaml.safe_dump(doc))
    assert proc.returncode == 0, _output(proc)
    spec = cluster.get("pruned")["spec"]
    assert "surprise" not in spec
    assert "priority" not in spec["ticket"]


# --- invalid objects --------------------------------------------------------


def _without(doc: dict[str, Any], *path: str) -> dict[str, Any]:
    node = doc
    for key in path[:-1]:
        node = node[key]
    del node[path[-1]]
    return doc


def _with(doc: dict[str, Any], value: Any, *path: str) -> dict[str, Any]:
    node = doc
    for key in path[:-1]:
        node = node.setdefault(key, {})
    node[path[-1]] = value
    return doc


INVALID = [
    pytest.param(
        lambda d: _without(d, "spec", "engine"),
        ["spec.engine", "Required value"],
        id="missing-engine",
    ),
    pytest.param(
        lambda d: _without(d, "spec", "ticket"),
        ["spec.ticket", "Required value"],
        id="missing-ticket",
    ),
    pytest.param(
        lambda d: _without(d, "spec", "ticket", "description"),
        ["spec.ticket.description", "Required value"],
        id="missing-ticket-description",
    ),
    pytest.param(
        lambda d: _without(d, "spec", "ticket", "id"),
        ["spec.ticket.id", "Required value"],
        id="missing-ticket-id",
    ),
    pytest.param(
        lambda d: _with(d, "", "spec", "ticket", "description"),
        ["spec.ticket.description"],
        id="empty-ticket-description",
    ),
    pytest.param(
        lambda d: _with(d, "triage", "spec", "flow"),
        ["spec.flow", "Unsupported value", "triage"],
        id="bad-flow-enum",
    ),
    pytest.param(
        lambda d: _with(d, "Claude_Code", "spec", "engine"),
        ["spec.engine", "Claude_Code", "should match"],
        id="bad-engine-pattern",
    ),
    pytest.param(
        lambda d: _with(d, "x" * 64, "spec", "engine"),
        ["spec.engine", "Too long"],
        id="engine-too-long",
    ),
    pytest.param(
        lambda d: _with(d, ["aider", "Bad Engine"], "spec", "fallbackEngines"),
        ["spec.fallbackEngines[1]", "should match"],
        id="bad-fallback-engine",
    ),
    pytest.param(
        lambda d: _with(d, ["a", "b", "c", "d", "e", "f"], "spec", "fallbackEngines"),
        ["spec.fallbackEngines", "Too many"],
        id="too-many-fallback-engines",
    ),
    pytest.param(
        lambda d: _without(d, "spec", "repository"),
        ["spec.repository.url", URL_RULE_MESSAGE],
        id="ticketing-default-flow-without-repository",
    ),
    pytest.param(
        lambda d: _with(_without(d, "spec", "repository", "url"), "ticketing", "spec", "flow"),
        ["spec.repository.url", URL_RULE_MESSAGE],
        id="ticketing-explicit-flow-without-repository-url",
    ),
    pytest.param(
        lambda d: _with(d, "t" * 513, "spec", "ticket", "title"),
        ["spec.ticket.title", "Too long"],
        id="title-too-long",
    ),
    pytest.param(
        lambda d: _with(d, "PROJ 123", "spec", "ticket", "id"),
        ["spec.ticket.id", "should match"],
        id="bad-ticket-id",
    ),
    pytest.param(
        lambda d: _with(d, "A" * 101, "spec", "ticket", "id"),
        ["spec.ticket.id", "Too long"],
        id="ticket-id-too-long",
    ),
    pytest.param(
        lambda d: _with(d, "hotfix", "spec", "ticket", "type"),
        ["spec.ticket.type", "Unsupported value"],
        id="bad-ticket-type",
    ),
    pytest.param(
        lambda d: _with(d, [f"l{i}" for i in range(51)], "spec", "ticket", "labels"),
        ["spec.ticket.labels", "Too many"],
        id="too-many-labels",
    ),
    pytest.param(
        lambda d: _with(d, "jira.example.com/PROJ-1", "spec", "ticket", "url"),
        ["spec.ticket.url", "should match"],
        id="bad-ticket-url",
    ),
    pytest.param(
        lambda d: _with(d, "github.com/org/api", "spec", "repository", "url"),
        ["spec.repository.url", "should match"],
        id="bad-repository-url",
    ),
    pytest.param(
        lambda d: _with(d, "x" * 51, "spec", "repository", "language"),
        ["spec.repository.language", "Too long"],
        id="language-too-long",
    ),
    pytest.param(
        lambda d: _with(d, "i" * 65537, "spec", "instructions"),
        ["spec.instructions", "Too long"],
        id="instructions-too-long",
    ),
    pytest.param(
        lambda d: _with(d, "later", "spec", "execution", "mode"),
        ["spec.execution.mode", "Unsupported value"],
        id="bad-execution-mode",
    ),
    pytest.param(
        lambda d: _with(d, 0, "spec", "execution", "timeoutSeconds"),
        ["spec.execution.timeoutSeconds", "greater than or equal to 1"],
        id="timeout-zero",
    ),
    pytest.param(
        lambda d: _with(d, 86401, "spec", "execution", "timeoutSeconds"),
        ["spec.execution.timeoutSeconds", "less than or equal to 86400"],
        id="timeout-too-long",
    ),
    pytest.param(
        lambda d: _with(d, "yes", "spec", "memory", "enabled"),
        ["spec.memory.enabled"],
        id="memory-enabled-not-bool",
    ),
]


@pytest.mark.parametrize(("mutate", "expected"), INVALID)
def test_invalid_run_is_refused(cluster: Cluster, mutate: Any, expected: list[str]) -> None:
    name = f"invalid-{uuid.uuid4().hex[:8]}"
    proc = cluster.apply(mutate(ticketing(name)))
    out = _output(proc)
    assert proc.returncode != 0, f"accepted an invalid TaskRun:\n{out}"
    for fragment in expected:
        assert fragment in out, f"{fragment!r} not in:\n{out}"
    assert cluster.kubectl("get", "taskrun", name).returncode != 0, "object was stored"


def test_incident_triage_with_bad_repository_url_is_still_refused(cluster: Cluster) -> None:
    doc = incident("incident-bad-repo")
    doc["spec"]["repository"] = {"url": "not-a-url"}
    proc = cluster.apply(doc)
    assert proc.returncode != 0
    assert "spec.repository.url" in _output(proc)


# --- immutability -----------------------------------------------------------


def test_flow_and_ticket_id_are_immutable(cluster: Cluster) -> None:
    cluster.apply_ok(ticketing("immutable"))

    proc = cluster.patch("immutable", {"spec": {"flow": "incident-triage"}})
    assert proc.returncode != 0
    assert "spec.flow is immutable" in _output(proc)

    proc = cluster.patch("immutable", {"spec": {"ticket": {"id": "PROJ-999"}}})
    assert proc.returncode != 0
    assert "spec.ticket.id is immutable" in _output(proc)

    # Other spec fields may still change.
    proc = cluster.patch("immutable", {"spec": {"instructions": "Also update the changelog."}})
    assert proc.returncode == 0, _output(proc)
    assert cluster.get("immutable")["spec"]["instructions"] == "Also update the changelog."


# --- status subresource -----------------------------------------------------

GOOD_STATUS = {
    "status": {
        "observedGeneration": 1,
        "phase": "Failed",
        "tenant": "ticketing",
        "prompt": {"configMap": "status-run-prompt", "sha256": "a" * 64},
        "memory": {
            "injected": [
                {
                    "id": "n-1",
                    "kind": "failure_pattern",
                    "confidence": 0.82,
                    "score": 1.7,
                    "sources": ["tr/agents/fix-login-7"],
                }
            ],
            "extraction": {
                "state": "Done",
                "nodes": 4,
                "edges": 3,
                "finishedAt": "2025-01-01T12:00:00Z",
            },
        },
        "engineAttempts": ["claude-code", "aider"],
        "result": {
            "success": False,
            "summary": "Tests still fail.",
            "exitCode": 1,
            "failureReason": "tests failed",
            "branchName": "fix/login",
            "mergeRequestURL": "https://github.com/org/api/pull/1",
            "filesChanged": ["auth/login.go"],
            "testsFailed": ["TestConcurrentLogin"],
            "flakyTests": [],
            "durationSeconds": 312.5,
            "tokenUsage": 12000,
            "costEstimateUSD": 0.42,
            "toolCalls": {"bash": 12, "edit": 3},
            "learnings": ["Run tests with -count=1."],
        },
        "conditions": [
            {
                "type": "Ready",
                "status": "False",
                "reason": "TestsFailed",
                "message": "1 test failed",
                "lastTransitionTime": "2025-01-01T12:00:00Z",
                "observedGeneration": 1,
            }
        ],
    }
}


@pytest.fixture(scope="module")
def status_run(cluster: Cluster) -> str:
    name = "status-run"
    cluster.apply_ok(ticketing(name))
    return name


def test_good_status_patch_is_accepted(cluster: Cluster, status_run: str) -> None:
    proc = cluster.patch(status_run, GOOD_STATUS, status=True)
    assert proc.returncode == 0, _output(proc)
    status = cluster.get(status_run)["status"]
    assert status["phase"] == "Failed"
    assert status["result"]["testsFailed"] == ["TestConcurrentLogin"]
    assert status["result"]["toolCalls"] == {"bash": 12, "edit": 3}
    assert status["memory"]["injected"][0]["confidence"] == 0.82


def test_design_example_status_patch_is_accepted(cluster: Cluster) -> None:
    cluster.apply_ok(incident("external-run"))
    proc = cluster.patch(
        "external-run",
        {
            "status": {
                "phase": "Failed",
                "result": {
                    "success": False,
                    "failureReason": "tests failed",
                    "testsFailed": ["TestConcurrentLogin"],
                },
            }
        },
        status=True,
    )
    assert proc.returncode == 0, _output(proc)


def test_status_is_ignored_on_the_main_resource(cluster: Cluster) -> None:
    cluster.apply_ok(ticketing("no-status"))
    proc = cluster.patch("no-status", {"status": {"phase": "Succeeded"}})
    assert proc.returncode == 0, _output(proc)
    assert "phase" not in cluster.get("no-status").get("status", {})


BAD_STATUS = [
    pytest.param(
        {"result": {"summary": "done"}},
        ["status.result.success", "Required value"],
        id="result-without-success",
    ),
    pytest.param(
        {"phase": "Done"},
        ["status.phase", "Unsupported value", "Done"],
        id="phase-done",
    ),
    pytest.param(
        {"tenant": "everyone"},
        ["status.tenant", "Unsupported value"],
        id="bad-tenant",
    ),
    pytest.param(
        {"prompt": {"sha256": "not-a-hash"}},
        ["status.prompt.sha256"],
        id="bad-sha256",
    ),
    pytest.param(
        {"memory": {"injected": [{"id": "n", "confidence": 1.5}]}},
        ["status.memory.injected[0].confidence"],
        id="confidence-above-one",
    ),
    pytest.param(
        {"memory": {"extraction": {"state": "Running"}}},
        ["status.memory.extraction.state", "Unsupported value"],
        id="bad-extraction-state",
    ),
    pytest.param(
        {"memory": {"extraction": {"state": "Done", "finishedAt": "yesterday"}}},
        ["status.memory.extraction.finishedAt"],
        id="bad-finished-at",
    ),
    pytest.param(
        {"result": {"success": True, "toolCalls": {"bash": -1}}},
        ["status.result.toolCalls.bash"],
        id="negative-tool-calls",
    ),
    pytest.param(
        {"result": {"success": True, "tokenUsage": -5}},
        ["status.result.tokenUsage"],
        id="negative-token-usage",
    ),
    pytest.param(
        {"result": {"success": "yes"}},
        ["status.result.success"],
        id="success-not-bool",
    ),
    pytest.param(
        {"result": {"success": True, "learnings": ["x" * 1001]}},
        ["status.result.learnings[0]", "Too long"],
        id="learning-too-long",
    ),
    pytest.param(
        {"conditions": [{"type": "Ready", "status": "Maybe"}]},
        ["status.conditions[0].status", "Unsupported value"],
        id="bad-condition-status",
    ),
]


@pytest.mark.parametrize(("status", "expected"), BAD_STATUS)
def test_malformed_status_patch_is_refused(
    cluster: Cluster, status: dict[str, Any], expected: list[str]
) -> None:
    # A fresh run each time: a merge patch into an existing status.result would
    # keep its `success`, hiding the very omission under test.
    name = f"bad-status-{uuid.uuid4().hex[:8]}"
    cluster.apply_ok(ticketing(name))
    before = cluster.get(name).get("status")
    proc = cluster.patch(name, {"status": copy.deepcopy(status)}, status=True)
    out = _output(proc)
    assert proc.returncode != 0, f"accepted a malformed status:\n{out}"
    for fragment in expected:
        assert fragment in out, f"{fragment!r} not in:\n{out}"
    assert cluster.get(name).get("status") == before


# --- printer columns --------------------------------------------------------


def test_printer_columns(cluster: Cluster) -> None:
    name = "columns"
    cluster.apply_ok(ticketing(name))
    proc = cluster.patch(
        name,
        {
            "status": {
                "phase": "Running",
                "tenant": "ticketing",
                "memory": {"extraction": {"state": "Pending"}},
            }
        },
        status=True,
    )
    assert proc.returncode == 0, _output(proc)

    proc = cluster.kubectl("get", "tr", name)
    assert proc.returncode == 0, _output(proc)
    header, row = _text(proc.stdout).splitlines()[:2]
    assert header.split() == ["NAME", "PHASE", "ENGINE", "TENANT", "AGE"]
    assert row.split()[:4] == [name, "Running", "claude-code", "ticketing"]

    proc = cluster.kubectl("get", "tr", name, "-o", "wide")
    assert proc.returncode == 0, _output(proc)
    header, row = _text(proc.stdout).splitlines()[:2]
    assert header.split() == ["NAME", "PHASE", "ENGINE", "TENANT", "EXTRACTION", "AGE"]
    assert row.split()[:5] == [name, "Running", "claude-code", "ticketing", "Pending"]


def test_category_lists_taskruns(cluster: Cluster) -> None:
    cluster.apply_ok(ticketing("category"))
    proc = cluster.kubectl("get", "osmia", "-o", "name")
    assert proc.returncode == 0, _output(proc)
    assert "taskrun.osmia.dev/category" in _text(proc.stdout).split()
