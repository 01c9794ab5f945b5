"""Smoke tests for the local control plane (hack/controlplane) itself."""

from __future__ import annotations

import json
import subprocess
import time
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from controlplane import KWOK_NODE, ControlPlane

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


def test_a_job_runs_to_completion_on_the_kwok_node(control_plane: ControlPlane) -> None:
    """The real Job controller makes the pod, the scheduler places it, KWOK runs and ends it."""
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

    def pod(phase: str) -> dict[str, Any] | None:
        out = control_plane.kubectl(
            "get", "pods", "-n", ns, "-l", "batch.kubernetes.io/job-name=smoke", "-o", "json"
        )
        pods = [p for p in json.loads(out.stdout)["items"] if p["status"].get("phase") == phase]
        return pods[0] if pods else None

    running = _wait(lambda: pod("Running"), "a Running pod on the KWOK node")
    assert running["spec"]["nodeName"] == KWOK_NODE
    control_plane.kubectl(
        "annotate",
        "pod",
        running["metadata"]["name"],
        "-n",
        ns,
        "osmia.dev/e2e-exit-code=0",
        'osmia.dev/e2e-message={"success": true}',
    )
    done = _wait(lambda: pod("Succeeded"), "the pod to succeed")
    assert done["status"]["containerStatuses"][0]["state"]["terminated"]["message"] == '{"success": true}'
    _wait(
        lambda: (
            control_plane.kubectl(
                "get", "job", "smoke", "-n", ns, "-o", "jsonpath={.status.succeeded}"
            ).stdout
            == "1"
        ),
        "the Job controller to mark the Job complete",
    )


def test_every_namespace_gets_its_default_service_account(control_plane: ControlPlane) -> None:
    ns = _namespace(control_plane)
    _wait(
        lambda: (
            control_plane.kubectl("get", "serviceaccount", "default", "-n", ns, check=False).returncode == 0
        ),
        "the ServiceAccount controller",
    )


def _wait(check: Callable[[], Any], what: str, timeout: float = 60.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        result = check()
        if result:
            return result
        time.sleep(0.3)
    raise AssertionError(f"timed out waiting for {what}")


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
