"""Osmia's memory engine: a knowledge graph of what finished TaskRuns taught, in SQLite.

No Kubernetes here. Callers (the controller, the CLI, the dashboard) use the names below; the
modules behind them (store, extractor, query, decay, ...) are this package's own business.
"""

from osmia.memory.browse import GraphBrowser, Neighbourhood, NodeFilter, to_networkx
from osmia.memory.service import ImportRefused, Memory, MemorySettings
from osmia.memory.store import StoreError
from osmia.memory.types import Candidate, Edge, IngestResult, Kind, MemoryContext, Node, Relation
from osmia.memory.warmup import warm_up

__all__ = [
    "Candidate",
    "Edge",
    "GraphBrowser",
    "ImportRefused",
    "IngestResult",
    "Kind",
    "Memory",
    "MemoryContext",
    "MemorySettings",
    "Neighbourhood",
    "Node",
    "NodeFilter",
    "Relation",
    "StoreError",
    "to_networkx",
    "warm_up",
]
