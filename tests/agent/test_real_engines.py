"""The runner with a real engine CLI at the version the runner image pins.

Gemini CLI is the one that fails fast and offline: without credentials it
prints its JSON error object on standard error and exits 41. The runner must
read that object, classify it as an authentication error and say so in the
result. (Claude Code refuses ``bypassPermissions`` as root, where tests may
run; Codex and OpenCode wait for the network.) Installed by
hack/engines/install.py from the npm registry into ~/.cache/osmia-e2e.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.agent.conftest import RunAgent

pytestmark = pytest.mark.e2e
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "hack" / "engines"))

from install import install  # noqa: E402


@pytest.fixture(scope="module")
def gemini_bin() -> Path:
    if shutil.which("npm") is None or shutil.which("node") is None:
        pytest.fail("node and npm are needed for the real-engine test")
    node = subprocess.run(["node", "--version"], capture_output=True, text=True, check=True).stdout
    if int(node.strip().lstrip("v").split(".")[0]) < 20:
        pytest.skip(
            f"Gemini CLI 0.61.0 needs Node 20 or newer (the runner image has 22); this host has {node}"
        )
    return install("@google/gemini-cli")


def test_real_gemini_without_credentials_is_an_authentication_error(
    gemini_bin: Path, run_agent: RunAgent
) -> None:
    version = subprocess.run(
        [str(gemini_bin / "gemini"), "--version"], capture_output=True, text=True, timeout=120
    )
    assert version.stdout.strip() == "0.61.0"
    run = run_agent(
        "gemini-cli",
        PATH=f"{gemini_bin}{os.pathsep}{os.environ['PATH']}",
        GEMINI_API_KEY="",
        GOOGLE_API_KEY="",
    )
    assert run.code == 1, run.stderr
    result = run.result
    assert result["success"] is False
    assert result["exitCode"] == 41
    assert result["failureReason"].startswith("engine error: authentication (Please set an Auth method")
    assert "branchName" not in result and result["filesChanged"] == []
    assert "not trusted" not in run.stdout  # the runner trusted its own checkout
    assert "[gemini-cli] " in run.stdout  # the engine's output is in the pod log
