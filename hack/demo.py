"""The README's first command: a local control plane, the operator with memory on, the examples.

Starts kube-apiserver + etcd on loopback (built once from the Go module
proxy), installs the CRD, runs ``osmia run`` with the SQLite file in
``.data/``, replays ``examples/history`` the way an external executor would
(apply the TaskRun, then patch its status), then applies
``examples/new-taskrun.yaml`` and prints the Prior Knowledge its prompt got.
Everything is stopped at the end unless ``--keep`` is given.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / ".data"
DASHBOARD_PORT = 8470
sys.path.insert(0, str(REPO / "hack" / "controlplane"))

from controlplane import ControlPlane  # noqa: E402


def load_runs(folder: Path) -> list[dict[str, Any]]:
    """Every TaskRun in the history files, oldest finish first."""
    runs: list[dict[str, Any]] = []
    for path in sorted(folder.glob("*.yaml")):
        for doc in yaml.safe_load_all(path.read_text()):
            if doc:
                runs.extend(doc["items"] if doc.get("kind") == "List" else [doc])
    return sorted(runs, key=finished_at)


def finished_at(run: dict[str, Any]) -> str:
    for cond in (run.get("status") or {}).get("conditions") or []:
        if cond.get("type") == "Succeeded":
            return str(cond.get("lastTransitionTime", ""))
    return ""


class Demo:
    """The pieces of one demo session."""

    def __init__(self, keep: bool) -> None:
        self.keep = keep
        self.cp = ControlPlane(DATA / "controlplane", kubectl=str(Path(sys.prefix) / "bin" / "kubectl"))
        self.operator: subprocess.Popen[bytes] | None = None

    def kubectl(self, *args: str, input: str | None = None) -> str:
        return self.cp.kubectl(*args, input=input).stdout

    def start(self) -> None:
        print("1/5 building (first time only) and starting kube-apiserver + etcd on loopback ...", flush=True)
        self.cp.build()
        self.cp.up(fresh=True)
        self.kubectl("apply", "-f", str(REPO / "deploy" / "crds"))
        self.kubectl("wait", "--for=condition=Established", "crd/taskruns.osmia.dev", "--timeout=60s")
        print(
            "2/5 starting the operator (memory in .data/memory.db, metrics on :9090, dashboard on :8470) ...",
            flush=True,
        )
        for stale in DATA.glob("memory.db*"):
            stale.unlink()
        env = {
            **os.environ,
            "KUBECONFIG": str(self.cp.kubeconfig),
            "OSMIA_MEMORY_STORE_PATH": str(DATA / "memory.db"),
        }
        # The example config, plus the read-only dashboard on loopback.
        config = yaml.safe_load((REPO / "examples" / "osmia-config.yaml").read_text())
        config["dashboard"] = {"enabled": True, "host": "127.0.0.1", "port": DASHBOARD_PORT}
        (DATA / "osmia-config.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
        log = (DATA / "operator.log").open("wb")
        self.operator = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "osmia",
                "run",
                "--config",
                str(DATA / "osmia-config.yaml"),
                "--standalone",
                "--all-namespaces",
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            env=env,
            cwd=REPO,
        )

    def replay(self) -> None:
        runs = load_runs(REPO / "examples" / "history")
        print(f"3/5 replaying {len(runs)} finished TaskRuns as an external executor would ...", flush=True)
        for ns in sorted({r["metadata"]["namespace"] for r in runs} | {"agents"}):
            self.kubectl("create", "namespace", ns)
        for run in runs:
            meta = run["metadata"]
            spec = {**run["spec"], "execution": {**run["spec"].get("execution", {}), "mode": "external"}}
            manifest = {
                "apiVersion": run["apiVersion"],
                "kind": "TaskRun",
                "spec": spec,
                "metadata": {"name": meta["name"], "namespace": meta["namespace"]},
            }
            self.kubectl("apply", "-f", "-", input=json.dumps(manifest))
            self.wait(meta, lambda s: s.get("phase") == "Running")
            status = run["status"]
            report = {
                k: status[k] for k in ("phase", "result", "engineAttempts", "conditions") if k in status
            }
            self.kubectl(
                "patch",
                "taskrun",
                meta["name"],
                "-n",
                meta["namespace"],
                "--subresource=status",
                "--type=merge",
                "-p",
                json.dumps({"status": report}),
            )
            self.wait(meta, lambda s: (s.get("memory") or {}).get("extraction", {}).get("state") != "Pending")

    def wait(self, meta: dict[str, Any], ready: Any, timeout: float = 60) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.operator is not None and self.operator.poll() is not None:
                raise SystemExit(f"the operator stopped; see {DATA / 'operator.log'}")
            out = self.cp.kubectl(
                "get", "taskrun", meta["name"], "-n", meta["namespace"], "-o", "json", check=False
            )
            if out.returncode == 0:
                status = json.loads(out.stdout).get("status") or {}
                if ready(status):
                    return dict(status)
            time.sleep(0.2)
        raise SystemExit(f"timed out waiting for {meta['namespace']}/{meta['name']}")

    def show(self) -> None:
        print("4/5 applying examples/new-taskrun.yaml ...", flush=True)
        new = yaml.safe_load((REPO / "examples" / "new-taskrun.yaml").read_text())
        new["spec"].setdefault("execution", {})["mode"] = "external"
        self.kubectl("apply", "-f", "-", input=json.dumps(new))
        meta = new["metadata"]
        self.wait(meta, lambda s: s.get("phase") == "Running")
        prompt = json.loads(
            self.kubectl("get", "configmap", f"{meta['name']}-prompt", "-n", meta["namespace"], "-o", "json")
        )["data"]["prompt.md"]
        section = prompt.split("## Prior Knowledge", 1)[-1].split("\n\nEngine:", 1)[0]
        print(f"5/5 the Prior Knowledge that tr/{meta['namespace']}/{meta['name']} received:\n")
        print("## Prior Knowledge" + section if "## Prior Knowledge" in prompt else "(none)")
        print("\n" + self.kubectl("get", "taskruns", "-A"))
        print(
            f"The memory dashboard (read-only): http://127.0.0.1:{DASHBOARD_PORT}/ while the operator runs "
            f"(scripts/demo --keep leaves it up; or: .venv/bin/osmia memory --db {DATA / 'memory.db'} serve)"
        )

    def stop(self) -> None:
        if self.keep:
            print(
                f"--keep: still running. export KUBECONFIG={self.cp.kubeconfig}; operator log: "
                f"{DATA / 'operator.log'}; memory: .venv/bin/osmia memory --db {DATA / 'memory.db'} status"
            )
            return
        if self.operator is not None and self.operator.poll() is None:
            self.operator.send_signal(signal.SIGTERM)
            self.operator.wait(timeout=30)
        self.cp.down()


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--keep", action="store_true", help="leave the control plane and operator running")
    args = parser.parse_args()
    DATA.mkdir(exist_ok=True)
    demo = Demo(keep=args.keep)
    try:
        demo.start()
        demo.replay()
        demo.show()
    finally:
        demo.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
