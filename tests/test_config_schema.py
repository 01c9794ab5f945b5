"""The chart's config schema and the docs key table are generated from the config model.

The committed files must equal what ``python -m osmia.config.schema`` generates,
and the chart's schema must agree with the loader: helm refuses what the loader
refuses, and a values file that helm accepts renders a config the loader accepts.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from osmia.config import Config, ConfigError, EngineConfig, parse_config
from osmia.config.errors import expected, model_schema, resolve, split_nullable
from osmia.config.loader import parse_yaml
from osmia.config.model import SECTIONS
from osmia.config.schema import (
    CHART_SCHEMA,
    DOCS,
    DOCS_BEGIN,
    DOCS_END,
    chart_config_schema,
    main,
    outputs,
)
from osmia.config.types import CHART
from tests.test_chart import CHART as CHART_DIR
from tests.test_chart import RELEASE, find_helm, one, render

VALUES = CHART_DIR / "values.yaml"


def leaves(node: dict[str, Any], root: dict[str, Any], path: str = "") -> list[tuple[str, dict[str, Any]]]:
    """Every (dotted path, schema) of the model, descending into sections, items and mapping values."""
    base, _ = split_nullable(resolve(node, root), root)
    out = [(path, base)] if path else []
    for key, sub in base.get("properties", {}).items():
        out += leaves(sub, root, f"{path}.{key}".lstrip("."))
    for key in ("items", "additionalProperties"):
        if isinstance(base.get(key), dict):
            out += leaves(base[key], root, f"{path}[]")
    for sub in base.get("patternProperties", {}).values():
        out += leaves(sub, root, f"{path}.<name>")
    return out


def test_committed_files_equal_the_generated_ones() -> None:
    for path, text in outputs().items():
        assert path.read_text(encoding="utf-8") == text, (
            f"{path} is stale: python -m osmia.config.schema --write"
        )
    assert main(["--check"]) == 0


def test_check_names_a_stale_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    import osmia.config.schema as schema

    stale = tmp_path / "configuration.md"
    stale.write_text(DOCS.read_text(encoding="utf-8").replace("| `memory.enabled` |", "| `memory.on` |"))
    monkeypatch.setattr(schema, "DOCS", stale)
    monkeypatch.setattr(schema, "ROOT", tmp_path.parent)
    assert main(["--check"]) == 1
    assert "configuration.md is stale" in capsys.readouterr().err
    assert main(["--write"]) == 0
    assert main(["--check"]) == 0
    assert "| `memory.enabled` |" in stale.read_text(encoding="utf-8")


def test_the_rest_of_the_chart_schema_is_kept() -> None:
    schema = json.loads(CHART_SCHEMA.read_text(encoding="utf-8"))
    assert schema["properties"]["config"] == chart_config_schema()
    for key in ("image", "persistence", "metrics", "probes", "watchNamespaces"):
        assert key in schema["properties"], key
    assert schema["additionalProperties"] is False


def test_chart_schema_has_every_key_but_those_the_chart_sets() -> None:
    chart = json.loads(CHART_SCHEMA.read_text(encoding="utf-8"))["properties"]["config"]
    for section in SECTIONS[:3]:
        model = Config.model_fields[section].annotation
        assert model is not None
        props = chart["properties"][section]["properties"]
        for name in model.model_fields:  # type: ignore[union-attr]
            extra = model.model_fields[name].json_schema_extra or {}  # type: ignore[union-attr]
            assert (name in props) != (CHART in extra), f"{section}.{name}"
            assert not any(k.startswith("x-osmia-") for k in json.dumps(props.get(name, {})).split('"'))
    engine = chart["properties"]["engines"]["additionalProperties"]["properties"]
    assert set(engine) == set(EngineConfig.model_fields)


def test_keys_the_chart_sets_name_real_chart_values() -> None:
    values = yaml.safe_load(VALUES.read_text(encoding="utf-8"))
    root = model_schema(Config)
    owned = [(path, node[CHART]) for path, node in leaves(root, root) if CHART in node]
    assert {path for path, _ in owned} == {
        "memory.store_path",
        "operator.namespaces",
        "operator.metrics_port",
        "operator.liveness_port",
        "operator.peering",
    }
    for path, source in owned:
        node: Any = values
        for part in source.split("."):
            assert isinstance(node, dict) and part in node, f"{path}: chart value {source} does not exist"
            node = node[part]


def test_every_key_has_words_for_its_errors() -> None:
    root = model_schema(Config)
    for path, node in leaves(root, root):
        assert expected(node, root) != "a valid value", f"{path}: give it x-osmia-expected"


def test_docs_table_is_between_the_markers() -> None:
    text = DOCS.read_text(encoding="utf-8")
    assert text.count(DOCS_BEGIN) == 1 and text.count(DOCS_END) == 1
    table = text[text.index(DOCS_BEGIN) : text.index(DOCS_END)]
    for section in SECTIONS:
        assert f"### `{section}`" in table
    assert "| `memory.prune_threshold` | number | `0.05` | [0, 1) |" in table
    assert "| `engines.<name>.image` | string | **required** |" in table
    assert "| `execution.ttl_seconds_after_finished` | int or null | `3600` | null or 0..604800 |" in table


# --------------------------------------------------------------------------
# The chart's schema and the loader agree (real helm)


@pytest.fixture(scope="module")
def helm() -> Path:
    path = find_helm()
    if path is None:
        pytest.skip("helm unavailable (bash hack/controlplane/build.sh)")
    return path


def helm_refuses(helm: Path, *args: str) -> bool:
    proc = subprocess.run(
        [str(helm), "template", RELEASE, str(CHART_DIR), *args], capture_output=True, text=True, check=False
    )
    if proc.returncode == 0:
        return False
    assert "values don't meet the specifications of the schema" in proc.stderr, proc.stderr
    return True


@pytest.mark.parametrize(
    ("flag", "item", "loader_data"),
    [
        ("--set-string", "config.memory.enabled=yes", {"memory": {"enabled": "yes"}}),
        ("--set", "config.memory.token_budget=20001", {"memory": {"token_budget": 20001}}),
        ("--set", "config.memory.decay_interval_hours=0", {"memory": {"decay_interval_hours": 0}}),
        ("--set", "config.operator.log_format=text", {"operator": {"log_format": "text"}}),
        ("--set", "config.execution.prompt_mount_path=/", {"execution": {"prompt_mount_path": "/"}}),
        ("--set", "config.engines.Bad.image=i", {"engines": {"Bad": {"image": "i"}}}),
        ("--set", "config.engines.e.args=x", {"engines": {"e": {"image": "i", "args": "x"}}}),
        ("--set", "config.engines.e.command={run}", {"engines": {"e": {"command": ["run"]}}}),
        (
            "--set",
            "config.engines.e.resources.limits.cpu=-1",
            {"engines": {"e": {"image": "i", "resources": {"limits": {"cpu": -1}}}}},
        ),
        (
            "--set-string",
            "config.engines.e.resources.limits.memory=4GB",
            {"engines": {"e": {"image": "i", "resources": {"limits": {"memory": "4GB"}}}}},
        ),
    ],
)
def test_helm_and_the_loader_refuse_the_same_values(
    helm: Path, flag: str, item: str, loader_data: dict[str, Any]
) -> None:
    assert helm_refuses(helm, flag, item)
    with pytest.raises(ConfigError):
        parse_config(loader_data)


def test_every_config_key_set_in_values_renders_a_config_the_loader_reads(helm: Path, tmp_path: Path) -> None:
    config = {
        "memory": {
            "enabled": False,
            "decay_interval_hours": 6.5,
            "prune_threshold": 0,
            "max_facts_per_query": 3,
            "tenant_isolation": True,
            "token_budget": 900,
            "extraction_concurrency": 4,
            "min_pattern_samples": 9,
            "busy_timeout_ms": 100,
        },
        "operator": {"metrics_host": "127.0.0.1", "log_level": "debug", "log_format": "console"},
        "execution": {
            "default_timeout_seconds": 60,
            "prompt_mount_path": "/run/prompt",
            "backoff_limit": 2,
            "ttl_seconds_after_finished": 7200,
        },
        "engines": {
            "claude-code": {
                "image": "img:1",
                "command": ["claude"],
                "args": ["-p", "yes"],
                "env": {"MODE": "on", "TURNS": "40"},
                "service_account": "agent-runner",
                "resources": {"requests": {"cpu": "500m"}, "limits": {"cpu": 2}, "claims": [{"name": "gpu"}]},
            }
        },
    }
    values = tmp_path / "values.yaml"
    values.write_text(yaml.safe_dump({"config": config}), encoding="utf-8")
    objects = render(helm, values=[values])
    text = one(objects, "ConfigMap", "osmia-config")["data"]["osmia-config.yaml"]
    loaded = parse_config(parse_yaml(text, "rendered"), "rendered", base_dir=Path("/etc/osmia"))
    assert loaded.memory.decay_interval_hours == 6.5
    assert (loaded.memory.enabled, loaded.memory.prune_threshold) == (False, 0.0)
    assert loaded.operator.log_format == "console"
    assert loaded.execution.ttl_seconds_after_finished == 7200
    engine = loaded.engines["claude-code"]
    assert dict(engine.env) == {"MODE": "on", "TURNS": "40"}
    assert engine.args == ("-p", "yes")
    assert engine.container_resources() == {
        "requests": {"cpu": "500m"},
        "limits": {"cpu": 2},
        "claims": [{"name": "gpu"}],
    }
    assert [w for w in loaded.warnings if "tenant_isolation" in w]
