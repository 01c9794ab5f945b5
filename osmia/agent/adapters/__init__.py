"""Engine adapters: one module per engine, found by name.

The engine ``claude-code`` is the module ``claude_code`` in this package, and
that module's ``ADAPTER`` object is its adapter. Adding an engine is adding one
module; nothing else lists them.
"""

from __future__ import annotations

import importlib
import pkgutil
import re

from osmia.agent.adapters.base import EngineAdapter, EngineReport

__all__ = ["EngineAdapter", "EngineReport", "UnknownEngine", "adapter_for", "known_engines"]

_NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,62}$")
_NOT_ENGINES = frozenset({"base"})


class UnknownEngine(LookupError):
    """No adapter module for the engine."""


def known_engines() -> list[str]:
    """Every engine that has an adapter module, sorted."""
    return sorted(
        m.name.replace("_", "-")
        for m in pkgutil.iter_modules(__path__)
        if not m.name.startswith("_") and m.name not in _NOT_ENGINES
    )


def adapter_for(engine: str) -> EngineAdapter:
    """The adapter of ``engine`` (e.g. ``claude-code``), or :class:`UnknownEngine`."""
    if not _NAME.match(engine) or engine.replace("-", "_") in _NOT_ENGINES:
        raise UnknownEngine(f"unknown engine {engine!r}; known: {', '.join(known_engines())}")
    try:
        module = importlib.import_module(f"{__name__}.{engine.replace('-', '_')}")
    except ModuleNotFoundError:
        raise UnknownEngine(f"unknown engine {engine!r}; known: {', '.join(known_engines())}") from None
    adapter = getattr(module, "ADAPTER", None)
    if not isinstance(adapter, EngineAdapter):
        raise UnknownEngine(f"engine module {module.__name__} has no ADAPTER")
    return adapter
