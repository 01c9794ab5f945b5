"""Smoke tests for the local control plane (hack/controlplane) itself."""

from __future__ import annotations

import json
import subprocess
import uuid

import pytest
from controlplane import ControlPlane

pytestmark = pytest.mark.e2e


def _namespace(control_plane: ControlPlane) -> str:
    name = f"cp-{uuid.uuid4().hex[:8]}"
    control_plane.kubectl("create", "namespace", name)
    return name


def test_server_version(control_plane: ControlPlane) -> None:
    proc = control_plane.kubectl("version", "-o", "json")
    info = json.loads(proc.stdout)
    server = info["serverVersion"]
    assert server["major"] == "1"
    assert server["gitVersion"].startswith(f"v1.{server['minor']}.")
    assert info["clientVersion"]["gitVersion"].startswith("v1.")


def test_readyz(control_plane: ControlPlane) -> None:
    proc = control_plane.kubectl("get", "--raw", "/readyz")
    assert proc.stdout.strip() == "ok"


def test_create_namespace(control_plane: ControlPlane) -> None:
    name = _namespace(control_plane)
    proc = control_plane.kubectl("get", "namespace", name, "-o", "jsonpath={.status.phase}")
    assert proc.stdout == "Active"


def test_configmap_round_trip(control_plane: ControlPlane) -> None:
    ns = _namespace(control_plane)
    data = {"greeting": "hello", "multi": "line one\nline two\n", "unicode": "été 🐝"}
    manifest = {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": "round-trip", "namespace": ns},
        "data": data,
    }
    control_plane.kubectl("apply", "-f", "-", input=json.dumps(manifest))
    proc = control_plane.kubectl("get", "configmap", "round-trip", "-n", ns, "-o", "json")
    assert json.loads(proc.stdout)["data"] == data


def test_job_can_be_created_and_status_written(control_plane: ControlPlane) -> None:
    ns = _namespace(control_plane)
    job = {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": {"name": "smoke", "namespace": ns},
        "spec": {
            "backoffLimit": 0,
            "template": {
                "spec": {
                    "restartPolicy": "Never",
                    "containers": [{"name": "main", "image": "busybox", "command": ["true"]}],
                }
            },
        },
    }
    control_plane.kubectl("create", "-f", "-", input=json.dumps(job))
    got = json.loads(control_plane.kubectl("get", "job", "smoke", "-n", ns, "-o", "json").stdout)
    assert got["spec"]["template"]["spec"]["containers"][0]["image"] == "busybox"

    # No controller manager runs: tests drive status themselves via the status subresource.
    control_plane.kubectl(
        "patch",
        "job",
        "smoke",
        "-n",
        ns,
        "--subresource=status",
        "--type=merge",
        "-p",
        json.dumps({"status": {"active": 1, "startTime": "2026-01-01T00:00:00Z"}}),
    )
    proc = control_plane.kubectl("get", "job", "smoke", "-n", ns, "-o", "jsonpath={.status.active}")
    assert proc.stdout == "1"


def test_pod_is_admitted_without_default_serviceaccount(control_plane: ControlPlane) -> None:
    ns = _namespace(control_plane)
    pod = {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": "p", "namespace": ns},
        "spec": {"containers": [{"name": "main", "image": "busybox"}]},
    }
    control_plane.kubectl("create", "-f", "-", input=json.dumps(pod))


def test_admin_can_do_anything(control_plane: ControlPlane) -> None:
    proc = control_plane.kubectl("auth", "can-i", "*", "*", "--all-namespaces")
    assert proc.stdout.strip() == "yes"
    who = json.loads(control_plane.kubectl("auth", "whoami", "-o", "json").stdout)
    assert "system:masters" in who["status"]["userInfo"]["groups"]


def test_rbac_is_enforced_for_service_accounts(control_plane: ControlPlane) -> None:
    ns = _namespace(control_plane)
    control_plane.kubectl("create", "serviceaccount", "reader", "-n", ns)
    sa = f"system:serviceaccount:{ns}:reader"
    proc = control_plane.kubectl("auth", "can-i", "get", "configmaps", "-n", ns, "--as", sa, check=False)
    assert proc.stdout.strip() == "no"
    control_plane.kubectl("create", "role", "cm-reader", "-n", ns, "--verb=get,list", "--resource=configmaps")
    control_plane.kubectl(
        "create", "rolebinding", "cm-reader", "-n", ns, "--role=cm-reader", f"--serviceaccount={ns}:reader"
    )
    proc = control_plane.kubectl("auth", "can-i", "get", "configmaps", "-n", ns, "--as", sa)
    assert proc.stdout.strip() == "yes"
    # Tokens can be minted without a controller manager.
    token = control_plane.kubectl("create", "token", "reader", "-n", ns).stdout.strip()
    assert token.count(".") == 2


def test_helm_is_cached_next_to_the_binaries(control_plane: ControlPlane) -> None:
    proc = subprocess.run(
        [str(control_plane.helm), "version", "--short"], capture_output=True, text=True, check=True
    )
    assert proc.stdout.startswith("v3.")
