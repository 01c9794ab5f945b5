"""SQLite persistence for the knowledge graph (aiosqlite).

WAL, ``busy_timeout``, foreign keys, ``PRAGMA user_version`` with forward migrations
(``osmia.memory.schema``), an FTS5 mirror of node text, a table of processed TaskRuns and a meta
table. :class:`Store` is one connection; its methods come in groups, one module each:

- ``lifecycle``: open, check, migrate, maintain, close; transactions and snapshots;
- ``nodes``: nodes and edges by id or key, upserts, one-hop walks, counts;
- ``runs``: processed runs and their running statistics;
- ``retrieval``: the candidate reads ranking starts from;
- ``decay_clock``: the lazy decay epoch and pruning;
- ``rows`` and ``errors``: column layouts and the errors that name the file and what to do.
"""

from __future__ import annotations

from osmia.memory.schema import SCHEMA_VERSION
from osmia.memory.store.decay_clock import PRUNE_RECOMPUTE_BATCH, PRUNE_RECOMPUTE_KEY, DecayClock
from osmia.memory.store.errors import StoreError, explain_sqlite_error
from osmia.memory.store.lifecycle import FTS_MERGE_PAGES, MMAP_BYTES, Lifecycle, sql_statements
from osmia.memory.store.nodes import CLEAN_CURSOR_KEY, CLEAN_VERSION_KEY, NodeQueries
from osmia.memory.store.retrieval import RetrievalQueries
from osmia.memory.store.rows import (
    EPOCH_KEY,
    EPOCH_SQL,
    NODE_COLUMNS,
    NODE_SELECT,
    RUN_COLUMNS,
    THRESHOLD_KEY,
    THRESHOLD_SQL,
    node_from_row,
    node_select,
    node_to_row,
    run_id,
)
from osmia.memory.store.runs import RunQueries


class Store(Lifecycle, NodeQueries, RunQueries, RetrievalQueries, DecayClock):
    """One SQLite connection with the Osmia schema and every query Osmia runs on it. Use :meth:`open`."""


__all__ = [
    "CLEAN_CURSOR_KEY",
    "CLEAN_VERSION_KEY",
    "EPOCH_KEY",
    "EPOCH_SQL",
    "FTS_MERGE_PAGES",
    "MMAP_BYTES",
    "NODE_COLUMNS",
    "NODE_SELECT",
    "PRUNE_RECOMPUTE_BATCH",
    "PRUNE_RECOMPUTE_KEY",
    "RUN_COLUMNS",
    "SCHEMA_VERSION",
    "THRESHOLD_KEY",
    "THRESHOLD_SQL",
    "Store",
    "StoreError",
    "explain_sqlite_error",
    "node_from_row",
    "node_select",
    "node_to_row",
    "run_id",
    "sql_statements",
]
