"""Reusable value types for the configuration model, each carrying its own error wording.

A key in ``osmia-config.yaml`` is declared in ``osmia/config/model.py`` with
one of these types; the type brings the check (pydantic, strict), the JSON
schema for the chart and the words used in error messages and in the docs
table. Keywords starting with ``x-osmia-`` are read by this package only and
are stripped from the chart's schema:

- ``x-osmia-expected``: what a value must be, completing "KEY must be ...".
- ``x-osmia-null``: ``"empty"`` when ``null`` means an empty list or mapping.
- ``x-osmia-doc-type``: the type column of the docs table, when the JSON type is not enough.
- ``x-osmia-range``: the range column of the docs table, when ``x-osmia-expected`` is too long.
- ``x-osmia-chart``: the chart value that sets this key (the key is left out of the chart's schema).
- ``x-osmia-ignored``: the key is accepted but ignored; the reason goes into a warning.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Annotated, Any, Final, TypeVar

from pydantic import (
    AfterValidator,
    BeforeValidator,
    Field,
    JsonValue,
    PlainValidator,
    ValidationInfo,
    WithJsonSchema,
    WrapSerializer,
)
from pydantic_core import PydanticCustomError

K = TypeVar("K")
V = TypeVar("V")

DNS_LABEL: Final = r"[a-z0-9]([-a-z0-9]*[a-z0-9])?"
"""A DNS label (RFC 1123), without anchors."""

DNS_SUBDOMAIN: Final = rf"{DNS_LABEL}(\.{DNS_LABEL})*"
"""A DNS subdomain name (dot-separated labels), without anchors."""

QUANTITY_PATTERN: Final = r"^(\d+(\.\d*)?|\.\d+)([KMGTPE]i|[numkMGTPE]|[eE][+-]?\d+)?$"
"""A non-negative Kubernetes resource quantity such as ``500m``, ``2Gi`` or ``1.5``."""

EXPECTED: Final = "x-osmia-expected"
NULL: Final = "x-osmia-null"
DOC_TYPE: Final = "x-osmia-doc-type"
RANGE: Final = "x-osmia-range"
CHART: Final = "x-osmia-chart"
IGNORED: Final = "x-osmia-ignored"


def anchored(pattern: str) -> str:
    """``^pattern$``: pydantic and JSON schema patterns search, so every pattern is anchored."""
    return f"^(?:{pattern})$" if not (pattern.startswith("^") and pattern.endswith("$")) else pattern


def text(
    expected: str,
    pattern: str | None = None,
    *,
    min_len: int = 1,
    max_len: int = 1024,
    doc_range: str | None = None,
) -> Any:
    """Constraints of a string (``Annotated[str, text(...)]``).

    ``expected`` words its errors; ``doc_range`` is the docs table's range column
    (default: ``expected``).
    """
    extra: dict[str, JsonValue] = {EXPECTED: expected}
    if doc_range is not None:
        extra[RANGE] = doc_range
    return Field(
        pattern=anchored(pattern) if pattern is not None else None,
        min_length=min_len,
        max_length=max_len,
        json_schema_extra=extra,
    )


def _as_tuple(value: Any) -> Any:
    if value is None:
        return ()
    return tuple(value) if isinstance(value, list) else value


NULL_IS_EMPTY_LIST: Final = BeforeValidator(_as_tuple)
"""A YAML list (or ``null``, meaning empty) becomes the tuple the field holds."""


def listing(expected: str, doc_range: str = "", **extra: Any) -> Any:
    """Schema words of a list field (``Annotated[tuple[X, ...], NULL_IS_EMPTY_LIST, listing(...)]``)."""
    return Field(json_schema_extra={EXPECTED: expected, RANGE: doc_range, NULL: "empty", **extra})


def _freeze(value: Mapping[Any, Any]) -> Mapping[Any, Any]:
    return MappingProxyType(dict(value))


def _thaw_for_dump(value: Mapping[Any, Any], handler: Callable[[Any], Any]) -> Any:
    return handler(dict(value))


ReadOnlyMapping = Annotated[
    Mapping[K, V],
    BeforeValidator(lambda value: {} if value is None else value),
    AfterValidator(_freeze),
    WrapSerializer(_thaw_for_dump),
    Field(json_schema_extra={NULL: "empty"}),
]
"""A mapping (``null`` means empty) stored as a read-only ``MappingProxyType``."""


def empty_mapping() -> Mapping[Any, Any]:
    """A fresh read-only empty mapping, as a field default."""
    return MappingProxyType({})


def unique_items(values: tuple[str, ...]) -> tuple[str, ...]:
    """Refuse a list that repeats an item, naming the first repeat."""
    for index, item in enumerate(values):
        if item in values[:index]:
            raise PydanticCustomError("osmia", "{path}[" + str(index) + "] repeats " + repr(item))
    return values


def chart_sets(values_key: str) -> dict[str, Any]:
    """``json_schema_extra`` of a key that the Helm chart sets itself from ``values_key``."""
    return {CHART: values_key}


def ignored(reason: str) -> dict[str, Any]:
    """``json_schema_extra`` of a key that is accepted, checked and ignored, with a warning."""
    return {IGNORED: reason}


# --------------------------------------------------------------------------
# The database file path: made absolute against the config file's directory.

STORE_PATH_EXPECTED: Final = (
    "a file path (non-empty, no surrounding spaces, not ending in '/'; "
    "'~' is expanded, relative paths are relative to the config file)"
)


def absolute_store_path(raw: str, base_dir: Path) -> Path:
    """Turn a configured database path into an absolute one (``~`` expanded, relative to base).

    Symlinks are not resolved: a Kubernetes ConfigMap mount is a symlink farm
    and the user means the directory they see. Raises ``ValueError`` when the
    text is not a usable file path.
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


def _store_path(value: Any, info: ValidationInfo) -> Path:
    if isinstance(value, Path):
        value = str(value)
    if isinstance(value, str):
        context = info.context if isinstance(info.context, Mapping) else {}
        base = context.get("base_dir")
        try:
            return absolute_store_path(value, base if isinstance(base, Path) else Path.cwd())
        except ValueError:
            pass
    raise PydanticCustomError("path_type", "not a usable file path")


StorePath = Annotated[
    Path,
    PlainValidator(_store_path, json_schema_input_type=str),
    WithJsonSchema(
        {
            "type": "string",
            "minLength": 1,
            "pattern": r"^\S(.*[^/\s])?$",
            EXPECTED: STORE_PATH_EXPECTED,
            RANGE: "non-empty, not ending in `/`",
            DOC_TYPE: "path (string)",
        }
    ),
]
"""An absolute database path; relative text is resolved against ``context['base_dir']``."""


# --------------------------------------------------------------------------
# Kubernetes quantities: text such as 500m or 2Gi, or a non-negative number.

_QUANTITY_RE: Final = re.compile(QUANTITY_PATTERN)
QUANTITY_EXPECTED: Final = "a non-negative Kubernetes quantity such as 500m, 2Gi or 1"


def _quantity(value: Any) -> str | int | float:
    if isinstance(value, str) and _QUANTITY_RE.fullmatch(value):
        return value
    if type(value) is int and value >= 0:
        return value
    if type(value) is float and math.isfinite(value) and value >= 0:
        return value
    raise PydanticCustomError("quantity_type", "not a quantity")


Quantity = Annotated[
    str | int | float,
    PlainValidator(_quantity),
    WithJsonSchema(
        {
            "oneOf": [
                {"type": "string", "pattern": QUANTITY_PATTERN},
                {"type": "number", "minimum": 0},
            ],
            EXPECTED: QUANTITY_EXPECTED,
            DOC_TYPE: "quantity",
        }
    ),
]
"""A resource quantity, kept as written (text or number) for the Kubernetes API."""
