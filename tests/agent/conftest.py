"""Fixtures for the runner tests: a local bare git remote, fake engines on PATH, one runner process."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
FIXTURES = HERE.parent / "fixtures" / "engines"
EXECUTABLES = {
    "claude-code": "claude",
    "codex": "codex",
    "gemini-cli": "gemini",
    "opencode": "opencode",
    "aider": "aider",
}
TRANSCRIPTS = {
    "claude-code": "claude-code.jsonl",
    "codex": "codex.jsonl",
    "gemini-cli": "gemini-cli.json",
    "opencode": "opencode.jsonl",
    "aider": "aider.txt",
}
API_KEY = "sk-ant-api03-FAKEFAKEFAKEFAKEFAKEFAKE0123456789"
GIT_TOKEN = "ghp_FAKEtokenFAKEtokenFAKEtoken012345"
PROMPT = "# Task PROJ-7: add() subtracts\n\nFix add() in calc.py.\n\nEngine: {engine}\n"


def git(*args: str, cwd: Path) -> str:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.invalid",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.invalid",
        "GIT_CONFIG_NOSYSTEM": "1",
    }
    return subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True, text=True).stdout


@dataclass
class RunOutcome:
    """A finished runner process: exit code, streams, termination log, and the whole result from the log."""

    code: int
    stdout: str
    stderr: str
    termination: str
    result: dict[str, Any]
    record: dict[str, Any]
    remote: Path

    @property
    def fitted(self) -> dict[str, Any]:
        parsed: dict[str, Any] = json.loads(self.termination)
        return parsed

    def remote_branches(self) -> list[str]:
        return git("for-each-ref", "--format=%(refname:short)", "refs/heads", cwd=self.remote).split()


@pytest.fixture
def remote(tmp_path: Path) -> Path:
    """A bare repository with a small Python project whose add() is wrong."""
    bare = tmp_path / "remote.git"
    git("init", "--quiet", "--bare", "--initial-branch=main", str(bare), cwd=tmp_path)
    seed = tmp_path / "seed"
    (seed / "tests").mkdir(parents=True)
    (seed / "calc.py").write_text("def add(a, b):\n    return a - b\n\n\ndef sub(a, b):\n    return a - b\n")
    (seed / "tests" / "test_calc.py").write_text(
        "from calc import add, sub\n\n\ndef test_add():\n    assert add(2, 3) == 5\n\n\n"
        "def test_sub():\n    assert sub(3, 2) == 1\n"
    )
    git("init", "--quiet", "--initial-branch=main", cwd=seed)
    git("add", "-A", cwd=seed)
    git("commit", "--quiet", "-m", "seed", cwd=seed)
    git("push", "--quiet", str(bare), "main", cwd=seed)
    return bare


@pytest.fixture
def fake_bin(tmp_path: Path) -> Path:
    """Every engine's executable name, each the fake engine."""
    folder = tmp_path / "bin"
    folder.mkdir()
    script = (HERE / "fake_engine.py").read_text().replace("#!/usr/bin/env python3", f"#!{sys.executable}", 1)
    for name in EXECUTABLES.values():
        path = folder / name
        path.write_text(script)
        path.chmod(0o755)
    return folder


RunAgent = Callable[..., RunOutcome]


@pytest.fixture
def run_agent(tmp_path: Path, remote: Path, fake_bin: Path) -> RunAgent:
    """Run ``python -m osmia.agent`` as a process with the pod's environment; extra keywords are env vars."""

    def run(engine: str = "claude-code", timeout: float = 120, **env: str) -> RunOutcome:
        work = tmp_path / f"run-{engine}-{len(list(tmp_path.glob('run-*')))}"
        work.mkdir()
        prompt = work / "prompt.md"
        prompt.write_text(PROMPT.format(engine=engine))
        termination = work / "termination-log"
        record = work / "record.json"
        full_env = {
            "PATH": f"{fake_bin}{os.pathsep}{os.environ['PATH']}",
            "HOME": str(work),
            "OSMIA_PROMPT_FILE": str(prompt),
            "OSMIA_ENGINE": engine,
            "OSMIA_TICKET_ID": "PROJ-7",
            "OSMIA_TASKRUN": "agents/fix-add",
            "OSMIA_REPOSITORY_URL": f"file://{remote}",
            "OSMIA_WORKSPACE": str(work / "workspace"),
            "OSMIA_TERMINATION_LOG": str(termination),
            "OSMIA_TEST_COMMAND": f"{sys.executable} {HERE / 'fake_tests.py'}",
            "OSMIA_MODEL": "test-model",
            "OSMIA_GIT_TOKEN": GIT_TOKEN,
            "ANTHROPIC_API_KEY": API_KEY,
            "FAKE_TRANSCRIPT": str(FIXTURES / TRANSCRIPTS[engine]),
            "FAKE_RECORD": str(record),
            "PYTHONPATH": str(HERE.parents[1]),
            **env,
        }
        done = subprocess.run(
            [sys.executable, "-m", "osmia.agent"],
            env=full_env,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
        last = [line for line in done.stdout.splitlines() if line.startswith("osmia-agent result: ")]
        assert last, f"no result line in the log:\n{done.stdout}\n{done.stderr}"
        return RunOutcome(
            code=done.returncode,
            stdout=done.stdout,
            stderr=done.stderr,
            termination=termination.read_text() if termination.exists() else "",
            result=json.loads(last[-1].removeprefix("osmia-agent result: ")),
            record=json.loads(record.read_text()) if record.exists() else {},
            remote=remote,
        )

    assert shutil.which("git"), "git is needed"
    return run
