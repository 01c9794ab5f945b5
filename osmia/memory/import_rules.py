"""The rules an import must pass that a field-by-field model cannot express, and its cleaning.

A node's id is the id of its tenant and key, edges and provenance stay inside one tenant, kinds,
relations, events, tenants and failure classes are known, times are finite and not in the
future, the decay clock is sane; every text field goes through the same redaction and prompt
cleaning as ingest, repeated until it settles.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Sequence
from typing import Any

from osmia.memory.cleaning import settled
from osmia.memory.decay import EARLIEST_DECAY_CLOCK, LAST_DECAY_KEY
from osmia.memory.export_model import (
    EVENTS,
    KNOWN_META,
    MAX_CLEANING_PASSES,
    MAX_CLOCK_SKEW,
    MAX_CONTENT,
    MAX_FAILED_ENGINES,
    MAX_NAME,
    RUN_FIELDS,
    TENANTS,
    ExportFile,
    ImportRefused,
    NodeRecord,
    PortableGraph,
)
from osmia.memory.failures import FAILURE_LABELS
from osmia.memory.merge import MAX_SOURCES, node_id
from osmia.memory.provenance import OBSERVED
from osmia.memory.store import run_id
from osmia.memory.text import looks_hostile, redact_secrets
from osmia.memory.types import Edge, Kind, Node, Relation, Subject


def one_line(text: str) -> str:
    return " ".join(text.split())[:200]


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]")


def plain(text: str) -> str:
    """An identifier with secrets redacted and control, invisible and bidi characters removed."""
    return _CONTROL.sub("", redact_secrets(text))


class GraphRules:
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
        observed: dict[tuple[Any, ...], int] = {}
        for i, (node, run, event, ago, at, value, other) in enumerate(records):
            where = f"provenance[{i}]"
            if run != 0 and event == OBSERVED:
                # A run observes a fact once; a copy would count the run again when a
                # ``forget --run`` replays the fact (a fact's confidence raised by hand).
                first = observed.setdefault((node, run), i)
                if first != i:
                    raise self.refuse(
                        where, f"a second observation of one fact by one run (provenance[{first}])"
                    )
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
                    f"meta.{plain(key)}", f"unknown key (known: {', '.join(sorted(KNOWN_META))})"
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
            key = self.clean(r.key, plain)
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
    """Redaction and cleaning repeated until nothing changes (:func:`~osmia.memory.cleaning.settled`)."""
    return settled(text, limit, redact_secrets, passes=MAX_CLEANING_PASSES)


def _clean_content(text: str) -> str:
    """Node content: redacted, cleaned for a prompt, at most :data:`MAX_CONTENT` characters."""
    return _settled(text, MAX_CONTENT)


def _clean_name(text: str) -> str:
    """A short field (repository, engine, source ref, …): redacted, cleaned, one line."""
    return _settled(text, MAX_NAME)
