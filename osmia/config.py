"""Typed loader for ``osmia-config.yaml``, the operator's settings file.

The file is read once at start-up. Every key is checked here (known name,
type, range) so that a typo or an out-of-range value stops the operator with a
message naming the key, rather than being silently ignored. Each section is
described by a small table of rules; one function validates any section
against its table and the dataclasses are built from the validated values.
See ``docs/configuration.md`` for the file format.
"""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final, Protocol

import yaml

__all__ = [
    "ENGINE_NAME_PATTERN",
    "ENV_MEMORY_ENABLED",
    "ENV_MEMORY_STORE_PATH",
    "Config",
    "ConfigError",
    "EngineConfig",
    "ExecutionConfig",
    "MemoryConfig",
    "OperatorConfig",
    "load_config",
    "parse_config",
]

ENV_MEMORY_STORE_PATH: Final = "OSMIA_MEMORY_STORE_PATH"
"""Environment variable that overrides ``memory.store_path`` (see ``load_config``)."""

ENV_MEMORY_ENABLED: Final = "OSMIA_MEMORY_ENABLED"
"""Environment variable (``true``/``false``) that overrides ``memory.enabled``."""

ENGINE_NAME_PATTERN: Final = r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"
"""Allowed engine names (a DNS label, at most 63 characters), e.g. ``claude-code``."""

_DNS_LABEL: Final = r"[a-z0-9]([-a-z0-9]*[a-z0-9])?"
_DNS_SUBDOMAIN: Final = rf"{_DNS_LABEL}(\.{_DNS_LABEL})*"


class ConfigError(ValueError):
    """The configuration is unusable; the message names the key, what is allowed and what was given.

    ``problems`` lists every problem found (all of them, not just the first),
    so a user can fix the whole file in one pass.
    """

    def __init__(self, message: str, *, problems: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.problems: tuple[str, ...] = tuple(problems) or (message,)


def _empty_mapping() -> Mapping[str, Any]:
    return MappingProxyType({})


@dataclass(frozen=True)
class MemoryConfig:
    """Settings of the episodic memory (the SQLite knowledge graph)."""

    enabled: bool = False
    """Off: no database file, no background task, no Prior Knowledge section."""
    store_path: Path = Path("/var/lib/osmia/memory.db")
    """SQLite database file; absolute after loading (``~`` expanded, relative to the file)."""
    decay_interval_hours: float = 24.0
    """Hours between decay-and-prune cycles, in (0, 8760]."""
    prune_threshold: float = 0.05
    """Nodes whose confidence falls below this are removed, in [0, 1)."""
    max_facts_per_query: int = 10
    """At most this many nodes go into one prompt, 1..100."""
    tenant_isolation: bool = True
    """Accepted and ignored: isolation is always on (a warning says so)."""
    token_budget: int = 600
    """Approximate tokens (characters / 4) allowed for the Prior Knowledge section, 50..20000."""
    extraction_concurrency: int = 2
    """Background extraction tasks running at once, 1..32."""
    min_pattern_samples: int = 5
    """Runs needed before a cross-run pattern is stated, 2..1000."""
    busy_timeout_ms: int = 5000
    """SQLite ``busy_timeout`` in milliseconds, 0..600000."""


@dataclass(frozen=True)
class EngineConfig:
    """How to run one agent engine as a container in a Kubernetes Job."""

    image: str
    """Container image; required."""
    command: tuple[str, ...] = ()
    """Container command; empty means the image's entrypoint."""
    args: tuple[str, ...] = ()
    """Container arguments."""
    env: Mapping[str, str] = field(default_factory=_empty_mapping)
    """Plain environment variables for the container (read-only mapping)."""
    service_account: str | None = None
    """ServiceAccount of the Job's pod; None means the namespace default."""
    resources: Mapping[str, Any] = field(default_factory=_empty_mapping)
    """Container ``resources`` (limits, requests, claims), read-only; see ``container_resources``.

    Passed verbatim into the container spec; only its shape and quantities are checked.
    """

    def container_resources(self) -> dict[str, Any]:
        """A plain, mutable deep copy of ``resources``, as the Kubernetes client expects."""
        thawed = _thaw(self.resources)
        assert isinstance(thawed, dict)
        return thawed


@dataclass(frozen=True)
class ExecutionConfig:
    """Defaults for TaskRuns executed as Kubernetes Jobs (``execution.mode: job``)."""

    default_timeout_seconds: int = 3600
    """Timeout of a run that sets no ``spec.execution.timeoutSeconds``, 1..86400."""
    prompt_mount_path: str = "/osmia/prompt"
    """Directory where the prompt ConfigMap is mounted in the agent container."""
    backoff_limit: int = 0
    """The Job's ``backoffLimit``, 0..10."""
    ttl_seconds_after_finished: int | None = 3600
    """The Job's ``ttlSecondsAfterFinished``; None keeps finished Jobs, else 0..604800."""


@dataclass(frozen=True)
class OperatorConfig:
    """Settings of the operator process itself."""

    namespaces: tuple[str, ...] = ()
    """Namespaces watched; empty means all (cluster-wide)."""
    metrics_port: int = 9090
    """Prometheus metrics port, 0..65535; 0 disables the metrics server."""
    metrics_host: str = "0.0.0.0"
    """Address the metrics server binds to."""
    liveness_port: int = 8080
    """Port of kopf's liveness endpoint ``/healthz``, 0..65535; 0 disables it."""
    peering: str = ""
    """kopf peering name; empty means standalone (no peering)."""
    log_level: str = "info"
    """One of debug, info, warning, error."""
    log_format: str = "json"
    """One of json, console."""


@dataclass(frozen=True)
class Config:
    """The whole validated configuration."""

    memory: MemoryConfig
    operator: OperatorConfig
    execution: ExecutionConfig
    engines: Mapping[str, EngineConfig]
    """Engine name -> how to run it (read-only mapping, in file order)."""
    warnings: tuple[str, ...]
    """Notices for the caller to log, e.g. that ``memory.tenant_isolation`` is ignored."""


# --------------------------------------------------------------------------
# Rules: one small object per kind of value; tables of them per section.


class _Invalid(Exception):
    """A value broke its rule; the message is complete (key path, allowed, given)."""


@dataclass
class _Context:
    """State shared by the rules while one document is validated."""

    source: str
    base_dir: Path
    warnings: list[str] = field(default_factory=list)


class _Rule(Protocol):
    def convert(self, value: Any, path: str, ctx: _Context) -> Any:
        """Return the checked (and converted) value, or raise ``_Invalid``."""
        ...


def _show(value: Any) -> str:
    """Render a given value for an error message, YAML-style, with its kind."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"{'true' if value else 'false'} (a boolean)"
    if isinstance(value, str):
        text = value if len(value) <= 60 else value[:57] + "..."
        return f"{text!r} (a string)"
    if isinstance(value, int | float):
        try:
            text = repr(value)
        except ValueError:  # an int too long to print
            return "a very large integer"
        return text if len(text) <= 40 else text[:37] + "..."
    if isinstance(value, Mapping):
        return "a mapping"
    if isinstance(value, list | tuple):
        return "a list"
    return f"{value!r} (a {type(value).__name__})"


def _bad(path: str, expected: str, value: Any) -> _Invalid:
    return _Invalid(f"{path} must be {expected}; got {_show(value)}")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _fmt(number: float) -> str:
    return str(int(number)) if float(number).is_integer() else repr(number)


@dataclass(frozen=True)
class _Bool:
    """A real YAML boolean; ``yes``, ``"true"`` and ``1`` are refused."""

    def convert(self, value: Any, path: str, ctx: _Context) -> Any:
        if type(value) is bool:
            return value
        raise _bad(path, "a boolean (true or false)", value)


@dataclass(frozen=True)
class _Int:
    """An integer in [lo, hi]; booleans and floats are refused."""

    lo: int
    hi: int
    nullable: bool = False

    def convert(self, value: Any, path: str, ctx: _Context) -> Any:
        if value is None and self.nullable:
            return None
        if _is_int(value) and self.lo <= value <= self.hi:
            return value
        expected = f"an integer in [{self.lo}, {self.hi}]"
        raise _bad(path, f"null or {expected}" if self.nullable else expected, value)


@dataclass(frozen=True)
class _Float:
    """A number (int or float) within bounds; open bounds exclude the end."""

    lo: float
    hi: float
    lo_open: bool = False
    hi_open: bool = False

    def convert(self, value: Any, path: str, ctx: _Context) -> Any:
        # Written as "inside" so that NaN, which compares false, is refused.
        if _is_int(value) or isinstance(value, float):
            above = value > self.lo if self.lo_open else value >= self.lo
            below = value < self.hi if self.hi_open else value <= self.hi
            if above and below:
                return float(value)
        left = "(" if self.lo_open else "["
        right = ")" if self.hi_open else "]"
        raise _bad(path, f"a number in {left}{_fmt(self.lo)}, {_fmt(self.hi)}{right}", value)


@dataclass(frozen=True)
class _Str:
    """A string of bounded length, optionally matching a pattern or one of some choices."""

    expected: str
    pattern: str | None = None
    choices: tuple[str, ...] = ()
    min_len: int = 1
    max_len: int = 1024
    nullable: bool = False

    def convert(self, value: Any, path: str, ctx: _Context) -> Any:
        if value is None and self.nullable:
            return None
        if (
            isinstance(value, str)
            and self.min_len <= len(value) <= self.max_len
            and (not self.choices or value in self.choices)
            and (self.pattern is None or re.fullmatch(self.pattern, value) is not None)
        ):
            return value
        raise _bad(path, f"null or {self.expected}" if self.nullable else self.expected, value)


@dataclass(frozen=True)
class _StrList:
    """A list of strings (null means empty), each checked by ``item``; stored as a tuple."""

    expected: str
    item: _Str
    unique: bool = False

    def convert(self, value: Any, path: str, ctx: _Context) -> Any:
        if value is None:
            return ()
        if not isinstance(value, list):
            raise _bad(path, self.expected, value)
        items = tuple(self.item.convert(v, f"{path}[{i}]", ctx) for i, v in enumerate(value))
        if self.unique:
            for i, item in enumerate(items):
                if item in items[:i]:
                    raise _Invalid(f"{path}[{i}] repeats {item!r}")
        return items


@dataclass(frozen=True)
class _StrMap:
    """A mapping of string keys (matching ``key``) to string values; read-only."""

    key: _Str
    value: _Str

    def convert(self, value: Any, path: str, ctx: _Context) -> Any:
        if value is None:
            return MappingProxyType({})
        if not isinstance(value, Mapping):
            raise _bad(path, "a mapping of names to strings", value)
        out: dict[str, str] = {}
        for k, v in value.items():
            self.key.convert(k, f"a key of {path}", ctx)
            out[k] = self.value.convert(v, f"{path}.{k}", ctx)
        return MappingProxyType(out)


def _store_path(raw: str, base_dir: Path) -> Path:
    """Turn a configured database path into an absolute one (``~`` expanded, relative to base).

    Symlinks are not resolved: a Kubernetes ConfigMap mount is a symlink farm
    and the user means the directory they see.
    """
    if not raw or raw != raw.strip() or "\x00" in raw or raw.endswith("/"):
        raise ValueError("not a usable file path")
    try:
        path = Path(raw).expanduser()
    except RuntimeError as exc:  # "~user" with no such user, or no home directory
        raise ValueError(str(exc)) from None
    if not path.is_absolute():
        path = base_dir / path
    return Path(os.path.normpath(path))


_STORE_PATH_EXPECTED: Final = (
    "a file path (non-empty, no surrounding spaces, not ending in '/'; "
    "'~' is expanded, relative paths are relative to the config file)"
)


@dataclass(frozen=True)
class _StorePath:
    """The SQLite file: a non-empty string, made absolute against the config file's directory."""

    def convert(self, value: Any, path: str, ctx: _Context) -> Any:
        if isinstance(value, str):
            try:
                return _store_path(value, ctx.base_dir)
            except ValueError:
                pass
        raise _bad(path, _STORE_PATH_EXPECTED, value)


@dataclass(frozen=True)
class _Ignored:
    """A key that is checked by ``inner`` but never changes behaviour; a warning says why."""

    inner: _Rule
    reason: str

    def convert(self, value: Any, path: str, ctx: _Context) -> Any:
        checked = self.inner.convert(value, path, ctx)
        ctx.warnings.append(f"{ctx.source}: {path} is ignored: {self.reason}")
        return checked


# Kubernetes resource quantity, e.g. 500m, 2Gi, 1.5, 1e3 (non-negative).
_QUANTITY: Final = r"(\d+(\.\d*)?|\.\d+)([KMGTPE]i|[numkMGTPE]|[eE][+-]?\d+)?"
_RESOURCE_NAME: Final = _Str(
    "a resource name such as cpu, memory or nvidia.com/gpu",
    pattern=r"[A-Za-z0-9]([-A-Za-z0-9_./]*[A-Za-z0-9])?",
    max_len=253,
)
_CLAIM_NAME: Final = _Str("a DNS label (lowercase letters, digits, '-')", _DNS_LABEL, max_len=63)
_CLAIM_RULES: Final[Mapping[str, _Rule]] = MappingProxyType(
    {"name": _CLAIM_NAME, "request": _Str("a non-empty string", max_len=253)}
)


@dataclass(frozen=True)
class _Resources:
    """A container ``resources`` block: limits/requests quantities and claims; read-only."""

    def convert(self, value: Any, path: str, ctx: _Context) -> Any:
        if value is None:
            return MappingProxyType({})
        if not isinstance(value, Mapping):
            raise _bad(path, "a mapping with limits, requests or claims", value)
        out: dict[str, Any] = {}
        for key, item in value.items():
            sub = f"{path}.{key}"
            if key in ("limits", "requests"):
                out[key] = self._quantities(item, sub, ctx)
            elif key == "claims":
                out[key] = self._claims(item, sub, ctx)
            else:
                raise _Invalid(_unknown_key(sub, key, path, ("claims", "limits", "requests")))
        return MappingProxyType(out)

    def _quantities(self, value: Any, path: str, ctx: _Context) -> Mapping[str, Any]:
        if value is None:
            return MappingProxyType({})
        if not isinstance(value, Mapping):
            raise _bad(path, "a mapping of resource names to quantities", value)
        out: dict[str, Any] = {}
        for name, quantity in value.items():
            _RESOURCE_NAME.convert(name, f"a key of {path}", ctx)
            ok_number = (_is_int(quantity) or isinstance(quantity, float)) and (0 <= quantity < float("inf"))
            ok_text = isinstance(quantity, str) and re.fullmatch(_QUANTITY, quantity) is not None
            if not (ok_number or ok_text):
                raise _bad(
                    f"{path}.{name}",
                    "a non-negative Kubernetes quantity such as 500m, 2Gi or 1",
                    quantity,
                )
            out[name] = quantity
        return MappingProxyType(out)

    def _claims(self, value: Any, path: str, ctx: _Context) -> tuple[Mapping[str, Any], ...]:
        if value is None:
            return ()
        if not isinstance(value, list):
            raise _bad(path, "a list of {name, request} mappings", value)
        claims: list[Mapping[str, Any]] = []
        for i, item in enumerate(value):
            sub = f"{path}[{i}]"
            if not isinstance(item, Mapping):
                raise _bad(sub, "a mapping with 'name' and optionally 'request'", item)
            checked: dict[str, Any] = {}
            for key, v in item.items():
                rule = _CLAIM_RULES.get(key) if isinstance(key, str) else None
                if rule is None:
                    raise _Invalid(_unknown_key(f"{sub}.{key}", key, sub, _CLAIM_RULES))
                checked[key] = rule.convert(v, f"{sub}.{key}", ctx)
            if "name" not in checked:
                raise _Invalid(f"{sub}.name is required")
            claims.append(MappingProxyType(checked))
        return tuple(claims)


def _thaw(value: Any) -> Any:
    """Deep-copy read-only mappings and tuples into dicts and lists."""
    if isinstance(value, Mapping):
        return {k: _thaw(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [_thaw(v) for v in value]
    return value


# --------------------------------------------------------------------------
# The tables. Keys must match the dataclass fields (a test checks each is read).

_MEMORY_RULES: Final[Mapping[str, _Rule]] = MappingProxyType(
    {
        "enabled": _Bool(),
        "store_path": _StorePath(),
        "decay_interval_hours": _Float(0, 8760, lo_open=True),
        "prune_threshold": _Float(0, 1, hi_open=True),
        "max_facts_per_query": _Int(1, 100),
        "tenant_isolation": _Ignored(_Bool(), "tenant isolation is always on and cannot be switched off"),
        "token_budget": _Int(50, 20000),
        "extraction_concurrency": _Int(1, 32),
        "min_pattern_samples": _Int(2, 1000),
        "busy_timeout_ms": _Int(0, 600000),
    }
)

_OPERATOR_RULES: Final[Mapping[str, _Rule]] = MappingProxyType(
    {
        "namespaces": _StrList(
            "a list of namespace names",
            _Str(
                "a namespace name (DNS label: lowercase letters, digits, '-'; at most 63 characters)",
                _DNS_LABEL,
                max_len=63,
            ),
            unique=True,
        ),
        "metrics_port": _Int(0, 65535),
        "metrics_host": _Str("a host name or IP address (non-empty, no spaces)", r"\S+"),
        "liveness_port": _Int(0, 65535),
        "peering": _Str(
            "'' (standalone) or a kopf peering name (DNS subdomain, at most 253 characters)",
            rf"({_DNS_SUBDOMAIN})?",
            min_len=0,
            max_len=253,
        ),
        "log_level": _Str(
            "one of debug, info, warning, error", choices=("debug", "info", "warning", "error")
        ),
        "log_format": _Str("one of json, console", choices=("json", "console")),
    }
)

_EXECUTION_RULES: Final[Mapping[str, _Rule]] = MappingProxyType(
    {
        "default_timeout_seconds": _Int(1, 86400),
        "prompt_mount_path": _Str(
            "an absolute directory path such as /osmia/prompt (not '/'; no ':' or spaces)",
            r"/[^\s:\x00]*[^\s:\x00/]",
        ),
        "backoff_limit": _Int(0, 10),
        "ttl_seconds_after_finished": _Int(0, 604800, nullable=True),
    }
)

_ARG: Final = _Str("a string (quote numbers and booleans)", min_len=0, max_len=65536)
_ENGINE_RULES: Final[Mapping[str, _Rule]] = MappingProxyType(
    {
        "image": _Str("a container image reference (non-empty, no spaces)", r"\S+"),
        "command": _StrList("a list of strings", _ARG),
        "args": _StrList("a list of strings", _ARG),
        "env": _StrMap(
            key=_Str(
                "an environment variable name (letters, digits, '_', '-', '.'; not starting with a digit)",
                r"[-._a-zA-Z][-._a-zA-Z0-9]*",
            ),
            value=_Str("a string (quote numbers and booleans)", min_len=0, max_len=65536),
        ),
        "service_account": _Str(
            "a ServiceAccount name (DNS subdomain, at most 253 characters)",
            _DNS_SUBDOMAIN,
            max_len=253,
            nullable=True,
        ),
        "resources": _Resources(),
    }
)
_ENGINE_REQUIRED: Final = ("image",)

_SECTIONS: Final = ("memory", "operator", "execution", "engines")


# --------------------------------------------------------------------------
# Validation.


def _key_text(key: Any) -> str:
    return key if isinstance(key, str) else ("null" if key is None else repr(key))


def _unknown_key(key_path: str, key: Any, section: str, allowed: Sequence[str] | Mapping[str, Any]) -> str:
    """Message for a key that is not in ``allowed``, with the allowed names and a close match."""
    names = sorted(allowed)
    where = f"in '{section}'" if section else "at the top level"
    message = f"unknown key '{key_path}'; allowed keys {where}: {', '.join(names)}"
    close = difflib.get_close_matches(_key_text(key), names, n=1)
    if close:
        message += f" (did you mean '{close[0]}'?)"
    return message


def _check_section(
    raw: Any,
    path: str,
    rules: Mapping[str, _Rule],
    ctx: _Context,
    problems: list[str],
    required: Sequence[str] = (),
) -> dict[str, Any]:
    """Validate one mapping against its rule table; returns the converted values found.

    Problems are appended to ``problems`` (all of them, not only the first).
    A null section means "all defaults".
    """
    if raw is None:
        raw = {}
    if not isinstance(raw, Mapping):
        problems.append(f"{path} must be a mapping; got {_show(raw)}")
        return {}
    values: dict[str, Any] = {}
    for key, value in raw.items():
        key_path = f"{path}.{_key_text(key)}"
        rule = rules.get(key) if isinstance(key, str) else None
        if rule is None:
            problems.append(_unknown_key(key_path, key, path, rules))
            continue
        try:
            values[key] = rule.convert(value, key_path, ctx)
        except _Invalid as exc:
            problems.append(str(exc))
    for name in required:
        if name not in raw:
            problems.append(f"{path}.{name} is required")
    return values


def _check_engines(raw: Any, ctx: _Context, problems: list[str]) -> dict[str, dict[str, Any]]:
    """Validate the ``engines`` mapping: each name and each engine's section."""
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        problems.append(f"engines must be a mapping of engine names to settings; got {_show(raw)}")
        return {}
    engines: dict[str, dict[str, Any]] = {}
    for name, body in raw.items():
        if not (isinstance(name, str) and len(name) <= 63 and re.fullmatch(ENGINE_NAME_PATTERN, name)):
            problems.append(
                f"engines.{_key_text(name)}: engine names must match {ENGINE_NAME_PATTERN} "
                "(lowercase letters, digits and '-'; at most 63 characters)"
            )
            continue
        engines[name] = _check_section(
            body, f"engines.{name}", _ENGINE_RULES, ctx, problems, _ENGINE_REQUIRED
        )
    return engines


def parse_config(
    data: Mapping[str, Any] | None,
    source: str = "<config>",
    *,
    base_dir: Path | None = None,
) -> Config:
    """Validate an already-parsed document and build the ``Config``.

    ``source`` names the document in messages. A relative ``memory.store_path``
    is resolved against ``base_dir`` (default: the current directory).
    Environment overrides are not applied here; ``load_config`` applies them.
    Raises ``ConfigError`` listing every problem found.
    """
    ctx = _Context(source=source, base_dir=base_dir if base_dir is not None else Path.cwd())
    if data is None:
        data = {}
    if not isinstance(data, Mapping):
        raise ConfigError(
            f"{source}: the document must be a mapping with sections "
            f"{', '.join(_SECTIONS)}; got {_show(data)}"
        )
    problems: list[str] = []
    for key in data:
        if key not in _SECTIONS:
            problems.append(_unknown_key(_key_text(key), key, "", _SECTIONS))
    memory = _check_section(data.get("memory"), "memory", _MEMORY_RULES, ctx, problems)
    operator = _check_section(data.get("operator"), "operator", _OPERATOR_RULES, ctx, problems)
    execution = _check_section(data.get("execution"), "execution", _EXECUTION_RULES, ctx, problems)
    engines = _check_engines(data.get("engines"), ctx, problems)

    metrics_port = operator.get("metrics_port", OperatorConfig.metrics_port)
    liveness_port = operator.get("liveness_port", OperatorConfig.liveness_port)
    if metrics_port != 0 and metrics_port == liveness_port:
        problems.append(
            f"operator.liveness_port and operator.metrics_port must differ (both {metrics_port}); "
            "set either to 0 to disable it"
        )

    if problems:
        if len(problems) == 1:
            message = f"{source}: {problems[0]}"
        else:
            listed = "".join(f"\n  - {p}" for p in problems)
            message = f"{source}: {len(problems)} problems:{listed}"
        raise ConfigError(message, problems=problems)
    return Config(
        memory=MemoryConfig(**memory),
        operator=OperatorConfig(**operator),
        execution=ExecutionConfig(**execution),
        engines=MappingProxyType({name: EngineConfig(**v) for name, v in engines.items()}),
        warnings=tuple(ctx.warnings),
    )


class _StrictLoader(yaml.SafeLoader):
    """A SafeLoader that refuses duplicate keys (plain PyYAML silently keeps the last)."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Hashable, Any]:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag.endswith(":merge"):
                continue
            key = self.construct_object(key_node)
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    "while constructing a mapping",
                    node.start_mark,
                    f"found duplicate key {_key_text(key)!r}",
                    key_node.start_mark,
                )
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


def _parse_yaml(text: str, source: str) -> Any:
    try:
        return yaml.load(text, Loader=_StrictLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = exc.problem or exc.context or "syntax error"
        raise ConfigError(f"{source}: invalid YAML{where}: {problem}") from None
    except (yaml.YAMLError, ValueError, RecursionError) as exc:
        raise ConfigError(f"{source}: invalid YAML: {exc}") from None


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
            changes["store_path"] = _store_path(store_path, Path.cwd())
        except ValueError:
            problems.append(
                f"{ENV_MEMORY_STORE_PATH} must be a file path (non-empty, no surrounding "
                f"spaces, not ending in '/'); got {store_path!r}"
            )
    if problems:
        raise ConfigError(f"environment: {'; '.join(problems)}", problems=problems)
    if not changes:
        return config
    return replace(config, memory=replace(config.memory, **changes))


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
        source = str(path)
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise ConfigError(f"{source}: config file not found") from None
        except UnicodeDecodeError as exc:
            raise ConfigError(f"{source}: not UTF-8 text (byte {exc.start})") from None
        except OSError as exc:
            raise ConfigError(f"{source}: cannot read config file: {exc.strerror or exc}") from None
        data = _parse_yaml(text, source)
        # abspath, not resolve(): keep the directory the user sees (ConfigMap mounts are symlinks).
        config = parse_config(data, source, base_dir=Path(os.path.abspath(path)).parent)
    return _apply_env(config, os.environ if environ is None else environ)
