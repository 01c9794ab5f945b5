"""Value types shared by every memory layer: nodes, edges, observations, query results."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class NodeType(StrEnum):
    """The three kinds of knowledge Osmia keeps (the ``type`` metric label)."""

    FACT = "fact"
    PATTERN = "pattern"
    ENGINE_PROFILE = "engine_profile"


class Relation(StrEnum):
    """Edge relations. ``supersedes`` and ``contradicts`` point from the newer node to the older."""

    RELATES_TO = "relates_to"
    CONTRADICTS = "contradicts"
    SUPERSEDES = "supersedes"


class Kind(StrEnum):
    """Finer-grained node kinds; each has a display label used in prompts."""

    SUCCESS = "success"
    FAILURE = "failure"
    FAILING_TEST = "failing_test"
    FLAKY_TEST = "flaky_test"
    TEST_FIXED = "test_fixed"
    HOT_PATH = "hot_path"
    ENGINE_CAPABILITY = "engine_capability"
    LEARNING = "learning"
    PATTERN = "pattern"
    ENGINE_PROFILE = "engine_profile"
    ATTEMPT = "attempt"

    @property
    def label(self) -> str:
        """Human label shown in the Prior Knowledge section."""
        return _LABELS[self]

    @property
    def node_type(self) -> NodeType:
        """The coarse type this kind belongs to."""
        if self is Kind.PATTERN:
            return NodeType.PATTERN
        if self is Kind.ENGINE_PROFILE:
            return NodeType.ENGINE_PROFILE
        return NodeType.FACT


_LABELS = {
    Kind.SUCCESS: "Success",
    Kind.FAILURE: "Failure",
    Kind.FAILING_TEST: "Failing test",
    Kind.FLAKY_TEST: "Failure pattern",
    Kind.TEST_FIXED: "Fixed",
    Kind.HOT_PATH: "Repo quirk",
    Kind.ENGINE_CAPABILITY: "Engine capability",
    Kind.LEARNING: "Learning",
    Kind.PATTERN: "Pattern",
    Kind.ENGINE_PROFILE: "Engine profile",
    Kind.ATTEMPT: "Earlier attempt",
}


@dataclass(frozen=True, slots=True)
class Subject:
    """What a node is about; the columns candidates are matched on."""

    repository: str = ""
    engine: str = ""
    task_type: str = ""
    language: str = ""


@dataclass(slots=True)
class Node:
    """One piece of knowledge as stored. Times are Unix seconds."""

    id: str
    tenant: str
    kind: Kind
    key: str
    content: str
    subject: Subject
    confidence: float
    decay_rate: float
    valid_from: float
    last_seen: float
    valid_to: float | None = None
    occurrences: int = 1
    sources: list[str] = field(default_factory=list)
    # The stamp its row was read with (osmia/memory/clean_stamp.py): not part of what it says.
    clean_stamp: int | None = field(default=None, compare=False, repr=False)

    @property
    def type(self) -> NodeType:
        """Coarse node type."""
        return self.kind.node_type

    @property
    def valid(self) -> bool:
        """False once a newer node superseded this one."""
        return self.valid_to is None


@dataclass(frozen=True)
class Edge:
    """A directed relation between two nodes of the same tenant."""

    src: str
    dst: str
    relation: Relation
    weight: float
    created_at: float


@dataclass(frozen=True)
class Observation:
    """One thing a finished run teaches, before it is merged into the graph.

    ``replaces`` names keys of nodes this one closes (``supersedes``);
    ``conflicts`` names keys of nodes it contradicts; ``relates`` names keys it
    is related to. All keys are within the same tenant.
    """

    kind: Kind
    key: str
    content: str
    subject: Subject
    confidence: float
    replaces: tuple[str, ...] = ()
    conflicts: tuple[str, ...] = ()
    relates: tuple[str, ...] = ()
    # Patterns and profiles are recomputed: their content and confidence are
    # replaced, not reinforced.
    recomputed: bool = False
    # Kept only if it turns out to be about a node that already exists (a test named without
    # its class, which may or may not be a test): see osmia.memory.resolve.
    tentative: bool = False


# The longest run duration kept (about 31 years): a run that claims more has no known duration, and
# export/import use the same bound, so every stored run reads back.
MAX_DURATION_SECONDS = 1e9
MAX_TESTS = 20  # the tests of one run that are read (failed, flaky): a run's lists are unbounded


@dataclass(frozen=True)
class RunSummary:
    """The row kept per processed TaskRun: idempotency and pattern statistics."""

    run_key: str
    ref: str
    tenant: str
    repository: str
    language: str
    engine: str
    task_type: str
    success: bool
    failure_class: str
    duration_seconds: float | None
    finished_at: float
    ticket_id: str = ""
    # Engines that failed this run before a fallback took over (each counts as a failure of its own).
    failed_engines: tuple[str, ...] = ()


@dataclass(frozen=True)
class IngestResult:
    """What one ingest did. ``state`` is ``done``, ``duplicate`` or ``skipped``.

    A duplicate reports the figures recorded when the run was first extracted,
    so repeating a request (a replayed watch event) reports the same thing.
    """

    run_key: str
    state: str
    nodes: int = 0
    edges: int = 0
    reason: str = ""


@dataclass(frozen=True)
class QueryRequest:
    """What the next run is about: everything ranking may use."""

    tenant: str
    repository: str = ""
    engine: str = ""
    task_type: str = ""
    language: str = ""
    text: str = ""
    ticket_id: str = ""
    run_key: str = ""  # the run asking (its own attempt, when it has one, is not news to it)


@dataclass(frozen=True)
class ScoreParts:
    """The parts of a candidate's score: score = relevance × confidence × recency."""

    relevance: float
    confidence: float
    recency: float
    signals: tuple[tuple[str, float], ...] = ()
    discounts: tuple[tuple[float, str], ...] = ()

    @property
    def reasons(self) -> tuple[str, ...]:
        """Why the relevance is what it is, for ``explain``: matched signals, then discounts.

        Formatted on demand: a query scores hundreds of candidates and shows none of this.
        """
        matched = tuple(f"{name} {value:.2f}" for name, value in sorted(self.signals))
        return matched + tuple(f"× {factor} {why}" for factor, why in self.discounts)

    @property
    def score(self) -> float:
        """The product the ranking sorts by."""
        return self.relevance * self.confidence * self.recency


@dataclass(frozen=True)
class Candidate:
    """A node considered for a prompt, with its score parts and the verdict."""

    node: Node
    parts: ScoreParts
    kept: bool
    verdict: str

    @property
    def score(self) -> float:
        """Shortcut to the final score."""
        return self.parts.score


@dataclass(frozen=True)
class InjectedNode:
    """One node placed in a prompt (``status.memory.injected`` entry)."""

    id: str
    kind: str
    content: str
    confidence: float
    score: float
    sources: tuple[str, ...]
    # Content and sources are known to show as they are (their stamp holds): not cleaned again.
    clean: bool = field(default=False, compare=False)

    def status_entry(self) -> dict[str, object]:
        """The contract's ``{id, kind, confidence, score, sources}`` shape."""
        return {
            "id": self.id,
            "kind": self.kind,
            "confidence": round(self.confidence, 4),
            "score": round(self.score, 4),
            "sources": list(self.sources),
        }


@dataclass(frozen=True)
class MemoryContext:
    """What memory gives one run: the nodes and the rendered section ("" when none)."""

    injected: tuple[InjectedNode, ...]
    section: str


@dataclass(frozen=True)
class DecayResult:
    """One decay pass: how many cycles were applied and how many nodes were pruned."""

    cycles: int
    pruned: int
    remaining: int
    duration_seconds: float
