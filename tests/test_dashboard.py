"""The Grafana dashboard and the alert rules name only metrics the operator really exports.

The list of exported names is not written down here: a child process imports
``osmia.metrics``, touches every labelled metric once (so that its series
exist) and renders the registry with ``prometheus_client.generate_latest``,
exactly as the operator's /metrics endpoint does. Every PromQL expression (each
panel target, the template variable query, each PrometheusRule ``expr``) is
parsed with ``promql-parser`` and each metric it selects must be in that list.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
DASHBOARD = ROOT / "dashboards" / "osmia-memory.json"
CHART_DASHBOARD = ROOT / "charts" / "osmia" / "dashboards" / "osmia-memory.json"
BUILDER = ROOT / "dashboards" / "build_dashboard.py"

promql = pytest.importorskip("promql_parser")

_EXPORTED_SCRIPT = """
import json
from prometheus_client import generate_latest
from prometheus_client.metrics import MetricWrapperBase
from osmia import metrics

for metric in vars(metrics).values():
    if isinstance(metric, MetricWrapperBase) and metric._labelnames:
        metric.labels(*["probe"] * len(metric._labelnames))
names = set()
for line in generate_latest(metrics.REGISTRY).decode().splitlines():
    if line and not line.startswith("#"):
        names.add(line.split("{", 1)[0].split(" ", 1)[0])
print(json.dumps(sorted(names)))
"""

# Grafana's built-in variables, replaced by plain values before parsing.
_GRAFANA_VARS = {
    "$__rate_interval": "5m",
    "$__interval": "1m",
    "$__range": "6h",
    "${__range}": "6h",
}


@pytest.fixture(scope="module")
def exported() -> set[str]:
    """Metric names on the operator's /metrics, rendered in a child process (no shared state)."""
    proc = subprocess.run(
        [sys.executable, "-c", _EXPORTED_SCRIPT], cwd=ROOT, capture_output=True, text=True, check=True
    )
    names = set(json.loads(proc.stdout))
    assert "osmia_memory_queries_total" in names, "the probe did not see the contract's metrics"
    return names


def metric_names(expr: str) -> set[str]:
    """Every metric an expression selects (by name or by a __name__ matcher)."""
    for var, value in _GRAFANA_VARS.items():
        expr = expr.replace(var, value)
    ast = promql.parse(expr)
    found: set[str] = set()

    def visit(node: Any) -> None:
        if isinstance(node, promql.VectorSelector):
            if node.name:
                found.add(node.name)
            for matcher in node.matchers.matchers:
                if matcher.name == "__name__":
                    found.add(matcher.value)

    promql.walk(ast, visit)
    return found


def dashboard_queries(board: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """(where, PromQL) for every panel target and every query variable."""
    for panel in board["panels"]:
        for target in panel.get("targets", []):
            yield f"panel {panel['title']!r} target {target['refId']}", target["expr"]
    for variable in board["templating"]["list"]:
        if variable["type"] == "query":
            match = re.fullmatch(r"label_values\((.+),\s*\w+\)", variable["query"])
            assert match, f"variable {variable['name']}: unexpected query {variable['query']!r}"
            yield f"variable {variable['name']}", match[1]


@pytest.fixture(scope="module")
def board() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(DASHBOARD.read_text())
    return data


# --------------------------------------------------------------------------
# The files


def test_chart_ships_the_same_file() -> None:
    assert CHART_DASHBOARD.read_bytes() == DASHBOARD.read_bytes()


def test_files_are_what_the_builder_makes() -> None:
    """The JSON is generated with grafana-foundation-sdk; an edit by hand is refused."""
    pytest.importorskip("grafana_foundation_sdk")
    proc = subprocess.run(
        [sys.executable, str(BUILDER), "--check"], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, proc.stderr


def test_dashboard_shape(board: dict[str, Any]) -> None:
    assert board["uid"] == "osmia-memory"
    ids = [p["id"] for p in board["panels"]]
    assert len(ids) == len(set(ids)), "panel ids are unique"
    for panel in board["panels"]:
        if panel["type"] == "row":
            continue
        assert panel["datasource"] == {"type": "prometheus", "uid": "${datasource}"}, panel["title"]
        assert panel["targets"], panel["title"]
        grid = panel["gridPos"]
        assert grid["x"] + grid["w"] <= 24
    names = {v["name"] for v in board["templating"]["list"]}
    assert names == {"datasource", "namespace"}


def test_required_panels(board: dict[str, Any]) -> None:
    """The issue's list: each wanted panel exists with the right metric and shape."""
    panels = {p["title"]: p for p in board["panels"] if p["type"] != "row"}

    def exprs(title: str) -> str:
        return " ".join(t["expr"] for t in panels[title]["targets"])

    assert "by (type)" in exprs("Nodes by type") and "osmia_memory_nodes_total" in exprs("Nodes by type")
    assert "by (engine)" in exprs("Queries per second by engine")
    assert "rate(osmia_memory_queries_total" in exprs("Queries per second by engine")
    assert "by (outcome)" in exprs("Extractions by outcome")
    assert "osmia_memory_extractions_total" in exprs("Extractions by outcome")
    heat = panels["Confidence distribution"]
    assert heat["type"] == "heatmap" and heat["targets"][0]["format"] == "heatmap"
    assert "osmia_memory_confidence_distribution_bucket" in exprs("Confidence distribution")
    for title, histogram in (
        ("Query latency", "osmia_memory_query_duration_seconds_bucket"),
        ("Extraction latency", "osmia_memory_extraction_duration_seconds_bucket"),
    ):
        legends = sorted(t["legendFormat"] for t in panels[title]["targets"])
        assert legends == ["p50", "p95", "p99"], title
        assert exprs(title).count(histogram) == 3
        assert panels[title]["fieldConfig"]["defaults"]["unit"] == "s"
    decay = exprs("Decay and prune activity")
    assert "osmia_memory_decay_cycles_total" in decay and "osmia_memory_pruned_nodes_total" in decay
    assert "by (phase)" in exprs("TaskRuns by phase") and "osmia_taskruns" in exprs("TaskRuns by phase")
    assert "osmia_taskrun_phase_transitions_total" in exprs("Phase transitions")
    assert "osmia_memory_injected_facts" in exprs("Facts injected per prompt")


def test_every_panel_query_names_exported_metrics(board: dict[str, Any], exported: set[str]) -> None:
    seen: set[str] = set()
    for where, expr in dashboard_queries(board):
        names = metric_names(expr)
        assert names, f"{where}: selects no metric: {expr}"
        unknown = names - exported
        assert not unknown, f"{where}: {sorted(unknown)} not exported by osmia.metrics: {expr}"
        seen |= names
    # Every family the operator exports is on the dashboard (by some sample name).
    families = {
        re.sub(r"_(total|bucket|sum|count|created)$", "", n) for n in exported if not n.endswith("_created")
    }
    shown = {re.sub(r"_(total|bucket|sum|count)$", "", n) for n in seen}
    assert not families - shown, f"exported but not on the dashboard: {sorted(families - shown)}"


def test_every_query_filters_by_namespace(board: dict[str, Any]) -> None:
    for where, expr in dashboard_queries(board):
        if where.startswith("variable"):
            continue
        for var, value in _GRAFANA_VARS.items():
            expr = expr.replace(var, value)

        def visit(node: Any, where: str = where) -> None:
            if isinstance(node, promql.VectorSelector):
                labels = {m.name for m in node.matchers.matchers}
                assert "namespace" in labels, f"{where}: {node} lacks the $namespace filter"

        promql.walk(promql.parse(expr), visit)


def test_metric_name_extraction() -> None:
    """The checker itself finds names in every position."""
    assert metric_names('sum by (le) (rate(a_bucket{x="1"}[$__rate_interval]))') == {"a_bucket"}
    assert metric_names('time() - max(b) > 2 * 3600 and on() absent({__name__="c"})') == {"b", "c"}
    assert metric_names("histogram_quantile(0.9, sum by (le) (rate(d[5m]))) / e offset 1h") == {"d", "e"}


def test_checker_catches_an_unknown_metric(exported: set[str]) -> None:
    assert metric_names("rate(osmia_memory_queries[5m])") - exported == {"osmia_memory_queries"}, (
        "a counter without its _total suffix is not what the operator exports"
    )


# --------------------------------------------------------------------------
# The PrometheusRule


def rendered_rules() -> list[dict[str, Any]]:
    from tests.test_chart import ALL_ON, find_helm, one, render

    helm = find_helm()
    if helm is None or not helm.exists():
        pytest.skip("helm unavailable")
    rule = one(render(helm, values=[ALL_ON]), "PrometheusRule")
    return [r for group in rule["spec"]["groups"] for r in group["rules"]]


def test_alert_expressions_name_exported_metrics(exported: set[str]) -> None:
    rules = rendered_rules()
    assert {r["alert"] for r in rules} == {
        "OsmiaOperatorDown",
        "OsmiaMemoryExtractionFailures",
        "OsmiaMemoryDecayNotRunning",
        "OsmiaMemoryDatabaseErrors",
    }
    expected = {
        # `up` is Prometheus's own series for the scrape target: there when the operator is not.
        "OsmiaOperatorDown": {"up"},
        "OsmiaMemoryExtractionFailures": {"osmia_memory_extractions_total"},
        "OsmiaMemoryDecayNotRunning": {"osmia_memory_last_decay_timestamp_seconds"},
        "OsmiaMemoryDatabaseErrors": {"osmia_memory_database_errors_total"},
    }
    for rule in rules:
        names = metric_names(rule["expr"])
        assert names == expected[rule["alert"]], rule["alert"]
        assert names <= exported | {"up"}
        # Durations are valid Prometheus durations.
        promql.parse_duration(rule["for"])


def test_alert_label_values_exist() -> None:
    """outcome="failed" is a value the memory facade really uses."""
    source = (ROOT / "osmia" / "memory" / "service.py").read_text()
    assert 'EXTRACTIONS.labels(outcome="failed")' in source
    rules = {r["alert"]: r for r in rendered_rules()}
    expr = promql.parse(rules["OsmiaMemoryExtractionFailures"]["expr"])
    matchers: list[tuple[str, str]] = []

    def visit(node: Any) -> None:
        if isinstance(node, promql.VectorSelector):
            matchers.extend((m.name, m.value) for m in node.matchers.matchers)

    promql.walk(expr, visit)
    assert ("outcome", "failed") in matchers


_AT_ZERO_SCRIPT = """
import sys
from prometheus_client import generate_latest
from osmia import metrics

metrics.start_series_at_zero(memory=sys.argv[1] == "on", engines=["claude-code"], phases=["Failed"])
print(generate_latest(metrics.REGISTRY).decode())
"""


@pytest.mark.parametrize("memory", ["on", "off"])
def test_alerted_series_exist_at_zero_before_the_first_event(memory: str) -> None:
    """A series born at 1 never rises for Prometheus: increase() would miss the first failure."""
    text = subprocess.run(
        [sys.executable, "-c", _AT_ZERO_SCRIPT, memory], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    assert 'osmia_taskrun_phase_transitions_total{phase="Failed"} 0.0' in text
    memory_series = [
        'osmia_memory_extractions_total{outcome="failed"} 0.0',
        'osmia_memory_database_errors_total{operation="ingest"} 0.0',
        'osmia_memory_queries_total{engine="claude-code"} 0.0',
    ]
    assert all((line in text) == (memory == "on") for line in memory_series), text


def test_alert_file_is_valid_yaml_for_promtool_shape() -> None:
    """The rule group serialises the way `promtool check rules` expects (groups/rules/alert/expr)."""
    rules = rendered_rules()
    doc = yaml.safe_dump({"groups": [{"name": "osmia.memory", "rules": rules}]})
    back = yaml.safe_load(doc)
    for rule in back["groups"][0]["rules"]:
        assert set(rule) <= {"alert", "expr", "for", "labels", "annotations", "keep_firing_for"}
