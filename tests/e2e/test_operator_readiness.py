"""A real operator answers /readyz once started, on its metrics port (the chart's readinessProbe)."""

from __future__ import annotations

import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.operator_process import OperatorProcess

pytestmark = pytest.mark.e2e


def test_operator_is_ready_after_startup(control_plane: Any, tmp_path: Path) -> None:
    control_plane.kubectl("create", "namespace", "readiness-e2e")
    op = OperatorProcess(tmp_path, control_plane.kubeconfig, namespaces=("readiness-e2e",)).start()
    try:
        url = f"http://127.0.0.1:{op.metrics_port}/readyz"
        with urllib.request.urlopen(url, timeout=10) as rsp:
            assert (rsp.status, rsp.read().decode()) == (200, "ready\n")
        assert "osmia_memory_nodes_total" in op.metrics()
    finally:
        assert op.stop() == 0
