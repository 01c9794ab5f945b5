"""Reading untrusted files: bounded loading (:mod:`osmia.safeload`) and :mod:`osmia.documents`.

Each hostile shape is refused with one line that names the file, the
document and the field, and the documents after it are still read.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from osmia.documents import DocumentError, iter_taskruns, read_text
from osmia.safeload import (
    MAX_ALIAS_COST,
    MAX_DEPTH,
    MAX_OBJECT_VALUES,
    LoadError,
    check_object,
    json_document,
    yaml_documents,
)
from tests.helpers import taskrun_doc, yaml_stream

REPO_ROOT = Path(__file__).resolve().parents[1]


def alias_bomb(levels: int = 9, width: int = 9) -> str:
    """The billion-laughs shape: each level lists the previous one ``width`` times."""
    lines = [f"l0: &l0 [{', '.join(['lol'] * width)}]"]
    for i in range(1, levels):
        lines.append(f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * width)}]")
    return "\n".join(lines) + "\n"


def good_yaml(name: str) -> str:
    return yaml.safe_dump(taskrun_doc(name, success=True))


# --- the loaders -----------------------------------------------------------------------


def test_an_alias_bomb_is_refused_while_composing() -> None:
    (only,) = list(yaml_documents(alias_bomb()))
    assert isinstance(only, LoadError) and "alias" in str(only) and "line " in str(only)


def test_a_few_small_aliases_are_fine() -> None:
    (doc,) = list(yaml_documents("base: &b {a: 1}\none: *b\ntwo: *b\n"))
    assert doc == {"base": {"a": 1}, "one": {"a": 1}, "two": {"a": 1}}
    assert check_object(doc) is None


def test_an_alias_bomb_inside_a_taskrun_field_fails_fast_with_a_short_message(tmp_path: Path) -> None:
    text = alias_bomb() + good_yaml("bombed").replace(
        "engineAttempts:\n  - claude-code", "engineAttempts: *l8"
    )
    path = tmp_path / "bomb.yaml"
    path.write_text(text + "---\n" + good_yaml("after"))
    parsed = list(iter_taskruns(str(path)))
    assert parsed[0].error is not None and len(parsed[0].message) < 300
    assert parsed[1].run is not None and parsed[1].run.name == "after"


def test_expansion_just_under_the_budget_still_loads_and_is_walked_within_the_budget() -> None:
    levels = 1
    while 9 ** (levels + 1) < MAX_ALIAS_COST // 2:
        levels += 1
    (doc,) = list(yaml_documents(alias_bomb(levels=levels)))
    assert not isinstance(doc, LoadError)
    assert check_object(doc) is None or "values" in check_object(doc)[1]  # type: ignore[index]


@pytest.mark.parametrize(
    "text", ["a: " + "[" * 1000 + "]" * 1000, "a:\n" + "".join(" " * i + "- \n" for i in range(200))]
)
def test_deep_yaml_is_refused_and_the_next_document_is_read(text: str) -> None:
    docs = list(yaml_documents(text + "\n---\nb: 1\n"))
    assert isinstance(docs[0], LoadError) and f"deeper than {MAX_DEPTH}" in str(docs[0])
    assert docs[1] == {"b": 1}


def test_a_stream_of_alias_heavy_documents_stops_at_the_stream_budget() -> None:
    """Found by a probe (twenty-sixth session): 1,000 documents each just under the per-document
    budget took 55 s to check; the whole stream's aliases are bounded too (ten documents' worth)."""
    levels = 1
    while 9 ** (levels + 1) < MAX_ALIAS_COST // 2:
        levels += 1
    one = alias_bomb(levels=levels)
    docs = []
    with pytest.raises(LoadError, match="in this stream expand to more than"):
        for doc in yaml_documents("---\n".join([one] * 1000)):
            docs.append(doc)
    assert 10 <= len(docs) < 1000 and not any(isinstance(d, LoadError) for d in docs)


def test_deep_json_is_refused() -> None:
    for depth in (MAX_DEPTH + 5, 100_000):
        text = "[" * depth + "]" * depth
        try:
            value = json_document(text)
        except LoadError as exc:
            assert "deeper" in str(exc)
        else:
            assert check_object(value) == ("[0]" * MAX_DEPTH, f"nesting deeper than {MAX_DEPTH} levels")


def test_a_recursive_alias_is_refused() -> None:
    (doc,) = list(yaml_documents("a: &a [*a, *a]\n"))
    assert isinstance(doc, LoadError) or check_object(doc) is not None


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ("a: 1\nb: {c: 1, c: 2}\n", "b.c"),
        ('{"a": 1, "a": 2}', "a"),
        ('{"m": {"x": [{"k": 1, "k": 1}]}}', "m.x[0].k"),
    ],
)
def test_duplicate_keys_are_named(text: str, path: str) -> None:
    doc = json_document(text) if text.startswith("{") else next(iter(yaml_documents(text)))
    assert check_object(doc) == (path, "duplicate key (a key may appear once in a mapping)")


def test_merge_keys_may_be_overridden() -> None:
    (doc,) = list(yaml_documents("base: &b {a: 1, b: 2}\nx:\n  <<: *b\n  a: 3\n"))
    assert doc["x"] == {"a": 3, "b": 2} and check_object(doc) is None


@pytest.mark.parametrize(
    ("text", "path", "words"),
    [
        ("n: " + "9" * 5000, "n", "5000 digits"),
        ('{"n": ' + "9" * 5000 + "}", "n", "5000 digits"),
        ("n: 9223372036854775808", "n", "64-bit"),
        ("n: .nan", "n", "nan"),
        ("n: -.inf", "n", "inf"),
        ('{"n": NaN}', "n", "NaN"),
        ('{"n": Infinity}', "n", "Infinity"),
        ('{"n": 1e400}', "n", "inf"),
        ('s: "\\ud800"', "s", "surrogate"),
        ('{"s": "\\udfff"}', "s", "surrogate"),
        ('{"\\ud800": 1}', "<document>", "surrogate"),
        ("1: a", "<document>", "key 1 is not a string"),
        ("? [a]\n: b", "<document>", "unhashable"),
        ("s: !!set {a, b}", "s", "set"),
        ("s: !!binary aGVsbG8=", "s", "bytes"),
        ("s: !!omap [a: 1]", "s[0]", "tuple"),
    ],
)
def test_values_the_api_server_refuses_are_named(text: str, path: str, words: str) -> None:
    doc = json_document(text) if text.startswith("{") else next(iter(yaml_documents(text)))
    if isinstance(doc, LoadError):  # refused while parsing: a list as a key, a bad escape (libyaml)
        assert ("unhashable" in str(doc) or "invalid Unicode" in str(doc)) and "line 1" in str(doc)
        return
    problem = check_object(doc)
    assert problem is not None and problem[0] == path and words in problem[1], problem


def test_an_object_past_the_size_budget_is_refused_without_walking_it_all() -> None:
    shared = "x" * 1_000_000
    problem = check_object({"a": [shared] * 10_000})
    assert (
        problem is not None
        and problem[0].startswith("a[")
        and problem[1] == "the object is larger than 3 MiB"
    )
    many: Any = [[]] * (MAX_OBJECT_VALUES + 1)
    problem = check_object(many)
    assert problem is not None and "values" in problem[1]


def test_a_syntax_error_skips_to_the_next_document_marker() -> None:
    docs = list(yaml_documents("a: 1\n---\nb: [\n---\nc: 3\n---\nd: {\n  e: 1\n---\nf: 4\n"))
    assert docs[0] == {"a": 1} and docs[2] == {"c": 3} and docs[4] == {"f": 4}
    assert isinstance(docs[1], LoadError) and str(docs[1]).startswith("line 4, column 1: invalid YAML")
    assert isinstance(docs[3], LoadError) and str(docs[3]).startswith("line 9, column 1: invalid YAML")
    assert len(docs) == 5


def test_a_character_yaml_forbids_is_refused_for_the_whole_file_in_one_line() -> None:
    with pytest.raises(LoadError) as info:
        list(yaml_documents("a: 1\n---\nb: \x07\n"))
    assert str(info.value).startswith("invalid YAML: unacceptable character #x0007")
    assert "\n" not in str(info.value)


# --- files -------------------------------------------------------------------------------


def test_fifo_device_and_directory_are_refused_without_blocking(tmp_path: Path) -> None:
    """In a child process with a timeout: a regression would hang, not fail."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    script = (
        "import sys\nfrom osmia.documents import read_text, DocumentError\n"
        "for name in sys.argv[1:]:\n"
        "    try:\n        read_text(name)\n    except DocumentError as exc:\n        print(exc)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(fifo), "/dev/zero", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=REPO_ROOT,
        check=True,
    )
    lines = done.stdout.splitlines()
    assert lines == [
        f"{fifo}: is a FIFO, not a regular file (use - to read standard input)",
        "/dev/zero: is a device, not a regular file (use - to read standard input)",
        f"{tmp_path}: is a directory",
    ]


def test_a_file_past_the_size_limit_is_refused_before_it_is_parsed(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_text("a: [" + "1, " * 100 + "]\n")
    assert read_text(str(path), limit=1000).startswith("a:")
    with pytest.raises(DocumentError, match="larger than"):
        read_text(str(path), limit=100)


def test_not_utf8_is_refused_with_the_byte(tmp_path: Path) -> None:
    path = tmp_path / "latin1.yaml"
    path.write_bytes("name: caf\xe9\n".encode("latin-1"))
    with pytest.raises(DocumentError, match=r"not UTF-8 text \(byte 9\)"):
        read_text(str(path))


def test_one_bad_document_does_not_stop_the_others(tmp_path: Path) -> None:
    bad = [
        good_yaml("dup").replace("  name: dup\n", "  name: dup\n  name: dup2\n"),
        "a: " + "[" * 500 + "]" * 500 + "\n",
        good_yaml("nan").replace("durationSeconds: 600", "durationSeconds: .nan"),
        good_yaml("surrogate").replace("summary: done", 'summary: "\\ud800"')
        if "summary: done" in good_yaml("x")
        else 's: "\\udc00"\n',
        good_yaml("conds").replace("  conditions:\n", "  conditions: 7\n  old:\n"),
        good_yaml("slash").replace("name: slash", "name: a/b"),
    ]
    good = [good_yaml(f"good-{i}") for i in range(len(bad))]
    stream = "---\n".join(x for pair in zip(bad, good, strict=True) for x in pair)
    path = tmp_path / "mixed.yaml"
    path.write_text(stream)
    parsed = list(iter_taskruns(str(path)))
    assert [p.run.name for p in parsed if p.run] == [f"good-{i}" for i in range(len(bad))]
    errors = [p for p in parsed if p.error]
    assert len(errors) == len(bad)
    for index, error in enumerate(errors):
        assert error.message.startswith(f"{path}: document {2 * index + 1}: "), error.message
        assert "\n" not in error.message and len(error.message) < 400


def test_a_bad_item_of_a_list_is_named_by_item(tmp_path: Path) -> None:
    items = [taskrun_doc(f"r{i}", success=True) for i in range(3)]
    items[1]["status"]["result"]["tokenUsage"] = float("inf")
    path = tmp_path / "list.json"
    path.write_text(json.dumps({"kind": "List", "items": items}))
    parsed = list(iter_taskruns(str(path)))
    assert [p.run.name if p.run else None for p in parsed] == ["r0", None, "r2"]
    expected = "status.result.tokenUsage: Infinity is not a number the API server accepts"
    assert parsed[1].message == f"{path}: document 1: item 2: {expected}"
    assert parsed[1].field_path == "status.result.tokenUsage"


def test_duplicate_keys_in_a_taskrun_are_refused_in_yaml_and_json(tmp_path: Path) -> None:
    doc = yaml_stream([taskrun_doc("twice", success=True, flow="ticketing")])
    yaml_path = tmp_path / "twice.yaml"
    yaml_path.write_text(doc.replace("  flow: ticketing\n", "  flow: ticketing\n  flow: incident-triage\n"))
    json_path = tmp_path / "twice.json"
    json_path.write_text(
        json.dumps(taskrun_doc("twice", success=True)).replace(
            '"flow": "ticketing"', '"flow": "ticketing", "flow": "incident-triage"'
        )
    )
    for path in (yaml_path, json_path):
        (parsed,) = list(iter_taskruns(str(path)))
        assert parsed.run is None and parsed.field_path == "spec.flow", parsed.message


def test_a_document_of_too_many_values_is_refused_and_the_next_one_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("osmia.safeload.values.MAX_DOCUMENT_VALUES", 1000)
    docs = list(yaml_documents("- " + "\n- ".join(["{}"] * 1001) + "\n---\nb: 1\n"))
    assert isinstance(docs[0], LoadError) and "more than 1000 values" in str(docs[0])
    assert docs[1] == {"b": 1}
    with pytest.raises(LoadError, match="more than 1000 objects and lists"):
        json_document("[" + "{}, " * 1001 + "{}]")


def test_a_file_of_too_many_objects_is_cut_with_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("osmia.documents.MAX_OBJECTS", 3)
    path = tmp_path / "many.yaml"
    path.write_text("---\n".join(good_yaml(f"r{i}") for i in range(5)))
    parsed = []
    with pytest.raises(DocumentError, match="document 4: more than 3 objects in one file"):
        parsed.extend(iter_taskruns(str(path)))
    assert [p.run.name for p in parsed if p.run] == ["r0", "r1", "r2"]
