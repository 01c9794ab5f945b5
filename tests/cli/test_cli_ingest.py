"""``osmia memory ingest``: kubectl lists, streams, files, directories and standard input; bad
documents named and the others ingested; tenants and opted-out runs."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from tests.cli.runs import Osmia, export, login_history, status, write_yaml
from tests.helpers import kubectl_list, taskrun_doc, yaml_stream


def test_ingest_reads_a_kubectl_list(osmia: Osmia, db: Path, tmp_path: Path) -> None:
    source = write_yaml(tmp_path / "runs.yaml", kubectl_list(login_history()))
    outcome = osmia("memory", "--db", db, "ingest", source)
    assert outcome.code == 0, outcome.err
    lines = outcome.out.splitlines()
    assert lines[0].startswith("ingested tr/agents/fix-login-7: ")
    assert lines[0].endswith(" edges") and " nodes, " in lines[0]
    assert lines[-1] == "total: 3 ingested, 0 duplicate, 0 skipped, 0 errors"
    assert status(osmia, db)["runs"] == 3


def test_ingest_reads_a_multi_document_stream_and_skips_unfinished_runs(
    osmia: Osmia, db: Path, tmp_path: Path
) -> None:
    running = taskrun_doc("still-going", phase="Running")
    source = write_yaml(tmp_path / "stream.yaml", *login_history()[:2], None, running)
    outcome = osmia("memory", "--db", db, "ingest", source)
    assert outcome.code == 0, outcome.err
    assert "skipped tr/agents/still-going: the run has not finished" in outcome.out
    assert outcome.out.splitlines()[-1] == "total: 2 ingested, 0 duplicate, 1 skipped, 0 errors"
    assert status(osmia, db)["runs"] == 2


def test_ingest_reads_json_objects_and_lists(osmia: Osmia, db: Path, tmp_path: Path) -> None:
    first, second, third = login_history()
    one = tmp_path / "one.json"
    one.write_text(json.dumps(first, indent=4))
    many = tmp_path / "many.json"
    many.write_text(json.dumps(kubectl_list([second, third])))
    outcome = osmia("memory", "--db", db, "--json", "ingest", one, many)
    assert outcome.code == 0, outcome.err
    entries = outcome.json()
    assert [e["state"] for e in entries] == ["done", "done", "done"]
    assert entries[0]["run"] == "tr/agents/fix-login-7"
    assert entries[2]["location"] == f"{many}: document 1: item 2"
    assert set(entries[0]) >= {"run", "state", "nodes", "edges", "reason"}
    assert entries[0]["nodes"] > 0


def test_ingest_reads_every_yaml_and_json_file_of_a_directory(osmia: Osmia, db: Path, tmp_path: Path) -> None:
    folder = tmp_path / "history"
    folder.mkdir()
    first, second, third = login_history()
    write_yaml(folder / "b.yaml", first)
    write_yaml(folder / "a.yml", second)
    (folder / "c.json").write_text(json.dumps(third))
    (folder / "notes.txt").write_text("not a TaskRun")
    (folder / "nested").mkdir()
    write_yaml(folder / "nested" / "d.yaml", taskrun_doc("nested-run"))
    outcome = osmia("memory", "--db", db, "ingest", folder)
    assert outcome.code == 0, outcome.err
    runs = [line.split(":")[0] for line in outcome.out.splitlines()[:-1]]
    assert runs == [
        "ingested tr/agents/fix-login-8",  # a.yml
        "ingested tr/agents/fix-login-7",  # b.yaml
        "ingested tr/agents/fix-login-9",  # c.json
    ]


def test_ingest_reads_standard_input(
    osmia: Osmia, db: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(yaml_stream(login_history())))
    outcome = osmia("memory", "--db", db, "ingest", "-")
    assert outcome.code == 0, outcome.err
    assert outcome.out.splitlines()[-1].startswith("total: 3 ingested")


def test_reingest_is_a_duplicate_and_changes_nothing(osmia: Osmia, history_db: Path, tmp_path: Path) -> None:
    before = export(osmia, history_db)
    source = write_yaml(tmp_path / "again.yaml", *login_history())
    outcome = osmia("memory", "--db", history_db, "ingest", source)
    assert outcome.code == 0, outcome.err
    assert "duplicate tr/agents/fix-login-7: already extracted" in outcome.out
    assert outcome.out.splitlines()[-1] == "total: 0 ingested, 3 duplicate, 0 skipped, 0 errors"
    assert export(osmia, history_db) == before


def test_a_malformed_document_is_reported_and_the_others_are_ingested(
    osmia: Osmia, db: Path, tmp_path: Path
) -> None:
    first, second, third = login_history()
    del second["spec"]["ticket"]["description"]
    source = write_yaml(tmp_path / "bad.yaml", first, second, third)
    outcome = osmia("memory", "--db", db, "ingest", source)
    assert outcome.code == 2
    assert f"{source}: document 2: spec.ticket.description: is required" in outcome.err.splitlines()
    assert outcome.out.splitlines()[-1] == "total: 2 ingested, 0 duplicate, 0 skipped, 1 errors"
    assert status(osmia, db)["runs"] == 2


def test_a_malformed_list_item_is_named_by_document_and_item(osmia: Osmia, db: Path, tmp_path: Path) -> None:
    runs = login_history()
    runs[1]["status"]["result"]["success"] = "yes"
    source = write_yaml(tmp_path / "list.yaml", kubectl_list(runs))
    outcome = osmia("memory", "--db", db, "--json", "ingest", source)
    assert outcome.code == 2
    assert f"{source}: document 1: item 2: status.result.success: " in outcome.err
    errors = [e for e in outcome.json() if e["state"] == "error"]
    assert [(e["location"], e["field"]) for e in errors] == [
        (f"{source}: document 1: item 2", "status.result.success")
    ]
    assert status(osmia, db)["runs"] == 2


def test_a_result_that_contradicts_the_phase_is_refused_as_the_operator_does(
    osmia: Osmia, db: Path, tmp_path: Path
) -> None:
    liar = taskrun_doc("liar", success=False, phase="Succeeded")
    source = write_yaml(tmp_path / "liar.yaml", liar)
    outcome = osmia("memory", "--db", db, "ingest", source)
    assert outcome.code == 2
    assert (
        f"{source}: document 1: status.result.success: is false but status.phase is Succeeded" in outcome.err
    )


def test_yaml_syntax_error_names_file_and_line(osmia: Osmia, db: Path, tmp_path: Path) -> None:
    source = tmp_path / "broken.yaml"
    source.write_text("apiVersion: osmia.dev/v1alpha1\nkind: TaskRun\nmetadata:\n  name: [unclosed\n")
    outcome = osmia("memory", "--db", db, "ingest", source)
    assert outcome.code == 2
    assert f"{source}: document 1: line 5, column 1: invalid YAML" in outcome.err


def test_invalid_json_names_file_and_line(osmia: Osmia, db: Path, tmp_path: Path) -> None:
    source = tmp_path / "broken.json"
    source.write_text('{\n  "kind": "TaskRun",\n  "metadata": {,}\n}\n')
    outcome = osmia("memory", "--db", db, "ingest", source)
    assert outcome.code == 2
    assert f"{source}: line 3, column 16: invalid JSON" in outcome.err


def test_ingest_of_a_missing_file_is_bad_input_and_creates_no_database(
    osmia: Osmia, db: Path, tmp_path: Path
) -> None:
    outcome = osmia("memory", "--db", db, "ingest", tmp_path / "nope.yaml")
    assert outcome.code == 2
    assert "nope.yaml: no such file" in outcome.err
    assert not db.exists()


def test_ingest_with_tenant_only_takes_that_tenants_runs(osmia: Osmia, db: Path, tmp_path: Path) -> None:
    incident = taskrun_doc("inc-1", flow="incident-triage", repo=None, task_type="incident")
    source = write_yaml(tmp_path / "mixed.yaml", login_history()[0], incident)
    outcome = osmia("memory", "--db", db, "--tenant", "incident-triage", "ingest", source)
    assert outcome.code == 0, outcome.err
    assert "skipped tr/agents/fix-login-7: tenant ticketing (only incident-triage is ingested)" in outcome.out
    assert "ingested tr/agents/inc-1: " in outcome.out
    assert status(osmia, db, "--tenant", "ticketing")["runs"] == 0
    assert status(osmia, db, "--tenant", "incident-triage")["runs"] == 1


def test_ingest_skips_runs_that_opted_out_of_memory(osmia: Osmia, db: Path, tmp_path: Path) -> None:
    source = write_yaml(tmp_path / "private.yaml", taskrun_doc("private", memory_enabled=False))
    outcome = osmia("memory", "--db", db, "ingest", source)
    assert outcome.code == 0
    assert "skipped tr/agents/private: memory is disabled for this run" in outcome.out


def test_ingest_of_a_path_that_cannot_be_looked_up_is_bad_input(
    osmia: Osmia, db: Path, tmp_path: Path
) -> None:
    """A name longer than the file system allows (or a folder that cannot be read) is bad input,
    said in one line as ``context`` and ``import`` say it, not a failure of the tool."""
    outcome = osmia("memory", "--db", db, "ingest", tmp_path / ("a" * 5000))
    assert outcome.code == 2
    assert "cannot read: File name too long" in outcome.err and len(outcome.err.strip().splitlines()) == 1
    assert not db.exists()
    loop = tmp_path / "loop.yaml"
    loop.symlink_to(loop)
    outcome = osmia("memory", "--db", db, "ingest", loop)
    assert outcome.code == 2 and "cannot read: Too many levels of symbolic links" in outcome.err
