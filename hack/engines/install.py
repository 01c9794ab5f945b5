#!/usr/bin/env python3
"""Install engine CLIs at the versions the runner image pins (Dockerfile build arguments), for tests.

    python hack/engines/install.py @google/gemini-cli     # prints the bin directory

Each package goes into ~/.cache/osmia-e2e/engines/<name>@<version>/ with npm
(idempotent: an existing install is reused). The versions are read from the
Dockerfile, so tests run the same CLIs the image ships.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CACHE = Path.home() / ".cache" / "osmia-e2e" / "engines"
# npm package -> the Dockerfile build argument holding its version.
PACKAGES = {
    "@anthropic-ai/claude-code": "CLAUDE_CODE_VERSION",
    "@openai/codex": "CODEX_VERSION",
    "@google/gemini-cli": "GEMINI_CLI_VERSION",
    "opencode-ai": "OPENCODE_VERSION",
}


class InstallError(RuntimeError):
    """npm is missing or the install failed."""


def pinned_versions() -> dict[str, str]:
    """npm package -> version, from the Dockerfile's ARG lines."""
    text = (ROOT / "Dockerfile").read_text()
    versions = {}
    for package, arg in PACKAGES.items():
        match = re.search(rf"^ARG {arg}=(\S+)$", text, re.MULTILINE)
        if not match:
            raise InstallError(f"Dockerfile: no ARG {arg}")
        versions[package] = match.group(1)
    return versions


def install(package: str) -> Path:
    """The bin directory of ``package`` at its pinned version, installing it first if needed."""
    version = pinned_versions()[package]
    target = CACHE / f"{package.replace('/', '+')}@{version}"
    bin_dir = target / "node_modules" / ".bin"
    if (target / ".done").exists():
        return bin_dir
    npm = shutil.which("npm")
    if npm is None:
        raise InstallError("npm is not installed")
    target.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        [npm, "install", "--no-audit", "--no-fund", "--prefix", str(target), f"{package}@{version}"],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    if done.returncode != 0:
        raise InstallError(f"npm install {package}@{version} failed: {done.stderr[-2000:]}")
    (target / ".done").write_text(version + "\n")
    return bin_dir


if __name__ == "__main__":
    try:
        for name in sys.argv[1:] or list(PACKAGES):
            print(install(name))
    except InstallError as exc:
        print(f"install.py: {exc}", file=sys.stderr)
        sys.exit(1)
