"""``osmia memory context`` and ``explain``: the section a run would get, and why."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.runs import INJECTED_KEYS, Osmia, new_login_run, unrelated_run, write_yaml
from tests.cli_support import Outcome


def test_context_prints_the_section_for_a_related_run(osmia: Osmia, history_db: Path, tmp_path: Path) -> None:
    run = write_yaml(tmp_path / "new.yaml", new_login_run())
    outcome = osmia("memory", "--db", history_db, "context", run)
    assert outcome.code == 0, outcome.err
    assert outcome.out.startswith("## Prior Knowledge\n")
    assert "TestConcurrentLogin" in outcome.out
    assert "tr/agents/fix-login-" in outcome.out


def test_context_prints_nothing_for_an_unrelated_run(osmia: Osmia, history_db: Path, tmp_path: Path) -> None:
    run = write_yaml(tmp_path / "unrelated.yaml", unrelated_run())
    outcome = osmia("memory", "--db", history_db, "context", run)
    assert outcome == Outcome(0, "", "")
    outcome = osmia("memory", "--db", history_db, "--json", "context", run)
    assert outcome.json() == []


def test_context_json_lists_the_injected_nodes(osmia: Osmia, history_db: Path, tmp_path: Path) -> None:
    run = write_yaml(tmp_path / "new.yaml", new_login_run())
    nodes = osmia("memory", "--db", history_db, "context", "--json", run).json()
    assert nodes
    for node in nodes:
        assert set(node) == INJECTED_KEYS
        assert node["content"] and 0 < node["confidence"] <= 1 and node["score"] > 0
        assert all(s.startswith("tr/agents/") for s in node["sources"])
    section = osmia("memory", "--db", history_db, "context", run).out
    assert section.count("\n- **") == len(nodes)


def test_context_of_a_run_that_opted_out_is_empty(osmia: Osmia, history_db: Path, tmp_path: Path) -> None:
    doc = new_login_run()
    doc["spec"]["memory"]["enabled"] = False
    outcome = osmia("memory", "--db", history_db, "context", write_yaml(tmp_path / "optout.yaml", doc))
    assert (outcome.code, outcome.out) == (0, "")
    assert "spec.memory.enabled is false" in outcome.err


def test_explain_shows_kept_and_dropped_candidates(osmia: Osmia, history_db: Path, tmp_path: Path) -> None:
    config = tmp_path / "osmia-config.yaml"
    config.write_text("memory:\n  max_facts_per_query: 2\n")
    run = write_yaml(tmp_path / "new.yaml", new_login_run())
    outcome = osmia("memory", "--db", history_db, "--config", config, "explain", run)
    assert outcome.code == 0, outcome.err
    assert outcome.out.splitlines()[1].split()[:7] == [
        "SCORE",
        "REL",
        "CONF",
        "RECENCY",
        "KIND",
        "VERDICT",
        "ID",
    ]
    assert " kept " in outcome.out and " dropped " in outcome.out
    assert "max_facts_per_query (2) reached" in outcome.out
    data = osmia("memory", "--db", history_db, "--config", config, "--json", "explain", run).json()
    candidates = data["candidates"]
    assert sum(c["kept"] for c in candidates) == 2
    assert any(not c["kept"] for c in candidates)
    first = candidates[0]
    assert first["score"] == pytest.approx(first["relevance"] * first["confidence"] * first["recency"])
    assert first["reasons"] and first["node"]["id"] == first["id"]


def test_a_tenant_other_than_the_runs_is_refused(osmia: Osmia, history_db: Path, tmp_path: Path) -> None:
    run = write_yaml(tmp_path / "new.yaml", new_login_run())
    for verb in ("context", "explain"):
        outcome = osmia("memory", "--db", history_db, "--tenant", "incident-triage", verb, run)
        assert outcome.code == 2
        assert "tenant ticketing (from spec.flow), not incident-triage" in outcome.err


def test_context_needs_exactly_one_valid_taskrun(osmia: Osmia, history_db: Path, tmp_path: Path) -> None:
    two = write_yaml(tmp_path / "two.yaml", new_login_run(), unrelated_run())
    assert "holds 2 objects" in osmia("memory", "--db", history_db, "context", two).err
    bad = new_login_run()
    del bad["spec"]["engine"]
    outcome = osmia("memory", "--db", history_db, "context", write_yaml(tmp_path / "bad.yaml", bad))
    assert outcome.code == 2
    assert "bad.yaml: document 1: spec.engine: is required" in outcome.err
