"""Prometheus metrics Osmia exports. Each one is updated by the code path it names.

Labels are low-cardinality by rule: node type, engine, outcome, phase. Never a
repository, ticket or TaskRun name.
"""

from __future__ import annotations

from collections.abc import Iterable

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

REGISTRY = CollectorRegistry(auto_describe=True)

_LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)

# --- the contract's four --------------------------------------------------------
NODES = Gauge(
    "osmia_memory_nodes_total", "Knowledge nodes currently stored, by node type.", ["type"], registry=REGISTRY
)
QUERIES = Counter(
    "osmia_memory_queries",
    "Memory queries made for a TaskRun prompt, by engine.",
    ["engine"],
    registry=REGISTRY,
)
EXTRACTIONS = Counter(
    "osmia_memory_extractions",
    "Extractions of finished TaskRuns, by outcome (done, duplicate, skipped, failed).",
    ["outcome"],
    registry=REGISTRY,
)
CONFIDENCE = Histogram(
    "osmia_memory_confidence_distribution",
    "Confidence of nodes as they are written by extraction.",
    buckets=(0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 1.0),
    registry=REGISTRY,
)

# --- latency, decay and prune -----------------------------------------------------
QUERY_SECONDS = Histogram(
    "osmia_memory_query_duration_seconds",
    "Time to rank and render memory for one prompt.",
    buckets=_LATENCY_BUCKETS,
    registry=REGISTRY,
)
EXTRACTION_SECONDS = Histogram(
    "osmia_memory_extraction_duration_seconds",
    "Time to extract and commit one finished TaskRun.",
    buckets=_LATENCY_BUCKETS,
    registry=REGISTRY,
)
INJECTED = Histogram(
    "osmia_memory_injected_facts",
    "Facts placed in one prompt's Prior Knowledge section.",
    buckets=(0, 1, 2, 3, 5, 8, 10, 15, 20, 50),
    registry=REGISTRY,
)
DECAY_CYCLES = Counter(
    "osmia_memory_decay_cycles", "Decay cycles applied (catch-up cycles included).", registry=REGISTRY
)
DECAY_SECONDS = Histogram(
    "osmia_memory_decay_duration_seconds",
    "Time for one decay pass (all due cycles plus prune, one transaction).",
    buckets=_LATENCY_BUCKETS,
    registry=REGISTRY,
)
PRUNED = Counter(
    "osmia_memory_pruned_nodes", "Nodes removed because their confidence fell below the threshold.",
    registry=REGISTRY,
)  # fmt: skip
LAST_DECAY = Gauge(
    "osmia_memory_last_decay_timestamp_seconds",
    "Unix time of the last decay cycle boundary applied to the store.",
    registry=REGISTRY,
)
REFUSED_LEARNINGS = Counter(
    "osmia_memory_refused_learnings",
    "Learnings of extracted runs not stored because they read as orders to the agent, by the check"
    " that refused them (rules, asked first; model, the learned check beside them).",
    ["check"],
    registry=REGISTRY,
)
DB_ERRORS = Counter(
    "osmia_memory_database_errors",
    "Memory operations that failed with a database error, by operation.",
    ["operation"],
    registry=REGISTRY,
)

# --- controller --------------------------------------------------------------------
TASKRUN_PHASES = Counter(
    "osmia_taskrun_phase_transitions",
    "TaskRun phase transitions observed by the operator, by phase reached.",
    ["phase"],
    registry=REGISTRY,
)
TASKRUNS = Gauge(
    "osmia_taskruns", "TaskRuns the operator currently knows, by phase.", ["phase"], registry=REGISTRY
)

# Label values the operator can produce (the CLI's own operations never reach /metrics).
EXTRACTION_OUTCOMES = ("done", "duplicate", "skipped", "failed")
OPERATOR_DB_OPERATIONS = ("ingest", "query", "decay", "status", "maintain")
REFUSAL_CHECKS = ("rules", "model")


def start_series_at_zero(*, memory: bool, engines: Iterable[str], phases: Iterable[str]) -> None:
    """Export every known labelled counter series at 0 from the start.

    A labelled series otherwise appears on its first increment, already at 1:
    Prometheus never sees it rise, so ``increase()`` and ``rate()`` stay 0 and
    the first failed extraction or database error would never alert.
    """
    for phase in phases:
        TASKRUN_PHASES.labels(phase=phase)
    if not memory:
        return
    for outcome in EXTRACTION_OUTCOMES:
        EXTRACTIONS.labels(outcome=outcome)
    for operation in OPERATOR_DB_OPERATIONS:
        DB_ERRORS.labels(operation=operation)
    for check in REFUSAL_CHECKS:
        REFUSED_LEARNINGS.labels(check=check)
    for engine in engines:
        QUERIES.labels(engine=engine)
