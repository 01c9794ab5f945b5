"""The hostile-text benchmark at its smoke size, so that it cannot rot (no timing is asserted)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from benchmarks.hostile_text import OPERATIONS, SHAPES

ROOT = Path(__file__).resolve().parents[2]


def test_the_benchmark_prints_every_operation_and_shape() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "benchmarks.hostile_text", "--smoke"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    for op in OPERATIONS:
        for shape in SHAPES:
            assert f"| {op} | {shape} |" in proc.stdout
    assert "### Baseline" in proc.stdout and "worst per-KB ratio" in proc.stdout
    assert proc.stderr == ""  # RE2 prints nothing (a DFA out of memory would log to stderr)
