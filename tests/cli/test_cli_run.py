"""``osmia run``: the hand-over of config and kopf options to the operator; usage errors outside it."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from osmia.cli import run as cli_run
from tests.cli.runs import Osmia


def test_run_hands_config_and_kopf_options_to_the_operator(
    osmia: Osmia, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[tuple[Any, list[str], Any]] = []
    monkeypatch.setattr(
        cli_run,
        "_load_operator",
        lambda: SimpleNamespace(run=lambda c, a, services: calls.append((c, a, services))),
    )
    config = tmp_path / "osmia-config.yaml"
    config.write_text("memory:\n  tenant_isolation: false\noperator:\n  log_format: console\n")
    outcome = osmia("run", "--namespace", "agents", "--config", config, "--standalone", "-n", "sre")
    assert outcome.code == 0, outcome.err
    ((loaded, kopf_args, services),) = calls
    assert kopf_args == ["--namespace", "agents", "--standalone", "-n", "sre"]
    assert loaded.operator.log_format == "console"
    assert services == [], "no dashboard unless dashboard.enabled"
    assert "tenant_isolation is ignored" in outcome.err
    config.write_text("memory:\n  enabled: true\ndashboard:\n  enabled: true\n  port: 9471\n")
    assert osmia("run", "--config", config).code == 0
    assert len(calls[-1][2]) == 1 and callable(calls[-1][2][0]), "the dashboard is handed over as a service"


def test_run_with_a_bad_config_is_bad_input(osmia: Osmia, tmp_path: Path) -> None:
    config = tmp_path / "osmia-config.yaml"
    config.write_text("memroy: {}\n")
    outcome = osmia("run", "--config", config)
    assert outcome.code == 2 and "memroy" in outcome.err


def test_run_without_the_controller_fails_clearly(osmia: Osmia, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli_run, "OPERATOR_MODULE", "osmia.controller.not_there")
    outcome = osmia("run")
    assert outcome.code == 1
    assert "module osmia.controller.not_there is missing" in outcome.err


def test_unknown_options_outside_run_are_usage_errors(osmia: Osmia, history_db: Path) -> None:
    with pytest.raises(SystemExit) as exit_info:
        osmia("memory", "--db", history_db, "status", "--standalone")
    assert exit_info.value.code == 2
