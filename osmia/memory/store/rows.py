"""How nodes and runs are laid out in their tables, and the SQL of the lazy decay clock.

Every module of the store builds its statements from these, so a column added here is read and
written everywhere at once.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

from osmia.memory.types import Kind, Node, Subject

NODE_COLUMNS = (
    "id, type, tenant, kind, key, content, repository, engine, task_type, language, "
    "confidence, decay_rate, valid_from, valid_to, last_seen, occurrences, clean_stamp, sources"
)
# meta keys of the decay clock: cycles applied so far, and the threshold ``prune_at`` was computed with.
EPOCH_KEY = "decay_epoch"
THRESHOLD_KEY = "prune_threshold"
# The current epoch and threshold, read inside the statement that needs them (SQLite evaluates an
# uncorrelated scalar subquery once per statement), so every read and write sees the epoch of its
# own snapshot even when another process (``osmia memory decay``) advanced it.
EPOCH_SQL = f"coalesce((SELECT CAST(value AS INTEGER) FROM meta WHERE key = '{EPOCH_KEY}'), 0)"
THRESHOLD_SQL = f"(SELECT CAST(value AS REAL) FROM meta WHERE key = '{THRESHOLD_KEY}')"


def effective_confidence(alias: str = "") -> str:
    """The SQL of a node's confidence decayed to the current epoch (from its stored columns)."""
    a = f"{alias}." if alias else ""
    return f"{a}confidence * pow(1.0 - {a}decay_rate, {EPOCH_SQL} - {a}epoch)"


def node_select(alias: str = "") -> str:
    """The select list for :func:`node_from_row`: ``confidence`` is the effective one, decayed to now.

    ``ORDER BY confidence`` in the same statement sorts by the effective value (an ORDER BY
    identifier names the output column), so candidates come strongest-now first.
    """
    a = f"{alias}." if alias else ""
    return ", ".join(
        f"{effective_confidence(alias)} AS confidence" if c == "confidence" else f"{a}{c}"
        for c in NODE_COLUMNS.split(", ")
    )


NODE_SELECT = node_select()
_FIXED_NODE_COLUMNS = frozenset({"id", "type", "tenant", "kind", "key"})
RUN_COLUMNS = (
    "run_key, ref, tenant, repository, language, engine, task_type, success, "
    "failure_class, duration, finished_at, nodes, edges, ticket_id, failed_engines"
)
# Defaults of the columns later schema versions added, for run rows exported before them.
_RUN_COLUMN_DEFAULTS: tuple[Any, ...] = ("", "[]")


def run_id(run_key: str) -> int:
    """A run's id in ``node_runs``/``run_refs``: 63 bits of a hash of its key (0: the pre-v6 baseline)."""
    return int.from_bytes(hashlib.sha256(run_key.encode()).digest()[:8], "big") >> 1 or 1


_KINDS = {kind.value: kind for kind in Kind}  # a dict lookup: ``Kind(value)`` costs five times more


def node_from_row(row: Sequence[Any]) -> Node:
    """Build a :class:`Node` from a row selected with :data:`NODE_SELECT` (effective confidence).

    A kind this version does not know (a row written by a newer Osmia) is an error, as before.
    """
    kind = _KINDS.get(row[3])
    return Node(
        id=row[0],
        tenant=row[2],
        kind=kind if kind is not None else Kind(row[3]),
        key=row[4],
        content=row[5],
        subject=Subject(repository=row[6], engine=row[7], task_type=row[8], language=row[9]),
        confidence=row[10],
        decay_rate=row[11],
        valid_from=row[12],
        valid_to=row[13],
        last_seen=row[14],
        occurrences=row[15],
        clean_stamp=row[16],
        sources=json.loads(row[17]),
    )


def node_to_row(node: Node, stamp: int | None = None) -> tuple[Any, ...]:
    """The inverse of :func:`node_from_row`: :data:`NODE_COLUMNS`, the confidence as of now, with
    ``stamp`` as its line's stamp (osmia/memory/clean_stamp.py; None: none)."""
    s = node.subject
    return (
        node.id, node.type.value, node.tenant, node.kind.value, node.key, node.content,
        s.repository, s.engine, s.task_type, s.language, node.confidence, node.decay_rate,
        node.valid_from, node.valid_to, node.last_seen, node.occurrences, stamp, json.dumps(node.sources),
    )  # fmt: skip
