"""Third-party checkers over what Osmia ships: checkov, kube-score (chart renders and deploy/), hadolint.

hack/scan/run.py renders every manifest set and runs the three; what each may skip is listed with a
one-line reason in hack/scan/. The second test proves the checkers still bite: a plainly unsafe Pod
and Dockerfile get findings from each, with the same configuration.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "hack" / "scan"))

import run as scan  # type: ignore[import-not-found]  # noqa: E402

UNSAFE_POD = """\
apiVersion: v1
kind: Pod
metadata:
  name: unsafe
  namespace: default
spec:
  hostNetwork: true
  containers:
    - name: c
      image: busybox:latest
      securityContext:
        privileged: true
"""
UNSAFE_DOCKERFILE = "FROM debian:latest\nRUN apt-get update && apt-get install -y curl\nUSER root\n"


@pytest.fixture(scope="module")
def tools() -> tuple[Path, Path]:
    return scan.tools()


def test_shipped_manifests_and_dockerfiles_pass_every_checker(
    tools: tuple[Path, Path], tmp_path: Path
) -> None:
    proc = subprocess.run(
        [sys.executable, str(ROOT / "hack" / "scan" / "run.py"), "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
        timeout=1200,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert {p.name for p in tmp_path.glob("*.yaml")} == {
        "chart-default.yaml",
        "chart-all-on.yaml",
        "chart-namespaced.yaml",
        "deploy.yaml",
    }
    for line in (
        "checkov: exit 0",
        "kube-score deploy.yaml: exit 0, 0 findings",
        "hadolint Dockerfile: exit 0",
    ):
        assert line in proc.stdout


def test_the_checkers_still_find_things(tools: tuple[Path, Path], tmp_path: Path) -> None:
    venv_bin, kube_score = tools
    pod = tmp_path / "pod.yaml"
    pod.write_text(UNSAFE_POD)
    checkov = scan.sh(
        [str(venv_bin / "checkov"), "--config-file", str(scan.HERE / "checkov.yaml"), "--file", str(pod)]
    )
    assert checkov.returncode != 0 and "CKV_K8S_16" in checkov.stdout, checkov.stdout  # privileged
    ks = scan.sh(
        [str(kube_score / "kube-score"), "score", *scan.kube_score_args(), "--output-format", "ci", str(pod)]
    )
    assert ks.returncode != 0 and "[CRITICAL]" in ks.stdout, ks.stdout
    dockerfile = tmp_path / "Dockerfile"
    dockerfile.write_text(UNSAFE_DOCKERFILE)
    hl = scan.sh([str(venv_bin / "hadolint"), "--config", str(scan.HERE / "hadolint.yaml"), str(dockerfile)])
    assert hl.returncode != 0 and "DL3007" in hl.stdout, hl.stdout  # :latest
