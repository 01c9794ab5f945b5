"""Generate the chart's config schema and the docs key table from the model.

``charts/osmia/values.schema.json`` holds the schema of all chart values; its
``properties.config`` part is generated here from ``osmia/config/model.py``
(keys the chart sets itself are left out, the rest of the file is kept as it
is). ``docs/configuration.md`` holds a key table between two marker lines,
generated here too. A test checks that both committed files equal what this
module generates; after changing the model run::

    python -m osmia.config.schema --write    # or --check, which exits 1 when stale
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from pydantic import BaseModel
from pydantic_core import PydanticUndefined

from osmia.config.engines import EngineConfig
from osmia.config.errors import model_schema, range_text, resolve, split_nullable
from osmia.config.model import SECTIONS, Config
from osmia.config.types import CHART, DOC_TYPE, EXPECTED, NULL, RANGE

ROOT: Final = Path(__file__).resolve().parents[2]
CHART_SCHEMA: Final = ROOT / "charts" / "osmia" / "values.schema.json"
DOCS: Final = ROOT / "docs" / "configuration.md"

DOCS_BEGIN: Final = (
    "<!-- generated from osmia/config/model.py by `python -m osmia.config.schema --write`; do not edit -->"
)
DOCS_END: Final = "<!-- end of generated key table -->"

CONFIG_DESCRIPTION: Final = "The operator's osmia-config.yaml (docs/configuration.md)."


# --------------------------------------------------------------------------
# The chart's schema (JSON Schema draft-07, no $ref: helm reads it as one document)


def _chart_node(node: Any, root: Mapping[str, Any], path: str) -> dict[str, Any]:
    node, nullable = split_nullable(resolve(node, root), root)
    if node.get(NULL) == "empty":
        nullable = True
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key.startswith("x-osmia-") or key in ("title", "default"):
            continue
        if key == "properties":
            kept = {k: v for k, v in value.items() if CHART not in resolve(v, root)}
            out[key] = {k: _chart_node(v, root, f"{path}.{k}".lstrip(".")) for k, v in kept.items()}
            dropped = [k for k in value if k not in kept]
            if dropped:
                owners = ", ".join(f"{k} (from {resolve(value[k], root)[CHART]})" for k in dropped)
                said = " ".join(str(node.get("description", "")).split())
                out["description"] = f"{said} Keys set by the chart, not here: {owners}.".strip()
        elif key == "required":
            out[key] = [k for k in value if CHART not in resolve(node["properties"][k], root)]
        elif key == "patternProperties":
            pattern, sub = next(iter(value.items()))
            out["propertyNames"] = {"pattern": pattern, **_strip(node.get("propertyNames", {}))}
            out["additionalProperties"] = _chart_node(sub, root, f"{path}.<name>")
        elif key == "propertyNames" and "patternProperties" in node:
            continue
        elif key in ("items", "additionalProperties") and isinstance(value, Mapping):
            out[key] = _chart_node(value, root, f"{path}[]")
        elif key == "oneOf":
            out[key] = [_strip(v) for v in value]
        elif key == "propertyNames":
            out[key] = _strip(value)
        else:
            out[key] = value
    if "description" in out and not dropped_any(node, root):
        out["description"] = " ".join(str(out["description"]).split())
    if out.get("required") == []:
        del out["required"]
    if nullable:
        kind = out.get("type")
        if isinstance(kind, str):
            out["type"] = [kind, "null"]
        elif kind is None and "oneOf" not in out:
            out = {"anyOf": [out, {"type": "null"}]}
    return out


def dropped_any(node: Mapping[str, Any], root: Mapping[str, Any]) -> bool:
    """Whether a model node has keys that the chart sets itself."""
    properties = node.get("properties", {})
    return any(CHART in resolve(v, root) for v in properties.values())


def _strip(node: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in node.items() if not k.startswith("x-osmia-") and k != "title"}


def chart_config_schema() -> dict[str, Any]:
    """The ``config`` part of the chart's ``values.schema.json``."""
    root = model_schema(Config)
    schema = _chart_node(root, root, "")
    schema.pop("$defs", None)
    schema.pop("anyOf", None)
    schema["type"] = "object"
    schema["description"] = CONFIG_DESCRIPTION
    return schema


def chart_schema_text(current: str) -> str:
    """The chart's whole ``values.schema.json`` with its config part regenerated."""
    document = json.loads(current)
    properties = document["properties"]
    document["properties"] = {
        key: chart_config_schema() if key == "config" else value for key, value in properties.items()
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


# --------------------------------------------------------------------------
# The docs table


def _default(model: type[BaseModel], name: str) -> str:
    field = model.model_fields[name]
    if field.is_required():
        return "**required**"
    value = field.default_factory() if field.default_factory is not None else field.default  # type: ignore[call-arg]
    if value is PydanticUndefined:
        return ""
    if isinstance(value, bool):
        return f"`{'true' if value else 'false'}`"
    if value is None:
        return "`null`"
    if isinstance(value, float) and value.is_integer():
        return f"`{int(value)}`"
    if isinstance(value, str | Path):
        return f"`{value}`" if str(value) else '`""`'
    if isinstance(value, tuple):
        return "`[]`" if not value else f"`{json.dumps(list(value))}`"
    if isinstance(value, Mapping | BaseModel):
        return "`{}`"
    return f"`{value}`"


def _type(node: Mapping[str, Any], root: Mapping[str, Any]) -> str:
    base, nullable = split_nullable(node, root)
    if DOC_TYPE in base:
        kind = str(base[DOC_TYPE])
    elif base.get("type") == "array":
        item = resolve(base.get("items", {}), root)
        kind = "list of strings" if item.get("type") == "string" else "list"
        kind = "list of mappings" if item.get("type") == "object" else kind
    else:
        names = {
            "boolean": "bool",
            "integer": "int",
            "number": "number",
            "string": "string",
            "object": "mapping",
        }
        kind = names.get(str(base.get("type")), "value")
    return f"{kind} or null" if nullable and base.get(NULL) != "empty" else kind


def _range(node: Mapping[str, Any], root: Mapping[str, Any]) -> str:
    base, nullable = split_nullable(node, root)
    if RANGE in base:
        return str(base[RANGE])
    if base.get("type") in ("integer", "number"):
        text = range_text(base, brackets=False)
    elif "enum" in base:
        text = ", ".join(f"`{v}`" for v in base["enum"])
    elif EXPECTED in base:
        text = str(base[EXPECTED])
    else:
        text = ""
    if nullable and base.get(NULL) != "empty" and text:
        text = f"null or {text}"
    return text


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _table(model: type[BaseModel], prefix: str) -> list[str]:
    root = model_schema(model)
    lines = [
        "| key | type | default | range | read by / what it controls |",
        "| --- | --- | --- | --- | --- |",
    ]
    for name, field in model.model_fields.items():
        node = resolve(root["properties"][name], root)
        lines.append(
            f"| `{prefix}.{name}` | {_type(node, root)} | {_default(model, name)} | "
            f"{_cell(_range(node, root))} | {_cell(field.description or '')} |"
        )
    return lines


def docs_tables() -> str:
    """The generated part of ``docs/configuration.md``: one table per section."""
    lines: list[str] = [DOCS_BEGIN, ""]
    for section in SECTIONS:
        field = Config.model_fields[section]
        lines += [f"### `{section}`", ""]
        if section == "engines":
            lines += [" ".join((field.description or "").split()), ""]
            lines += _table(EngineConfig, "engines.<name>")
        else:
            annotation = field.annotation
            assert isinstance(annotation, type) and issubclass(annotation, BaseModel)
            lines += [f"{' '.join((field.description or '').split())}", ""]
            lines += _table(annotation, section)
        lines.append("")
    lines.append(DOCS_END)
    return "\n".join(lines)


def docs_text(current: str) -> str:
    """``docs/configuration.md`` with the text between the markers regenerated."""
    start = current.find(DOCS_BEGIN)
    end = current.find(DOCS_END)
    if start < 0 or end < start:
        raise ValueError(f"{DOCS}: the generated-table markers are missing")
    return current[:start] + docs_tables() + current[end + len(DOCS_END) :]


# --------------------------------------------------------------------------
# Command line


def outputs() -> dict[Path, str]:
    """Every generated file and the text it should have."""
    return {
        CHART_SCHEMA: chart_schema_text(CHART_SCHEMA.read_text(encoding="utf-8")),
        DOCS: docs_text(DOCS.read_text(encoding="utf-8")),
    }


def main(argv: Sequence[str] | None = None) -> int:
    """``--write`` regenerates the files; ``--check`` exits 1 naming the stale ones."""
    parser = argparse.ArgumentParser(prog="python -m osmia.config.schema", description=__doc__.split("\n")[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--write", action="store_true", help="rewrite the generated files")
    group.add_argument("--check", action="store_true", help="exit 1 when a generated file is stale")
    args = parser.parse_args(argv)
    stale = [path for path, text in outputs().items() if path.read_text(encoding="utf-8") != text]
    if args.write:
        for path, text in outputs().items():
            path.write_text(text, encoding="utf-8")
        for path in stale:
            print(f"wrote {path.relative_to(ROOT)}")
        return 0
    for path in stale:
        print(
            f"{path.relative_to(ROOT)} is stale: run python -m osmia.config.schema --write", file=sys.stderr
        )
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
