"""The export file (``osmia-memory`` v1) and its validation: an import is ingest.

An export is untrusted input like any TaskRun: it may have been edited by hand,
produced by an older Osmia with weaker cleaning rules, or written by an attacker.
:func:`read_export` checks every record against one typed model (pydantic), then
the rules the graph depends on (a node's id is the id of its tenant and key,
edges stay inside one tenant, known kinds, relations, tenants and failure
classes, times that are finite and not in the future, a sane decay clock), and
passes every text field through the same redaction and prompt cleaning as
ingest. The first problem is reported as ``nodes[17].confidence: …``; nothing
is written unless the whole file passes.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, Strict, ValidationError

from osmia.memory.decay import LAST_DECAY_KEY
from osmia.memory.extractor import FAILURE_LABELS
from osmia.memory.merge import MAX_SOURCES, node_id
from osmia.memory.provenance import BASELINE, CLOSED, CONTRADICTED, OBSERVED, RELATED
from osmia.memory.store import run_id
from osmia.memory.text import clean_text, looks_hostile, redact_secrets
from osmia.memory.types import Edge, Kind, Node, Relation, Subject
from osmia.taskrun import Flow

EXPORT_FORMAT = "osmia-memory"
EXPORT_VERSION = 1

TENANTS = frozenset(f.value for f in Flow)
KNOWN_META = frozenset({LAST_DECAY_KEY})
# A clock before this is an unset value (0, 1, …), not a time Osmia ever wrote: 2000-01-01T00:00Z.
EARLIEST_DECAY_CLOCK = 946_684_800.0
MAX_CLOCK_SKEW = 86_400.0  # times up to a day ahead of this host's clock are accepted
MAX_CONTENT = 1_000  # cleaned content is cut here (ingest writes well under 600 characters)
MAX_FIELD = 65_536  # longer strings are refused before any cleaning work
MAX_NAME = 1_024
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
Duration = Annotated[float, Strict(), Field(ge=0, le=1e9)]


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


# --- writing --------------------------------------------------------------------------


def node_record(node: Node) -> dict[str, Any]:
    """A node as the export writes it (:data:`NODE_FIELDS`)."""
    s = node.subject
    values = (
        node.id, node.type.value, node.tenant, node.kind.value, node.key, node.content,
        s.repository, s.engine, s.task_type, s.language, node.confidence, node.decay_rate,
        node.valid_from, node.valid_to, node.last_seen, node.occurrences, list(node.sources),
    )  # fmt: skip
    return dict(zip(NODE_FIELDS, values, strict=True))


def build_export(
    tenant: str | None,
    meta: dict[str, str],
    nodes: Sequence[Node],
    edges: Sequence[Edge],
    runs: Sequence[Sequence[Any]],
    *,
    provenance: Sequence[Sequence[Any]] = (),
    forgotten: Sequence[Sequence[Any]] = (),
) -> dict[str, Any]:
    """The export document: plain JSON data that :func:`read_export` takes back."""
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "tenant": tenant,
        "meta": dict(meta),
        "nodes": [node_record(n) for n in nodes],
        "edges": [[e.src, e.dst, e.relation.value, e.weight, e.created_at] for e in edges],
        "runs": [list(r) for r in runs],
        "provenance": [list(r) for r in provenance],
        "forgotten": [list(r) for r in forgotten],
    }


# --- reading --------------------------------------------------------------------------


def _refuse_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose keys are unique: with two, which one counts would be the parser's whim."""
    data: dict[str, Any] = {}
    for key, value in pairs:
        if key in data:
            raise ImportRefused(f"duplicate key {_plain(key)[:60]!r}")
        data[key] = value
    return data


def parse_export_text(text: str) -> Any:
    """JSON text → data; any problem (syntax, a 5,000-digit number, deep nesting) is refused.

    ``NaN`` and ``Infinity`` parse (Python writes them) and are refused by the model, by name.
    """
    try:
        return json.loads(text, object_pairs_hook=_refuse_duplicates)
    except json.JSONDecodeError as exc:
        raise ImportRefused(f"line {exc.lineno}, column {exc.colno}: invalid JSON: {exc.msg}") from None
    except RecursionError:
        raise ImportRefused("invalid JSON: nested too deeply") from None
    except ValueError as exc:
        raise ImportRefused(f"invalid JSON: {_one_line(str(exc))}") from None


def read_export(data: Any, now: float) -> PortableGraph:
    """Validate and clean an export (``now``: this host's clock); raises :class:`ImportRefused`.

    The message starts ``not a valid memory export:`` and names the first offending record.
    """
    try:
        return _read(data, now)
    except ImportRefused as exc:
        raise ImportRefused(f"not a valid memory export: {exc}") from None


def _read(data: Any, now: float) -> PortableGraph:
    if not isinstance(data, dict) or "format" not in data:
        raise ImportRefused("not a memory export (made by `osmia memory export`)")
    if data.get("format") != EXPORT_FORMAT or data.get("version") != EXPORT_VERSION:
        raise ImportRefused(f"not an {EXPORT_FORMAT} v{EXPORT_VERSION} export")
    runs = data.get("runs")
    if isinstance(runs, list):  # rows exported before schema v7 lack the last columns: their defaults
        short = len(RUN_FIELDS) - len(RUN_FIELD_DEFAULTS)
        data = {**data, "runs": [[*r, *RUN_FIELD_DEFAULTS.values()] if isinstance(r, list) and len(r) == short
                                 else r for r in runs]}  # fmt: skip
    try:
        parsed = ExportFile.model_validate(data)
    except ValidationError as exc:
        raise ImportRefused(_describe(exc)) from None
    except RecursionError:
        raise ImportRefused("nested too deeply") from None
    return _Checker(parsed, now).run()


def _describe(exc: ValidationError) -> str:
    """The first problem as ``nodes[17].confidence: …`` (and how many more there are)."""
    errors = exc.errors(include_url=False, include_input=False)
    first = errors[0]
    where = _path(first["loc"])
    message = first["msg"]
    more = f" (and {len(errors) - 1} more problems)" if len(errors) > 1 else ""
    return f"{where}: {message}{more}" if where else f"{message}{more}"


def _path(loc: Sequence[int | str]) -> str:
    """pydantic's location as the file's reader names it: ``runs[3].failure_class``, ``nodes[0].key``."""
    if not loc:
        return ""
    top, rest = _plain(str(loc[0]))[:40], list(loc[1:])
    out = top
    if top in ("nodes", "edges", "runs") and rest and isinstance(rest[0], int):
        out += f"[{rest[0]}]"
        rest = rest[1:]
        if rest and top == "nodes" and isinstance(rest[0], str):
            out += "." + _plain(rest[0])[:40]
            if rest[0] == "sources" and len(rest) > 1 and isinstance(rest[1], int):
                out += f"[{rest[1]}]"
        elif rest and isinstance(rest[0], int):
            names = EDGE_FIELDS if top == "edges" else RUN_FIELDS
            out += "." + (names[rest[0]] if rest[0] < len(names) else str(rest[0]))
    elif top == "meta" and rest:
        out += "." + _plain(str(rest[0]))[:40]
    return out


def _one_line(text: str) -> str:
    return " ".join(text.split())[:200]


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]")


def _plain(text: str) -> str:
    """An identifier with secrets redacted and control, invisible and bidi characters removed."""
    return _CONTROL.sub("", redact_secrets(text))


class _Checker:
    """The rules pydantic cannot express: identity, tenancy, references, the clock; then cleaning."""

    def __init__(self, parsed: ExportFile, now: float) -> None:
        self.parsed = parsed
        self.now = now
        self.cleaned = 0
        self.memo: dict[Callable[[str], str], dict[str, str]] = {}
        self.run_ids: dict[int, int] = {}  # exported run id -> the id of its (cleaned) key

    def refuse(self, where: str, message: str) -> ImportRefused:
        return ImportRefused(f"{where}: {message}")

    def clean(self, value: str, how: Callable[[str], str]) -> str:
        # Memoised: sources, repositories and engines repeat across thousands of records, and
        # the redaction and cleaning regexes are most of an import's time (benchmarks/files.py).
        memo = self.memo.setdefault(how, {})
        out = memo.get(value)
        if out is None:
            out = memo[value] = how(value)
        if out != value:
            self.cleaned += 1
        return out

    def time(self, where: str, value: float) -> float:
        if value > self.now + MAX_CLOCK_SKEW:
            raise self.refuse(where, f"{value!r} is in the future (this host's clock is {self.now:.0f})")
        return value

    def tenant(self, where: str, value: str) -> str:
        if value not in TENANTS:
            raise self.refuse(where, f"unknown tenant (expected one of {', '.join(sorted(TENANTS))})")
        scope = self.parsed.tenant
        if scope is not None and value != scope:
            raise self.refuse(where, "another tenant than the export's `tenant`")
        return value

    def run(self) -> PortableGraph:
        parsed = self.parsed
        if parsed.tenant is not None:
            self.tenant("tenant", parsed.tenant)
        meta = self.meta(parsed.meta)
        nodes, ids = self.nodes(parsed.nodes)
        edges = self.edges(parsed.edges, ids, {n.id: n.tenant for n in nodes})
        runs = self.runs(parsed.runs)
        tenants = {n.id: n.tenant for n in nodes}
        events = None if parsed.provenance is None else self.provenance(parsed.provenance, ids, tenants)
        forgotten = self.forgotten(parsed.forgotten)
        return PortableGraph(
            nodes=nodes,
            edges=edges,
            runs=runs,
            meta=meta,
            provenance=events,
            forgotten=forgotten,
            cleaned=self.cleaned,
        )

    def provenance(
        self, records: Sequence[Any], ids: dict[str, str], tenants: dict[str, str]
    ) -> list[tuple[Any, ...]]:
        """Events per (node, run): nodes of the export, one tenant per event, runs of the export."""
        out: list[tuple[Any, ...]] = []
        for i, (node, run, event, ago, at, value, other) in enumerate(records):
            where = f"provenance[{i}]"
            if node not in ids:
                raise self.refuse(f"{where}[0]", "no node with this id in the export")
            if other is not None and other not in ids:
                raise self.refuse(f"{where}[6]", "no node with this id in the export")
            if other is not None and tenants[ids[other]] != tenants[ids[node]]:
                raise self.refuse(where, "joins two tenants (events stay inside one tenant)")
            if event not in EVENTS:
                raise self.refuse(
                    f"{where}[2]", f"unknown event (known: {', '.join(map(str, sorted(EVENTS)))})"
                )
            if run != 0 and run not in self.run_ids:
                raise self.refuse(f"{where}[1]", "no run with this id in the export")
            new_run = self.run_ids.get(run, 0)
            self.time(f"{where}[4]", at)
            out.append((ids[node], new_run, event, ago, at, value, None if other is None else ids[other]))
        return out

    def forgotten(self, records: Sequence[Any]) -> list[tuple[Any, ...]]:
        """Runs an admin unlearned: cleaned like the run ledger, so a replayed event stays unlearned."""
        out: list[tuple[Any, ...]] = []
        for i, (run_key, ref, at, tenant) in enumerate(records):
            where = f"forgotten[{i}]"
            self.tenant(f"{where}[3]", tenant)
            out.append(
                (
                    self.clean(run_key, _clean_name),
                    self.clean(ref, _clean_name),
                    self.time(f"{where}[2]", at),
                    tenant,
                )
            )
        return out

    def meta(self, meta: dict[str, str]) -> dict[str, str]:
        for key in sorted(meta):
            if key not in KNOWN_META:
                raise self.refuse(
                    f"meta.{_plain(key)}", f"unknown key (known: {', '.join(sorted(KNOWN_META))})"
                )
        if LAST_DECAY_KEY in meta:
            where = f"meta.{LAST_DECAY_KEY}"
            try:
                clock = float(meta[LAST_DECAY_KEY])
            except ValueError:
                raise self.refuse(where, "not a Unix time") from None
            if not math.isfinite(clock) or clock < EARLIEST_DECAY_CLOCK:
                raise self.refuse(
                    where,
                    f"{clock!r} is not a time Osmia writes (before 2000-01-01); decay would apply every "
                    "cycle since then and prune the whole graph — remove the key to start the clock now",
                )
            self.time(where, clock)
            return {LAST_DECAY_KEY: repr(clock)}
        return {}

    def nodes(self, records: Sequence[NodeRecord]) -> tuple[list[Node], dict[str, str]]:
        """Checked and cleaned nodes, and the id each exported id became (cleaning a key moves it)."""
        out: list[Node] = []
        ids: dict[str, str] = {}
        taken: set[str] = set()
        for i, r in enumerate(records):
            where = f"nodes[{i}]"
            self.tenant(f"{where}.tenant", r.tenant)
            try:
                kind = Kind(r.kind)
            except ValueError:
                raise self.refuse(f"{where}.kind", "unknown kind") from None
            if r.type != kind.node_type.value:
                raise self.refuse(
                    f"{where}.type", f"must be {kind.node_type.value!r} for kind {kind.value!r}"
                )
            if r.id != node_id(r.tenant, r.key):
                raise self.refuse(
                    f"{where}.id", "is not the id of this tenant and key (ids are derived, never chosen)"
                )
            if r.id in ids:
                raise self.refuse(f"{where}.id", "appears twice")
            key = self.clean(r.key, _plain)
            if not key:
                raise self.refuse(f"{where}.key", "empty")
            new_id = node_id(r.tenant, key)
            if new_id in taken:
                raise self.refuse(f"{where}.key", "the same as another node's once cleaned")
            ids[r.id] = new_id
            taken.add(new_id)
            content = self.clean(r.content, _clean_content)
            if not content:
                raise self.refuse(f"{where}.content", "empty once cleaned (markup or role markers only)")
            if looks_hostile(content):
                raise self.refuse(
                    f"{where}.content", "reads as an instruction to the agent; ingest never stores such text"
                )
            sources = [self.clean(s, _clean_name) for s in r.sources]
            for name, value in (
                ("valid_from", r.valid_from),
                ("last_seen", r.last_seen),
                ("valid_to", r.valid_to),
            ):
                if value is not None:
                    self.time(f"{where}.{name}", value)
            out.append(
                Node(
                    id=new_id,
                    tenant=r.tenant,
                    kind=kind,
                    key=key,
                    content=content,
                    subject=Subject(
                        repository=self.clean(r.repository, _clean_name),
                        engine=self.clean(r.engine, _clean_name),
                        task_type=self.clean(r.task_type, _clean_name),
                        language=self.clean(r.language, _clean_name),
                    ),
                    confidence=r.confidence,
                    decay_rate=r.decay_rate,
                    valid_from=r.valid_from,
                    valid_to=r.valid_to,
                    last_seen=r.last_seen,
                    occurrences=r.occurrences,
                    sources=[s for s in sources if s][-MAX_SOURCES:],
                )
            )
        return out, ids

    def edges(self, records: Sequence[Any], ids: dict[str, str], tenants: dict[str, str]) -> list[Edge]:
        out: list[Edge] = []
        seen: set[tuple[str, str, str]] = set()
        for i, (src, dst, relation, weight, created_at) in enumerate(records):
            where = f"edges[{i}]"
            for name, end in (("src", src), ("dst", dst)):
                if end not in ids:
                    raise self.refuse(f"{where}.{name}", "no node with this id in the export")
            new_src, new_dst = ids[src], ids[dst]
            if new_src == new_dst:
                raise self.refuse(f"{where}.dst", "an edge from a node to itself")
            if tenants[new_src] != tenants[new_dst]:
                raise self.refuse(where, "joins two tenants (edges stay inside one tenant)")
            try:
                rel = Relation(relation)
            except ValueError:
                raise self.refuse(f"{where}.relation", "unknown relation") from None
            if (new_src, new_dst, rel.value) in seen:
                raise self.refuse(where, "appears twice")
            seen.add((new_src, new_dst, rel.value))
            out.append(Edge(new_src, new_dst, rel, weight, self.time(f"{where}.created_at", created_at)))
        return out

    def runs(self, records: Sequence[Any]) -> list[tuple[Any, ...]]:
        out: list[tuple[Any, ...]] = []
        keys: set[str] = set()
        for i, record in enumerate(records):
            where = f"runs[{i}]"
            row = dict(zip(RUN_FIELDS, record, strict=True))
            run_key = self.clean(row["run_key"], _clean_name)
            if not run_key:
                raise self.refuse(f"{where}.run_key", "empty")
            if run_key in keys:
                raise self.refuse(f"{where}.run_key", "appears twice")
            keys.add(run_key)
            # Events name runs by a hash of their key: a cleaned key moves its events with it.
            self.run_ids[run_id(row["run_key"])] = run_id(run_key)
            self.tenant(f"{where}.tenant", row["tenant"])
            failure = row["failure_class"]
            if failure and failure not in FAILURE_LABELS:
                known = ", ".join(sorted(FAILURE_LABELS))
                raise self.refuse(f"{where}.failure_class", f"unknown failure class (known: {known})")
            self.time(f"{where}.finished_at", row["finished_at"])
            out.append(
                (
                    run_key,
                    self.clean(row["ref"], _clean_name),
                    row["tenant"],
                    *(
                        self.clean(row[f], _clean_name)
                        for f in ("repository", "language", "engine", "task_type")
                    ),
                    int(row["success"]),
                    failure,
                    row["duration"],
                    row["finished_at"],
                    row["nodes"],
                    row["edges"],
                    self.clean(row["ticket_id"], _clean_name),
                    self.engines(f"{where}.failed_engines", row["failed_engines"]),
                )
            )
        return out

    def engines(self, where: str, text: str) -> str:
        """The engines a fallback rescued the run from: a JSON list of (cleaned) engine names."""
        try:
            engines = json.loads(text)
        except ValueError:
            raise self.refuse(where, "not a JSON list of engine names") from None
        if not isinstance(engines, list) or not all(isinstance(e, str) for e in engines):
            raise self.refuse(where, "not a JSON list of engine names")
        if len(engines) > MAX_FAILED_ENGINES:
            raise self.refuse(where, f"more than {MAX_FAILED_ENGINES} engines")
        return json.dumps([self.clean(e, _clean_name) for e in engines])


def _settled(text: str, limit: int) -> str:
    """Redaction and cleaning repeated until nothing changes: removing one piece of markup must
    not leave another behind (``sys<<b>b>tem:`` loses a tag, then reads ``system:``)."""
    for _ in range(MAX_CLEANING_PASSES):
        cleaned = clean_text(redact_secrets(text), limit)
        if cleaned == text:
            break
        text = cleaned
    return text


def _clean_content(text: str) -> str:
    """Node content: redacted, cleaned for a prompt, at most :data:`MAX_CONTENT` characters."""
    return _settled(text, MAX_CONTENT)


def _clean_name(text: str) -> str:
    """A short field (repository, engine, source ref, …): redacted, cleaned, one line."""
    return _settled(text, MAX_NAME)
