"""The load benchmark (benchmarks/load.py) at smoke size, on the session's control plane."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from benchmarks.load import percentile, report, run

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(900)]


def test_the_load_benchmark_runs_end_to_end_and_loses_nothing(
    control_plane: Any,
    tmp_path: Path,
) -> None:
    figures = run(control_plane, tmp_path, burst=10, rate=5.0, seconds=2.0, settle=180.0)
    assert figures["lost"] == 0
    assert figures["burst"]["taskruns"] == 10 and figures["steady"]["taskruns"] >= 5
    for phase in ("burst", "steady"):
        for key in ("create_to_prompt_p99_s", "terminal_to_done_p99_s"):
            assert not math.isnan(figures[phase][key]) and figures[phase][key] > 0
    assert figures["operator_peak_rss_mb"] > 0 and figures["api_requests_per_taskrun"] > 0
    # Three per run (prompt ConfigMap, Running, the final write) plus the odd 409 re-read; kopf timers,
    # on.create and a separate settle write made it 15.
    assert figures["api_requests_per_taskrun"] <= 6
    assert figures["operator_cpu_ms_per_taskrun"] > 0 and figures["apiserver_cpu_s"] > 0
    assert "p99 ≤ 2 s" in report(figures)


def test_percentile_is_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert (
        percentile(values, 50) == 50.0 and percentile(values, 99) == 99.0 and percentile(values, 100) == 100.0
    )
    assert percentile([3.0], 99) == 3.0 and math.isnan(percentile([], 50))
