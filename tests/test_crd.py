"""Static checks of the TaskRun CRD manifest (no cluster needed).

The API server is the real judge (see tests/e2e/test_crd_validation.py); these
tests pin the contract from DESIGN.md so a careless edit fails fast.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
CRD_PATH = ROOT / "deploy" / "crds" / "taskruns.osmia.dev.yaml"
DNS_LABEL = "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"


@pytest.fixture(scope="module")
def crd() -> dict[str, Any]:
    docs = [d for d in yaml.safe_load_all(CRD_PATH.read_text()) if d]
    assert len(docs) == 1, "the CRD file holds exactly one document"
    doc: dict[str, Any] = docs[0]
    return doc


@pytest.fixture(scope="module")
def version(crd: dict[str, Any]) -> dict[str, Any]:
    versions = crd["spec"]["versions"]
    assert [v["name"] for v in versions] == ["v1alpha1"]
    v: dict[str, Any] = versions[0]
    return v


@pytest.fixture(scope="module")
def schema(version: dict[str, Any]) -> dict[str, Any]:
    node: dict[str, Any] = version["schema"]["openAPIV3Schema"]
    return node


@pytest.fixture(scope="module")
def spec(schema: dict[str, Any]) -> dict[str, Any]:
    node: dict[str, Any] = schema["properties"]["spec"]
    return node


@pytest.fixture(scope="module")
def status(schema: dict[str, Any]) -> dict[str, Any]:
    node: dict[str, Any] = schema["properties"]["status"]
    return node


def walk(node: dict[str, Any], path: str = "") -> list[tuple[str, dict[str, Any]]]:
    """Every schema node with its dotted path ([] for list items, {} for map values)."""
    out = [(path, node)]
    for name, child in (node.get("properties") or {}).items():
        out += walk(child, f"{path}.{name}" if path else name)
    if isinstance(node.get("items"), dict):
        out += walk(node["items"], f"{path}[]")
    if isinstance(node.get("additionalProperties"), dict):
        out += walk(node["additionalProperties"], f"{path}{{}}")
    return out


# --- names and version ------------------------------------------------------


def test_identity(crd: dict[str, Any]) -> None:
    assert crd["apiVersion"] == "apiextensions.k8s.io/v1"
    assert crd["kind"] == "CustomResourceDefinition"
    assert crd["metadata"]["name"] == "taskruns.osmia.dev"
    assert crd["spec"]["group"] == "osmia.dev"
    assert crd["spec"]["scope"] == "Namespaced"


def test_names(crd: dict[str, Any]) -> None:
    names = crd["spec"]["names"]
    assert names["kind"] == "TaskRun"
    assert names["plural"] == "taskruns"
    assert names["singular"] == "taskrun"
    assert names["shortNames"] == ["tr"]
    assert names["categories"] == ["osmia"]


def test_version_served_storage_status(version: dict[str, Any]) -> None:
    assert version["served"] is True
    assert version["storage"] is True
    assert version["subresources"] == {"status": {}}


def test_printer_columns(version: dict[str, Any]) -> None:
    cols = {c["name"]: c for c in version["additionalPrinterColumns"]}
    assert cols["Phase"]["jsonPath"] == ".status.phase"
    assert cols["Engine"]["jsonPath"] == ".spec.engine"
    assert cols["Tenant"]["jsonPath"] == ".status.tenant"
    assert cols["Age"]["jsonPath"] == ".metadata.creationTimestamp"
    assert cols["Age"]["type"] == "date"
    for name in ("Phase", "Engine", "Tenant", "Age"):
        assert cols[name].get("priority", 0) == 0, f"{name} shows in the default view"
    if "Extraction" in cols:
        assert cols["Extraction"]["jsonPath"] == ".status.memory.extraction.state"


# --- structural schema ------------------------------------------------------


def test_schema_is_structural(schema: dict[str, Any]) -> None:
    for path, node in walk(schema):
        assert "type" in node, f"{path or '<root>'} has no type"
        assert not node.get("x-kubernetes-preserve-unknown-fields"), f"{path} keeps unknown fields"
    assert schema["required"] == ["spec"]


def test_lists_and_strings_are_bounded(schema: dict[str, Any]) -> None:
    for path, node in walk(schema):
        if path.startswith("metadata"):
            continue
        if node["type"] == "array":
            assert "maxItems" in node, f"{path} has no maxItems"
        if node["type"] == "string" and path.startswith("spec"):
            assert "maxLength" in node or "enum" in node, f"{path} has no maxLength"


def test_only_contract_fields(spec: dict[str, Any], status: dict[str, Any]) -> None:
    assert set(spec["properties"]) == {
        "flow",
        "engine",
        "fallbackEngines",
        "ticket",
        "repository",
        "instructions",
        "memory",
        "execution",
    }
    assert set(spec["properties"]["ticket"]["properties"]) == {
        "id",
        "title",
        "description",
        "type",
        "labels",
        "url",
    }
    assert set(spec["properties"]["repository"]["properties"]) == {"url", "language"}
    assert set(spec["properties"]["memory"]["properties"]) == {"enabled"}
    assert set(spec["properties"]["execution"]["properties"]) == {"mode", "timeoutSeconds"}
    assert set(status["properties"]) <= {
        "observedGeneration",
        "startTime",
        "completionTime",  # added by issue 11 (docs/decisions.md)
        "phase",
        "tenant",
        "prompt",
        "memory",
        "engineAttempts",
        "result",
        "conditions",
    }
    assert set(status["properties"]["result"]["properties"]) == {
        "success",
        "summary",
        "exitCode",
        "failureReason",
        "mergeRequestURL",
        "branchName",
        "filesChanged",
        "testsFailed",
        "flakyTests",
        "durationSeconds",
        "tokenUsage",
        "costEstimateUSD",
        "toolCalls",
        "learnings",
    }


# --- spec -------------------------------------------------------------------


def test_spec_required(spec: dict[str, Any]) -> None:
    assert sorted(spec["required"]) == ["engine", "ticket"]
    assert sorted(spec["properties"]["ticket"]["required"]) == ["description", "id"]


def test_spec_enums_and_defaults(spec: dict[str, Any]) -> None:
    p = spec["properties"]
    assert p["flow"]["enum"] == ["ticketing", "incident-triage"]
    assert p["flow"]["default"] == "ticketing"
    assert p["ticket"]["properties"]["type"]["enum"] == [
        "bug",
        "feature",
        "docs",
        "refactor",
        "chore",
        "incident",
        "other",
    ]
    assert p["execution"]["properties"]["mode"]["enum"] == ["job", "external"]
    assert p["execution"]["properties"]["mode"]["default"] == "job"
    assert p["memory"]["properties"]["enabled"]["type"] == "boolean"
    assert p["memory"]["properties"]["enabled"]["default"] is True


def test_spec_limits(spec: dict[str, Any]) -> None:
    p = spec["properties"]
    t = p["ticket"]["properties"]
    assert p["engine"]["pattern"] == DNS_LABEL
    assert p["engine"]["maxLength"] == 63
    assert p["fallbackEngines"]["maxItems"] == 5
    assert p["fallbackEngines"]["items"]["pattern"] == DNS_LABEL
    assert t["title"]["maxLength"] == 512
    assert t["description"]["minLength"] == 1
    assert t["description"]["maxLength"] == 65536
    assert t["labels"]["maxItems"] == 50
    assert t["labels"]["items"]["maxLength"] == 100
    assert t["url"]["maxLength"] == 2048
    assert p["repository"]["properties"]["url"]["maxLength"] == 2048
    assert p["repository"]["properties"]["language"]["maxLength"] == 50
    assert p["instructions"]["maxLength"] == 65536
    timeout = p["execution"]["properties"]["timeoutSeconds"]
    assert timeout["type"] == "integer"
    assert (timeout["minimum"], timeout["maximum"]) == (1, 86400)
    assert timeout.get("description")


@pytest.mark.parametrize(
    ("field", "good", "bad"),
    [
        (
            ("engine",),
            ["claude-code", "aider", "codex", "a", "gpt4-1"],
            ["", "Claude", "-aider", "aider-", "claude_code", "a b"],
        ),
        (
            ("ticket", "id"),
            ["PROJ-123", "GH#42", "org/repo#7", "INC.2024.1", "42", "jira:ABC-1"],
            ["", "-PROJ", "#1", "PROJ 123", "x" * 101, "PROJ-1\n"],
        ),
        (
            ("ticket", "url"),
            ["https://jira.example.com/browse/PROJ-1", "http://x"],
            ["ftp://x", "jira.example.com", "javascript:alert(1)"],
        ),
        (
            ("repository", "url"),
            [
                "https://github.com/org/api",
                "http://git.local/x.git",
                "ssh://git@github.com/org/api.git",
                "git@github.com:org/api.git",
            ],
            ["github.com/org/api", "file:///etc/passwd", "/srv/repo", "ftp://x"],
        ),
    ],
)
def test_patterns(spec: dict[str, Any], field: tuple[str, ...], good: list[str], bad: list[str]) -> None:
    node = spec
    for name in field:
        node = node["properties"][name]
    # Kubernetes matches patterns with Go RE2 (search semantics, `$` only at the
    # very end of the text). These patterns use only syntax Python's re reads the
    # same way, except `$`, which Python also matches before a final newline.
    rx = re.compile(node["pattern"].replace("$", r"\Z"))
    limit = node.get("maxLength", 10**9)

    def ok(value: str) -> bool:
        return rx.search(value) is not None and len(value) <= limit

    for value in good:
        assert ok(value), f"{'.'.join(field)} should accept {value!r}"
    for value in bad:
        assert not ok(value), f"{'.'.join(field)} should refuse {value!r}"


def test_cel_rules(spec: dict[str, Any]) -> None:
    (rule,) = spec["x-kubernetes-validations"]
    assert rule["message"] == "spec.repository.url is required when spec.flow is ticketing"
    assert "has(self.repository.url)" in rule["rule"]
    assert "'ticketing'" in rule["rule"]
    flow_rules = spec["properties"]["flow"]["x-kubernetes-validations"]
    assert flow_rules == [{"rule": "self == oldSelf", "message": "spec.flow is immutable"}]
    id_rules = spec["properties"]["ticket"]["properties"]["id"]["x-kubernetes-validations"]
    assert id_rules == [{"rule": "self == oldSelf", "message": "spec.ticket.id is immutable"}]


# --- status -----------------------------------------------------------------


def test_status_enums(status: dict[str, Any]) -> None:
    p = status["properties"]
    assert p["phase"]["enum"] == ["Pending", "Running", "Succeeded", "Failed", "TimedOut"]
    assert p["tenant"]["enum"] == ["ticketing", "incident-triage"]
    extraction = p["memory"]["properties"]["extraction"]["properties"]
    assert extraction["state"]["enum"] == ["Pending", "Done", "Failed", "Skipped"]
    assert extraction["finishedAt"]["format"] == "date-time"
    assert extraction["nodes"]["minimum"] == 0
    assert extraction["edges"]["minimum"] == 0
    assert p["prompt"]["properties"]["sha256"]["pattern"] == "^[a-f0-9]{64}$"


def test_status_injected(status: dict[str, Any]) -> None:
    item = status["properties"]["memory"]["properties"]["injected"]["items"]
    assert set(item["properties"]) == {"id", "kind", "confidence", "score", "sources"}
    confidence = item["properties"]["confidence"]
    assert (confidence["minimum"], confidence["maximum"]) == (0, 1)
    assert item["properties"]["sources"]["items"]["type"] == "string"


def test_status_result(status: dict[str, Any]) -> None:
    result = status["properties"]["result"]
    r = result["properties"]
    assert result["required"] == ["success"]
    assert r["success"]["type"] == "boolean"
    assert r["exitCode"]["type"] == "integer"
    assert r["filesChanged"]["maxItems"] == 10000
    assert r["testsFailed"]["maxItems"] == 1000
    assert r["flakyTests"]["maxItems"] == 1000
    assert r["learnings"]["maxItems"] == 50
    assert r["learnings"]["items"]["maxLength"] == 1000
    assert r["toolCalls"]["type"] == "object"
    assert r["toolCalls"]["additionalProperties"] == {"type": "integer", "minimum": 0}
    for name in ("durationSeconds", "tokenUsage", "costEstimateUSD"):
        assert r[name]["minimum"] == 0
    assert r["tokenUsage"]["type"] == "integer"


def test_status_conditions(status: dict[str, Any]) -> None:
    cond = status["properties"]["conditions"]
    assert cond["x-kubernetes-list-type"] == "map"
    assert cond["x-kubernetes-list-map-keys"] == ["type"]
    item = cond["items"]
    assert set(item["required"]) >= {"type", "status"}
    assert item["properties"]["status"]["enum"] == ["True", "False", "Unknown"]
    assert set(item["properties"]) == {
        "type",
        "status",
        "reason",
        "message",
        "lastTransitionTime",
        "observedGeneration",
    }


# --- copies -----------------------------------------------------------------


def test_chart_copy_is_identical() -> None:
    """DESIGN.md: the manifest lives, identical, in the Helm chart's crds/."""
    copies = [
        p for p in ROOT.glob("**/crds/taskruns.osmia.dev.yaml") if p != CRD_PATH and ".venv" not in p.parts
    ]
    if not copies:
        pytest.skip("no Helm chart copy of the CRD yet")
    for copy in copies:
        assert copy.read_bytes() == CRD_PATH.read_bytes(), f"{copy} differs from {CRD_PATH}"
