"""The operator's pod meets Pod Security `restricted`, as checked by the API server itself.

The chart's Deployment is applied (server-side dry run) into a namespace labelled
``pod-security.kubernetes.io/enforce|warn: restricted``, as docs/install.md tells users to label the
Helm namespace; the API server's PodSecurity admission warns about any pod template that would be
refused. A deliberately privileged copy proves the check is live.
"""

from __future__ import annotations

import copy
import json
import subprocess
from typing import Any

import pytest

from tests.test_chart import documents, find_helm, helm_template

pytestmark = pytest.mark.e2e

NAMESPACE = "osmia-psa-e2e"


def dry_run(control_plane: Any, obj: dict[str, Any]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            control_plane.kubectl_path,
            f"--kubeconfig={control_plane.kubeconfig}",
            "apply",
            "--dry-run=server",
            "-f",
            "-",
        ],
        input=json.dumps(obj),
        capture_output=True,
        text=True,
        check=False,
    )


def test_operator_pod_is_restricted(control_plane: Any) -> None:
    control_plane.kubectl("create", "namespace", NAMESPACE)
    control_plane.kubectl(
        "label",
        "namespace",
        NAMESPACE,
        "pod-security.kubernetes.io/enforce=restricted",
        "pod-security.kubernetes.io/warn=restricted",
    )
    helm = find_helm()
    assert helm is not None
    deployment = next(
        o for o in documents(helm_template(helm, namespace=NAMESPACE)) if o["kind"] == "Deployment"
    )
    proc = dry_run(control_plane, deployment)
    assert proc.returncode == 0, proc.stderr
    assert "PodSecurity" not in proc.stderr, proc.stderr

    privileged = copy.deepcopy(deployment)  # keeps every capability: not restricted
    del privileged["spec"]["template"]["spec"]["containers"][0]["securityContext"]["capabilities"]
    proc = dry_run(control_plane, privileged)
    assert 'would violate PodSecurity "restricted:latest"' in proc.stderr, proc.stderr
