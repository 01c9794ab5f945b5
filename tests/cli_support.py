"""Running ``osmia`` from tests: in-process (fast, for property tests) and as a real process."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from osmia import cli
from osmia.config import ENV_MEMORY_STORE_PATH

REPO_ROOT = Path(__file__).resolve().parents[1]


@dataclass
class Outcome:
    """What one ``osmia`` invocation did."""

    code: int
    out: str
    err: str

    def json(self) -> Any:
        return json.loads(self.out)


def run_cli(*args: str | Path, stdin: str | None = None) -> Outcome:
    """``osmia ARGS...`` in this process, stdout and stderr captured (usage errors exit via SystemExit)."""
    out, err = io.StringIO(), io.StringIO()
    saved_stdin = sys.stdin
    if stdin is not None:
        sys.stdin = io.StringIO(stdin)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            try:
                code = cli.main([str(a) for a in args])
            except SystemExit as exc:
                code = int(exc.code or 0)
    finally:
        sys.stdin = saved_stdin
    return Outcome(code, out.getvalue(), err.getvalue())


def run_process(*args: str | Path, stdin: str | None = None, timeout: float = 60) -> Outcome:
    """``python -m osmia ARGS...`` as a real process (no store path from the environment)."""
    env = {k: v for k, v in os.environ.items() if k != ENV_MEMORY_STORE_PATH}
    done = subprocess.run(
        [sys.executable, "-m", "osmia", *map(str, args)],
        capture_output=True,
        text=True,
        input=stdin,
        cwd=REPO_ROOT,
        env=env,
        timeout=timeout,
        check=False,
    )
    return Outcome(done.returncode, done.stdout, done.stderr)


def assert_clean_errors(outcome: Outcome) -> list[str]:
    """Exit 0 or 2, no traceback, and every stderr line one printable line; returns the lines."""
    assert outcome.code in (0, 2), outcome
    assert "Traceback" not in outcome.err, outcome.err
    lines = outcome.err.splitlines()
    for line in lines:
        assert line.isprintable(), repr(line)
    return lines
