"""The whole flow with the operator authenticated as the Helm chart's ServiceAccount (least privilege)."""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.e2e.operator_process import ENGINES, OperatorProcess
from tests.e2e.test_chart_e2e import Release, can_i, install, service_account_kubeconfig, uninstall
from tests.e2e.test_operator import finish_job, new_namespace, prior_knowledge, taskrun

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def release(control_plane: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Release]:
    """The chart with default values (ClusterRole, binding, ServiceAccount, admission policy) and the
    engines the operator process runs, so the policy admits exactly their images."""
    values = tmp_path_factory.mktemp("rbac") / "values.yaml"
    values.write_text(yaml.safe_dump({"config": {"engines": ENGINES}}))
    installed = install(
        control_plane, Path(control_plane.helm), "rbac-e2e", "osmia-rbac", "--values", str(values)
    )
    yield installed
    uninstall(control_plane, Path(control_plane.helm), installed)


def test_the_charts_service_account_is_enough_to_run_everything(
    control_plane: Any, release: Release, tmp_path: Path
) -> None:
    sa = release.service_account.rsplit(":", 1)[1]
    kubeconfig = service_account_kubeconfig(control_plane, release.namespace, sa, tmp_path / "sa.kubeconfig")
    cluster = new_namespace(control_plane, "rbac")
    op = OperatorProcess(tmp_path, kubeconfig, namespaces=(cluster.ns,)).start()
    try:
        cluster.apply(taskrun("a", cluster.ns))
        cluster.finish_external("a", {"success": False, "testsFailed": ["TestUnderRbac"]})
        cluster.wait_extraction("a")
        cluster.apply(taskrun("b", cluster.ns, mode="job"))
        assert "TestUnderRbac" in prior_knowledge(cluster.prompt("b"))
        finish_job(cluster, "b-0-claude-code", ok=True, message={"success": True, "summary": "done"})
        cluster.wait_phase("b", "Succeeded")
        cluster.wait_extraction("b")
        cluster.apply(taskrun("slow", cluster.ns, mode="job", timeout=2))
        cluster.wait_phase("slow", "TimedOut", timeout=40)  # deletes its Job: the delete verb is used
    finally:
        assert op.stop() == 0
    denied = [text for text in log_texts(op.log.read_text()) if is_denial(text)]
    assert not denied, denied


def log_texts(log: str) -> Iterator[str]:
    """Every piece of text the operator logged: the string values of its JSON lines (numbers such as a
    port or ``"warm_up_ms": 403`` are measurements, not statuses) and any line that is not JSON."""
    for line in log.splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            yield line
            continue
        yield from _strings(record)


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def is_denial(text: str) -> bool:
    """An API server refusal: "Forbidden" or a 403 standing alone, not inside a path or a longer number
    (pytest's 403rd temporary directory, ".../pytest-403/...", or a resourceVersion " 40331")."""
    return "Forbidden" in text or re.search(r"(?<![\w/.-])403(?![\w.-])", text) is not None


@pytest.mark.parametrize(
    ("line", "denied"),
    [
        ('{"event": "memory open", "warm_up_ms": 403}', False),
        ('{"event": "patched", "path": "/tmp/pytest-403/x", "rv": "40331"}', False),
        ('{"event": "Patching failed", "exc_info": "ApiException: (403) Reason: Forbidden"}', True),
        ('{"event": "Request failed with status 403"}', True),
        ("Traceback: HTTP 403", True),
    ],
)
def test_the_denial_check_reads_statuses_not_measurements(line: str, denied: bool) -> None:
    assert any(is_denial(text) for text in log_texts(line)) is denied


def test_the_charts_service_account_cannot_read_secrets(control_plane: Any, release: Release) -> None:
    user = release.service_account
    for namespace in (release.namespace, "default"):
        assert not can_i(control_plane, "get", "secrets", namespace=namespace, as_user=user)
        assert not can_i(control_plane, "list", "secrets", namespace=namespace, as_user=user)
    proc = subprocess.run(
        [
            control_plane.kubectl_path,
            f"--kubeconfig={control_plane.kubeconfig}",
            "auth",
            "can-i",
            "get",
            "secrets",
            f"--as={user}",
            "-n",
            release.namespace,
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.stdout.strip() == "no"
