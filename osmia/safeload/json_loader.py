"""JSON: one document, duplicate keys recorded, oversized integers and NaN kept as :class:`Refused`."""

from __future__ import annotations

import json
from typing import Any

from osmia.safeload import values
from osmia.safeload.values import MAX_DEPTH, LoadError, Mapping, Refused, bounded_int


def _json_mapping(pairs: list[tuple[str, Any]]) -> Mapping:
    data = Mapping()
    duplicates: list[str] = []
    for key, value in pairs:
        if key in data and key not in duplicates:
            duplicates.append(key)
        data[key] = value
    data.duplicates = tuple(duplicates)
    return data


def _json_constant(name: str) -> Refused:
    return Refused(f"{name} is not a number the API server accepts")


def json_document(text: str) -> Any:
    """One JSON document; raises :class:`LoadError` (with line and column) when it is not JSON.

    Counting brackets first (an upper bound on containers: some may sit in
    strings) refuses a document of millions of tiny objects before building them.
    """
    if text.count("{") + text.count("[") > values.MAX_DOCUMENT_VALUES:
        raise LoadError(f"the document holds more than {values.MAX_DOCUMENT_VALUES} objects and lists")
    try:
        return json.loads(
            text, object_pairs_hook=_json_mapping, parse_int=bounded_int, parse_constant=_json_constant
        )
    except json.JSONDecodeError as exc:
        raise LoadError(f"line {exc.lineno}, column {exc.colno}: invalid JSON: {exc.msg}") from None
    except RecursionError:
        raise LoadError(f"nesting deeper than {MAX_DEPTH} levels") from None
