"""The export file's shape (``osmia-memory`` v1): its fields, limits and typed model.

What a record must look like field by field (pydantic, strict types). The graph's own rules
(identity, tenancy, references, the clock) and cleaning are in :mod:`osmia.memory.import_rules`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, Strict, field_validator

from osmia.memory.decay import LAST_DECAY_KEY
from osmia.memory.provenance import BASELINE, CLOSED, CONTRADICTED, OBSERVED, RELATED
from osmia.memory.types import MAX_DURATION_SECONDS, Edge, Node
from osmia.taskrun import Flow

EXPORT_FORMAT = "osmia-memory"
EXPORT_VERSION = 1

TENANTS = frozenset(f.value for f in Flow)
KNOWN_META = frozenset({LAST_DECAY_KEY})
MAX_CLOCK_SKEW = 86_400.0  # times up to a day ahead of this host's clock are accepted
MAX_FIELD = 65_536  # longer strings are refused before any cleaning work
# A name's bound: the CRD's for a repository URL (2,048), whose slug a repository name is, so every
# name ingest can store reads back from its export.
MAX_NAME = 2_048
# Cleaned content is cut here: a fact's template names its repository (up to MAX_NAME characters)
# among a few hundred characters of its own, so every content ingest can store reads back whole
# (ingest writes under 600 characters for names of ordinary length; 1,000 cut longer ones).
MAX_CONTENT = MAX_NAME + 1_000
MAX_INT = 2**31 - 1
MAX_CLEANING_PASSES = 8  # a bound; real markup settles in two or three passes

NODE_FIELDS = (
    "id", "type", "tenant", "kind", "key", "content", "repository", "engine", "task_type", "language",
    "confidence", "decay_rate", "valid_from", "valid_to", "last_seen", "occurrences", "sources",
)  # fmt: skip
EDGE_FIELDS = ("src", "dst", "relation", "weight", "created_at")
RUN_FIELDS = (
    "run_key", "ref", "tenant", "repository", "language", "engine", "task_type", "success",
    "failure_class", "duration", "finished_at", "nodes", "edges", "ticket_id", "failed_engines",
)  # fmt: skip
# Exports made before schema v7 have no ticket id or rescued engines per run: they default here.
RUN_FIELD_DEFAULTS = {"ticket_id": "", "failed_engines": "[]"}
MAX_FAILED_ENGINES = 16


class ImportRefused(ValueError):
    """An import that would mix two graphs, or a file that is not a valid export."""


def _unicode(text: str) -> str:
    """Strings must encode as UTF-8: a lone surrogate would fail inside SQLite later."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("not valid Unicode (a lone surrogate)") from None
    return text


Id = Annotated[str, Strict(), Field(max_length=64), AfterValidator(_unicode)]
Name = Annotated[str, Strict(), Field(max_length=MAX_NAME), AfterValidator(_unicode)]
Key = Annotated[str, Strict(), Field(max_length=4 * MAX_NAME), AfterValidator(_unicode)]
Content = Annotated[str, Strict(), Field(max_length=MAX_FIELD), AfterValidator(_unicode)]
Time = Annotated[float, Strict(), Field(ge=0)]
Unit = Annotated[float, Strict(), Field(ge=0, le=1)]
Count = Annotated[int, Strict(), Field(ge=0, le=MAX_INT)]
Flag = Annotated[int, Strict(), Field(ge=0, le=1)] | Annotated[bool, Strict()]
Duration = Annotated[float, Strict(), Field(ge=0, le=MAX_DURATION_SECONDS)]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False, frozen=True)


class NodeRecord(_Model):
    """One node as exported; see :data:`NODE_FIELDS`."""

    id: Id
    type: Name
    tenant: Name
    kind: Name
    key: Key
    content: Content
    repository: Name
    engine: Name
    task_type: Name
    language: Name
    confidence: Unit
    decay_rate: Annotated[float, Strict(), Field(ge=0, lt=1)]
    valid_from: Time
    valid_to: Time | None
    last_seen: Time
    occurrences: Annotated[int, Strict(), Field(ge=1, le=MAX_INT)]
    sources: Annotated[list[Name], Field(max_length=1_000)]


EdgeRecord = tuple[Id, Id, Name, Unit, Time]
"""``[src, dst, relation, weight, created_at]`` (:data:`EDGE_FIELDS`)."""
RunRecord = tuple[
    Name, Name, Name, Name, Name, Name, Name, Flag, Name, Duration | None, Time, Count, Count, Name, Name
]
"""One row of the run ledger (:data:`RUN_FIELDS`)."""


RunId = Annotated[int, Strict(), Field(ge=0, le=2**63 - 1)]
ProvenanceRecord = tuple[Id, RunId, Annotated[int, Strict()], Count, Time, Unit | None, Id | None]
"""``[node id, run, event, cycles ago, at, value, other node id]`` (osmia/memory/provenance.py)."""
ForgottenRecord = tuple[Name, Name, Time, Name]
"""``[run_key, ref, forgotten_at, tenant]``: a run an admin unlearned (``forget --run``)."""
EVENTS = frozenset({OBSERVED, CLOSED, CONTRADICTED, RELATED, BASELINE})


class ExportFile(_Model):
    """The whole file: what ``osmia memory export`` writes."""

    format: Literal["osmia-memory"]
    version: Literal[1]
    tenant: Name | None = None
    meta: dict[Id, Id] = Field(default_factory=dict)
    nodes: list[NodeRecord]
    edges: list[EdgeRecord]
    runs: list[RunRecord]
    # Absent in exports made before provenance (schema v6): nodes then start from their state.
    provenance: list[ProvenanceRecord] | None = None
    forgotten: list[ForgottenRecord] = Field(default_factory=list)

    @field_validator("version", mode="before")
    @classmethod
    def _not_a_flag(cls, value: Any) -> Any:
        """``true`` is not the number 1 (Python would take it as one)."""
        if isinstance(value, bool):
            raise ValueError("must be the number 1, not true or false")
        return value

    @field_validator("meta", mode="before")
    @classmethod
    def _numbers_as_text(cls, value: Any) -> Any:
        """A meta value given as a JSON number (``last_decay_at``, which export writes as text)
        is read as its text; the values are checked as text after that."""
        if not isinstance(value, dict):
            return value

        def text(v: Any) -> Any:
            return repr(v) if isinstance(v, int | float) and not isinstance(v, bool) else v

        return {k: text(v) for k, v in value.items()}


@dataclass
class PortableGraph:
    """A validated, cleaned export, ready to be written by ``Memory.import_``.

    ``cleaned`` counts the text fields redaction or prompt cleaning changed.
    """

    nodes: list[Node]
    edges: list[Edge]
    runs: list[tuple[Any, ...]]
    meta: dict[str, str]
    provenance: list[tuple[Any, ...]] | None = None
    forgotten: list[tuple[Any, ...]] = field(default_factory=list)
    cleaned: int = 0
