"""The strict YAML reader of osmia-config.yaml: booleans, duplicates, aliases, size, odd files."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from osmia.config import ConfigError, load_config, parse_config
from osmia.config.errors import MAX_LISTED
from osmia.config.loader import MAX_DEPTH, MAX_FILE_BYTES, MAX_NODES


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "osmia-config.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def refused(tmp_path: Path, text: str) -> ConfigError:
    with pytest.raises(ConfigError) as info:
        load_config(write(tmp_path, text), environ={})
    return info.value


@pytest.mark.parametrize("word", ["yes", "no", "on", "off", "Yes", "NO", "On", "OFF", "y", "n"])
def test_yaml_1_1_booleans_are_refused(tmp_path: Path, word: str) -> None:
    error = refused(tmp_path, f"memory:\n  enabled: {word}\n")
    assert f"memory.enabled must be a boolean (true or false); got '{word}' (a string)" in str(error)


@pytest.mark.parametrize(
    ("word", "value"), [("true", True), ("True", True), ("TRUE", True), ("false", False)]
)
def test_true_and_false_are_booleans(tmp_path: Path, word: str, value: bool) -> None:
    assert load_config(write(tmp_path, f"memory:\n  enabled: {word}\n"), environ={}).memory.enabled is value


def test_yes_is_a_plain_string_where_strings_are_wanted(tmp_path: Path) -> None:
    text = "engines:\n  e:\n    image: i\n    env: {ASSUME: yes, QUIET: off}\n    args: [--force, on]\n"
    engine = load_config(write(tmp_path, text), environ={}).engines["e"]
    assert dict(engine.env) == {"ASSUME": "yes", "QUIET": "off"}
    assert engine.args == ("--force", "on")


def test_tenant_isolation_yes_is_refused_not_warned(tmp_path: Path) -> None:
    error = refused(tmp_path, "memory:\n  tenant_isolation: yes\n")
    assert "memory.tenant_isolation must be a boolean" in str(error)


@pytest.mark.parametrize(
    ("text", "line", "key"),
    [
        ("memory:\n  enabled: true\nmemory:\n  enabled: false\n", 3, "memory"),
        ("engines:\n  a: {image: x}\n  a: {image: y}\n", 3, "a"),
        ("engines:\n  a:\n    image: x\n    env: {K: '1', K: '2'}\n", 4, "K"),
    ],
)
def test_duplicate_keys_are_refused_at_every_level(tmp_path: Path, text: str, line: int, key: str) -> None:
    error = refused(tmp_path, text)
    assert re.search(rf"line {line}, column \d+: found duplicate key '{key}'", str(error)), str(error)


def test_alias_bomb_is_refused_before_it_is_built(tmp_path: Path) -> None:
    lines = ['a0: &a0 ["x","x","x","x","x","x","x","x","x","x"]']
    for i in range(1, 9):
        lines.append(f"a{i}: &a{i} [{','.join([f'*a{i - 1}'] * 10)}]")
    lines.append("engines:\n  e:\n    image: i\n    args: *a8")
    error = refused(tmp_path, "\n".join(lines) + "\n")
    assert f"more than {MAX_NODES} values once aliases are expanded" in str(error)


def test_recursive_alias_is_refused(tmp_path: Path) -> None:
    error = refused(tmp_path, "engines: &e\n  e:\n    image: i\n    env: *e\n")
    assert "an alias refers to a mapping or list that contains it" in str(error)


def test_moderate_aliases_still_work(tmp_path: Path) -> None:
    text = "engines:\n  a: &base {image: i, args: [x, y]}\n  b: *base\n  c: {<<: *base, image: j}\n"
    engines = load_config(write(tmp_path, text), environ={}).engines
    assert engines["b"] == engines["a"]
    assert (engines["c"].image, engines["c"].args) == ("j", ("x", "y"))


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 1200, 20000])
def test_deep_nesting_is_refused(tmp_path: Path, depth: int) -> None:
    error = refused(tmp_path, "memory: " + "[" * depth + "]" * depth + "\n")
    assert "nested" in str(error) and "deep" in str(error)


def test_nesting_within_the_limit_is_a_type_problem(tmp_path: Path) -> None:
    error = refused(tmp_path, "memory: " + "[" * 10 + "]" * 10 + "\n")
    assert "memory must be a mapping; got a list" in str(error)


def test_huge_file_is_refused_unread(tmp_path: Path) -> None:
    path = write(tmp_path, "# " + "x" * MAX_FILE_BYTES + "\n")
    with pytest.raises(ConfigError, match=f"larger than {MAX_FILE_BYTES} bytes"):
        load_config(path, environ={})


def test_integer_with_too_many_digits_is_refused(tmp_path: Path) -> None:
    error = refused(tmp_path, f"memory:\n  token_budget: {'9' * 5000}\n")
    assert "invalid YAML" in str(error) or "a very large integer" in str(error)


def test_large_integer_is_shown_short(tmp_path: Path) -> None:
    error = refused(tmp_path, f"memory:\n  token_budget: {'9' * 100}\n")
    assert "memory.token_budget must be an integer in [50, 20000]; got 9999" in str(error)
    assert len(str(error)) < 200


@pytest.mark.parametrize("text", [".nan", ".inf", "-.inf", ".NaN"])
def test_nan_and_infinity_are_refused(tmp_path: Path, text: str) -> None:
    error = refused(tmp_path, f"memory:\n  decay_interval_hours: {text}\n")
    assert "memory.decay_interval_hours must be a number in (0, 8760]" in str(error)


def test_lone_surrogate_is_shown_escaped(tmp_path: Path) -> None:
    error = refused(tmp_path, 'operator:\n  log_level: "\\ud800"\n')
    message = str(error)
    assert "operator.log_level" in message
    message.encode("utf-8")  # printable: the surrogate is escaped


def test_control_characters_in_keys_are_escaped(tmp_path: Path) -> None:
    error = refused(tmp_path, 'memory:\n  "en\\x1babled\\n": true\n')
    message = str(error)
    assert "\x1b" not in message and "\n  " not in message.split(": ", 1)[1]
    assert "unknown key 'memory.'en\\x1babled\\n''" in message


def test_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    with pytest.raises(ConfigError, match="not a regular file"):
        load_config(fifo, environ={})


def test_non_utf8_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "latin1.yaml"
    path.write_bytes(b"memory:\n  store_path: /d\xe9j\xe0.db\n")
    with pytest.raises(ConfigError, match=r"not UTF-8 text \(byte 24\)"):
        load_config(path, environ={})


def test_many_problems_are_all_kept_and_the_message_is_bounded() -> None:
    engines = {f"e{i}": {"image": "has space"} for i in range(MAX_LISTED + 30)}
    with pytest.raises(ConfigError) as info:
        parse_config({"engines": engines}, "f.yaml")
    assert len(info.value.problems) == MAX_LISTED + 30
    message = str(info.value)
    assert message.startswith(f"f.yaml: {MAX_LISTED + 30} problems:")
    assert message.count("\n  - ") == MAX_LISTED
    assert message.endswith("... and 30 more")


def test_the_document_itself_must_be_a_mapping(tmp_path: Path) -> None:
    error = refused(tmp_path, "42\n")
    sections = "memory, operator, execution, dashboard, engines"
    assert f"the document must be a mapping with sections {sections}" in str(error)


def test_an_unprintable_file_name_is_shown_escaped(tmp_path: Path) -> None:
    path = tmp_path / "conf\x1b[2J\udcff.yaml"
    with pytest.raises(ConfigError) as info:
        load_config(path, environ={})
    message = str(info.value)
    assert "\x1b" not in message and "not found" in message
    message.encode("utf-8")


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("execution: {ttl_seconds_after_finished: 2001-12-14}", "got a date"),
        ("engines: {2001-12-14: {image: i}}", "a key of engines must be an engine name"),
        ("memory: !!set {a, b}", "memory must be a mapping; got a set"),
        (
            "memory: {enabled: !!binary aGVsbG8=}",
            "memory.enabled must be a boolean (true or false); got binary data",
        ),
        ("memory: {? [a] : 1}", "found unhashable key"),
    ],
)
def test_other_yaml_types_are_named(tmp_path: Path, text: str, shown: str) -> None:
    assert shown in str(refused(tmp_path, text + "\n"))


def test_an_unknown_tag_of_any_length_is_named_in_one_short_line(tmp_path: Path) -> None:
    """PyYAML quotes the tag it cannot construct, whatever its length (a fuzzed case: 1,500 digits)."""
    error = str(refused(tmp_path, "memory:\n  enabled: !" + "9" * 1500 + " x\n"))
    assert "invalid YAML at line 2" in error and "\n" not in error
    assert len(error) < 400
