"""Reading ``osmia-config.yaml``: strict YAML, validation by the model, environment overrides.

The YAML reader differs from PyYAML's ``safe_load`` where the defaults are
traps for a settings file:

- booleans are only ``true``/``false`` (any case variant YAML 1.2 allows);
  YAML 1.1's ``yes``/``no``/``on``/``off`` stay strings, so ``enabled: yes`` is
  refused by the model instead of silently meaning ``true``;
- duplicate keys in a mapping are refused (PyYAML keeps the last);
- the file is at most ``MAX_FILE_BYTES``, and aliases may not expand it past
  ``MAX_NODES`` values or ``MAX_DEPTH`` levels (a "billion laughs" document is
  refused before anything is built from it); recursive aliases are refused.
"""

from __future__ import annotations

import os
import re
from collections.abc import Hashable, Mapping
from pathlib import Path
from typing import Any, Final

import yaml
from pydantic import BaseModel, ValidationError

from osmia.config.errors import ConfigError, key_text, problems_of, show
from osmia.config.model import SECTIONS, Config
from osmia.config.types import IGNORED, absolute_store_path
from osmia.safeload.values import problem_text

ENV_MEMORY_STORE_PATH: Final = "OSMIA_MEMORY_STORE_PATH"
"""Environment variable that overrides ``memory.store_path`` (see ``load_config``)."""

ENV_MEMORY_ENABLED: Final = "OSMIA_MEMORY_ENABLED"
"""Environment variable (``true``/``false``) that overrides ``memory.enabled``."""

MAX_FILE_BYTES: Final = 1 << 20
"""A config file larger than this (1 MiB) is refused unread."""

MAX_NODES: Final = 100_000
"""At most this many values once aliases are expanded."""

MAX_DEPTH: Final = 64
"""At most this many levels of nested mappings and lists."""

_BOOL_TAG: Final = "tag:yaml.org,2002:bool"


class _StrictLoader(yaml.SafeLoader):
    """A SafeLoader with YAML 1.2 booleans that refuses duplicate keys."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Hashable, Any]:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag.endswith(":merge"):
                continue
            key = self.construct_object(key_node)
            try:
                repeated = key in seen
                seen.add(key)
            except TypeError:  # an unhashable key; construct_mapping says so below
                continue
            if repeated:
                raise yaml.constructor.ConstructorError(
                    "while constructing a mapping",
                    node.start_mark,
                    f"found duplicate key {key_text(key)!r}",
                    key_node.start_mark,
                )
        return super().construct_mapping(node, deep=deep)


_StrictLoader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != _BOOL_TAG]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_StrictLoader.add_implicit_resolver(
    _BOOL_TAG, re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)


def _check_size(root: yaml.Node, source: str) -> None:
    """Refuse a node graph that expands past the limits, or that refers to itself."""
    sizes: dict[int, int] = {}
    depths: dict[int, int] = {}
    on_path: set[int] = set()
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        ident = id(node)
        children: list[yaml.Node] = []
        if isinstance(node, yaml.SequenceNode):
            children = list(node.value)
        elif isinstance(node, yaml.MappingNode):
            children = [part for pair in node.value for part in pair]
        if done:
            on_path.discard(ident)
            sizes[ident] = 1 + sum(sizes[id(c)] for c in children)
            depths[ident] = 1 + max((depths[id(c)] for c in children), default=0)
            if sizes[ident] > MAX_NODES:
                raise ConfigError(
                    f"{source}: too large: more than {MAX_NODES} values once aliases are expanded"
                )
            if depths[ident] > MAX_DEPTH:
                raise ConfigError(f"{source}: nested more than {MAX_DEPTH} levels deep")
            continue
        if ident in sizes:
            continue
        if ident in on_path:
            raise ConfigError(f"{source}: an alias refers to a mapping or list that contains it")
        on_path.add(ident)
        stack.append((node, True))
        stack.extend((c, False) for c in children if id(c) not in sizes)
        for child in children:
            if id(child) in on_path:
                raise ConfigError(f"{source}: an alias refers to a mapping or list that contains it")


def parse_yaml(text: str, source: str) -> Any:
    """Parse one YAML document with the strict reader; ``ConfigError`` for anything unusable."""
    loader: _StrictLoader | None = None
    try:
        loader = _StrictLoader(text)
        node = loader.get_single_node()
        if node is None:
            return None
        _check_size(node, source)
        return loader.construct_document(node)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = problem_text(exc.problem or exc.context or "syntax error")
        raise ConfigError(f"{source}: invalid YAML{where}: {problem}") from None
    except RecursionError:
        raise ConfigError(f"{source}: nested more than {MAX_DEPTH} levels deep") from None
    except (yaml.YAMLError, ValueError, TypeError, OverflowError) as exc:
        raise ConfigError(f"{source}: invalid YAML: {problem_text(str(exc))}") from None
    finally:
        if loader is not None:
            loader.dispose()


def _warnings(model: BaseModel, path: str, source: str) -> list[str]:
    """Notices for keys marked ignored that the file sets, anywhere in the model."""
    out: list[str] = []
    for name, field in type(model).model_fields.items():
        extra = field.json_schema_extra if isinstance(field.json_schema_extra, dict) else {}
        where = f"{path}.{name}" if path else name
        if IGNORED in extra and name in model.model_fields_set:
            out.append(f"{source}: {where} is ignored: {extra[IGNORED]}")
        value = getattr(model, name)
        if isinstance(value, BaseModel):
            out += _warnings(value, where, source)
        elif isinstance(value, Mapping):
            for key, item in value.items():
                if isinstance(item, BaseModel):
                    out += _warnings(item, f"{where}.{key}", source)
    return out


def parse_config(data: Any, source: str = "<config>", *, base_dir: Path | None = None) -> Config:
    """Validate an already-parsed document and build the ``Config``.

    ``source`` names the document in messages. A relative ``memory.store_path``
    is resolved against ``base_dir`` (default: the current directory).
    Environment overrides are not applied here; ``load_config`` applies them.
    Raises ``ConfigError`` listing every problem found.
    """
    if data is not None and not isinstance(data, Mapping):
        raise ConfigError(
            f"{source}: the document must be a mapping with sections {', '.join(SECTIONS)}; got {show(data)}"
        )
    context = {"base_dir": base_dir if base_dir is not None else Path.cwd()}
    try:
        config = Config.model_validate(data, context=context)
    except ValidationError as exc:
        raise ConfigError.listing(source, problems_of(exc, Config)) from None
    except RecursionError:
        raise ConfigError(f"{source}: nested too deeply") from None
    config._warnings = tuple(_warnings(config, "", source))
    return config


def _apply_env(config: Config, environ: Mapping[str, str]) -> Config:
    """Apply ``OSMIA_MEMORY_ENABLED`` and ``OSMIA_MEMORY_STORE_PATH`` over the file's values."""
    changes: dict[str, Any] = {}
    problems: list[str] = []
    enabled = environ.get(ENV_MEMORY_ENABLED)
    if enabled is not None:
        if enabled.lower() in ("true", "false"):
            changes["enabled"] = enabled.lower() == "true"
        else:
            problems.append(f"{ENV_MEMORY_ENABLED} must be true or false; got {enabled!r}")
    store_path = environ.get(ENV_MEMORY_STORE_PATH)
    if store_path is not None:
        try:
            changes["store_path"] = absolute_store_path(store_path, Path.cwd())
        except ValueError:
            problems.append(
                f"{ENV_MEMORY_STORE_PATH} must be a file path (non-empty, no surrounding "
                f"spaces, not ending in '/'); got {store_path!r}"
            )
    if problems:
        raise ConfigError(f"environment: {'; '.join(problems)}", problems=problems)
    if not changes:
        return config
    return config.model_copy(update={"memory": config.memory.model_copy(update=changes)})


def load_config(path: Path | None, *, environ: Mapping[str, str] | None = None) -> Config:
    """Read, validate and return the configuration; raises ``ConfigError`` when unusable.

    ``path=None`` means all defaults. An empty file also gives the defaults.
    Afterwards ``OSMIA_MEMORY_ENABLED`` and ``OSMIA_MEMORY_STORE_PATH`` from
    ``environ`` (default ``os.environ``) override the file; a relative path in
    the variable is relative to the current directory.
    """
    if path is None:
        config = parse_config(None, "<defaults>")
    else:
        path = Path(path)
        source = str(path) if str(path).isprintable() else repr(str(path))
        try:
            if path.exists() and not path.is_file():
                what = "a directory" if path.is_dir() else "not a regular file"
                raise ConfigError(f"{source}: cannot read config file: {what}")
            with path.open("rb") as handle:
                raw = handle.read(MAX_FILE_BYTES + 1)
        except FileNotFoundError:
            raise ConfigError(f"{source}: config file not found") from None
        except OSError as exc:
            raise ConfigError(f"{source}: cannot read config file: {exc.strerror or exc}") from None
        if len(raw) > MAX_FILE_BYTES:
            raise ConfigError(f"{source}: larger than {MAX_FILE_BYTES} bytes; not a config file")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ConfigError(f"{source}: not UTF-8 text (byte {exc.start})") from None
        data = parse_yaml(text, source)
        # abspath, not resolve(): keep the directory the user sees (ConfigMap mounts are symlinks).
        config = parse_config(data, source, base_dir=Path(os.path.abspath(path)).parent)
    return _apply_env(config, os.environ if environ is None else environ)
