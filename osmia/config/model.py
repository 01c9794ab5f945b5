"""The configuration model: every key of ``osmia-config.yaml``, its type, range, default and meaning.

This is the one place a key is declared (the ``engines`` section's keys in
``osmia/config/engines.py``, the shared base in ``section.py``). The loader validates files with it,
``osmia/config/schema.py`` generates the chart's ``values.schema.json`` part and
the key table of ``docs/configuration.md`` from it, and error messages are
worded from it. To add a key: add a field with a type from
``osmia/config/types.py`` (or a plain ``bool``/``Literal``/``Annotated[int,
Field(ge=..., le=...)]``) and a docstring saying what reads it, then run
``python -m osmia.config.schema --write`` and give the key a test value in
``tests/test_config.py`` (``NON_DEFAULT``).

The attribute docstrings are the documentation: they become the "what it
controls" column of the docs table and the descriptions in the chart's schema.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Final, Literal

from pydantic import AfterValidator, Field, PrivateAttr, model_validator
from pydantic_core import PydanticCustomError

from osmia.config.engines import EngineConfig, EngineName
from osmia.config.section import Section
from osmia.config.types import (
    DNS_LABEL,
    DNS_SUBDOMAIN,
    EXPECTED,
    NULL_IS_EMPTY_LIST,
    ReadOnlyMapping,
    StorePath,
    chart_sets,
    empty_mapping,
    ignored,
    listing,
    text,
    unique_items,
)

SECTIONS: Final = ("memory", "operator", "execution", "dashboard", "engines")
"""The top-level sections of the file, in documentation order."""


# --------------------------------------------------------------------------
# memory


class MemoryConfig(Section):
    """Settings of the episodic memory (the SQLite knowledge graph)."""

    enabled: bool = False
    """Memory facade and controller: off means no database file is created, no background
    extraction or decay task runs, and no `## Prior Knowledge` section is written. A TaskRun's
    `spec.memory.enabled: false` opts one run out; it cannot switch memory on."""

    store_path: StorePath = Field(
        default=Path("/var/lib/osmia/memory.db"),
        json_schema_extra=chart_sets("persistence.memory.mountPath"),
    )
    """Memory store: the SQLite database file (WAL files sit next to it). `~` is expanded; a
    relative path is relative to the directory of the config file (as written, symlinks not
    resolved), so the result is always absolute."""

    decay_interval_hours: Annotated[float, Field(gt=0, le=8760)] = 24.0
    """Decay: time between cycles of `confidence ← confidence × (1 − decay_rate)` followed by
    pruning; missed cycles are applied once at start-up."""

    prune_threshold: Annotated[float, Field(ge=0, lt=1)] = 0.05
    """Decay: nodes whose confidence falls below this are removed with their edges. `0` never
    prunes."""

    max_facts_per_query: Annotated[int, Field(ge=1, le=100)] = 10
    """Query: at most this many nodes in one prompt's Prior Knowledge section."""

    tenant_isolation: bool = Field(
        default=True,
        json_schema_extra=ignored("tenant isolation is always on and cannot be switched off"),
    )
    """Nothing: tenant isolation is always on. The key is accepted (it must still be a boolean)
    and a warning that it is ignored is logged whenever it is present, whatever its value."""

    token_budget: Annotated[int, Field(ge=50, le=20000)] = 600
    """Query/prompt: approximate size of the Prior Knowledge section, in tokens counted as
    characters / 4; nodes that do not fit are left out."""

    extraction_concurrency: Annotated[int, Field(ge=1, le=32)] = 2
    """Controller: how many background extraction tasks (finished TaskRun → nodes and edges) run
    at once."""

    min_pattern_samples: Annotated[int, Field(ge=2, le=1000)] = 5
    """Extractor: how many runs must back a cross-run pattern (e.g. a success rate) before it is
    stated."""

    busy_timeout_ms: Annotated[int, Field(ge=0, le=600000)] = 5000
    """Memory store: SQLite `busy_timeout`, how long a write waits for a lock (for example while
    `osmia memory` runs alongside the operator)."""

    ranking_preset: Literal["default", "ungated", "text-heavy", "recent"] = "default"
    """Query: the ranking preset (weights, caps and thresholds, `osmia/memory/ranking.py`) that
    chooses the Prior Knowledge section; `ungated` drops the specificity and statistics gates,
    `text-heavy` weighs ticket text above the repository, `recent` halves recency every 45 days
    instead of 180. `osmia memory explain` prints the preset in use."""


# --------------------------------------------------------------------------
# operator

Port = Annotated[int, Field(ge=0, le=65535)]
Namespace = Annotated[
    str,
    text(
        "a namespace name (DNS label: lowercase letters, digits, '-'; at most 63 characters)",
        DNS_LABEL,
        max_len=63,
    ),
]


class OperatorConfig(Section):
    """Settings of the operator process itself."""

    namespaces: Annotated[
        tuple[Namespace, ...],
        NULL_IS_EMPTY_LIST,
        AfterValidator(unique_items),
        listing(
            "a list of namespace names",
            "namespace names (DNS labels), no repeats",
            uniqueItems=True,
            **chart_sets("watchNamespaces"),
        ),
    ] = ()
    """`osmia run`: the namespaces whose TaskRuns are watched; empty watches all namespaces
    (cluster-wide)."""

    metrics_port: Port = Field(default=9090, json_schema_extra=chart_sets("metrics.port"))
    """`osmia run`: port of the Prometheus `/metrics` server; `0` disables it."""

    metrics_host: Annotated[
        str,
        text("a host name or IP address (non-empty, no spaces)", r"\S+", doc_range="non-empty, no spaces"),
    ] = "0.0.0.0"
    """`osmia run`: address the metrics server binds to."""

    liveness_port: Port = Field(default=8080, json_schema_extra=chart_sets("probes.port"))
    """`osmia run`: port of kopf's liveness endpoint `/healthz`; `0` disables it. Must differ
    from a non-zero `metrics_port`."""

    peering: Annotated[
        str,
        text(
            "'' (standalone) or a kopf peering name (DNS subdomain, at most 253 characters)",
            rf"({DNS_SUBDOMAIN})?",
            min_len=0,
            max_len=253,
            doc_range='`""` or a DNS subdomain name',
        ),
    ] = Field(default="", json_schema_extra=chart_sets("peering.enabled"))
    """`osmia run`: kopf peering object name, so that only one operator is active; `""` runs
    standalone (no peering)."""

    log_level: Literal["debug", "info", "warning", "error"] = "info"
    """Logging: lowest level written."""

    log_format: Literal["json", "console"] = "json"
    """Logging: JSON lines, or human-readable console output."""

    @model_validator(mode="after")
    def _ports_differ(self) -> OperatorConfig:
        if self.metrics_port != 0 and self.metrics_port == self.liveness_port:
            raise PydanticCustomError(
                "osmia",
                "{path}.liveness_port and {path}.metrics_port must differ "
                f"(both {self.metrics_port}); set either to 0 to disable it",
            )
        return self


# --------------------------------------------------------------------------
# execution


class ExecutionConfig(Section):
    """Defaults for TaskRuns executed as Kubernetes Jobs (``spec.execution.mode: job``)."""

    default_timeout_seconds: Annotated[int, Field(ge=1, le=86400)] = 3600
    """Controller: timeout of a run whose `spec.execution.timeoutSeconds` is absent; a run past
    it ends `TimedOut`."""

    prompt_mount_path: Annotated[
        str,
        text(
            "an absolute directory path such as /osmia/prompt (not '/'; no ':' or spaces)",
            r"/[^\s:\x00]*[^\s:\x00/]",
            doc_range="absolute path, not `/`, no `:` or spaces",
        ),
    ] = "/osmia/prompt"
    """Controller (job mode): directory where the prompt ConfigMap is mounted in the agent
    container; the prompt is `<path>/prompt.md`."""

    backoff_limit: Annotated[int, Field(ge=0, le=10)] = 0
    """Controller (job mode): the Job's `backoffLimit` (pod retries before the Job fails)."""

    ttl_seconds_after_finished: Annotated[int, Field(ge=0, le=604800)] | None = 3600
    """Controller (job mode): the Job's `ttlSecondsAfterFinished`; `null` leaves finished Jobs in
    place."""


# --------------------------------------------------------------------------
# dashboard


class DashboardConfig(Section):
    """The read-only memory dashboard served by the operator (docs/dashboard.md)."""

    enabled: bool = Field(default=False, json_schema_extra=chart_sets("dashboard.enabled"))
    """`osmia run`: serve the dashboard on `host:port` while memory is on. It shows every
    tenant's memory: bind it where only people who may read all of memory can reach it."""

    host: Annotated[
        str,
        text("a host name or IP address (non-empty, no spaces)", r"\S+", doc_range="non-empty, no spaces"),
    ] = Field(default="127.0.0.1", json_schema_extra=chart_sets("dashboard.enabled"))
    """`osmia run`: address the dashboard binds to (loopback by default)."""

    port: Annotated[int, Field(ge=1, le=65535)] = Field(
        default=8470, json_schema_extra=chart_sets("dashboard.port")
    )
    """`osmia run`: port of the dashboard. Must differ from the metrics and liveness ports."""


# --------------------------------------------------------------------------
# The whole file


class Config(Section):
    """The whole validated configuration (``osmia-config.yaml``).

    ``warnings`` holds notices for the caller to log, e.g. that
    ``memory.tenant_isolation`` is ignored; it is not part of the file.
    """

    memory: MemoryConfig = Field(default_factory=MemoryConfig)
    """Episodic memory: the SQLite knowledge graph, its decay and the Prior Knowledge section."""

    operator: OperatorConfig = Field(default_factory=OperatorConfig)
    """The operator process: watched namespaces, metrics, liveness, peering and logging."""

    execution: ExecutionConfig = Field(default_factory=ExecutionConfig)
    """Defaults for TaskRuns run as Jobs (`spec.execution.mode: job`)."""

    dashboard: DashboardConfig = Field(default_factory=DashboardConfig)
    """The read-only memory dashboard the operator can serve (off by default)."""

    engines: ReadOnlyMapping[EngineName, EngineConfig] = Field(
        default_factory=empty_mapping,
        json_schema_extra={EXPECTED: "a mapping of engine names to settings"},
    )
    """A mapping from engine name to how that engine runs in job mode. The name is what
    `spec.engine` and `spec.fallbackEngines` refer to and must match
    `^[a-z0-9]([-a-z0-9]*[a-z0-9])?$` (at most 63 characters). Default: no engines. All keys
    below are read by the controller when it builds the Job's container."""

    _warnings: tuple[str, ...] = PrivateAttr(default=())

    @model_validator(mode="after")
    def _dashboard_port_is_free(self) -> Config:
        port, op = self.dashboard.port, self.operator
        if self.dashboard.enabled and port in (op.metrics_port, op.liveness_port):
            raise PydanticCustomError(
                "osmia",
                f"dashboard.port ({port}) must differ from operator.metrics_port and operator.liveness_port",
            )
        return self

    @property
    def warnings(self) -> tuple[str, ...]:
        """Notices for the caller to log (ignored keys); empty when there are none."""
        return self._warnings
