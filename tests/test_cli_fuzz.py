"""Fuzzing ``osmia memory ingest``, ``context`` and ``explain`` with mutated TaskRun files.

Each case starts from a valid TaskRun and breaks it: a field set to a
hostile value (huge or non-finite numbers, lone surrogates, control and bidi
characters, deep or wide containers), a key removed or repeated, then
written as YAML or JSON and, for some cases, mangled as text (brackets,
anchors and aliases, document markers, tabs, NUL). The invariants, for
every case:

- exit 0 or 2, never a traceback, never an exception out of the CLI;
- one stderr line per reported error (``--json`` report entries in state
  ``error``), each a single printable line;
- a good document next to the broken one is still ingested (when the text
  itself was not mangled);
- never a partial run: ingesting the same file again ingests nothing new and
  changes no count.

The document layer is fuzzed with thousands of cases (fast, in-process);
the CLI in-process with hundreds, and a few real processes at the end.
"""

from __future__ import annotations

import copy
import json
import random
import tempfile
from itertools import count
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from osmia.cli.terminal import inline
from osmia.config import ENV_MEMORY_STORE_PATH
from osmia.documents import DocumentError, iter_objects
from osmia.taskrun import TaskRunError, parse_taskrun
from tests.cli_support import assert_clean_errors, run_cli, run_process
from tests.helpers import taskrun_doc

DOCUMENT_CASES = 2000
INGEST_CASES = 300
CONTEXT_CASES = 300

FIELDS = [
    "metadata.name",
    "metadata.namespace",
    "metadata.uid",
    "spec",
    "spec.flow",
    "spec.engine",
    "spec.fallbackEngines",
    "spec.ticket",
    "spec.ticket.id",
    "spec.ticket.title",
    "spec.ticket.description",
    "spec.ticket.type",
    "spec.ticket.labels",
    "spec.repository.url",
    "spec.repository.language",
    "spec.memory.enabled",
    "spec.execution.timeoutSeconds",
    "status",
    "status.phase",
    "status.conditions",
    "status.engineAttempts",
    "status.result",
    "status.result.success",
    "status.result.summary",
    "status.result.exitCode",
    "status.result.filesChanged",
    "status.result.testsFailed",
    "status.result.durationSeconds",
    "status.result.tokenUsage",
    "status.result.costEstimateUSD",
    "status.result.toolCalls",
    "status.result.learnings",
    "kind",
    "extra.unknown",
]

NASTY_STRINGS = [
    "",
    "a/b",
    "\x1b[2J\x1b]8;;http://evil\x07",
    "\u202eevil\u200b",
    "\ud800",
    "x" * 70_000,
    "yes",
    "Succeeded",
    "ticketing",
    "incident-triage",
    "claude-code",
    "https://github.com/org/api",
    "\x00",
    "line\nbreak",
    "*alias",
    "&anchor",
    "{{ template }}",
]

DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)

HUGE = "__HUGE_INTEGER__"
"""Stands for an integer of 4,400 digits, which neither dumper can write: replaced in the text."""
HUGE_DIGITS = "9" * 4400

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**25), max_value=10**25),
    st.sampled_from([2**63, -(2**63) - 1, HUGE]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(st.characters(codec=None, exclude_categories=()), max_size=30),
    st.sampled_from(NASTY_STRINGS),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=6),
        st.dictionaries(
            st.text(max_size=8) | st.sampled_from(["type", "status", "success"]), inner, max_size=6
        ),
    ),
    max_leaves=15,
)
mutations = st.lists(
    st.tuples(st.sampled_from(["set", "delete", "deep", "wide"]), st.sampled_from(FIELDS), values),
    min_size=1,
    max_size=4,
)
TEXT_NOISE = [
    "[",
    "{",
    "]",
    "}",
    "&a ",
    "*a",
    "\n---\n",
    "\n",
    ": ",
    '"',
    "!!",
    "\t",
    "\x00",
    "- ",
    "? ",
    "<<: *a\n",
    "'",
]
text_edits = st.lists(st.tuples(st.floats(0, 1), st.sampled_from(TEXT_NOISE)), max_size=3)


def _set(doc: dict[str, Any], path: str, value: Any, action: str) -> None:
    *parents, last = path.split(".")
    node: Any = doc
    for part in parents:
        if not isinstance(node, dict):
            return
        node = node.setdefault(part, {})
    if not isinstance(node, dict):
        return
    if action == "delete":
        node.pop(last, None)
    elif action == "deep":
        for _ in range(random.Random(len(path)).choice([70, 500, 1500])):
            value = [value]
        node[last] = value
    elif action == "wide":
        node[last] = value * (70_000 // len(value) + 1) if isinstance(value, str) and value else [value] * 60
    else:
        node[last] = value


def mutated(seed_name: str, edits: list[tuple[str, str, Any]]) -> dict[str, Any]:
    doc = taskrun_doc(seed_name, success=True, learnings=["Run make lint first"], summary="done")
    for action, path, value in edits:
        _set(doc, path, copy.deepcopy(value), action)
    return doc


def render(docs: list[Any], as_json: bool) -> str:
    if as_json:
        text = json.dumps({"kind": "List", "items": docs})
    else:
        text = "---\n".join(yaml.dump(d, Dumper=DUMPER, allow_unicode=False) for d in docs)
    for quoted in (f'"{HUGE}"', f"'{HUGE}'", HUGE):
        text = text.replace(quoted, HUGE_DIGITS)
    return text


def noisy(text: str, edits: list[tuple[float, str]]) -> str:
    for where, noise in edits:
        at = int(where * len(text))
        text = text[:at] + noise + text[at:]
    return text


def _serializable(doc: Any, as_json: bool) -> str | None:
    try:
        return render([doc], as_json)
    except (ValueError, RecursionError, yaml.YAMLError):  # a value the dumper itself cannot write
        return None


# --- the document layer: thousands of cases -------------------------------------------------


@settings(max_examples=DOCUMENT_CASES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edits=mutations, as_json=st.booleans(), noise=text_edits)
def test_documents_never_raise_anything_but_one_line_errors(
    edits: list[tuple[str, str, Any]], as_json: bool, noise: list[tuple[float, str]]
) -> None:
    bad = mutated("bad", edits)
    good = taskrun_doc("good", success=True)
    if _serializable(bad, as_json) is None:
        return
    text = noisy(render([bad, good], as_json), noise)
    name = "fuzz.json" if as_json else "fuzz.yaml"
    results: list[Any] = []
    try:
        for location, obj in iter_objects(name, text):
            if isinstance(obj, (TaskRunError, DocumentError)):
                results.append(f"{location}: {obj}")
                continue
            try:
                results.append(parse_taskrun(obj))
            except TaskRunError as exc:
                results.append(f"{location}: {exc}")
    except DocumentError as exc:
        results.append(str(exc))
    for result in results:
        if isinstance(result, str):
            assert result.startswith(name), result
            assert len(inline(result)) < 1000, result[:200]
            assert "\n" not in inline(result)
    if not noise:
        names = [r.name for r in results if not isinstance(r, str)]
        assert "good" in names, results


# --- the CLI in-process: ingest twice, then context and explain --------------------------------


@pytest.fixture(scope="module")
def workdir() -> Any:
    with tempfile.TemporaryDirectory() as folder:
        yield Path(folder)


@pytest.fixture(autouse=True)
def _no_store_path_from_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_MEMORY_STORE_PATH, raising=False)


_serial = count()


@settings(
    max_examples=INGEST_CASES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(edits=mutations, as_json=st.booleans(), noise=text_edits)
def test_ingest_exits_0_or_2_one_line_per_error_and_never_half_a_run(
    workdir: Path, edits: list[tuple[str, str, Any]], as_json: bool, noise: list[tuple[float, str]]
) -> None:
    n = next(_serial)
    bad = mutated(f"bad-{n}", edits)
    good = taskrun_doc(f"good-{n}", success=True, learnings=[f"Lesson {n}"])
    if _serializable(bad, as_json) is None:
        return
    source = workdir / f"case-{n}.{'json' if as_json else 'yaml'}"
    source.write_text(noisy(render([bad, good], as_json), noise))
    db = workdir / "ingest.db"

    first = run_cli("memory", "--db", db, "--json", "ingest", source)
    lines = assert_clean_errors(first)
    report = first.json()
    errors = [e for e in report if e["state"] == "error"]
    assert len(lines) == len(errors), (lines, errors)
    assert first.code == (2 if errors else 0)
    if not noise:
        assert any(e["run"] == f"tr/agents/good-{n}" and e["state"] == "done" for e in report), report

    before = run_cli("memory", "--db", db, "--json", "status").json()
    again = run_cli("memory", "--db", db, "--json", "ingest", source)
    assert_clean_errors(again)
    assert not [e for e in again.json() if e["state"] == "done"], again.out
    assert [e["reason"] for e in again.json() if e["state"] == "error"] == [e["reason"] for e in errors]
    after = run_cli("memory", "--db", db, "--json", "status").json()
    assert (after["nodes"], after["edges"], after["runs"]) == (
        before["nodes"],
        before["edges"],
        before["runs"],
    )


@pytest.fixture(scope="module")
def seeded_db(workdir: Path) -> Path:
    db = workdir / "context.db"
    history = workdir / "history.yaml"
    history.write_text(
        "---\n".join(
            yaml.safe_dump(taskrun_doc(f"seed-{i}", success=i % 2 == 0, learnings=["Run make lint first"]))
            for i in range(4)
        )
    )
    assert run_cli("memory", "--db", db, "ingest", history).code == 0
    return db


@settings(
    max_examples=CONTEXT_CASES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    edits=mutations,
    as_json=st.booleans(),
    noise=text_edits,
    verb=st.sampled_from(["context", "explain"]),
    json_out=st.booleans(),
)
def test_context_and_explain_exit_0_or_2_with_one_line(
    workdir: Path,
    seeded_db: Path,
    edits: list[tuple[str, str, Any]],
    as_json: bool,
    noise: list[tuple[float, str]],
    verb: str,
    json_out: bool,
) -> None:
    doc = mutated("query", edits)
    doc.pop("status", None) if random.Random(len(edits)).random() < 0.5 else None
    if (text := _serializable(doc, as_json)) is None:
        return
    source = workdir / f"query.{'json' if as_json else 'yaml'}"
    source.write_text(noisy(text, noise))
    outcome = run_cli("memory", "--db", seeded_db, *(["--json"] if json_out else []), verb, source)
    lines = assert_clean_errors(outcome)
    if outcome.code == 2:
        assert len(lines) == 1 and lines[0].startswith("osmia: error: "), lines
        assert outcome.out == ""
    elif json_out:
        json.loads(outcome.out)
    else:
        for line in outcome.out.splitlines():
            assert line.isprintable(), repr(line)


# --- a few real processes -------------------------------------------------------------------


def test_real_processes_on_randomly_broken_files(tmp_path: Path) -> None:
    rng = random.Random(10)
    files = []
    for i in range(6):
        doc = taskrun_doc(f"proc-{i}", success=True)
        text = yaml.safe_dump(doc, allow_unicode=False)
        for _ in range(i):
            at = rng.randrange(len(text))
            text = text[:at] + rng.choice(TEXT_NOISE) + text[at:]
        path = tmp_path / f"r{i}.yaml"
        path.write_text(text + "---\n" + yaml.safe_dump(taskrun_doc(f"proc-good-{i}", success=True)))
        files.append(path)
    db = tmp_path / "m.db"
    first = run_process("memory", "--db", db, "--json", "ingest", *files)
    lines = assert_clean_errors(first)
    report = json.loads(first.out)
    assert len(lines) == sum(1 for e in report if e["state"] == "error")
    assert all(any(e["run"] == f"tr/agents/proc-good-{i}" for e in report) for i in range(6))
    again = run_process("memory", "--db", db, "--json", "ingest", *files)
    assert not [e for e in json.loads(again.out) if e["state"] == "done"]
    for path in files[:3]:
        for verb in ("context", "explain"):
            outcome = run_process("memory", "--db", db, verb, path)
            assert "Traceback" not in outcome.err and outcome.code in (0, 2)


def test_an_unknown_tag_of_any_length_is_one_short_line() -> None:
    """Found by the fuzzer above: a tag of 1,500 characters was quoted whole in the error."""
    text = render([taskrun_doc("good", success=True)], False) + "---\nmetadata: !" + "9" * 1500 + " x\n"
    errors = [
        f"{where}: {obj}" for where, obj in iter_objects("t.yaml", text) if isinstance(obj, DocumentError)
    ]
    assert len(errors) == 1 and "invalid YAML" in errors[0] and "…" in errors[0]
    assert len(inline(errors[0])) < 400 and "\n" not in inline(errors[0])
