"""The TaskRun as typed Python values: what a run asked for and what it reported.

Plain frozen dataclasses and the two enums of the CRD; :mod:`osmia.taskrun.parse` makes them from
a document, checking every field against :mod:`osmia.taskrun.limits`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from osmia.taskrun.inference import infer_task_type, normalize_repository

API_VERSION = "osmia.dev/v1alpha1"
KIND = "TaskRun"


class Flow(StrEnum):
    """The use case of a run; it decides the tenant."""

    TICKETING = "ticketing"
    INCIDENT_TRIAGE = "incident-triage"


class Phase(StrEnum):
    """Lifecycle phase written to ``status.phase``."""

    PENDING = "Pending"
    RUNNING = "Running"
    SUCCEEDED = "Succeeded"
    FAILED = "Failed"
    TIMED_OUT = "TimedOut"

    @property
    def terminal(self) -> bool:
        """True for the phases after which nothing more happens to the run."""
        return self in TERMINAL_PHASES


TERMINAL_PHASES = frozenset({Phase.SUCCEEDED, Phase.FAILED, Phase.TIMED_OUT})

TASK_TYPES = ("bug", "feature", "docs", "refactor", "chore", "incident", "other")
EXECUTION_MODES = ("job", "external")


class TaskRunError(ValueError):
    """A TaskRun document that cannot be used; names the field and the problem."""

    def __init__(self, field_path: str, problem: str) -> None:
        super().__init__(f"{field_path}: {problem}")
        self.field_path = field_path
        self.problem = problem


@dataclass(frozen=True)
class Ticket:
    """The ticket the agent works on."""

    id: str
    description: str
    title: str = ""
    type: str | None = None
    labels: tuple[str, ...] = ()
    url: str = ""

    @property
    def task_type(self) -> str:
        """The declared type, or one inferred from labels, then title."""
        return self.type or infer_task_type(self.labels, self.title)


@dataclass(frozen=True)
class Repository:
    """The repository a ticketing run changes."""

    url: str = ""
    language: str = ""

    @property
    def slug(self) -> str:
        """Canonical ``host/owner/name`` form used as the memory subject."""
        return normalize_repository(self.url)


@dataclass(frozen=True)
class Result:
    """What the run reported in ``status.result``."""

    success: bool
    summary: str = ""
    exit_code: int | None = None
    failure_reason: str = ""
    merge_request_url: str = ""
    branch_name: str = ""
    files_changed: tuple[str, ...] = ()
    tests_failed: tuple[str, ...] = ()
    flaky_tests: tuple[str, ...] = ()
    duration_seconds: float | None = None
    token_usage: int | None = None
    cost_estimate_usd: float | None = None
    tool_calls: Mapping[str, int] = field(default_factory=dict)
    learnings: tuple[str, ...] = ()


@dataclass(frozen=True)
class TaskRun:
    """One agent working one ticket, as Osmia needs it."""

    namespace: str
    name: str
    uid: str
    engine: str
    ticket: Ticket
    flow: Flow = Flow.TICKETING
    fallback_engines: tuple[str, ...] = ()
    repository: Repository = Repository()
    instructions: str = ""
    memory_enabled: bool = True
    execution_mode: str = "job"
    timeout_seconds: int | None = None
    phase: Phase | None = None
    engine_attempts: tuple[str, ...] = ()
    result: Result | None = None
    finished_at: str = ""

    @property
    def tenant(self) -> str:
        """The tenant is the flow, never a user label."""
        return self.flow.value

    @property
    def ref(self) -> str:
        """How prompts cite this run: ``tr/<namespace>/<name>``."""
        return f"tr/{self.namespace}/{self.name}"

    @property
    def run_key(self) -> str:
        """Identity for exactly-once extraction: namespace, name and uid."""
        return f"{self.namespace}/{self.name}/{self.uid}" if self.uid else f"{self.namespace}/{self.name}"

    @property
    def terminal(self) -> bool:
        """True once the run has finished, whatever the outcome."""
        return self.phase is not None and self.phase.terminal

    @property
    def final_engine(self) -> str:
        """The engine that made the last attempt."""
        return self.engine_attempts[-1] if self.engine_attempts else self.engine
