"""``osmia memory export --format graphml|gexf``: networkx reads back the same nodes and edges."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import networkx as nx
import pytest


def osmia(db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "osmia", "memory", "--db", str(db), *args],
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.mark.parametrize("fmt,read", [("graphml", nx.read_graphml), ("gexf", nx.read_gexf)])
def test_graph_exports_hold_the_same_graph(example_db: Path, tmp_path: Path, fmt: str, read: object) -> None:
    data = json.loads(osmia(example_db, "export").stdout)
    path = tmp_path / f"memory.{fmt}"
    proc = osmia(example_db, "export", "--format", fmt, str(path))
    assert proc.returncode == 0, proc.stderr
    graph = read(path)  # type: ignore[operator]
    assert set(graph.nodes) == {n["id"] for n in data["nodes"]}
    exported = {(e[0], e[1], e[2]) for e in data["edges"]}
    read_back = {(u, v, d["relation"]) for u, v, d in graph.edges(data=True)}
    assert read_back == exported and exported
    by_id = {n["id"]: n for n in data["nodes"]}
    for node_id, attrs in graph.nodes(data=True):
        node = by_id[node_id]
        assert attrs["tenant"] == node["tenant"] and attrs["kind"] == node["kind"]
        assert attrs["label"] == node["content"]
        assert float(attrs["confidence"]) == pytest.approx(node["confidence"])
        assert json.loads(attrs["sources"]) == node["sources"]


def test_graph_export_by_tenant_and_to_stdout(example_db: Path) -> None:
    proc = osmia(example_db, "--tenant", "incident-triage", "export", "--format", "graphml")
    assert proc.returncode == 0, proc.stderr
    graph = nx.parse_graphml(proc.stdout)
    assert graph.number_of_nodes() > 0
    assert {attrs["tenant"] for _n, attrs in graph.nodes(data=True)} == {"incident-triage"}


def test_unknown_format_is_bad_usage(example_db: Path) -> None:
    proc = osmia(example_db, "export", "--format", "dot")
    assert proc.returncode == 2 and "invalid choice" in proc.stderr


@pytest.mark.parametrize("fmt,read", [("graphml", nx.read_graphml), ("gexf", nx.read_gexf)])
def test_a_noncharacter_stored_by_an_older_osmia_is_left_out_of_a_graph_export(
    example_db: Path, tmp_path: Path, fmt: str, read: object
) -> None:
    """XML 1.0 cannot hold U+FFFE or U+FFFF; cleaning drops them now, but a store written before may
    hold them (here put there with SQL), and the exported file must still parse."""
    import shutil
    import sqlite3

    db = tmp_path / "older.db"
    shutil.copy(example_db, db)
    with sqlite3.connect(db) as conn:
        node_id = conn.execute("SELECT id FROM nodes ORDER BY seq LIMIT 1").fetchone()[0]
        conn.execute("UPDATE nodes SET content = content || ' \ufffe\uffff' WHERE id = ?", (node_id,))
    path = tmp_path / f"memory.{fmt}"
    proc = osmia(db, "export", "--format", fmt, str(path))
    assert proc.returncode == 0, proc.stderr
    graph = read(path)  # type: ignore[operator]
    label = graph.nodes[node_id]["label"]
    assert "\ufffe" not in label and "\uffff" not in label and label.strip()
