"""Fuzz the config loader: any document, any text gives a Config or one ConfigError, never another exception.

Documents are made from a valid one by replacing values with wrong types,
huge or non-finite numbers, odd unicode, deep nesting and renamed keys; texts
are YAML renderings of those, mutated, with aliases, anchors and YAML 1.1
booleans. The error's message must list every problem, one line each, and be
printable.
"""

from __future__ import annotations

import copy
import math
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from osmia.config import Config, ConfigError, load_config, parse_config
from osmia.config.loader import parse_yaml

VALID: dict[str, Any] = {
    "memory": {
        "enabled": True,
        "store_path": "/data/memory.db",
        "decay_interval_hours": 12.5,
        "prune_threshold": 0.1,
        "max_facts_per_query": 7,
        "tenant_isolation": True,
        "token_budget": 900,
        "extraction_concurrency": 4,
        "min_pattern_samples": 8,
        "busy_timeout_ms": 2500,
    },
    "operator": {
        "namespaces": ["agents", "ci"],
        "metrics_port": 9100,
        "metrics_host": "127.0.0.1",
        "liveness_port": 8081,
        "peering": "osmia",
        "log_level": "debug",
        "log_format": "console",
    },
    "execution": {
        "default_timeout_seconds": 1800,
        "prompt_mount_path": "/run/prompt",
        "backoff_limit": 2,
        "ttl_seconds_after_finished": None,
    },
    "engines": {
        "claude-code": {
            "image": "img:1",
            "command": ["claude"],
            "args": ["-p", ""],
            "env": {"MAX_TURNS": "40"},
            "service_account": "agent-runner",
            "resources": {"requests": {"cpu": "500m"}, "limits": {"cpu": 2}, "claims": [{"name": "gpu"}]},
        }
    },
}

ODD_TEXT = st.one_of(
    st.text(max_size=80),
    st.sampled_from(
        ["", " ", "yes", "on", "\ud800", "\x00", "\u202e", "\x1b[31m", "a" * 5000, "~nobody/x", "/"]
    ),
)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=-(10**60), max_value=10**60),
    st.sampled_from([10**400, -(10**400), 2**63, -1, 0, 65536]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([math.nan, math.inf, -math.inf, -0.0, 1e308]),
    ODD_TEXT,
)


def nested(depth: int) -> Any:
    value: Any = "x"
    for i in range(depth):
        value = [value] if i % 2 else {"k": value}
    return value


VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.one_of(ODD_TEXT, st.integers(), st.none(), st.booleans()), inner, max_size=4),
    ),
    max_leaves=12,
) | st.integers(min_value=1, max_value=400).map(nested)


def paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            out += paths(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            out += paths(value, (*prefix, index))
    return out


@st.composite
def mutated(draw: st.DrawFn) -> Any:
    """The valid document with a few values replaced, keys renamed or added, sections dropped."""
    doc = copy.deepcopy(VALID)
    for _ in range(draw(st.integers(min_value=1, max_value=5))):
        where = draw(st.sampled_from(paths(doc)))
        action = draw(st.sampled_from(["replace", "rename", "add", "delete"]))
        if not where:
            if action == "replace":
                return draw(VALUES)
            continue
        parent: Any = doc
        for part in where[:-1]:
            parent = parent[part]
        last = where[-1]
        if action == "replace" or (isinstance(parent, list) and action in ("rename", "add")):
            parent[last] = draw(VALUES)
        elif action == "rename" and isinstance(parent, dict):
            parent[
                draw(st.one_of(ODD_TEXT, st.integers(), st.sampled_from([str(last) + "s", str(last)[:-1]])))
            ] = parent.pop(last)
        elif action == "add" and isinstance(parent, dict):
            parent[draw(ODD_TEXT)] = draw(VALUES)
        elif action == "delete":
            del parent[last]
    return doc


def assert_one_clean_error(error: ConfigError, source: str) -> None:
    message = str(error)
    assert message.startswith(f"{source}: ")
    assert error.problems and all(p and "\n" not in p for p in error.problems), error.problems
    message.encode("utf-8")  # printable as it is: no lone surrogates
    if len(error.problems) > 1:
        assert message.startswith(f"{source}: {len(error.problems)} problems:")


def check_document(data: Any) -> None:
    try:
        config = parse_config(data, "fuzz.yaml", base_dir=Path("/cfg"))
    except ConfigError as error:
        assert_one_clean_error(error, "fuzz.yaml")
    else:
        assert isinstance(config, Config)
        assert config.memory.store_path.is_absolute()


@settings(max_examples=800, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_mutated_documents_give_a_config_or_one_config_error(data: Any) -> None:
    check_document(data)


@settings(max_examples=500, deadline=None)
@given(VALUES)
def test_arbitrary_documents_give_a_config_or_one_config_error(data: Any) -> None:
    check_document(data)


def render(value: Any, indent: str = "") -> str:
    """A YAML rendering that keeps odd values (surrogates, huge ints) as the loader would see them.

    Past 100 levels the rest is written as flow brackets (still too deep for the
    loader), so that rendering never depends on the test's own stack depth.
    """
    if len(indent) > 200:
        return "[" * 100 + "]" * 100
    if isinstance(value, dict):
        if not value:
            return "{}"
        return "".join(
            f"\n{indent}{render(k, indent + '  ')}: {render(v, indent + '  ')}" for k, v in value.items()
        )
    if isinstance(value, list):
        return "[" + ", ".join(render(v, indent + "  ") for v in value) + "]"
    if isinstance(value, str):
        escaped = "".join(c if c.isalnum() or c in " -_./:" else f"\\U{ord(c):08x}" for c in value)
        return f'"{escaped}"'
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if math.isnan(value):
            return ".nan"
        return (".inf" if value > 0 else "-.inf") if math.isinf(value) else repr(value)
    return str(value)


TEXT_EDITS = st.sampled_from(
    [
        "&a ",
        "*a",
        "*undefined",
        "<<: *a\n",
        ": ",
        "\n- ",
        "yes",
        "off",
        "{",
        "]",
        "\t",
        "\x00",
        "\x85",
        "\ufeff",
        "!!python/object:os.system ",
        "!!binary ",
        "!!set ",
        "!!omap ",
        "!!pairs ",
        "2001-12-14",
        "2001-12-14t21:59:43.10-05:00",
        "? ",
        "---\n",
        "...\n",
        "%YAML 1.1\n",
        "0o17",
        "1_000",
        "1:30",
        "9" * 5000,
        "[" * 300,
    ]
)


@st.composite
def mutated_texts(draw: st.DrawFn) -> str:
    text = render(draw(mutated())).lstrip("\n")
    for _ in range(draw(st.integers(min_value=0, max_value=4))):
        position = draw(st.integers(min_value=0, max_value=len(text)))
        if draw(st.booleans()):
            text = text[:position] + draw(TEXT_EDITS) + text[position:]
        else:
            end = draw(st.integers(min_value=position, max_value=min(len(text), position + 20)))
            text = text[:position] + text[end:]
    return text


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_texts())
def test_mutated_files_give_a_config_or_one_config_error(text: str) -> None:
    try:
        data = parse_yaml(text, "fuzz.yaml")
    except ConfigError as error:
        assert_one_clean_error(error, "fuzz.yaml")
        return
    check_document(data)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=400))
def test_any_bytes_on_disk_give_a_config_or_one_config_error(tmp_path_factory: Any, raw: bytes) -> None:
    path = tmp_path_factory.mktemp("fuzz") / "osmia-config.yaml"
    path.write_bytes(raw)
    try:
        load_config(path, environ={})
    except ConfigError as error:
        assert_one_clean_error(error, str(path))


def test_the_renderer_round_trips_the_valid_document() -> None:
    """The fuzzer's YAML renderer is faithful, so mutated texts start from a real config."""
    config = parse_config(parse_yaml(render(VALID), "r"), "r", base_dir=Path("/cfg"))
    assert config == parse_config(VALID, "r", base_dir=Path("/cfg"))
