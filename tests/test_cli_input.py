"""Hostile and broken input through ``osmia memory``: exit 2, one line per problem, nothing else lost.

Every input that crashed the CLI before (issue 10) is here, mixed with good
documents in one file: each bad one is reported on one line naming the file,
the document and the field, every good one is still ingested, and the
report is printed. Terminal output escapes what stored text may hold.
"""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import pytest
import yaml

from osmia.cli.shapes import export_text, print_json
from osmia.cli.terminal import block, inline
from osmia.config import ENV_MEMORY_STORE_PATH
from tests.cli_support import Outcome, assert_clean_errors, run_cli, run_process
from tests.helpers import taskrun_doc


@pytest.fixture(autouse=True)
def _no_store_path_from_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_MEMORY_STORE_PATH, raising=False)


def good_yaml(name: str, **more: object) -> str:
    return yaml.safe_dump(taskrun_doc(name, success=True, **more))  # type: ignore[arg-type]


def alias_bomb_field() -> str:
    lines = ["x0: &x0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    lines += [f"x{i}: &x{i} [{', '.join([f'*x{i - 1}'] * 9)}]" for i in range(1, 9)]
    return "\n".join(lines) + "\n"


# name → (the bad document's text, the field or words its error line must hold)
BAD_DOCUMENTS: dict[str, tuple[str, str]] = {
    "nesting": (
        good_yaml("nesting").replace("spec:\n", "spec:\n  extra: " + "[" * 1000 + "]" * 1000 + "\n", 1),
        "nesting deeper than 64 levels",
    ),
    "conditions": (
        good_yaml("conditions").replace("  conditions:\n", "  conditions: 7\n  old:\n"),
        "status.conditions",
    ),
    "nan": (
        good_yaml("nan").replace("durationSeconds: 600", "durationSeconds: .nan"),
        "status.result.durationSeconds",
    ),
    "inf": (
        good_yaml("inf").replace("durationSeconds: 600", "durationSeconds: .inf"),
        "status.result.durationSeconds",
    ),
    "digits": (
        good_yaml("digits").replace("durationSeconds: 600", "durationSeconds: " + "9" * 4500),
        "status.result.durationSeconds: integer of 4500 digits",
    ),
    "surrogate": (good_yaml("surrogate", summary="S").replace("summary: S", 'summary: "\\ud800"'), "line "),
    "duplicate": (
        good_yaml("duplicate").replace("  flow: ticketing\n", "  flow: ticketing\n  flow: incident-triage\n"),
        "spec.flow: duplicate key",
    ),
    "slash": (good_yaml("slash").replace("name: slash", "name: team/slash"), "metadata.name"),
    "bomb": (
        alias_bomb_field()
        + good_yaml("bomb").replace("engineAttempts:\n  - claude-code", "engineAttempts: *x8"),
        "alias",
    ),
    "long": (
        good_yaml("long", description="d" * 70_000),
        "spec.ticket.description: is 70000 characters long",
    ),
    "yes": (
        good_yaml("yes").replace("  memory:\n    enabled: true", "  memory:\n    enabled: yes"),
        "spec.memory.enabled",
    ),
    "tag": (good_yaml("tag").replace("summary: done", "summary: !!python/object:os.system ls"), "line "),
    "syntax": (good_yaml("syntax").replace("  name: syntax\n", "  name: [syntax\n"), "invalid YAML"),
    "uid": (good_yaml("uid").replace("uid: ", "uid: a/"), "metadata.uid"),
}


def mixed_stream() -> str:
    """Good and bad documents alternating: good-0, bad, good-1, bad, ..."""
    docs = []
    for index, (text, _) in enumerate(BAD_DOCUMENTS.values()):
        docs += [good_yaml(f"good-{index}"), text]
    return "---\n".join(docs)


def test_every_bad_document_is_one_line_and_the_good_ones_are_ingested(tmp_path: Path) -> None:
    source = tmp_path / "mixed.yaml"
    source.write_text(mixed_stream())
    outcome = run_cli("memory", "--db", tmp_path / "m.db", "ingest", source)
    lines = assert_clean_errors(outcome)
    assert outcome.code == 2
    assert len(lines) == len(BAD_DOCUMENTS), outcome.err
    for index, (line, (name, (_, words))) in enumerate(zip(lines, BAD_DOCUMENTS.items(), strict=True)):
        assert line.startswith(f"{source}: document {2 * index + 2}: "), (name, line)
        assert words in line, (name, line)
        assert len(line) < 400, (name, line)
    ingested = [x for x in outcome.out.splitlines() if x.startswith("ingested ")]
    assert len(ingested) == len(BAD_DOCUMENTS)
    total = f"total: {len(BAD_DOCUMENTS)} ingested, 0 duplicate, 0 skipped, {len(BAD_DOCUMENTS)} errors"
    assert outcome.out.splitlines()[-1] == total
    again = run_cli("memory", "--db", tmp_path / "m.db", "--json", "ingest", source)
    assert {e["state"] for e in again.json()} == {"duplicate", "error"}


def test_the_json_report_names_the_field_of_each_bad_document(tmp_path: Path) -> None:
    source = tmp_path / "mixed.yaml"
    source.write_text(mixed_stream())
    outcome = run_cli("memory", "--db", tmp_path / "m.db", "--json", "ingest", source)
    entries = outcome.json()
    errors = [e for e in entries if e["state"] == "error"]
    assert len(errors) == len(BAD_DOCUMENTS)
    fields = {e["location"].split(": ")[-1]: e["field"] for e in errors}
    assert fields["document 4"] == "status.conditions"
    assert fields["document 16"] == "metadata.name"
    assert all(e["reason"] in outcome.err for e in errors)


@pytest.mark.parametrize("name", sorted(BAD_DOCUMENTS))
@pytest.mark.parametrize("verb", ["context", "explain"])
def test_context_and_explain_refuse_each_bad_document_in_one_line(
    tmp_path: Path, name: str, verb: str
) -> None:
    db = tmp_path / "m.db"
    run_cli("memory", "--db", db, "ingest", _write(tmp_path / "seed.yaml", good_yaml("seed")))
    source = _write(tmp_path / f"{name}.yaml", BAD_DOCUMENTS[name][0])
    outcome = run_cli("memory", "--db", db, verb, source)
    lines = assert_clean_errors(outcome)
    assert outcome.code == 2 and len(lines) == 1, outcome.err
    assert str(source) in lines[0] and (BAD_DOCUMENTS[name][1] in lines[0] or "holds 2 objects" in lines[0])


def _write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def test_a_bad_item_in_a_json_list_costs_only_that_item(tmp_path: Path) -> None:
    items = [taskrun_doc(f"item-{i}", success=True) for i in range(4)]
    items[1]["status"]["conditions"] = "no"
    items[2]["metadata"]["name"] = "a/b"
    text = json.dumps({"kind": "List", "items": items}).replace('"item-3"', '"item-3", "name": "item-3"')
    source = _write(tmp_path / "list.json", text)
    outcome = run_cli("memory", "--db", tmp_path / "m.db", "--json", "ingest", source)
    assert outcome.code == 2
    states = [(e["location"].rsplit(": ", 1)[-1], e["state"], e["field"]) for e in outcome.json()]
    assert states == [
        ("item 1", "done", None),
        ("item 2", "error", "status.conditions"),
        ("item 3", "error", "metadata.name"),
        ("item 4", "error", "metadata.name"),
    ]


# --- files that are not files ------------------------------------------------------------


@pytest.fixture
def specials(tmp_path: Path) -> dict[str, Path]:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    return {"a FIFO": fifo, "a device": Path("/dev/zero"), "a directory": tmp_path}


def test_fifo_device_or_directory_as_db_is_bad_usage(tmp_path: Path, specials: dict[str, Path]) -> None:
    good = _write(tmp_path / "good.yaml", good_yaml("good"))
    for kind, path in specials.items():
        for args in (["status"], ["ingest", good], ["decay"], ["import", good]):
            outcome = run_cli("memory", "--db", path, *args)
            assert outcome.code == 2, (kind, args, outcome)
            assert outcome.err == f"osmia: error: memory database {path}: is {kind}, not a file\n"
        outcome = run_cli("memory", "--db", tmp_path / "m.db", "--config", path, "status")
        assert outcome.code == 2 and f"--config {path}: is {kind}" in outcome.err


def test_fifo_device_or_directory_as_input_is_reported_and_the_other_files_go_on(
    tmp_path: Path, specials: dict[str, Path]
) -> None:
    good = _write(tmp_path / "good.yaml", good_yaml("good"))
    fifo, device = specials["a FIFO"], specials["a device"]
    outcome = run_cli("memory", "--db", tmp_path / "m.db", "ingest", fifo, device, good)
    lines = assert_clean_errors(outcome)
    assert lines == [
        f"{fifo}: is a FIFO, not a regular file (use - to read standard input)",
        f"{device}: is a device, not a regular file (use - to read standard input)",
    ]
    assert "ingested tr/agents/good" in outcome.out
    for verb in ("context", "explain", "import"):
        for path in specials.values():
            outcome = run_cli("memory", "--db", tmp_path / "m.db", verb, path)
            assert outcome.code == 2 and len(outcome.err.splitlines()) == 1, (verb, path, outcome)


def test_decay_cycles_beyond_the_range_is_bad_usage_in_one_line(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    run_cli("memory", "--db", db, "ingest", _write(tmp_path / "g.yaml", good_yaml("g")))
    before = run_cli("memory", "--db", db, "--json", "status").json()
    # ... and numbers written other than in ASCII digits, which int() reads (twenty-second
    # session's red team: "١٢" and "1_0" decayed the store 12 and 10 cycles).
    for value in ("9223372036854775808", "1000001", "9" * 5000, "-1", "x", "١٢", "1_0", "+3", "", "1e3"):
        outcome = run_cli("memory", "--db", db, "decay", "--cycles", value)
        assert outcome.code == 2 and len(outcome.err.splitlines()) == 1, (value, outcome)
        assert len(outcome.err) < 300
    assert run_cli("memory", "--db", db, "--json", "status").json() == before
    done = run_cli("memory", "--db", db, "--json", "decay", "--cycles", "1000000")
    assert done.code == 0 and done.json()["remaining"] == 0


def test_import_refuses_hostile_json_in_one_line(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    cases = {
        "deep": "[" * 100_000 + "]" * 100_000,
        "digits": '{"format": 1, "n": ' + "9" * 5000 + "}",
        "nan": '{"format": 1, "n": NaN}',
        "duplicate": '{"format": 1, "format": 2}',
    }
    for name, text in cases.items():
        outcome = run_cli("memory", "--db", db, "import", _write(tmp_path / f"{name}.json", text))
        assert outcome.code == 2 and len(outcome.err.splitlines()) == 1 and len(outcome.err) < 300, (
            name,
            outcome,
        )


def test_a_file_name_with_a_newline_still_gives_one_line(tmp_path: Path) -> None:
    source = _write(tmp_path / "two\nlines\x1b[2J.yaml", good_yaml("x").replace("name: x", "name: X"))
    outcome = run_cli("memory", "--db", tmp_path / "m.db", "ingest", source)
    (line,) = assert_clean_errors(outcome)
    assert "two\\x0alines\\x1b[2J.yaml: document 1: metadata.name" in line


# --- terminal output escapes stored text ---------------------------------------------------

HOSTILE = "evil\x1b[2J\x1b]8;;http://x\x07link\u202edesrever\u200bzero\u2066iso\r\nnext\x00nul"


def _hostile_db(tmp_path: Path) -> tuple[Path, str]:
    """A database whose stored text holds escapes (as an old import or another writer could leave)."""
    db = tmp_path / "m.db"
    source = _write(tmp_path / "g.yaml", good_yaml("hostile", summary="s", learnings=["Run make lint first"]))
    assert run_cli("memory", "--db", db, "ingest", source).code == 0
    with sqlite3.connect(db) as conn:
        (node_id,) = conn.execute("SELECT id FROM nodes ORDER BY id LIMIT 1").fetchone()
        conn.execute("UPDATE nodes SET content = ? WHERE id = ?", (f"lint {HOSTILE}", node_id))
    return db, node_id


def _no_raw_controls(text: str, *, newlines: bool) -> None:
    for line in text.split("\n") if newlines else [text.rstrip("\n")]:
        assert line.isprintable(), repr(line)


def test_human_output_of_every_verb_escapes_control_bidi_and_zero_width(tmp_path: Path) -> None:
    db, node_id = _hostile_db(tmp_path)
    query = _write(
        tmp_path / "q.yaml", good_yaml("query", title="lint", description="lint evil next", status=False)
    )
    outputs = {
        "search": run_cli("memory", "--db", db, "search", "lint"),
        "show": run_cli("memory", "--db", db, "show", node_id),
        "explain": run_cli("memory", "--db", db, "explain", query),
        "context": run_cli("memory", "--db", db, "context", query),
        "status": run_cli("memory", "--db", db, "status"),
    }
    for verb, outcome in outputs.items():
        assert outcome.code == 0, (verb, outcome)
        _no_raw_controls(outcome.out, newlines=True)
        assert "\x1b" not in outcome.out and "\u202e" not in outcome.out and "\u200b" not in outcome.out
    assert "\\x1b[2J" in outputs["search"].out and "\\u202e" in outputs["show"].out
    assert "\\x1b[2J" in outputs["explain"].out


def test_json_output_keeps_the_stored_text_and_stays_valid(tmp_path: Path) -> None:
    db, node_id = _hostile_db(tmp_path)
    shown = run_cli("memory", "--db", db, "--json", "show", node_id).json()
    assert shown["node"]["content"] == f"lint {HOSTILE}"
    hits = run_cli("memory", "--db", db, "--json", "search", "lint").json()
    assert any(h["content"] == f"lint {HOSTILE}" for h in hits)
    exported = run_cli("memory", "--db", db, "export")
    assert json.loads(exported.out)["nodes"]


def test_a_lone_surrogate_is_written_as_a_json_escape(capsys: pytest.CaptureFixture[str]) -> None:
    """Stored text cannot hold one today, but output must not be where a bad byte turns into a crash."""
    print_json({"content": "x\ud800y"})
    out = capsys.readouterr().out
    assert "\\ud800" in out and json.loads(out) == {"content": "x\ud800y"}
    assert json.loads(export_text({"content": "\udfff"})) == {"content": "\udfff"}
    assert export_text({"content": "\udfff"}).encode("utf-8")


def test_escaping_keeps_printable_text_and_escapes_the_rest() -> None:
    assert inline("plain ünïcödé 日本 ✓") == "plain ünïcödé 日本 ✓"
    assert inline("a\x1b[31mb\u202ec\u200bd\U000e0041e\nf\u2028g") == (
        "a\\x1b[31mb\\u202ec\\u200bd\\U000e0041e\\x0af\\u2028g"
    )
    assert block("line one\n\tline two\x1b]0;title\x07") == "line one\n\tline two\\x1b]0;title\\x07"


# --- as real processes ----------------------------------------------------------------------


def test_real_processes_refuse_hostile_files_without_a_traceback(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    source = _write(tmp_path / "mixed.yaml", mixed_stream())
    done = run_process("memory", "--db", db, "ingest", source)
    assert done.code == 2 and "Traceback" not in done.err
    assert len(done.err.splitlines()) == len(BAD_DOCUMENTS)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for args in (
        ["--db", fifo, "status"],
        ["--db", db, "ingest", fifo],
        ["--db", db, "decay", "--cycles", "9" * 30],
    ):
        outcome: Outcome = run_process("memory", *args, timeout=60)
        assert outcome.code == 2 and "Traceback" not in outcome.err and len(outcome.err.splitlines()) == 1, (
            args
        )
    bomb = run_process("memory", "--db", db, "ingest", "-", stdin=alias_bomb_field() + "y: [*x8, *x8]\n")
    assert bomb.code == 2 and "alias" in bomb.err and len(bomb.err.splitlines()) == 1


@pytest.mark.parametrize(
    "options",
    [["--host", ""], ["--host", "   "], ["--host", "a b"], ["--port", "١٠٠٠"], ["--port", "8_080"]],
)
def test_serve_refuses_an_empty_host_or_an_odd_port_in_one_line(tmp_path: Path, options: list[str]) -> None:
    """An empty --host bound every interface (the dashboard shows every tenant's memory)."""
    db = tmp_path / "m.db"
    run_cli("memory", "--db", db, "ingest", _write(tmp_path / "g.yaml", good_yaml("g")))
    outcome = run_process("memory", "--db", db, "serve", *options, timeout=30)  # a bound server never exits
    assert outcome.code == 2 and len(outcome.err.splitlines()) == 1, (options, outcome)
