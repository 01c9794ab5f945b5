"""The JSON shapes of ``--json`` output: one function per kind of thing printed.

Every verb that prints a node, an edge or a candidate builds it here, so the
same thing has the same shape whichever verb prints it.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

from osmia.memory.types import Candidate, Edge, MemoryContext, Node


def print_json(data: Any) -> None:
    """Pretty JSON on stdout (UTF-8 as is, not ``\\u`` escapes)."""
    print(json.dumps(data, indent=2, ensure_ascii=False))


def node_json(node: Node) -> dict[str, Any]:
    """Every stored field of a node, as plain JSON data."""
    data = asdict(node)
    data["kind"] = node.kind.value
    data["type"] = node.type.value
    return data


def edge_json(edge: Edge) -> dict[str, Any]:
    """One edge: its ends, relation, weight and creation time."""
    return {
        "src": edge.src,
        "dst": edge.dst,
        "relation": edge.relation.value,
        "weight": edge.weight,
        "created_at": edge.created_at,
    }


def injected_json(memory_context: MemoryContext) -> list[dict[str, Any]]:
    """The nodes a Prior Knowledge section was written from (``context --json``)."""
    return [
        {
            "id": n.id,
            "kind": n.kind,
            "content": n.content,
            "confidence": round(n.confidence, 4),
            "score": round(n.score, 4),
            "sources": list(n.sources),
        }
        for n in memory_context.injected
    ]


def candidate_json(c: Candidate) -> dict[str, Any]:
    """One ranked candidate (``explain --json``): the score parts, the verdict and the whole node."""
    return {
        "id": c.node.id,
        "kind": c.node.kind.value,
        "content": c.node.content,
        "score": c.score,
        "relevance": c.parts.relevance,
        "confidence": c.parts.confidence,
        "recency": c.parts.recency,
        "reasons": list(c.parts.reasons),
        "kept": c.kept,
        "verdict": c.verdict,
        "node": node_json(c.node),
    }


def export_text(data: dict[str, Any]) -> str:
    """The export file format: sorted keys, one-space indent, UTF-8 text."""
    return json.dumps(data, sort_keys=True, indent=1, ensure_ascii=False) + "\n"
