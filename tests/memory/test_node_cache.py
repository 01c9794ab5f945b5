"""The parsed-node cache: reused only for a row read back unchanged."""

from __future__ import annotations

import json
from typing import Any

from osmia.memory.store.query_reads import NodeCache
from osmia.memory.store.rows import NODE_COLUMNS


def _row(sources: list[str], confidence: float = 0.8, node_id: str = "n1") -> tuple[Any, ...]:
    return (
        node_id, "fact", "t", "learning", f"learning:{node_id}", "Run make generate first",
        "org/api", "", "", "go", confidence, 0.05, 1.0, None, 2.0, len(sources), None, json.dumps(sources),
    )  # fmt: skip


def test_the_sources_are_the_last_column_the_cache_keeps_as_a_hash() -> None:
    assert NODE_COLUMNS.split(", ")[-1] == "sources"


def test_a_row_read_back_unchanged_is_the_same_node_and_any_change_is_parsed_again() -> None:
    cache = NodeCache()
    first = cache.node(_row(["tr/ns/a", "tr/ns/b"]))
    assert cache.node(_row(["tr/ns/a", "tr/ns/b"])) is first
    other_sources = cache.node(_row(["tr/ns/a", "tr/ns/c"]))
    assert other_sources is not first and other_sources.sources == ["tr/ns/a", "tr/ns/c"]
    decayed = cache.node(_row(["tr/ns/a", "tr/ns/c"], confidence=0.7))
    assert decayed is not other_sources and decayed.confidence == 0.7
    assert (cache.hits, cache.misses) == (1, 3)


def test_the_least_recently_used_node_leaves_first() -> None:
    cache = NodeCache(capacity=2)
    a = cache.node(_row(["tr/ns/a"], node_id="a"))
    cache.node(_row(["tr/ns/a"], node_id="b"))
    assert cache.node(_row(["tr/ns/a"], node_id="a")) is a  # now the most recently used
    cache.node(_row(["tr/ns/a"], node_id="c"))  # b leaves
    assert cache.node(_row(["tr/ns/a"], node_id="a")) is a
    assert cache.node(_row(["tr/ns/a"], node_id="b")) is not None
    assert cache.misses == 4
