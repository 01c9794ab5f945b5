"""The Helm chart and the kustomize manifests against the end-to-end API server.

* ``helm template`` (default values, every option on, namespaced mode) piped to
  ``kubectl apply --dry-run=server``;
* ``helm install`` (no wait: no kubelet runs, pods never start) creates the
  CRDs, Deployment, PVC, Service and, when switched on, the dashboard
  ConfigMap, ServiceMonitor and PrometheusRule;
* ``kubectl apply -k deploy/`` (server dry run, then for real);
* RBAC: ``kubectl auth can-i --as`` the chart's ServiceAccount allows exactly
  the rules in tests/test_chart.py and never Secrets; the same with a real
  token from the TokenRequest API (``service_account_kubeconfig``, which the
  operator end-to-end flow can reuse to run ``osmia run`` as that account).

The prometheus-operator CRDs come from tests/e2e/fixtures/ (minimal copies).
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.test_chart import (
    ALL_ON,
    CHART,
    CLUSTER_WIDE_RULES,
    DEPLOY,
    NAMESPACED,
    NAMESPACED_CLUSTER_RULES,
    ROLE_RULES,
    Rule,
    find_helm,
    helm_template,
)

pytestmark = pytest.mark.e2e

FIXTURES = Path(__file__).parent / "fixtures"
MONITORING_CRDS = FIXTURES / "monitoring.coreos.com-crds.yaml"
CHART_CRDS = ("taskruns.osmia.dev", "kopfpeerings.kopf.dev", "clusterkopfpeerings.kopf.dev")
WATCHED = tuple(yaml.safe_load(NAMESPACED.read_text())["watchNamespaces"])


# --------------------------------------------------------------------------
# Helpers


def service_account_kubeconfig(
    control_plane: Any, namespace: str, name: str, path: Path, *, duration: str = "1h"
) -> Path:
    """A kubeconfig that authenticates as ServiceAccount ``namespace/name`` with a bound token.

    The token comes from the TokenRequest API (``kubectl create token``), so the
    API server authenticates it like a pod's projected token; nothing is
    impersonated. Use it to run ``osmia run`` (or kubectl) as the chart's
    ServiceAccount: ``KUBECONFIG=<path> osmia run --config ...``.
    """
    token = control_plane.kubectl(
        "create", "token", name, "-n", namespace, f"--duration={duration}"
    ).stdout.strip()
    admin = yaml.safe_load(Path(control_plane.kubeconfig).read_text())
    cluster = admin["clusters"][0]
    user = f"system:serviceaccount:{namespace}:{name}"
    config = {
        "apiVersion": "v1",
        "kind": "Config",
        "clusters": [cluster],
        "users": [{"name": user, "user": {"token": token}}],
        "contexts": [
            {"name": user, "context": {"cluster": cluster["name"], "user": user, "namespace": namespace}}
        ],
        "current-context": user,
    }
    path.write_text(json.dumps(config, indent=2) + "\n")
    path.chmod(0o600)
    return path


def can_i(
    control_plane: Any,
    verb: str,
    resource: str,
    *,
    namespace: str | None,
    as_user: str,
    subresource: str | None = None,
) -> bool:
    args = ["auth", "can-i", verb, resource, f"--as={as_user}"]
    args += [f"--namespace={namespace}"] if namespace else ["--all-namespaces"]
    if subresource:
        args.append(f"--subresource={subresource}")
    proc = control_plane.kubectl(*args, check=False)
    answer = str(proc.stdout).strip()
    assert answer in ("yes", "no"), f"kubectl {' '.join(args)}: {proc.stderr}"
    return answer == "yes"


def resource_arg(group: str, resource: str) -> tuple[str, str | None]:
    """``taskruns/status`` in ``osmia.dev`` -> (``taskruns.osmia.dev``, ``status``)."""
    name, _, sub = resource.partition("/")
    return (f"{name}.{group}" if group else name), (sub or None)


def assert_rules_allowed(
    control_plane: Any, rules: frozenset[Rule], *, namespace: str | None, as_user: str
) -> None:
    for group, resource, verbs in sorted(rules, key=str):
        res, sub = resource_arg(group, resource)
        for verb in sorted(verbs):
            assert can_i(control_plane, verb, res, namespace=namespace, as_user=as_user, subresource=sub), (
                f"{as_user} cannot {verb} {resource} ({group or 'core'}) in {namespace or 'all namespaces'}"
            )


ALL_VERBS = ("get", "list", "watch", "create", "update", "patch", "delete", "deletecollection")


def assert_nothing_more(
    control_plane: Any, rules: frozenset[Rule], *, namespace: str | None, as_user: str
) -> None:
    """For every resource in ``rules``, each verb not granted is refused; Secrets are refused entirely."""
    granted = {(g, r): v for g, r, v in rules}
    for (group, resource), verbs in sorted(granted.items()):
        res, sub = resource_arg(group, resource)
        for verb in ALL_VERBS:
            if verb not in verbs:
                assert not can_i(
                    control_plane, verb, res, namespace=namespace, as_user=as_user, subresource=sub
                ), f"{as_user} may {verb} {resource} ({group or 'core'}) but should not"
    for verb in ALL_VERBS:
        assert not can_i(control_plane, verb, "secrets", namespace=namespace, as_user=as_user), (
            f"secrets: {verb}"
        )
    for verb, res in (
        ("create", "pods"),
        ("delete", "pods"),
        ("create", "taskruns.osmia.dev"),
        ("create", "serviceaccounts/token"),
        ("escalate", "clusterroles.rbac.authorization.k8s.io"),
    ):
        assert not can_i(control_plane, verb, res, namespace=namespace, as_user=as_user), f"{verb} {res}"


def dry_run(control_plane: Any, manifest: str) -> list[str]:
    out = control_plane.kubectl("apply", "--dry-run=server", "-f", "-", input=manifest).stdout
    lines = [line for line in out.splitlines() if line.strip()]
    assert lines and all("(server dry run)" in line for line in lines), out
    return lines


def exists(control_plane: Any, kind: str, name: str, namespace: str | None = None) -> bool:
    args = ["get", kind, name, "-o", "name"] + (["-n", namespace] if namespace else [])
    return bool(control_plane.kubectl(*args, check=False).returncode == 0)


@dataclass
class Release:
    name: str
    namespace: str
    output: str
    crds_before: set[str]

    @property
    def fullname(self) -> str:
        return self.name if "osmia" in self.name else f"{self.name}-osmia"

    @property
    def service_account(self) -> str:
        return f"system:serviceaccount:{self.namespace}:{self.fullname}"


# --------------------------------------------------------------------------
# Fixtures


@pytest.fixture(scope="module")
def helm(control_plane: Any) -> Path:
    path = Path(control_plane.helm) if getattr(control_plane, "helm", None) else find_helm()
    assert path is not None and path.exists(), "helm not built (hack/controlplane/build.sh)"
    return path


def existing_crds(control_plane: Any) -> set[str]:
    return {n for n in CHART_CRDS if exists(control_plane, "crd", n)}


def install(control_plane: Any, helm: Path, name: str, namespace: str, *args: str) -> Release:
    before = existing_crds(control_plane)
    proc = subprocess.run(
        [
            str(helm),
            "install",
            name,
            str(CHART),
            "--namespace",
            namespace,
            "--create-namespace",
            f"--kubeconfig={control_plane.kubeconfig}",
            "--timeout=2m",
            *args,
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, f"helm install {name} failed:\n{proc.stderr}{proc.stdout}"
    control_plane.kubectl(
        "wait", "--for=condition=Established", "--timeout=60s", *(f"crd/{n}" for n in CHART_CRDS)
    )
    return Release(name, namespace, proc.stdout, before)


def uninstall(control_plane: Any, helm: Path, release: Release) -> None:
    subprocess.run(
        [
            str(helm),
            "uninstall",
            release.name,
            "--namespace",
            release.namespace,
            f"--kubeconfig={control_plane.kubeconfig}",
            "--wait=false",
        ],
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.fixture(scope="module")
def monitoring_crds(control_plane: Any) -> None:
    control_plane.kubectl("apply", "-f", str(MONITORING_CRDS))
    control_plane.kubectl(
        "wait",
        "--for=condition=Established",
        "--timeout=60s",
        "crd/servicemonitors.monitoring.coreos.com",
        "crd/prometheusrules.monitoring.coreos.com",
    )


@pytest.fixture(scope="module")
def default_release(control_plane: Any, helm: Path) -> Iterator[Release]:
    """`helm install` with default values (first, so that helm itself may create the CRDs)."""
    release = install(control_plane, helm, "e2e", "osmia-helm")
    yield release
    uninstall(control_plane, helm, release)


@pytest.fixture(scope="module")
def full_release(control_plane: Any, helm: Path, monitoring_crds: None) -> Iterator[Release]:
    release = install(control_plane, helm, "full", "osmia-full", "--values", str(ALL_ON))
    yield release
    uninstall(control_plane, helm, release)


@pytest.fixture(scope="module")
def watched_namespaces(control_plane: Any) -> tuple[str, ...]:
    for ns in WATCHED:
        manifest = yaml.safe_dump({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns}})
        control_plane.kubectl("apply", "-f", "-", input=manifest)
    return WATCHED


@pytest.fixture(scope="module")
def namespaced_release(
    control_plane: Any, helm: Path, monitoring_crds: None, watched_namespaces: tuple[str, ...]
) -> Iterator[Release]:
    release = install(control_plane, helm, "scoped", "osmia-scoped", "--values", str(NAMESPACED))
    yield release
    uninstall(control_plane, helm, release)


@pytest.fixture(scope="module")
def dry_run_namespace(control_plane: Any) -> str:
    ns = "osmia-dryrun"
    control_plane.kubectl(
        "apply",
        "-f",
        "-",
        input=yaml.safe_dump({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns}}),
    )
    return ns


# --------------------------------------------------------------------------
# helm install


def test_helm_install_defaults(control_plane: Any, default_release: Release) -> None:
    ns, full = default_release.namespace, default_release.fullname
    for crd in CHART_CRDS:
        assert exists(control_plane, "crd", crd), f"{crd} missing after helm install"
    assert exists(control_plane, "deployment", full, ns)
    assert exists(control_plane, "pvc", f"{full}-memory", ns)
    assert exists(control_plane, "service", f"{full}-metrics", ns)
    assert exists(control_plane, "configmap", f"{full}-config", ns)
    assert exists(control_plane, "serviceaccount", full, ns)
    assert exists(control_plane, "clusterrole", full) and exists(control_plane, "clusterrolebinding", full)
    assert exists(control_plane, "clusterkopfpeering", full)
    assert not exists(control_plane, "configmap", f"{full}-dashboard", ns)
    deployment = json.loads(control_plane.kubectl("get", "deployment", full, "-n", ns, "-o", "json").stdout)
    assert deployment["spec"]["replicas"] == 1
    assert deployment["spec"]["strategy"]["type"] == "Recreate"
    pvc = json.loads(control_plane.kubectl("get", "pvc", f"{full}-memory", "-n", ns, "-o", "json").stdout)
    assert pvc["spec"]["accessModes"] == ["ReadWriteOnce"]
    assert pvc["spec"]["resources"]["requests"]["storage"] == "1Gi"
    assert (
        "NOTES:" in default_release.output
        and "osmia memory --db /data/memory.db status" in default_release.output
    )


def test_helm_created_the_crds_when_absent(control_plane: Any, default_release: Release) -> None:
    created = set(CHART_CRDS) - default_release.crds_before
    if not created:
        pytest.skip("the CRDs were already installed by an earlier test in this session")
    for crd in created:
        obj = json.loads(control_plane.kubectl("get", "crd", crd, "-o", "json").stdout)
        assert obj["metadata"]["labels"]["app.kubernetes.io/part-of"] == "osmia"


def test_helm_install_everything_on(control_plane: Any, full_release: Release) -> None:
    ns, full = full_release.namespace, full_release.fullname
    assert exists(control_plane, "deployment", full, ns)
    assert exists(control_plane, "pvc", f"{full}-memory", ns)
    assert exists(control_plane, "service", f"{full}-metrics", ns)
    assert exists(control_plane, "servicemonitor", full, ns)
    assert exists(control_plane, "prometheusrule", full, ns)
    dashboard = json.loads(
        control_plane.kubectl("get", "configmap", f"{full}-dashboard", "-n", ns, "-o", "json").stdout
    )
    assert dashboard["metadata"]["labels"]["grafana_dashboard"] == "1"
    board = json.loads(dashboard["data"]["osmia-memory.json"])
    assert board["uid"] == "osmia-memory"
    rule = json.loads(control_plane.kubectl("get", "prometheusrule", full, "-n", ns, "-o", "json").stdout)
    alerts = {r["alert"] for g in rule["spec"]["groups"] for r in g["rules"]}
    assert alerts == {
        "OsmiaOperatorDown",
        "OsmiaMemoryExtractionFailures",
        "OsmiaMemoryDecayNotRunning",
        "OsmiaMemoryDatabaseErrors",
    }


def test_helm_install_namespaced(control_plane: Any, namespaced_release: Release) -> None:
    full = namespaced_release.fullname
    for ns in WATCHED:
        assert exists(control_plane, "role", full, ns) and exists(control_plane, "rolebinding", full, ns)
        assert exists(control_plane, "kopfpeering", full, ns)
    assert exists(control_plane, "clusterrole", full)
    assert not exists(control_plane, "clusterkopfpeering", full)


# --------------------------------------------------------------------------
# helm template | kubectl apply --dry-run=server


@pytest.mark.parametrize(
    "values",
    [None, ALL_ON, NAMESPACED],
    ids=["default", "all-on", "namespaced"],
)
def test_rendered_chart_passes_server_dry_run(
    control_plane: Any,
    helm: Path,
    default_release: Release,
    monitoring_crds: None,
    watched_namespaces: tuple[str, ...],
    dry_run_namespace: str,
    values: Path | None,
) -> None:
    manifest = helm_template(
        helm, values=[values] if values else [], release="dry", namespace=dry_run_namespace, include_crds=True
    )
    lines = dry_run(control_plane, manifest)
    kinds = {line.split("/", 1)[0] for line in lines}
    assert "deployment.apps" in kinds and "persistentvolumeclaim" in kinds and "service" in kinds
    if values == ALL_ON:
        assert {"servicemonitor.monitoring.coreos.com", "prometheusrule.monitoring.coreos.com"} <= kinds
    if values == NAMESPACED:
        assert "role.rbac.authorization.k8s.io" in kinds and "kopfpeering.kopf.dev" in kinds


# --------------------------------------------------------------------------
# kustomize


def test_kustomize_server_dry_run_then_apply(control_plane: Any, default_release: Release) -> None:
    """`kubectl apply -k deploy/`: server dry run (namespace first), then for real, then idempotent."""
    namespace = yaml.safe_load((DEPLOY / "namespace.yaml").read_text())
    control_plane.kubectl("apply", "-f", str(DEPLOY / "namespace.yaml"))
    out = control_plane.kubectl("apply", "-k", str(DEPLOY), "--dry-run=server").stdout
    assert all("(server dry run)" in line for line in out.splitlines() if line.strip()), out
    control_plane.kubectl("apply", "-k", str(DEPLOY))
    ns = namespace["metadata"]["name"]
    for kind, name in (
        ("deployment", "osmia"),
        ("pvc", "osmia-memory"),
        ("service", "osmia-metrics"),
        ("serviceaccount", "osmia"),
        ("clusterrole", "osmia"),
        ("clusterrolebinding", "osmia"),
        ("validatingadmissionpolicy", "osmia-operator-writes"),
        ("validatingadmissionpolicybinding", "osmia-operator-writes"),
    ):
        cluster_scoped = kind.startswith(("cluster", "validatingadmission"))
        assert exists(control_plane, kind, name, None if cluster_scoped else ns), (kind, name)
    again = control_plane.kubectl("apply", "-k", str(DEPLOY)).stdout
    assert all(line.endswith("unchanged") for line in again.splitlines() if line.strip()), again
    user = f"system:serviceaccount:{ns}:osmia"
    assert_rules_allowed(control_plane, CLUSTER_WIDE_RULES, namespace="default", as_user=user)
    assert not can_i(control_plane, "get", "secrets", namespace=ns, as_user=user)


# --------------------------------------------------------------------------
# RBAC as the chart's ServiceAccount


def test_rbac_cluster_wide_is_enough_and_no_more(control_plane: Any, default_release: Release) -> None:
    user = default_release.service_account
    namespaced = frozenset(
        r
        for r in CLUSTER_WIDE_RULES
        if r[1] not in ("customresourcedefinitions", "namespaces", "clusterkopfpeerings")
    )
    cluster = CLUSTER_WIDE_RULES - namespaced
    for ns in ("agents", default_release.namespace):
        assert_rules_allowed(control_plane, namespaced, namespace=ns, as_user=user)
        assert_nothing_more(control_plane, namespaced, namespace=ns, as_user=user)
    assert_rules_allowed(control_plane, cluster, namespace=None, as_user=user)
    assert_nothing_more(control_plane, cluster, namespace=None, as_user=user)
    assert not can_i(control_plane, "get", "secrets", namespace=None, as_user=user)
    assert can_i(
        control_plane, "patch", "taskruns.osmia.dev", namespace="agents", as_user=user, subresource="status"
    )


def test_rbac_namespaced_is_scoped(control_plane: Any, namespaced_release: Release) -> None:
    user = namespaced_release.service_account
    for ns in WATCHED:
        assert_rules_allowed(control_plane, ROLE_RULES, namespace=ns, as_user=user)
        assert_nothing_more(control_plane, ROLE_RULES, namespace=ns, as_user=user)
    assert_rules_allowed(control_plane, NAMESPACED_CLUSTER_RULES, namespace=None, as_user=user)
    for res in ("taskruns.osmia.dev", "jobs.batch", "configmaps", "pods"):
        assert not can_i(control_plane, "get", res, namespace="default", as_user=user), f"{res} outside"
    assert not can_i(control_plane, "list", "namespaces", namespace=None, as_user=user)
    assert not can_i(control_plane, "patch", "clusterkopfpeerings.kopf.dev", namespace=None, as_user=user)


def test_service_account_token_from_token_request(
    control_plane: Any, default_release: Release, tmp_path: Path
) -> None:
    """Authenticated for real (TokenRequest), not impersonated: TaskRuns yes, Secrets no."""
    kubeconfig = service_account_kubeconfig(
        control_plane, default_release.namespace, default_release.fullname, tmp_path / "sa.kubeconfig"
    )

    def kubectl(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(control_plane.kubectl_path), f"--kubeconfig={kubeconfig}", *args],
            capture_output=True,
            text=True,
            check=False,
        )

    whoami = kubectl("auth", "whoami", "-o", "json")
    assert whoami.returncode == 0, whoami.stderr
    assert json.loads(whoami.stdout)["status"]["userInfo"]["username"] == default_release.service_account
    assert kubectl("get", "taskruns", "--all-namespaces").returncode == 0
    assert kubectl("get", "jobs", "-n", "default").returncode == 0
    denied = kubectl("get", "secrets", "-n", default_release.namespace)
    assert denied.returncode != 0 and "forbidden" in denied.stderr.lower()
    assert kubectl("auth", "can-i", "get", "secrets", "-A").stdout.strip() == "no"
