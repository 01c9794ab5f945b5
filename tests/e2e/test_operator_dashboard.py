"""The operator serves the read-only dashboard over its own open memory when ``dashboard.enabled``."""

from __future__ import annotations

import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.operator_process import OperatorProcess, free_port
from tests.e2e.test_operator import crd, new_namespace, taskrun  # noqa: F401 - crd is a fixture

pytestmark = [pytest.mark.e2e, pytest.mark.usefixtures("crd")]


def test_operator_serves_the_dashboard_with_what_it_learned(control_plane: Any, tmp_path: Path) -> None:
    cluster = new_namespace(control_plane, "dash")
    port = free_port()
    op = OperatorProcess(
        tmp_path,
        control_plane.kubeconfig,
        namespaces=(cluster.ns,),
        extra={"dashboard": {"enabled": True, "host": "127.0.0.1", "port": port}},
    ).start()
    try:
        cluster.apply(taskrun("a", cluster.ns))
        cluster.finish_external("a", {"success": False, "testsFailed": ["TestDashboardSeesMe"]})
        cluster.wait_extraction("a")
        url = f"http://127.0.0.1:{port}"
        with urllib.request.urlopen(f"{url}/search?q=TestDashboardSeesMe&validity=all", timeout=10) as rsp:
            page = rsp.read().decode()
            assert rsp.headers["Content-Security-Policy"].startswith("default-src 'none'")
        assert "TestDashboardSeesMe" in page
        with urllib.request.urlopen(f"{url}/run?ref={cluster.ns}/a", timeout=10) as rsp:
            assert "What it taught" in rsp.read().decode()
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(urllib.request.Request(url + "/", method="POST", data=b""), timeout=10)
        assert err.value.code == 405
    finally:
        assert op.stop() == 0
    with pytest.raises(OSError):
        urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2)
