"""The chart's ValidatingAdmissionPolicy on a real API server, as the operator's ServiceAccount.

RBAC lets the operator create Jobs and ConfigMaps in every namespace; the policy narrows that to
what Osmia itself creates. Each forbidden write below is refused by the API server with the policy's
message, while the same write by an administrator, and the operator's own objects, pass.
(tests/e2e/test_operator_rbac.py runs the whole job-mode flow under the same policy.)
"""

from __future__ import annotations

import copy
import json
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.e2e.test_chart_e2e import Release, install, service_account_kubeconfig, uninstall

pytestmark = pytest.mark.e2e

IMAGE = "registry.example/claude-code-runner:1.0"
AGENT_ACCOUNT = "agent-runner"
ENGINES = {"claude-code": {"image": IMAGE, "service_account": AGENT_ACCOUNT}}
WATCHED = "osmia-vap-work"


@pytest.fixture(scope="module")
def release(control_plane: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Release]:
    values = tmp_path_factory.mktemp("vap") / "values.yaml"
    values.write_text(yaml.safe_dump({"config": {"engines": ENGINES}}))
    control_plane.kubectl("create", "namespace", WATCHED)
    installed = install(
        control_plane, Path(control_plane.helm), "vap-e2e", "osmia-vap", "--values", str(values)
    )
    yield installed
    uninstall(control_plane, Path(control_plane.helm), installed)


@pytest.fixture(scope="module")
def as_operator(control_plane: Any, release: Release, tmp_path_factory: pytest.TempPathFactory) -> Path:
    sa = release.service_account.rsplit(":", 1)[1]
    path = tmp_path_factory.mktemp("vap-sa") / "sa.kubeconfig"
    return service_account_kubeconfig(control_plane, release.namespace, sa, path)


def owner() -> dict[str, Any]:
    return {
        "apiVersion": "osmia.dev/v1alpha1",
        "kind": "TaskRun",
        "name": "fix-login",
        "uid": str(uuid.uuid4()),
        "controller": True,
        "blockOwnerDeletion": True,
    }


def job(namespace: str = WATCHED) -> dict[str, Any]:
    """A Job shaped like the ones osmia/controller/jobs.py builds."""
    labels = {"osmia.dev/taskrun": "fix-login", "osmia.dev/engine": "claude-code"}
    return {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": {
            "name": "fix-login-0-claude-code",
            "namespace": namespace,
            "labels": labels,
            "ownerReferences": [owner()],
        },
        "spec": {
            "backoffLimit": 0,
            "template": {
                "metadata": {"labels": labels},
                "spec": {
                    "restartPolicy": "Never",
                    "serviceAccountName": AGENT_ACCOUNT,
                    "containers": [
                        {
                            "name": "agent",
                            "image": IMAGE,
                            "securityContext": {"allowPrivilegeEscalation": False},
                        }
                    ],
                    "volumes": [
                        {"name": "prompt", "configMap": {"name": "fix-login-prompt"}},
                        {"name": "work", "emptyDir": {}},
                    ],
                },
            },
        },
    }


def prompt_configmap(name: str = "fix-login-prompt", namespace: str = WATCHED) -> dict[str, Any]:
    return {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": name, "namespace": namespace, "ownerReferences": [owner()]},
        "data": {"prompt.md": "# Task\n"},
    }


def create(
    control_plane: Any, kubeconfig: Path | None, obj: dict[str, Any]
) -> subprocess.CompletedProcess[str]:
    """``kubectl create --dry-run=server``: admission runs in full, nothing is stored."""
    return subprocess.run(
        [
            control_plane.kubectl_path,
            f"--kubeconfig={kubeconfig or control_plane.kubeconfig}",
            "create",
            "--dry-run=server",
            "-f",
            "-",
        ],
        input=json.dumps(obj),
        capture_output=True,
        text=True,
        check=False,
    )


def refused(proc: subprocess.CompletedProcess[str], message: str) -> None:
    assert proc.returncode != 0, f"expected a refusal, got: {proc.stdout}"
    assert "ValidatingAdmissionPolicy" in proc.stderr, proc.stderr
    assert message in proc.stderr, proc.stderr


def test_the_operators_own_objects_pass(control_plane: Any, as_operator: Path) -> None:
    for obj in (job(), prompt_configmap()):
        proc = create(control_plane, as_operator, obj)
        assert proc.returncode == 0, proc.stderr


def test_other_images_are_refused(control_plane: Any, as_operator: Path) -> None:
    bad = job()
    bad["spec"]["template"]["spec"]["containers"][0]["image"] = "busybox:latest"
    refused(create(control_plane, as_operator, bad), "may only run the images configured under engines")
    sidecar = job()
    sidecar["spec"]["template"]["spec"]["initContainers"] = [{"name": "x", "image": "alpine:3"}]
    refused(create(control_plane, as_operator, sidecar), "may only run the images configured under engines")


def test_other_service_accounts_are_refused(control_plane: Any, as_operator: Path) -> None:
    bad = job()
    bad["spec"]["template"]["spec"]["serviceAccountName"] = "cluster-admin-sa"
    refused(create(control_plane, as_operator, bad), "may only run Jobs as the service accounts configured")


def test_jobs_without_owner_or_labels_are_refused(control_plane: Any, as_operator: Path) -> None:
    orphan = job()
    del orphan["metadata"]["ownerReferences"]
    refused(create(control_plane, as_operator, orphan), "owned by a TaskRun")
    unlabelled = job()  # the API server copies the pod template's labels to an unlabelled Job: drop both
    del unlabelled["metadata"]["labels"]
    del unlabelled["spec"]["template"]["metadata"]
    refused(create(control_plane, as_operator, unlabelled), "labelled osmia.dev/taskrun")


def test_host_access_is_refused(control_plane: Any, as_operator: Path) -> None:
    host_path = job()
    host_path["spec"]["template"]["spec"]["volumes"].append({"name": "root", "hostPath": {"path": "/"}})
    refused(create(control_plane, as_operator, host_path), "may not start Jobs with host access")
    privileged = job()
    privileged["spec"]["template"]["spec"]["containers"][0]["securityContext"] = {"privileged": True}
    refused(create(control_plane, as_operator, privileged), "may not start Jobs with host access")
    host_network = job()
    host_network["spec"]["template"]["spec"]["hostNetwork"] = True
    refused(create(control_plane, as_operator, host_network), "may not start Jobs with host access")


def test_kube_system_is_refused(control_plane: Any, as_operator: Path) -> None:
    refused(create(control_plane, as_operator, job("kube-system")), "may not write in kube-system")
    refused(
        create(control_plane, as_operator, prompt_configmap(namespace="kube-system")),
        "may not write in kube-system",
    )


def test_only_owned_prompt_configmaps(control_plane: Any, as_operator: Path) -> None:
    refused(
        create(control_plane, as_operator, prompt_configmap(name="coredns")),
        "may only write ConfigMaps named <taskrun>-prompt",
    )
    unowned = prompt_configmap()
    del unowned["metadata"]["ownerReferences"]
    refused(create(control_plane, as_operator, unowned), "may only write ConfigMaps named <taskrun>-prompt")


def test_patching_someone_elses_configmap_is_refused(control_plane: Any, as_operator: Path) -> None:
    control_plane.kubectl("create", "configmap", "coredns", "-n", WATCHED, "--from-literal=Corefile=.:53")
    proc = subprocess.run(
        [
            control_plane.kubectl_path,
            f"--kubeconfig={as_operator}",
            "patch",
            "configmap",
            "coredns",
            "-n",
            WATCHED,
            "--type=merge",
            "-p",
            '{"data":{"Corefile":"evil"}}',
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    refused(proc, "may only write ConfigMaps named <taskrun>-prompt")
    data = control_plane.kubectl("get", "configmap", "coredns", "-n", WATCHED, "-o", "json").stdout
    assert json.loads(data)["data"]["Corefile"] == ".:53"


def test_the_policy_binds_only_the_operator(control_plane: Any, as_operator: Path) -> None:
    """An administrator's writes are not the policy's business."""
    bad = copy.deepcopy(job())
    bad["spec"]["template"]["spec"]["containers"][0]["image"] = "busybox:latest"
    proc = create(control_plane, None, bad)
    assert proc.returncode == 0, proc.stderr
