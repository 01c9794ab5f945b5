"""Tests for osmia.config: the typed, strict loader of osmia-config.yaml."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel, ValidationError

from osmia.config import (
    ENV_MEMORY_ENABLED,
    ENV_MEMORY_STORE_PATH,
    Config,
    ConfigError,
    ContainerResources,
    DashboardConfig,
    EngineConfig,
    EnvFromSource,
    ExecutionConfig,
    MemoryConfig,
    OperatorConfig,
    SecretVolume,
    load_config,
    parse_config,
)

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs" / "configuration.md"
EXAMPLE = ROOT / "examples" / "osmia-config.yaml"

SECTIONS: dict[str, type[Any]] = {
    "memory": MemoryConfig,
    "operator": OperatorConfig,
    "execution": ExecutionConfig,
    "dashboard": DashboardConfig,
}


def write(tmp_path: Path, text: str, name: str = "osmia-config.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def problem(data: Any) -> str:
    """The ConfigError message parse_config raises for ``data`` (fails if none)."""
    with pytest.raises(ConfigError) as info:
        parse_config(data, "osmia-config.yaml", base_dir=Path("/cfg"))
    return str(info.value)


def set_key(dotted: str, value: Any) -> dict[str, Any]:
    """{'a': {'b': value}} from 'a.b'."""
    data: dict[str, Any] = {}
    node = data
    *parents, last = dotted.split(".")
    for part in parents:
        node = node.setdefault(part, {})
    node[last] = value
    return data


def to_plain(value: Any) -> Any:
    """A Config (or part of it) as the plain YAML-able data that would produce it."""
    if isinstance(value, BaseModel):
        return {name: to_plain(getattr(value, name)) for name in type(value).model_fields}
    if isinstance(value, Mapping):
        return {k: to_plain(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [to_plain(v) for v in value]
    if isinstance(value, Path):
        return str(value)
    return value


def field_names(model: type[BaseModel]) -> set[str]:
    """The keys a section of the file has."""
    return set(model.model_fields)


# ---------------------------------------------------------------------------
# Defaults


def test_defaults_without_file() -> None:
    config = load_config(None, environ={})
    assert config.memory == MemoryConfig()
    assert config.memory.enabled is False
    assert config.memory.store_path == Path("/var/lib/osmia/memory.db")
    assert config.operator == OperatorConfig()
    assert config.execution == ExecutionConfig()
    assert dict(config.engines) == {}
    assert config.warnings == ()


@pytest.mark.parametrize(
    "text",
    ["", "# only a comment\n", "---\n", "memory:\n", "memory:\noperator:\nexecution:\nengines:\n"],
)
def test_empty_file_and_null_sections_give_defaults(tmp_path: Path, text: str) -> None:
    config = load_config(write(tmp_path, text), environ={})
    assert config == load_config(None, environ={})


def test_default_values_match_the_contract() -> None:
    memory = MemoryConfig()
    assert (
        memory.decay_interval_hours,
        memory.prune_threshold,
        memory.max_facts_per_query,
        memory.tenant_isolation,
    ) == (24.0, 0.05, 10, True)
    assert (memory.token_budget, memory.extraction_concurrency) == (600, 2)
    assert (memory.min_pattern_samples, memory.busy_timeout_ms) == (5, 5000)
    operator = OperatorConfig()
    assert (operator.metrics_port, operator.liveness_port, operator.peering) == (9090, 8080, "")
    assert (operator.log_level, operator.log_format, operator.metrics_host) == (
        "info",
        "json",
        "0.0.0.0",
    )
    execution = ExecutionConfig()
    assert execution == ExecutionConfig(
        default_timeout_seconds=3600,
        prompt_mount_path="/osmia/prompt",
        backoff_limit=0,
        ttl_seconds_after_finished=3600,
    )


# ---------------------------------------------------------------------------
# Full example, round trip, every key read

FULL = """\
memory:
  enabled: true
  store_path: /data/osmia.db
  decay_interval_hours: 12.5
  prune_threshold: 0.1
  max_facts_per_query: 7
  tenant_isolation: true
  token_budget: 900
  extraction_concurrency: 4
  min_pattern_samples: 8
  busy_timeout_ms: 2500
operator:
  namespaces: [agents, ci]
  metrics_port: 9100
  metrics_host: 127.0.0.1
  liveness_port: 8081
  peering: osmia
  log_level: debug
  log_format: console
execution:
  default_timeout_seconds: 1800
  prompt_mount_path: /run/prompt
  backoff_limit: 2
  ttl_seconds_after_finished: null
engines:
  claude-code:
    image: ghcr.io/example/claude-code-runner:1.0
    command: [claude]
    args: ["-p", ""]
    env: {MAX_TURNS: "40", DEBUG: "true"}
    service_account: agent-runner
    resources:
      requests: {cpu: 500m, memory: 1Gi}
      limits: {cpu: 2, nvidia.com/gpu: "1"}
      claims: [{name: gpu, request: big}]
  aider:
    image: ghcr.io/example/aider-runner:1.0
"""


def test_full_example_is_read_as_written(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, FULL), environ={})
    assert config.memory == MemoryConfig(
        enabled=True,
        store_path=Path("/data/osmia.db"),
        decay_interval_hours=12.5,
        prune_threshold=0.1,
        max_facts_per_query=7,
        tenant_isolation=True,
        token_budget=900,
        extraction_concurrency=4,
        min_pattern_samples=8,
        busy_timeout_ms=2500,
    )
    assert config.operator == OperatorConfig(
        namespaces=("agents", "ci"),
        metrics_port=9100,
        metrics_host="127.0.0.1",
        liveness_port=8081,
        peering="osmia",
        log_level="debug",
        log_format="console",
    )
    assert config.execution == ExecutionConfig(
        default_timeout_seconds=1800,
        prompt_mount_path="/run/prompt",
        backoff_limit=2,
        ttl_seconds_after_finished=None,
    )
    assert list(config.engines) == ["claude-code", "aider"]
    claude = config.engines["claude-code"]
    assert claude.image == "ghcr.io/example/claude-code-runner:1.0"
    assert claude.command == ("claude",)
    assert claude.args == ("-p", "")
    assert dict(claude.env) == {"MAX_TURNS": "40", "DEBUG": "true"}
    assert claude.service_account == "agent-runner"
    assert claude.container_resources() == {
        "requests": {"cpu": "500m", "memory": "1Gi"},
        "limits": {"cpu": 2, "nvidia.com/gpu": "1"},
        "claims": [{"name": "gpu", "request": "big"}],
    }
    assert config.engines["aider"] == EngineConfig(image="ghcr.io/example/aider-runner:1.0")
    assert len(config.warnings) == 1  # tenant_isolation is present


def test_full_example_round_trip(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, FULL), environ={})
    plain = to_plain(config)
    data = yaml.safe_load(yaml.safe_dump(plain, sort_keys=False))
    again = parse_config(data, "round-trip", base_dir=tmp_path)
    assert (again.memory, again.operator, again.execution) == (
        config.memory,
        config.operator,
        config.execution,
    )
    assert again.engines == config.engines
    assert len(again.warnings) == len(config.warnings)
    assert again.model_dump(mode="json") == config.model_dump(mode="json")


# yaml value in the file -> expected attribute value; must differ from the default.
NON_DEFAULT: dict[str, tuple[Any, Any]] = {
    "dashboard.enabled": (True, True),
    "dashboard.host": ("0.0.0.0", "0.0.0.0"),
    "dashboard.port": (9470, 9470),
    "memory.enabled": (True, True),
    "memory.store_path": ("/srv/osmia/other.db", Path("/srv/osmia/other.db")),
    "memory.decay_interval_hours": (6, 6.0),
    "memory.prune_threshold": (0.2, 0.2),
    "memory.max_facts_per_query": (3, 3),
    "memory.tenant_isolation": (False, False),
    "memory.token_budget": (1200, 1200),
    "memory.extraction_concurrency": (5, 5),
    "memory.min_pattern_samples": (20, 20),
    "memory.busy_timeout_ms": (100, 100),
    "memory.ranking_preset": ("recent", "recent"),
    "operator.namespaces": (["a", "b"], ("a", "b")),
    "operator.metrics_port": (9999, 9999),
    "operator.metrics_host": ("::", "::"),
    "operator.liveness_port": (8888, 8888),
    "operator.peering": ("main", "main"),
    "operator.log_level": ("warning", "warning"),
    "operator.log_format": ("console", "console"),
    "execution.default_timeout_seconds": (60, 60),
    "execution.prompt_mount_path": ("/prompt", "/prompt"),
    "execution.backoff_limit": (3, 3),
    "execution.ttl_seconds_after_finished": (None, None),
    "engines.e.image": ("img:2", "img:2"),
    "engines.e.command": (["run"], ("run",)),
    "engines.e.args": (["--x"], ("--x",)),
    "engines.e.env": ({"A": "b"}, {"A": "b"}),
    "engines.e.service_account": ("sa", "sa"),
    "engines.e.model": ("claude-sonnet-4-5", "claude-sonnet-4-5"),
    "engines.e.engine_args": (["--x"], ("--x",)),
    "engines.e.env_from": (
        [{"secret": "api-key"}],
        (EnvFromSource(secret="api-key"),),
    ),
    "engines.e.secret_volumes": (
        [{"secret": "ssh", "mount_path": "/var/run/ssh"}],
        (SecretVolume(secret="ssh", mount_path="/var/run/ssh"),),
    ),
    "engines.e.resources": (
        {"limits": {"cpu": "1"}},
        ContainerResources.model_validate({"limits": {"cpu": "1"}}),
    ),
}


def documented_keys() -> list[str]:
    """Every key of the file, generated from the dataclass fields."""
    keys = [f"{name}.{field}" for name, cls in SECTIONS.items() for field in cls.model_fields]
    keys += [f"engines.e.{field}" for field in EngineConfig.model_fields]
    return keys


def test_every_key_has_a_non_default_test_value() -> None:
    assert sorted(NON_DEFAULT) == sorted(documented_keys())


def test_every_key_is_read(tmp_path: Path) -> None:
    data: dict[str, Any] = {"engines": {"e": {"image": "x"}}}
    for key in documented_keys():
        section, *rest, name = key.split(".")
        node = data.setdefault(section, {})
        for part in rest:
            node = node[part]
        node[name] = NON_DEFAULT[key][0]
    config = load_config(write(tmp_path, yaml.safe_dump(data)), environ={})
    defaults = {
        "memory": MemoryConfig(),
        "operator": OperatorConfig(),
        "execution": ExecutionConfig(),
        "dashboard": DashboardConfig(),
        "engines": EngineConfig(image="default"),
    }
    for key in documented_keys():
        section, *_, name = key.split(".")
        target = config.engines["e"] if section == "engines" else getattr(config, section)
        expected = NON_DEFAULT[key][1]
        assert getattr(target, name) == expected, key
        assert getattr(defaults[section], name) != expected, f"{key}: test value is the default"


def test_docs_table_lists_every_key() -> None:
    text = DOCS.read_text(encoding="utf-8")
    rows = set(re.findall(r"^\| `([a-z_.<>]+)` \|", text, flags=re.MULTILINE))
    expected = {k.replace("engines.e.", "engines.<name>.") for k in documented_keys()}
    assert expected <= rows, f"undocumented: {sorted(expected - rows)}"
    assert rows <= expected, f"documented but not read: {sorted(rows - expected)}"
    for variable in (ENV_MEMORY_ENABLED, ENV_MEMORY_STORE_PATH):
        assert f"| `{variable}` |" in text


def test_docs_example_parses_and_sets_every_key() -> None:
    text = DOCS.read_text(encoding="utf-8")
    block = re.search(r"```yaml\n(.*?)```", text, flags=re.DOTALL)
    assert block is not None
    data = yaml.safe_load(block.group(1))
    config = parse_config(data, "docs")
    for section, cls in SECTIONS.items():
        assert set(data[section]) == field_names(cls), section
    engine = next(iter(data["engines"].values()))
    assert set(engine) == field_names(EngineConfig)
    assert config.memory == MemoryConfig()  # the example shows the defaults
    assert config.operator == OperatorConfig()
    assert config.execution == ExecutionConfig()


def test_example_file_parses() -> None:
    config = load_config(EXAMPLE, environ={})
    assert config.memory.enabled is True
    assert config.memory.store_path == EXAMPLE.parent / ".data" / "memory.db"
    assert {name: e.image for name, e in config.engines.items()} == {
        "claude-code": "ghcr.io/osmia-dev/osmia-runner:0.1.0",
        "aider": "ghcr.io/osmia-dev/osmia-runner:0.1.0",
    }
    assert config.warnings == ()


# ---------------------------------------------------------------------------
# Unknown keys


@pytest.mark.parametrize(
    ("data", "key", "allowed"),
    [
        ({"memroy": {}}, "'memroy'", "engines, execution, memory, operator"),
        ({"memory": {"decay_hours": 1}}, "'memory.decay_hours'", "decay_interval_hours"),
        ({"operator": {"port": 1}}, "'operator.port'", "metrics_port"),
        ({"execution": {"timeout": 1}}, "'execution.timeout'", "default_timeout_seconds"),
        ({"engines": {"x": {"image": "i", "imag": "j"}}}, "'engines.x.imag'", "image"),
        (
            {"engines": {"x": {"image": "i", "resources": {"limit": {}}}}},
            "'engines.x.resources.limit'",
            "claims, limits, requests",
        ),
        ({"memory": {1: True}}, "'memory.1'", "enabled"),
    ],
)
def test_unknown_key_is_refused_with_its_full_name(data: dict[str, Any], key: str, allowed: str) -> None:
    message = problem(data)
    assert f"unknown key {key}" in message
    assert allowed in message
    assert message.startswith("osmia-config.yaml: ")


def test_unknown_key_suggests_a_close_match() -> None:
    assert "did you mean 'prune_threshold'" in problem({"memory": {"prune_treshold": 0.1}})


# ---------------------------------------------------------------------------
# Ranges

INT_RANGES = {
    "memory.max_facts_per_query": (1, 100),
    "memory.token_budget": (50, 20000),
    "memory.extraction_concurrency": (1, 32),
    "memory.min_pattern_samples": (2, 1000),
    "memory.busy_timeout_ms": (0, 600000),
    "operator.metrics_port": (0, 65535),
    "operator.liveness_port": (0, 65535),
    "execution.default_timeout_seconds": (1, 86400),
    "execution.backoff_limit": (0, 10),
    "execution.ttl_seconds_after_finished": (0, 604800),
}

BOUNDARIES = [
    *((key, lo, True) for key, (lo, _) in INT_RANGES.items()),
    *((key, hi, True) for key, (_, hi) in INT_RANGES.items()),
    *((key, lo - 1, False) for key, (lo, _) in INT_RANGES.items()),
    *((key, hi + 1, False) for key, (_, hi) in INT_RANGES.items()),
    ("memory.decay_interval_hours", 0, False),
    ("memory.decay_interval_hours", 0.0, False),
    ("memory.decay_interval_hours", 1e-9, True),
    ("memory.decay_interval_hours", 8760, True),
    ("memory.decay_interval_hours", 8760.001, False),
    ("memory.decay_interval_hours", -1, False),
    ("memory.prune_threshold", 0, True),
    ("memory.prune_threshold", 0.0, True),
    ("memory.prune_threshold", -1e-9, False),
    ("memory.prune_threshold", 0.999999, True),
    ("memory.prune_threshold", 1, False),
    ("memory.prune_threshold", 1.0, False),
]


def _render_range(key: str) -> str:
    if key in INT_RANGES:
        lo, hi = INT_RANGES[key]
        return f"[{lo}, {hi}]"
    return {"memory.decay_interval_hours": "(0, 8760]", "memory.prune_threshold": "[0, 1)"}[key]


@pytest.mark.parametrize(("key", "value", "ok"), BOUNDARIES)
def test_range_boundaries(key: str, value: float, ok: bool) -> None:
    data = set_key(key, value)
    if key == "operator.metrics_port":  # keep the two ports apart
        data["operator"]["liveness_port"] = 0
    if ok:
        config = parse_config(data)
        section, name = key.split(".")
        assert getattr(getattr(config, section), name) == value
    else:
        message = problem(data)
        assert key in message
        assert _render_range(key) in message
        assert f"got {value!r}" in message


@given(
    st.one_of(
        st.floats(max_value=0.0, exclude_max=True),
        st.floats(min_value=1.0),
        st.just(math.nan),
        st.integers().filter(lambda i: i < 0 or i >= 1),
    )
)
def test_prune_threshold_outside_unit_interval_is_refused(value: float) -> None:
    with pytest.raises(ConfigError, match=r"memory\.prune_threshold"):
        parse_config({"memory": {"prune_threshold": value}})


@given(st.floats(min_value=0.0, max_value=1.0, exclude_max=True))
def test_prune_threshold_inside_unit_interval_is_accepted(value: float) -> None:
    assert parse_config({"memory": {"prune_threshold": value}}).memory.prune_threshold == value


# ---------------------------------------------------------------------------
# Types


@pytest.mark.parametrize(
    ("key", "value", "expected", "shown"),
    [
        ("memory.max_facts_per_query", "10", "an integer in [1, 100]", "'10' (a string)"),
        ("memory.max_facts_per_query", True, "an integer in [1, 100]", "true (a boolean)"),
        ("memory.max_facts_per_query", 10.0, "an integer in [1, 100]", "10.0"),
        ("memory.enabled", 1, "a boolean", "got 1"),
        ("memory.enabled", "yes", "a boolean", "'yes' (a string)"),
        ("memory.enabled", "true", "a boolean", "'true' (a string)"),
        ("memory.enabled", None, "a boolean", "null"),
        ("memory.tenant_isolation", 0, "a boolean", "got 0"),
        ("memory.prune_threshold", False, "a number in [0, 1)", "false (a boolean)"),
        ("memory.prune_threshold", "0.5", "a number in [0, 1)", "'0.5' (a string)"),
        ("memory.decay_interval_hours", "1e3", "a number in (0, 8760]", "'1e3'"),
        ("memory.store_path", 5, "a file path", "got 5"),
        ("memory.store_path", "", "a file path", "''"),
        ("memory.store_path", "/var/lib/osmia/", "not ending in '/'", "'/var/lib/osmia/'"),
        ("operator.namespaces", "agents", "a list of namespace names", "'agents'"),
        ("operator.namespaces", ["Agents"], "a namespace name", "'Agents'"),
        ("operator.log_level", "INFO", "one of debug, info, warning, error", "'INFO'"),
        ("operator.log_format", "text", "one of json, console", "'text'"),
        ("operator.metrics_host", "", "a host name or IP address", "''"),
        ("operator.peering", "Main", "kopf peering name", "'Main'"),
        ("execution.prompt_mount_path", "prompt", "an absolute directory path", "'prompt'"),
        ("execution.prompt_mount_path", "/", "an absolute directory path", "'/'"),
        ("execution.ttl_seconds_after_finished", "1h", "null or an integer", "'1h'"),
        ("memory", [1], "a mapping", "a list"),
        ("operator", "x", "a mapping", "'x'"),
    ],
)
def test_wrong_type_is_refused(key: str, value: Any, expected: str, shown: str) -> None:
    message = problem(set_key(key, value))
    assert re.search(rf"{re.escape(key)}(\[\d+\])? must be", message), message
    assert expected in message
    assert shown in message


@pytest.mark.parametrize(
    ("engine", "key"),
    [
        ({"image": "i", "command": "run"}, "engines.x.command must be a list of strings"),
        ({"image": "i", "args": [1]}, "engines.x.args[0] must be a string"),
        ({"image": "i", "env": {"N": 40}}, "engines.x.env.N must be a string"),
        ({"image": "i", "env": {"N": True}}, "engines.x.env.N must be a string"),
        ({"image": "i", "env": {"1N": "a"}}, "a key of engines.x.env must be"),
        ({"image": "i", "env": ["A=b"]}, "engines.x.env must be a mapping"),
        ({"image": "i", "service_account": "SA"}, "engines.x.service_account must be"),
        ({"image": "i", "resources": {"limits": {"memory": "4GB"}}}, "limits.memory"),
        ({"image": "i", "resources": {"limits": {"cpu": -1}}}, "limits.cpu"),
        ({"image": "i", "resources": {"limits": {"cpu": True}}}, "limits.cpu"),
        ({"image": "i", "resources": {"claims": [{"request": "r"}]}}, "claims[0].name"),
        ({"image": "i", "resources": []}, "engines.x.resources must be a mapping"),
        ({"image": "has space"}, "engines.x.image must be a container image"),
        ({"image": ""}, "engines.x.image must be a container image"),
        ({"image": 3}, "engines.x.image must be"),
    ],
)
def test_wrong_engine_value_is_refused(engine: dict[str, Any], key: str) -> None:
    assert key in problem({"engines": {"x": engine}})


def test_ints_are_accepted_for_float_keys() -> None:
    memory = parse_config({"memory": {"decay_interval_hours": 2, "prune_threshold": 0}}).memory
    assert memory.decay_interval_hours == 2.0
    assert isinstance(memory.decay_interval_hours, float)
    assert isinstance(memory.prune_threshold, float)


def test_nan_is_refused_for_float_keys() -> None:
    assert "memory.decay_interval_hours" in problem({"memory": {"decay_interval_hours": math.nan}})


def test_null_ttl_means_keep_finished_jobs() -> None:
    config = parse_config({"execution": {"ttl_seconds_after_finished": None}})
    assert config.execution.ttl_seconds_after_finished is None


def test_repeated_namespace_is_refused() -> None:
    assert "operator.namespaces[1] repeats 'a'" in problem({"operator": {"namespaces": ["a", "a"]}})


def test_equal_metrics_and_liveness_ports_are_refused() -> None:
    message = problem({"operator": {"metrics_port": 8080}})
    assert "operator.liveness_port" in message
    assert "operator.metrics_port" in message
    both_off = parse_config({"operator": {"metrics_port": 0, "liveness_port": 0}})
    assert both_off.operator.metrics_port == 0


def test_all_problems_are_reported_together() -> None:
    with pytest.raises(ConfigError) as info:
        parse_config(
            {
                "memory": {"prune_threshold": 2, "enabled": "yes"},
                "operator": {"log_level": "loud"},
                "extra": 1,
            }
        )
    assert len(info.value.problems) == 4
    message = str(info.value)
    for key in ("memory.prune_threshold", "memory.enabled", "operator.log_level", "'extra'"):
        assert key in message


def test_document_that_is_not_a_mapping_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="must be a mapping"):
        load_config(write(tmp_path, "- memory\n- operator\n"), environ={})
    with pytest.raises(ConfigError, match="must be a mapping"):
        load_config(write(tmp_path, "just a string\n"), environ={})


# ---------------------------------------------------------------------------
# tenant_isolation


@pytest.mark.parametrize("value", [True, False])
def test_tenant_isolation_is_accepted_and_warned_about(value: bool) -> None:
    config = parse_config({"memory": {"tenant_isolation": value}}, "f.yaml")
    assert len(config.warnings) == 1
    assert "memory.tenant_isolation" in config.warnings[0]
    assert "ignored" in config.warnings[0]
    assert "always on" in config.warnings[0]
    assert config.warnings[0].startswith("f.yaml: ")


def test_tenant_isolation_false_changes_nothing_else() -> None:
    off = parse_config({"memory": {"tenant_isolation": False, "enabled": True}})
    on = parse_config({"memory": {"tenant_isolation": True, "enabled": True}})
    assert off.memory.tenant_isolation is False
    assert off.memory.model_copy(update={"tenant_isolation": True}) == on.memory
    assert (off.operator, off.execution, off.engines) == (on.operator, on.execution, on.engines)


def test_no_warning_when_tenant_isolation_is_absent() -> None:
    assert parse_config({"memory": {"enabled": True}}).warnings == ()


def test_tenant_isolation_must_still_be_a_boolean() -> None:
    assert "memory.tenant_isolation must be a boolean" in problem({"memory": {"tenant_isolation": "off"}})


# ---------------------------------------------------------------------------
# Engines


@pytest.mark.parametrize("name", ["a", "claude-code", "aider", "codex2", "a-b-c", "0", "a" * 63])
def test_valid_engine_names(name: str) -> None:
    assert list(parse_config({"engines": {name: {"image": "i"}}}).engines) == [name]


@pytest.mark.parametrize("name", ["-a", "a-", "Claude", "a_b", "a.b", "a b", "", "a" * 64, "a\n", 1, None])
def test_invalid_engine_names_are_refused(name: Any) -> None:
    message = problem({"engines": {name: {"image": "i"}}})
    assert "a key of engines must be an engine name matching ^[a-z0-9]([-a-z0-9]*[a-z0-9])?$" in message
    assert "image" not in message, "what is under a bad name is not checked"


@pytest.mark.parametrize("body", [{}, None, {"args": ["x"]}])
def test_engine_without_image_is_refused(body: Any) -> None:
    assert "engines.aider.image is required" in problem({"engines": {"aider": body}})


def test_engines_must_be_a_mapping() -> None:
    assert "engines must be a mapping" in problem({"engines": ["claude-code"]})


def test_engine_defaults() -> None:
    engine = parse_config({"engines": {"e": {"image": "i"}}}).engines["e"]
    assert engine == EngineConfig(image="i")
    assert (engine.command, engine.args, dict(engine.env)) == ((), (), {})
    assert engine.service_account is None
    assert engine.container_resources() == {}


def test_config_is_immutable() -> None:
    config = parse_config({"engines": {"e": {"image": "i", "env": {"A": "b"}}}})
    with pytest.raises(ValidationError, match="frozen"):
        config.memory.enabled = True
    with pytest.raises(TypeError):
        config.engines["f"] = config.engines["e"]  # type: ignore[index]
    with pytest.raises(TypeError):
        config.engines["e"].env["A"] = "c"  # type: ignore[index]
    assert isinstance(config.engines, MappingProxyType)


def test_container_resources_is_a_mutable_copy() -> None:
    engine = parse_config({"engines": {"e": {"image": "i", "resources": {"limits": {"cpu": "1"}}}}}).engines[
        "e"
    ]
    plain = engine.container_resources()
    plain["limits"]["cpu"] = "2"
    assert engine.resources.limits["cpu"] == "1"


# ---------------------------------------------------------------------------
# store_path


def test_relative_store_path_is_relative_to_the_config_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    elsewhere = tmp_path / "cwd"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    conf_dir = tmp_path / "conf"
    conf_dir.mkdir()
    path = write(conf_dir, "memory:\n  store_path: ./data/../db/memory.db\n")
    assert load_config(path, environ={}).memory.store_path == conf_dir / "db" / "memory.db"


def test_store_path_expands_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    config = parse_config({"memory": {"store_path": "~/osmia/memory.db"}})
    assert config.memory.store_path == tmp_path / "osmia" / "memory.db"


def test_parse_config_resolves_relative_store_path_against_base_dir() -> None:
    config = parse_config({"memory": {"store_path": "m.db"}}, base_dir=Path("/etc/osmia"))
    assert config.memory.store_path == Path("/etc/osmia/m.db")


# ---------------------------------------------------------------------------
# Environment overrides


def test_env_overrides_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, "memory:\n  enabled: false\n  store_path: /a/file.db\n")
    config = load_config(path, environ={ENV_MEMORY_ENABLED: "true", ENV_MEMORY_STORE_PATH: "/pv/memory.db"})
    assert config.memory.enabled is True
    assert config.memory.store_path == Path("/pv/memory.db")
    path = write(tmp_path, "memory:\n  enabled: true\n")
    off = load_config(path, environ={ENV_MEMORY_ENABLED: "False"})
    assert off.memory.enabled is False


def test_env_overrides_apply_without_a_file() -> None:
    config = load_config(None, environ={ENV_MEMORY_ENABLED: "TRUE"})
    assert config.memory.enabled is True
    assert config.memory.store_path == MemoryConfig().store_path


def test_env_relative_store_path_is_relative_to_cwd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    config = load_config(None, environ={ENV_MEMORY_STORE_PATH: "data/m.db"})
    assert config.memory.store_path == tmp_path / "data" / "m.db"


def test_env_is_read_from_os_environ_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_MEMORY_ENABLED, "true")
    monkeypatch.setenv(ENV_MEMORY_STORE_PATH, "/tmp/x.db")
    memory = load_config(None).memory
    assert (memory.enabled, memory.store_path) == (True, Path("/tmp/x.db"))


@pytest.mark.parametrize(
    ("name", "value"),
    [
        (ENV_MEMORY_ENABLED, "yes"),
        (ENV_MEMORY_ENABLED, "1"),
        (ENV_MEMORY_ENABLED, ""),
        (ENV_MEMORY_STORE_PATH, ""),
        (ENV_MEMORY_STORE_PATH, "/var/lib/osmia/"),
    ],
)
def test_invalid_env_value_names_the_variable(name: str, value: str) -> None:
    with pytest.raises(ConfigError) as info:
        load_config(None, environ={name: value})
    assert name in str(info.value)
    assert repr(value) in str(info.value)


# ---------------------------------------------------------------------------
# Files and YAML


def test_invalid_yaml_names_the_file_and_line(tmp_path: Path) -> None:
    path = write(tmp_path, "memory:\n  enabled: true\n  prune_threshold: [0.1\n")
    with pytest.raises(ConfigError) as info:
        load_config(path, environ={})
    message = str(info.value)
    assert str(path) in message
    assert "invalid YAML" in message
    assert re.search(r"line [34]\b", message), message


def test_invalid_yaml_reports_the_offending_line(tmp_path: Path) -> None:
    path = write(tmp_path, "memory:\n  enabled: true\n  bad: : :\n operator: x\n")
    with pytest.raises(ConfigError, match=r"line 3, column"):
        load_config(path, environ={})


def test_duplicate_keys_are_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "memory:\n  enabled: true\n  enabled: false\n")
    with pytest.raises(ConfigError, match=r"line 3.*duplicate key 'enabled'"):
        load_config(path, environ={})


def test_yaml_merge_keys_still_work(tmp_path: Path) -> None:
    text = "engines:\n  a: &base\n    image: img\n    args: [x]\n  b:\n    <<: *base\n    image: other\n"
    config = load_config(write(tmp_path, text), environ={})
    assert config.engines["b"] == EngineConfig(image="other", args=("x",))


def test_missing_file_is_named(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere" / "osmia-config.yaml"
    with pytest.raises(ConfigError) as info:
        load_config(missing, environ={})
    assert str(missing) in str(info.value)
    assert "not found" in str(info.value)


def test_directory_instead_of_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(tmp_path, environ={})


def test_config_error_is_a_value_error() -> None:
    assert issubclass(ConfigError, ValueError)
    assert isinstance(parse_config(None), Config)
