"""The runner image's stages in the Dockerfile (static: no container engine here).

The same checks as the operator image's (tests/test_dockerfile.py) where
they apply, plus: every engine CLI at an exact version, the versions the
docs and the real-engine tests use, git installed, the runner's entrypoint.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SEMVER = re.compile(r"\d+\.\d+\.\d+")
VERSION_ARGS = {
    "CLAUDE_CODE_VERSION": "@anthropic-ai/claude-code",
    "CODEX_VERSION": "@openai/codex",
    "GEMINI_CLI_VERSION": "@google/gemini-cli",
    "OPENCODE_VERSION": "opencode-ai",
    "AIDER_VERSION": "aider-chat",
}


@pytest.fixture(scope="module")
def stages() -> dict[str, list[Any]]:
    dockerfile = pytest.importorskip("dockerfile")
    out: dict[str, list[Any]] = {}
    current = ""
    for cmd in dockerfile.parse_file(str(ROOT / "Dockerfile")):
        if cmd.cmd == "FROM":
            current = cmd.value[2] if len(cmd.value) == 3 else cmd.value[0]
            out[current] = [cmd]
        elif current:
            out[current].append(cmd)
    return out


def env_of(stage: list[Any]) -> dict[str, str]:
    env: dict[str, str] = {}
    for c in stage:
        if c.cmd == "ENV":
            env.update((k, v.strip('"')) for k, v in zip(c.value[::2], c.value[1::2], strict=True))
    return env


def test_the_runner_stages_come_before_the_operator_runtime(stages: dict[str, list[Any]]) -> None:
    names = list(stages)
    assert names[-1] == "runtime", "a plain docker build still gives the operator"
    for stage in ("runner-npm", "runner-aider", "runner-build", "runner"):
        assert stage in names


def test_every_engine_cli_is_pinned_to_an_exact_version_the_docs_name(stages: dict[str, list[Any]]) -> None:
    args = {}
    for stage in ("runner-npm", "runner-aider"):
        for c in stages[stage]:
            if c.cmd == "ARG":
                name, _, value = c.value[0].partition("=")
                args[name] = value
    docs = (ROOT / "docs" / "engines.md").read_text()
    for arg, package in VERSION_ARGS.items():
        assert SEMVER.fullmatch(args[arg]), f"{arg}={args[arg]!r}: not an exact version"
        row = next(line for line in docs.splitlines() if f"`{package}`" in line and f"`{arg}`" in line)
        assert f"| {args[arg]} |" in row, f"docs/engines.md names another version of {package}"
    npm = " ".join(c.original for c in stages["runner-npm"] if c.cmd == "RUN")
    for arg, package in VERSION_ARGS.items():
        if package != "aider-chat":
            assert f'"{package}@${{{arg}}}"' in npm
    aider = " ".join(c.original for c in stages["runner-aider"] if c.cmd == "RUN")
    assert '"aider-chat==${AIDER_VERSION}"' in aider


def test_the_runner_is_non_root_read_only_friendly_with_git(stages: dict[str, list[Any]]) -> None:
    final = stages["runner"]
    assert [c.value for c in final if c.cmd == "USER"][-1] == ("65532:65532",)
    entry = [c for c in final if c.cmd == "ENTRYPOINT"][-1]
    assert entry.json and entry.value == ("osmia-agent",)
    env = env_of(final)
    assert env["HOME"] == "/tmp" and env["TMPDIR"] == "/tmp" and env["OSMIA_WORKSPACE"] == "/workspace"
    assert env["PATH"].startswith("/opt/osmia-agent/bin:/opt/engines/bin:")
    runs = " ".join(c.original for c in final if c.cmd == "RUN")
    assert re.search(r"apt-get install -y --no-install-recommends .*\"git=\$\{GIT_DEB_VERSION\}\"", runs)
    assert "rm -rf /var/lib/apt/lists/*" in runs
    assert "install -d -o 65532 -g 65532" in runs and "/workspace" in runs
    copies = [c for c in final if c.cmd == "COPY"]
    assert copies and all(any(f.startswith("--from=") for f in c.flags) for c in copies)


def test_the_runner_gets_osmia_without_third_party_packages(stages: dict[str, list[Any]]) -> None:
    runs = " ".join(c.original for c in stages["runner-build"] if c.cmd == "RUN")
    assert "--no-deps" in runs and "/opt/osmia-agent" in runs
    assert "requirements-runtime.lock" not in runs
