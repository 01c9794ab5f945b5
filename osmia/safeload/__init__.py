"""Loading untrusted YAML and JSON text into plain data, with every size bounded.

Both loaders produce the same plain values (``dict``, ``list``, ``str``,
``int``, ``float``, ``bool``, ``None``; YAML also dates) and never fail on a
value inside a document: what the API server would refuse (a duplicate key,
an integer outside 64 bits) becomes a :class:`Refused` marker or a
:class:`Mapping` that remembers its duplicate keys, so that
:func:`check_object` can name the field and the caller can skip that one
object and go on with the others.

What is bounded, and why:

- nesting depth (:data:`MAX_DEPTH`): the YAML composer and ``json`` recurse;
  1,000 levels would end in ``RecursionError``;
- alias expansion (:data:`MAX_ALIAS_COST`): ``&a [*b, *b, ...]`` chains grow
  exponentially when anything walks them; counted while composing, before any
  value is built;
- integer digits (:data:`MAX_INT_DIGITS`): Python refuses to parse 4,300+
  digits, and the API server only knows 64-bit integers;
- one object's size (:data:`MAX_OBJECT_CHARS`), checked by
  :func:`check_object` with a walk that stops as soon as the budget is spent;
- one document's values (:data:`MAX_DOCUMENT_VALUES`), so composing a
  million tiny objects is refused before it costs minutes and gigabytes.

Modules: :mod:`~osmia.safeload.values` (limits and value types),
:mod:`~osmia.safeload.yaml_loader`, :mod:`~osmia.safeload.json_loader` and
:mod:`~osmia.safeload.checks`.
"""

from __future__ import annotations

from osmia.safeload.checks import check_object
from osmia.safeload.json_loader import json_document
from osmia.safeload.values import (
    MAX_ALIAS_COST,
    MAX_DEPTH,
    MAX_DOCUMENT_VALUES,
    MAX_INT_DIGITS,
    MAX_OBJECT_CHARS,
    MAX_OBJECT_VALUES,
    LoadError,
    Mapping,
    Refused,
)
from osmia.safeload.yaml_loader import CoreResolver, yaml_documents

__all__ = [
    "MAX_ALIAS_COST",
    "MAX_DEPTH",
    "MAX_DOCUMENT_VALUES",
    "MAX_INT_DIGITS",
    "MAX_OBJECT_CHARS",
    "MAX_OBJECT_VALUES",
    "CoreResolver",
    "LoadError",
    "Mapping",
    "Refused",
    "check_object",
    "json_document",
    "yaml_documents",
]
