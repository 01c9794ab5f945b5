"""Every dashboard query and every alert rule, evaluated by a real Prometheus that scraped a real operator.

tests/test_dashboard.py checks that the dashboard and the PrometheusRule name
only metrics the operator exports. This module goes further: Prometheus
(built from the Go module proxy by hack/controlplane/build-prometheus.sh)
scrapes ``osmia run`` every second while a realistic flow runs against the
local control plane, then

* each panel target of dashboards/osmia-memory.json, with Grafana's variables
  filled in, is evaluated as an instant query (the stat panels' view) and as a
  range query over the flow (the time-series panels' view, with Grafana's own
  ``$__interval`` and ``$__rate_interval`` arithmetic); each must return at
  least one series with a finite value;
* the chart's PrometheusRule (``helm template``, ``spec.groups``) is loaded as a
  rule file; each rule must be evaluated with health ``ok``, and the two alerts
  the flow provokes (a failed extraction, a database error) must be active.

The flow makes every series exist: external runs that fail (with testsFailed)
and succeed (with learnings), a job-mode run that falls back to a second
engine, a run that times out, a run that receives Prior Knowledge and stays
Running, and an extraction that fails because another process holds the
SQLite write lock (``osmia_memory_database_errors_total``). The operator
decays every 3.6 s and prunes below 0.41, so decay cycles and pruned nodes
(learnings start at 0.4) really happen in a short run.
"""

from __future__ import annotations

import json
import math
import re
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.e2e.operator_process import REPO, OperatorProcess, wait_for
from tests.e2e.prometheus_process import PrometheusServer
from tests.e2e.test_operator import Cluster, finish_job, new_namespace, sample, taskrun
from tests.test_chart import documents, helm_template

pytestmark = pytest.mark.e2e

DASHBOARD = REPO / "dashboards" / "osmia-memory.json"
DECAY_INTERVAL_HOURS = 0.001  # 3.6 s: several passes in a short flow
OPERATOR_MEMORY = {
    "decay_interval_hours": DECAY_INTERVAL_HOURS,
    "prune_threshold": 0.41,
    "busy_timeout_ms": 100,
}
# Alerts the flow provokes on purpose; they must be pending or firing at the end.
PROVOKED_ALERTS = ("OsmiaMemoryExtractionFailures", "OsmiaMemoryDatabaseErrors")


@dataclass(frozen=True)
class Target:
    """One query of one dashboard panel."""

    panel: str
    legend: str
    expr: str


@dataclass(frozen=True)
class Scraped:
    """A Prometheus that scraped the operator through the whole flow."""

    prom: PrometheusServer
    namespace: str
    rule_file: Path


# --- the dashboard ------------------------------------------------------------------------------


def load_dashboard() -> dict[str, Any]:
    """The generated dashboard JSON (dashboards/build_dashboard.py)."""
    return dict(json.loads(DASHBOARD.read_text()))


def dashboard_targets(dashboard: dict[str, Any]) -> list[Target]:
    """Every panel target (rows' nested panels included) with its panel title and legend."""
    panels = list(dashboard["panels"])
    for panel in dashboard["panels"]:
        panels.extend(panel.get("panels") or [])
    return [
        Target(panel["title"], target.get("legendFormat") or "", target["expr"])
        for panel in panels
        for target in panel.get("targets") or []
        if target.get("expr")
    ]


def template_values(dashboard: dict[str, Any], prom: PrometheusServer) -> dict[str, str]:
    """Each query variable resolved as Grafana would: its label values, multi-value regex ``(a|b)``."""
    values: dict[str, str] = {}
    for var in dashboard.get("templating", {}).get("list", []):
        if var["type"] == "datasource":
            continue
        query = var["query"]["query"] if isinstance(var["query"], dict) else var["query"]
        match = re.fullmatch(r"label_values\((?:(.+),\s*)?(\w+)\)", query.strip())
        assert var["type"] == "query" and match, f"variable ${var['name']}: cannot resolve {query!r}"
        metric, label = match.groups()
        params = {"match[]": metric} if metric else {}
        found = prom.api(f"label/{label}/values", **params)
        assert found, f"variable ${var['name']}: {query} returns no values"
        values[var["name"]] = "(" + "|".join(map(grafana_regex_escape, found)) + ")"
    return values


def grafana_regex_escape(value: str) -> str:
    """Grafana's escaping of a value in a Prometheus ``=~`` matcher: two backslashes before a metacharacter.

    The PromQL string literal turns them into one, which the regex engine then reads as an escape.
    """
    return re.sub(r"([$^*{}\[\]'+?.()|\\])", r"\\\\\1", value)


def rate_interval(interval_s: float, scrape_s: float) -> float:
    """Grafana's ``$__rate_interval``: max($__interval + scrape interval, 4 × scrape interval)."""
    return max(interval_s + scrape_s, 4 * scrape_s)


def substitute(expr: str, values: dict[str, str]) -> str:
    """Replace ``$name`` and ``${name}`` (built-in or template); an unknown variable fails the test."""

    def one(match: re.Match[str]) -> str:
        name = match.group(1) or match.group(2)
        assert name in values, f"unknown Grafana variable ${name} in {expr}"
        return values[name]

    return re.sub(r"\$\{(\w+)(?::\w+)?\}|\$(\w+)", one, expr)


def finite(samples: list[list[Any]]) -> list[float]:
    """The finite numbers among ``[timestamp, "value"]`` pairs."""
    return [v for v in (float(s[1]) for s in samples) if math.isfinite(v)]


# --- the alert rules ----------------------------------------------------------------------------


def write_rule_file(helm: Path, path: Path) -> None:
    """The chart's PrometheusRule ``spec.groups`` (memory on, the test's decay interval) as a rule file."""
    values = path.with_name("chart-values.yaml")  # a file: `--set` turns 0.005 into a string
    values.write_text(
        yaml.safe_dump(
            {
                "prometheusRule": {"enabled": True},
                "config": {"memory": {"enabled": True, "decay_interval_hours": DECAY_INTERVAL_HOURS}},
            }
        )
    )
    rendered = documents(helm_template(helm, values=[values]))
    rule = next(o for o in rendered if o["kind"] == "PrometheusRule")
    path.write_text(yaml.safe_dump({"groups": rule["spec"]["groups"]}, sort_keys=False))


def evaluated_rules(prom: PrometheusServer) -> list[dict[str, Any]]:
    """Every loaded rule once each has been evaluated at least once (empty list until then)."""
    rules = [r for g in prom.api("rules")["groups"] for r in g["rules"]]
    done = all(r["health"] != "unknown" and not r["lastEvaluation"].startswith("0001") for r in rules)
    return rules if rules and done else []


# --- the flow -----------------------------------------------------------------------------------


def external_runs(cluster: Cluster) -> None:
    """An external failure with a failing test, then an external success with learnings."""
    cluster.apply(taskrun("ext-fail", cluster.ns))
    cluster.finish_external(
        "ext-fail",
        {"success": False, "failureReason": "tests failed", "testsFailed": ["TestConcurrentLogin"]},
    )
    cluster.wait_extraction("ext-fail")
    cluster.apply(taskrun("ext-ok", cluster.ns, engine="aider"))
    cluster.finish_external(
        "ext-ok",
        {"success": True, "summary": "added the lock", "learnings": ["Run go mod tidy before building"]},
        phase="Succeeded",
    )
    cluster.wait_extraction("ext-ok")


def job_with_fallback(cluster: Cluster) -> None:
    """Job mode: claude-code's Job fails, aider's succeeds."""
    cluster.apply(taskrun("job-1", cluster.ns, mode="job", fallbacks=("aider",)))
    cluster.wait_phase("job-1", "Running")
    wait_for(lambda: cluster.get("job", "job-1-0-claude-code"), what="first job")
    finish_job(cluster, "job-1-0-claude-code", ok=False, message={"success": False, "failureReason": "OOM"})
    wait_for(lambda: cluster.get("job", "job-1-1-aider"), what="fallback job")
    finish_job(
        cluster,
        "job-1-1-aider",
        ok=True,
        message={"success": True, "summary": "fixed", "filesChanged": ["internal/auth/login.go"]},
    )
    cluster.wait_phase("job-1", "Succeeded")
    cluster.wait_extraction("job-1")


def extraction_under_lock(cluster: Cluster, db: Path) -> None:
    """Another process holds the SQLite write lock while a run finishes: the extraction fails."""
    cluster.apply(taskrun("locked-1", cluster.ns))
    cluster.wait_phase("locked-1", "Running")
    conn = sqlite3.connect(db, isolation_level=None)
    try:
        conn.execute("BEGIN IMMEDIATE")
        cluster.patch_status(
            "taskrun", "locked-1", {"phase": "Failed", "result": {"success": False, "testsFailed": ["TestX"]}}
        )
        failed = cluster.wait_extraction("locked-1", "Failed")
    finally:
        conn.rollback()
        conn.close()
    assert "locked" in failed["memory"]["extraction"]["error"]


def drive_flow(cluster: Cluster, op: OperatorProcess) -> None:
    """Every kind of run the dashboard shows; ends with one run Running and Prior Knowledge injected."""
    cluster.apply(taskrun("slow-1", cluster.ns, timeout=2))  # times out while the others run
    external_runs(cluster)
    job_with_fallback(cluster)
    cluster.wait_phase("slow-1", "TimedOut", timeout=60)
    cluster.wait_extraction("slow-1")
    cluster.apply(taskrun("next-1", cluster.ns))
    assert "## Prior Knowledge" in cluster.prompt("next-1")  # left Running
    wait_for(  # the learning (confidence 0.4 < 0.41) goes at the next decay pass
        lambda: sample(op.metrics(), "osmia_memory_pruned_nodes_total") > 0, what="a decay pass that prunes"
    )
    extraction_under_lock(cluster, op.db)


# --- fixtures -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def scraped(
    control_plane: Any, prometheus_bin: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Scraped]:
    """Operator + Prometheus on a namespace of their own, after the whole flow has been scraped."""
    control_plane.kubectl("apply", "-f", str(REPO / "deploy" / "crds"))
    control_plane.kubectl("wait", "--for=condition=Established", "crd/taskruns.osmia.dev", "--timeout=60s")
    cluster = new_namespace(control_plane, "prom")
    folder = tmp_path_factory.mktemp("prometheus")
    rule_file = folder / "osmia-rules.yaml"
    write_rule_file(control_plane.helm, rule_file)
    op = OperatorProcess(
        folder, control_plane.kubeconfig, namespaces=(cluster.ns,), extra={"memory": OPERATOR_MEMORY}
    ).start()
    prom = PrometheusServer(
        prometheus_bin,
        folder,
        target=f"127.0.0.1:{op.metrics_port}",
        target_labels={"namespace": cluster.ns},  # what the chart's ServiceMonitor adds
        rule_file=rule_file,
    )
    try:
        prom.start()
        drive_flow(cluster, op)
        prom.wait_scraped_after(time.time())
        yield Scraped(prom, cluster.ns, rule_file)
    finally:
        prom.stop()
        assert op.stop() == 0, op.log.read_text()[-3000:]


# --- tests --------------------------------------------------------------------------------------


def test_every_dashboard_query_returns_data(scraped: Scraped) -> None:
    prom, dashboard = scraped.prom, load_dashboard()
    variables = template_values(dashboard, prom)
    assert re.fullmatch(variables["namespace"], scraped.namespace), variables
    end = time.time()
    flow = math.ceil(end - prom.started_at)
    scrape = float(prom.SCRAPE_SECONDS)
    step = max(math.ceil(flow / 1000), scrape)  # ~1000 px wide panel, min interval = the scrape interval
    # Instant: one window over the whole flow, so every observation counts.
    instant = {**variables, "__interval": f"{flow}s", "__rate_interval": f"{flow}s", "__range": f"{flow}s"}
    ranged = {
        **variables,
        "__interval": f"{step:g}s",
        "__rate_interval": f"{rate_interval(step, scrape):g}s",
        "__range": f"{flow}s",
    }
    rows, empty = [], []
    for target in dashboard_targets(dashboard):
        now = prom.query(substitute(target.expr, instant), at=end)
        series = prom.query_range(substitute(target.expr, ranged), prom.started_at, end, step)
        values = finite([s["value"] for s in now])
        points = sum(len(finite(s["values"])) for s in series)
        rows.append(
            (target.panel, target.legend, len(now), max(values, default=math.nan), len(series), points)
        )
        if not values or not points:
            empty.append(f"{target.panel} [{target.legend}]: {target.expr}")
    print_table(("panel", "target", "series", "max value", "range series", "range points"), rows)
    assert rows, f"no panel targets in {DASHBOARD}"
    assert not empty, "panel queries without data:\n" + "\n".join(empty)


def test_every_alert_rule_loads_and_evaluates(scraped: Scraped) -> None:
    prom = scraped.prom
    check = prom.promtool("check", "rules", str(scraped.rule_file))
    assert check.returncode == 0, check.stdout + check.stderr
    expected = [
        r["alert"] for g in yaml.safe_load(scraped.rule_file.read_text())["groups"] for r in g["rules"]
    ]
    rules = wait_for(lambda: evaluated_rules(prom), timeout=30, what="every rule evaluated")
    print_table(
        ("rule", "health", "state", "active alerts"),
        [(r["name"], r["health"], r["state"], len(r.get("alerts") or [])) for r in rules],
    )
    assert sorted(r["name"] for r in rules) == sorted(expected)
    bad = {r["name"]: r.get("lastError") for r in rules if r["health"] != "ok"}
    assert not bad, f"rules evaluated with errors: {bad}"
    state = {r["name"]: r["state"] for r in rules}
    for name in PROVOKED_ALERTS:
        assert state[name] in ("pending", "firing"), f"{name} is {state[name]} after the flow provoked it"


def print_table(header: tuple[str, ...], rows: list[tuple[Any, ...]]) -> None:
    """A plain aligned table on stdout (shown with ``pytest -s``)."""
    cells = [header, *(tuple(f"{c:.4g}" if isinstance(c, float) else str(c) for c in r) for r in rows)]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    print()
    for row in cells:
        print("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip())
