"""Human output: the tables and lines the verbs print without ``--json``.

Stored text is untrusted: every value printed here goes through
:func:`~osmia.cli.terminal.inline`, so no control, bidi or zero-width
character reaches the terminal as such.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from osmia.cli.terminal import inline
from osmia.memory.types import Candidate, Edge, Node
from osmia.taskrun import TaskRun

CONTENT_WIDTH = 60
EXPLAIN_HEADER = (
    f"{'SCORE':>6} {'REL':>5} {'CONF':>5} {'RECENCY':>7}  {'KIND':<17} {'VERDICT':<7}  {'ID':<16}  CONTENT"
)


def when(timestamp: float | None) -> str:
    """Unix time → ``2026-11-29T12:00:00Z`` (or ``never``)."""
    if timestamp is None:
        return "never"
    return datetime.fromtimestamp(timestamp, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def truncate(text: str, width: int = CONTENT_WIDTH) -> str:
    """One line of at most ``width`` characters, whitespace collapsed, ``…`` when cut."""
    flat = inline(" ".join(text.split()))
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def print_rows(rows: list[tuple[str, Any]]) -> None:
    """``label  value`` lines, labels padded to one column."""
    for label, value in rows:
        print(f"{label:<12} {inline(value)}")


def print_explain(run: TaskRun, candidates: list[Candidate]) -> None:
    """One line per candidate with its score parts, then why it was kept or dropped."""
    kept = sum(1 for c in candidates if c.kept)
    print(f"{inline(run.ref)} (tenant {run.tenant}): {len(candidates)} candidates, {kept} kept")
    if not candidates:
        return
    print(EXPLAIN_HEADER)
    for c in candidates:
        p = c.parts
        word = "kept" if c.kept else "dropped"
        print(
            f"{c.score:6.3f} {p.relevance:5.2f} {p.confidence:5.2f} {p.recency:7.2f}  "
            f"{c.node.kind.value:<17} {word:<7}  {inline(c.node.id):<16}  {truncate(c.node.content)}"
        )
        why = [] if c.kept else [c.verdict.removeprefix("dropped: ")]
        why.append("matched: " + (", ".join(p.reasons) or "nothing"))
        print(f"{'':>30}{inline('; '.join(why))}")


def print_status(status: dict[str, Any]) -> None:
    """The ``status`` table: counts, decay clock and integrity."""
    by_type = ", ".join(f"{k} {v}" for k, v in sorted(status["nodes_by_type"].items()))
    print_rows(
        [
            ("database", status["database"]),
            ("tenant", status["tenant"] or "all"),
            ("nodes", f"{status['nodes']}" + (f" ({by_type})" if by_type else "")),
            ("edges", status["edges"]),
            ("runs", status["runs"]),
            ("last decay", when(status["last_decay_at"])),
            ("decay every", f"{status['decay_interval_hours']:g} h"),
            ("integrity", status["integrity"]),
        ]
    )


def print_search_hit(node: Node) -> None:
    """One ``search`` result line; a closed node (superseded, or fixed) says so before its content."""
    closed = "" if node.valid else "[closed] "
    print(
        f"{inline(node.id)}  {node.kind.value:<17} {inline(node.tenant):<15} {node.confidence:.2f}  "
        f"{closed}{inline(node.content)}"
    )


def print_node(node: Node, edges: list[Edge]) -> None:
    """The ``show`` page: every field of the node, then its edges."""
    s = node.subject
    print_rows(
        [
            ("id", node.id),
            ("type", node.type.value),
            ("kind", f"{node.kind.value} ({node.kind.label})"),
            ("tenant", node.tenant),
            ("content", node.content),
            ("repository", s.repository or "-"),
            ("engine", s.engine or "-"),
            ("task type", s.task_type or "-"),
            ("language", s.language or "-"),
            ("confidence", f"{node.confidence:.4f} (decays {node.decay_rate:g} per cycle)"),
            ("occurrences", node.occurrences),
            ("valid", f"{when(node.valid_from)} → {when(node.valid_to) if node.valid_to else 'now'}"),
            ("last seen", when(node.last_seen)),
            ("sources", ", ".join(node.sources) or "-"),
            ("edges", len(edges)),
        ]
    )
    for e in edges:
        arrow = f"{e.relation.value} → {e.dst}" if e.src == node.id else f"← {e.relation.value} {e.src}"
        print(f"{'':<12} {inline(arrow)}")
