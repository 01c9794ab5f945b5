"""The chart's alert rules under ``promtool``: they parse, and each fires when (and only when) it should.

``promtool check rules`` validates the rendered PrometheusRule; ``promtool test rules`` replays the
synthetic series in ``fixtures/alert-rules-test.yaml`` through them (operator down or gone, extraction
failures, database errors, decay stalled, and a healthy operator on which nothing fires). promtool is
the one built with the e2e Prometheus (hack/controlplane/build-prometheus.sh). The live half — every rule
evaluated by a running Prometheus scraping a real operator — is tests/e2e/test_prometheus.py.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from tests.test_chart import documents, find_helm, helm_template

pytestmark = pytest.mark.e2e

CASES = Path(__file__).with_name("fixtures") / "alert-rules-test.yaml"


def rendered_rules(tmp_path: Path) -> Path:
    """The chart's PrometheusRule groups, defaults plus `prometheusRule.enabled`, as a rule file."""
    helm = find_helm()
    assert helm is not None and helm.exists(), "helm is built by hack/controlplane/build.sh"
    values = tmp_path / "values.yaml"
    values.write_text(yaml.safe_dump({"prometheusRule": {"enabled": True}}))
    rule = next(o for o in documents(helm_template(helm, values=[values])) if o["kind"] == "PrometheusRule")
    path = tmp_path / "osmia-rules.yaml"
    path.write_text(yaml.safe_dump({"groups": rule["spec"]["groups"]}, sort_keys=False))
    return path


def promtool(bin_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(bin_dir / "promtool"), *args], capture_output=True, text=True, check=False, timeout=120
    )


def test_rules_pass_promtool_check(prometheus_bin: Path, tmp_path: Path) -> None:
    rules = rendered_rules(tmp_path)
    check = promtool(prometheus_bin, "check", "rules", str(rules))
    assert check.returncode == 0, check.stdout + check.stderr
    names = [r["alert"] for g in yaml.safe_load(rules.read_text())["groups"] for r in g["rules"]]
    assert "OsmiaOperatorDown" in names
    assert f"SUCCESS: {len(names)} rules found" in check.stdout


def test_every_alert_has_unit_tests_and_they_pass(prometheus_bin: Path, tmp_path: Path) -> None:
    rules = rendered_rules(tmp_path)
    shutil.copy(CASES, tmp_path / CASES.name)
    names = {r["alert"] for g in yaml.safe_load(rules.read_text())["groups"] for r in g["rules"]}
    cases = yaml.safe_load(CASES.read_text())["tests"]
    firing = {t["alertname"] for c in cases for t in c["alert_rule_test"] if t["exp_alerts"]}
    assert firing == names, f"alerts without a firing test case: {sorted(names - firing)}"
    result = promtool(prometheus_bin, "test", "rules", str(tmp_path / CASES.name))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "SUCCESS" in result.stdout


def test_a_wrong_expectation_fails(prometheus_bin: Path, tmp_path: Path) -> None:
    """The unit tests can fail: a case expecting silence while the operator is down is refused."""
    rendered_rules(tmp_path)
    data = yaml.safe_load(CASES.read_text())
    data["tests"] = [data["tests"][0]]
    data["tests"][0]["alert_rule_test"][-1]["exp_alerts"] = []
    broken = tmp_path / "broken-test.yaml"
    broken.write_text(yaml.safe_dump(data, sort_keys=False))
    result = promtool(prometheus_bin, "test", "rules", str(broken))
    assert result.returncode != 0
    assert "OsmiaOperatorDown" in result.stdout + result.stderr
