#!/usr/bin/env python3
"""Build the Osmia memory Grafana dashboard with Grafana's own SDK (grafana-foundation-sdk).

The JSON is generated, not hand-written: this file is the source and
``dashboards/osmia-memory.json`` plus its copy in the Helm chart
(``charts/osmia/dashboards/osmia-memory.json``) are its output. Regenerate
both after an edit with::

    .venv/bin/python dashboards/build_dashboard.py

``tests/test_dashboard.py`` fails when the committed files differ from what
this script builds, and parses every query with a PromQL parser to check that
it names only metrics the operator exports (``osmia/metrics.py``).

Every query is filtered by the ``$namespace`` variable (the label Prometheus
adds from the ServiceMonitor); "All" matches series with no namespace label
too, so a plain static scrape also works.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from grafana_foundation_sdk.builders import common as common_b
from grafana_foundation_sdk.builders import dashboard as dash
from grafana_foundation_sdk.builders import heatmap, prometheus, stat, timeseries
from grafana_foundation_sdk.cog.encoder import JSONEncoder
from grafana_foundation_sdk.models import common
from grafana_foundation_sdk.models import dashboard as dash_m
from grafana_foundation_sdk.models import prometheus as prom_m

ROOT = Path(__file__).resolve().parents[1]
OUTPUTS = (
    ROOT / "dashboards" / "osmia-memory.json",
    ROOT / "charts" / "osmia" / "dashboards" / "osmia-memory.json",
)

UID = "osmia-memory"
TITLE = "Osmia / Memory"
DATASOURCE = dash_m.DataSourceRef(type_val="prometheus", uid="${datasource}")
NS_AND = 'namespace=~"$namespace"'
RATE = "$__rate_interval"


def sel(metric: str, matchers: str = "") -> str:
    """``metric{namespace=~"$namespace", <matchers>}``."""
    return f"{metric}{{{NS_AND}{', ' + matchers if matchers else ''}}}"


def query(expr: str, legend: str, ref: str = "A", *, fmt: prom_m.PromQueryFormat | None = None) -> Any:
    q = prometheus.Dataquery().expr(expr).legend_format(legend).ref_id(ref).range()
    if fmt is not None:
        q = q.format(fmt)
    return q


def quantiles(histogram: str) -> list[Any]:
    """p50, p95 and p99 of a histogram over the rate interval."""
    return [
        query(
            f"histogram_quantile({q}, sum by (le) (rate({sel(histogram + '_bucket')}[{RATE}])))",
            f"p{round(q * 100)}",
            ref,
        )
        for q, ref in ((0.5, "A"), (0.95, "B"), (0.99, "C"))
    ]


def legend() -> Any:
    return (
        common_b.VizLegendOptions()
        .display_mode(common.LegendDisplayMode.TABLE)
        .placement(common.LegendPlacement.RIGHT)
        .show_legend(True)
        .calcs(["lastNotNull", "max"])
    )


def series(
    panel_id: int,
    title: str,
    description: str,
    targets: list[Any],
    *,
    unit: str = "short",
    stacked: bool = False,
    width: int = 12,
    height: int = 8,
) -> Any:
    panel = (
        timeseries.Panel()
        .id(panel_id)
        .title(title)
        .description(description)
        .datasource(DATASOURCE)
        .targets(targets)
        .unit(unit)
        .min(0)
        .span(width)
        .height(height)
        .fill_opacity(10)
        .legend(legend())
    )
    if stacked:
        panel = panel.stacking(common_b.StackingConfig().mode(common.StackingMode.NORMAL)).fill_opacity(40)
    return panel


def single(panel_id: int, title: str, description: str, expr: str, *, unit: str = "short") -> Any:
    return (
        stat.Panel()
        .id(panel_id)
        .title(title)
        .description(description)
        .datasource(DATASOURCE)
        .with_target(query(expr, title).instant())
        .unit(unit)
        .span(6)
        .height(4)
        .graph_mode(common.BigValueGraphMode.AREA)
        .reduce_options(common_b.ReduceDataOptions().calcs(["lastNotNull"]))
    )


def build() -> dict[str, Any]:
    """The dashboard as a plain JSON-ready dict."""
    board = (
        dash.Dashboard(TITLE)
        .uid(UID)
        .description(
            "What Osmia's episodic memory is doing: knowledge graph, queries, extraction, decay, TaskRuns."
        )
        .tags(["osmia", "kubernetes", "ai-agents"])
        .editable()
        .tooltip(dash_m.DashboardCursorSync.CROSSHAIR)
        .refresh("30s")
        .time("now-6h", "now")
        .timezone("browser")
        .with_variable(dash.DatasourceVariable("datasource").label("Data source").type("prometheus"))
        .with_variable(
            dash.QueryVariable("namespace")
            .label("Namespace")
            .datasource(DATASOURCE)
            .query("label_values(osmia_memory_last_decay_timestamp_seconds, namespace)")
            .refresh(dash_m.VariableRefresh.ON_TIME_RANGE_CHANGED)
            .sort(dash_m.VariableSort.ALPHABETICAL_ASC)
            .include_all(True)
            .all_value(".*")
            .multi(True)
        )
        # --- overview ---------------------------------------------------------
        .with_row(dash.Row("Overview").id(100))
        .with_panel(
            single(
                1,
                "Knowledge nodes",
                "Nodes currently stored (osmia_memory_nodes_total, all types).",
                f"sum({sel('osmia_memory_nodes_total')})",
            )
        )
        .with_panel(
            single(
                2,
                "Facts per prompt (avg, 1h)",
                "Average number of nodes placed in one prompt's Prior Knowledge section over the last hour.",
                f"sum(increase({sel('osmia_memory_injected_facts_sum')}[1h])) / "
                f"sum(increase({sel('osmia_memory_injected_facts_count')}[1h]))",
            )
        )
        .with_panel(
            single(
                3,
                "Since last decay",
                "Time since the last decay cycle boundary was applied to the store. Should stay below "
                "the configured memory.decay_interval_hours.",
                f"time() - max({sel('osmia_memory_last_decay_timestamp_seconds')})",
                unit="s",
            )
        )
        .with_panel(
            single(
                4,
                "Database errors (24h)",
                "Memory operations that failed with a SQLite error in the last 24 hours.",
                f"sum(increase({sel('osmia_memory_database_errors_total')}[24h])) or vector(0)",
            )
        )
        # --- knowledge graph --------------------------------------------------
        .with_row(dash.Row("Knowledge graph").id(101))
        .with_panel(
            series(
                10,
                "Nodes by type",
                "Knowledge nodes stored, by node type (fact, pattern, engine_profile).",
                [query(f"sum by (type) ({sel('osmia_memory_nodes_total')})", "{{type}}")],
                stacked=True,
            )
        )
        .with_panel(
            heatmap.Panel()
            .id(11)
            .title("Confidence distribution")
            .description(
                "Confidence of nodes as extraction writes them (new and reinforced), per time bucket. "
                "Most mass near 0.4-0.8 is normal; a drift towards 1.0 means many repeats."
            )
            .datasource(DATASOURCE)
            .with_target(
                query(
                    f"sum by (le) (increase({sel('osmia_memory_confidence_distribution_bucket')}[{RATE}]))",
                    "{{le}}",
                    fmt=prom_m.PromQueryFormat.HEATMAP,
                )
            )
            .calculate(False)
            .span(12)
            .height(8)
            .color(heatmap.HeatmapColorOptions().mode(heatmap_mode()).scheme("Oranges").fill("dark-orange"))
            .y_axis(heatmap.YAxisConfig().unit("short").decimals(2))
            .cell_values(heatmap.CellValues().unit("short"))
        )
        # --- queries ----------------------------------------------------------
        .with_row(dash.Row("Queries").id(102))
        .with_panel(
            series(
                20,
                "Queries per second by engine",
                "Memory queries made for TaskRun prompts, by the engine the run starts with.",
                [query(f"sum by (engine) (rate({sel('osmia_memory_queries_total')}[{RATE}]))", "{{engine}}")],
                unit="reqps",
                width=8,
            )
        )
        .with_panel(
            series(
                21,
                "Query latency",
                "Time to rank and render memory for one prompt (p50, p95, p99).",
                quantiles("osmia_memory_query_duration_seconds"),
                unit="s",
                width=8,
            )
        )
        .with_panel(
            series(
                22,
                "Facts injected per prompt",
                "Nodes placed in one prompt's Prior Knowledge section: average and p95.",
                [
                    query(
                        f"sum(rate({sel('osmia_memory_injected_facts_sum')}[{RATE}])) / "
                        f"sum(rate({sel('osmia_memory_injected_facts_count')}[{RATE}]))",
                        "average",
                        "A",
                    ),
                    query(
                        "histogram_quantile(0.95, sum by (le) "
                        f"(rate({sel('osmia_memory_injected_facts_bucket')}[{RATE}])))",
                        "p95",
                        "B",
                    ),
                ],
                width=8,
            )
        )
        # --- extraction -------------------------------------------------------
        .with_row(dash.Row("Extraction").id(103))
        .with_panel(
            series(
                30,
                "Extractions by outcome",
                "Finished TaskRuns extracted into memory per second, by outcome "
                "(done, duplicate, skipped, failed).",
                [
                    query(
                        f"sum by (outcome) (rate({sel('osmia_memory_extractions_total')}[{RATE}]))",
                        "{{outcome}}",
                    )
                ],
                unit="ops",
                stacked=True,
                width=8,
            )
        )
        .with_panel(
            series(
                31,
                "Extraction latency",
                "Time to extract and commit one finished TaskRun (p50, p95, p99).",
                quantiles("osmia_memory_extraction_duration_seconds"),
                unit="s",
                width=8,
            )
        )
        .with_panel(
            series(
                32,
                "Learnings refused as hostile",
                "Learnings not stored because they read as orders to the agent, per hour, by the check "
                "that refused them: rules (asked first) or model (the learned check beside them). A rise "
                "is an attack or a change in what an engine writes.",
                [
                    query(
                        f"sum by (check) (increase({sel('osmia_memory_refused_learnings_total')}[1h]))",
                        "{{check}}",
                    )
                ],
                width=8,
            )
        )
        # --- decay ------------------------------------------------------------
        .with_row(dash.Row("Decay and prune").id(104))
        .with_panel(
            series(
                40,
                "Decay and prune activity",
                "Decay cycles applied (catch-up cycles included) and nodes pruned below "
                "memory.prune_threshold, per hour.",
                [
                    query(
                        f"sum(increase({sel('osmia_memory_decay_cycles_total')}[1h]))", "decay cycles", "A"
                    ),
                    query(
                        f"sum(increase({sel('osmia_memory_pruned_nodes_total')}[1h]))", "pruned nodes", "B"
                    ),
                ],
                width=8,
            )
        )
        .with_panel(
            series(
                41,
                "Decay pass duration",
                "Time for one decay pass (all due cycles plus prune, one transaction), p95 over 6 hours.",
                [
                    query(
                        "histogram_quantile(0.95, sum by (le) "
                        f"(rate({sel('osmia_memory_decay_duration_seconds_bucket')}[6h])))",
                        "p95",
                    )
                ],
                unit="s",
                width=8,
            )
        )
        .with_panel(
            series(
                42,
                "Database errors by operation",
                "Memory operations that failed with a database error (ingest, query, decay, ...).",
                [
                    query(
                        f"sum by (operation) (increase({sel('osmia_memory_database_errors_total')}[{RATE}]))",
                        "{{operation}}",
                    )
                ],
                width=8,
            )
        )
        # --- taskruns ---------------------------------------------------------
        .with_row(dash.Row("TaskRuns").id(105))
        .with_panel(
            series(
                50,
                "TaskRuns by phase",
                "TaskRuns the operator currently knows, by status.phase.",
                [query(f"sum by (phase) ({sel('osmia_taskruns')})", "{{phase}}")],
                stacked=True,
            )
        )
        .with_panel(
            series(
                51,
                "Phase transitions",
                "TaskRun phase transitions per second, by the phase reached.",
                [
                    query(
                        f"sum by (phase) (rate({sel('osmia_taskrun_phase_transitions_total')}[{RATE}]))",
                        "{{phase}}",
                    )
                ],
                unit="ops",
            )
        )
    )
    encoded = json.dumps(board.build(), cls=JSONEncoder)
    data: dict[str, Any] = json.loads(encoded)
    return data


def heatmap_mode() -> Any:
    from grafana_foundation_sdk.models import heatmap as heatmap_m

    return heatmap_m.HeatmapColorMode.SCHEME


def render() -> str:
    """The file content: stable key order, two-space indent, trailing newline."""
    return json.dumps(build(), indent=2, sort_keys=True) + "\n"


def main(argv: list[str]) -> int:
    text = render()
    if "--check" in argv:
        stale = [str(p.relative_to(ROOT)) for p in OUTPUTS if not p.exists() or p.read_text() != text]
        if stale:
            print("out of date (run dashboards/build_dashboard.py): " + ", ".join(stale), file=sys.stderr)
            return 1
        return 0
    for path in OUTPUTS:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
