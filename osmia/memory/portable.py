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

The file's shape is :mod:`osmia.memory.export_model`; the graph's rules and the
cleaning are :mod:`osmia.memory.import_rules`; this module reads and writes.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from pydantic import ValidationError

from osmia.memory.export_model import (
    EDGE_FIELDS,
    EXPORT_FORMAT,
    EXPORT_VERSION,
    NODE_FIELDS,
    RUN_FIELD_DEFAULTS,
    RUN_FIELDS,
    ExportFile,
    ImportRefused,
    PortableGraph,
)
from osmia.memory.import_rules import GraphRules, one_line, plain
from osmia.memory.types import Edge, Node

__all__ = [
    "EXPORT_FORMAT",
    "EXPORT_VERSION",
    "ImportRefused",
    "PortableGraph",
    "build_export",
    "node_record",
    "parse_export_text",
    "read_export",
]

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
            raise ImportRefused(f"duplicate key {plain(key)[:60]!r}")
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
        raise ImportRefused(f"invalid JSON: {one_line(str(exc))}") from None


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
    return GraphRules(parsed, now).run()


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
    top, rest = plain(str(loc[0]))[:40], list(loc[1:])
    out = top
    if top in ("nodes", "edges", "runs") and rest and isinstance(rest[0], int):
        out += f"[{rest[0]}]"
        rest = rest[1:]
        if rest and top == "nodes" and isinstance(rest[0], str):
            out += "." + plain(rest[0])[:40]
            if rest[0] == "sources" and len(rest) > 1 and isinstance(rest[1], int):
                out += f"[{rest[1]}]"
        elif rest and isinstance(rest[0], int):
            names = EDGE_FIELDS if top == "edges" else RUN_FIELDS
            out += "." + (names[rest[0]] if rest[0] < len(names) else str(rest[0]))
    elif top == "meta" and rest:
        out += "." + plain(str(rest[0]))[:40]
    return out
