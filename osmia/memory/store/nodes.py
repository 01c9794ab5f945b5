"""Nodes and edges: read by id or key, written by upsert, walked one hop."""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from osmia.memory.clean_stamp import cleaning_version, holds, stamp_for, written_stamp
from osmia.memory.lesson_forms import form_of
from osmia.memory.store.base import StoreBase
from osmia.memory.store.query_reads import QueryReads
from osmia.memory.store.rows import _FIXED_NODE_COLUMNS, EPOCH_SQL, NODE_COLUMNS, THRESHOLD_SQL, node_to_row
from osmia.memory.text import search_terms
from osmia.memory.types import Edge, Kind, Node, Relation
from osmia.memory.vocabulary import sentence_key, words_column

# Rows :meth:`NodeQueries.restamp` reads a call (a maintenance pass), and the time it may spend
# cleaning them (~35 µs a row at 100k nodes; more while RE2's automata are cold).
RESTAMP_BATCH = 2000
RESTAMP_SECONDS = 0.05
# Lines written without a stamp that a process remembers to stamp (beyond it, the oldest are
# cleaned where they are shown, as before stamps, until the cleaning version changes).
MAX_UNSTAMPED = 10_000
# meta keys: the cleaning version every row's stamp was computed with, and how far a restamp got.
CLEAN_VERSION_KEY = "clean_stamp_version"
CLEAN_CURSOR_KEY = "clean_stamp_seq"
# The epoch a node written now falls below the prune threshold at (its confidence and rate bound).
_PRUNE_SQL = f"osmia_prune_cycle(?, ?, {EPOCH_SQL}, {THRESHOLD_SQL})"
# What a node's life changes, as against its text and subject (and what is derived from them).
# (The stamp of its line covers its sources: osmia/memory/clean_stamp.py.)
_LIFE_COLUMNS = (
    "confidence", "decay_rate", "valid_from", "valid_to", "last_seen", "occurrences", "clean_stamp", "sources"
)  # fmt: skip


def _life_of(node: Node, stamp: int | None) -> tuple[object, ...]:
    """:data:`_LIFE_COLUMNS` of ``node``, as :func:`node_to_row` writes them."""
    row = node_to_row(node, stamp)
    return row[-len(_LIFE_COLUMNS) :]


def _same_text(stored: Node | None, node: Node) -> bool:
    """Whether ``node`` has the text and subject of its stored row (the derived columns stay)."""
    return stored is not None and stored.content == node.content and stored.subject == node.subject


class NodeQueries(StoreBase):
    """Reading and writing nodes and edges (writes inside the caller's transaction)."""

    _stamps_current = ""  # the cleaning version every row is known to have a stamp of (:meth:`restamp`)
    _unstamped: dict[str, None]  # ids of lines written without a stamp, oldest first (:meth:`stamp_written`)

    async def nodes_by_keys(self, tenant: str, keys: Iterable[str]) -> dict[str, Node]:
        """Existing nodes of one tenant with the given canonical keys."""
        wanted = sorted(set(keys))
        found: dict[str, Node] = {}
        for i in range(0, len(wanted), 500):
            chunk = wanted[i : i + 500]
            marks = ",".join("?" * len(chunk))
            for node in await self._nodes(f"tenant = ? AND key IN ({marks})", (tenant, *chunk)):
                found[node.key] = node
        return found

    async def nodes_by_ids(self, ids: Iterable[str], tenant: str | None = None) -> list[Node]:
        """Nodes with the given ids (optionally only one tenant's), in id order."""
        wanted = sorted(set(ids))
        out: list[Node] = []
        for i in range(0, len(wanted), 500):
            chunk = wanted[i : i + 500]
            marks = ",".join("?" * len(chunk))
            where, params = f"id IN ({marks})", list(chunk)
            if tenant is not None:
                # ``+tenant``: without statistics SQLite would pick a (tenant, …) index and scan
                # the whole tenant; the id index finds each node directly.
                where, params = f"{where} AND +tenant = ?", [*params, tenant]
            out.extend(await self._nodes(where, params))
        return sorted(out, key=lambda n: n.id)

    async def get_node(self, node_id: str) -> Node | None:
        """One node by id."""
        nodes = await self._nodes("id = ?", (node_id,))
        return nodes[0] if nodes else None

    async def upsert_nodes(self, nodes: Sequence[Node], *, stored: Mapping[str, Node] | None = None) -> None:
        """Insert or fully update nodes by id (inside the caller's transaction).

        ``stored``: the nodes as read in this transaction, by id, when the caller has them. A
        node whose text and subject are the stored ones has only the columns of its life written
        (confidence, validity, sightings, sources): the row is the one a full update leaves, without
        deriving its search terms and words again or rewriting the indexes over its text.
        """
        if not nodes:
            return
        stored = stored or {}
        stamps = self._stamps(nodes, stored)
        same = [n for n in nodes if _same_text(stored.get(n.id), n)]
        if len(same) < len(nodes):
            kept = {n.id for n in same}
            await self._write_nodes([n for n in nodes if n.id not in kept], stamps)
        if same:
            await self._conn.executemany(
                f"UPDATE nodes SET {', '.join(f'{c} = ?' for c in _LIFE_COLUMNS)}, "
                f"epoch = {EPOCH_SQL}, prune_at = {_PRUNE_SQL} WHERE id = ?",
                [(*_life_of(n, stamps[n.id]), n.confidence, n.decay_rate, n.id) for n in same],
            )
        await self._write_lesson_forms(nodes)

    def _stamps(self, nodes: Sequence[Node], stored: Mapping[str, Node]) -> dict[str, int | None]:
        """Each node's line stamp where it is cheap to know (``clean_stamp.written_stamp``: a
        reinforced fact's); the others are left to :meth:`stamp_written` (a line's first cleaning
        costs 10 µs-2.5 ms: not inside a write)."""
        out: dict[str, int | None] = {}
        for node in nodes:
            before = stored.get(node.id)
            previous = None if before is None else (before.content, before.sources, before.clean_stamp)
            out[node.id], later = written_stamp(node.content, node.sources, previous)
            if later:
                self._unstamped[node.id] = None
                if len(self._unstamped) > MAX_UNSTAMPED:
                    del self._unstamped[next(iter(self._unstamped))]  # the oldest: cleaned where shown
        return out

    async def _write_nodes(self, nodes: Sequence[Node], stamps: Mapping[str, int | None]) -> None:
        """Insert or update every column of ``nodes``, their derived columns computed again."""
        # Derived from the content: full-text search terms, and the vocabulary's words and sentence
        # (osmia/memory/vocabulary.py; triggers count the words per tenant).
        cols = [*NODE_COLUMNS.split(", "), "terms", "words", "sentence"]
        # The confidence given is the effective one now: it is stamped with the current epoch, and
        # the epoch it will fall below the prune threshold at is computed from it (fading.py).
        values = ", ".join("?" * len(cols))
        # Only what a node's life changes: SQLite rewrites every index over an assigned column,
        # so assigning the fixed ones (type, tenant, kind, key) rewrote two indexes for nothing.
        updates = ", ".join(
            f"{c} = excluded.{c}" for c in [*cols, "epoch", "prune_at"] if c not in _FIXED_NODE_COLUMNS
        )
        await self._conn.executemany(
            f"INSERT INTO nodes ({', '.join(cols)}, epoch, prune_at) "
            f"VALUES ({values}, {EPOCH_SQL}, {_PRUNE_SQL}) ON CONFLICT (id) DO UPDATE SET {updates}",
            [
                (
                    *node_to_row(n, stamps[n.id]),
                    search_terms(n.content),
                    None if n.kind is Kind.ATTEMPT else words_column(n.content),
                    sentence_key(n.content) if n.kind is Kind.LEARNING else None,
                    n.confidence,
                    n.decay_rate,
                )
                for n in nodes
            ],
        )

    def stamps_current(self) -> bool:
        """Whether every row is known to have this cleaning's stamp where it can have one (no
        :meth:`restamp` to do)."""
        return not self._unstamped and self._stamps_current == cleaning_version().hex()

    async def stamps_recorded_current(self) -> bool:
        """:meth:`stamps_current`, reading the store's record of the cleaning its rows were last
        stamped by when this process has not stamped or checked them yet (a store restamped by an
        earlier process is current from its first read)."""
        version = cleaning_version().hex()
        if not self._stamps_current and await self.get_meta(CLEAN_VERSION_KEY) == version:
            self._stamps_current = version
        return self.stamps_current()

    async def stamp_written(self, batch: int = RESTAMP_BATCH) -> bool:
        """Stamp up to ``batch`` of the lines this process wrote without a stamp (or
        :data:`RESTAMP_SECONDS` of cleaning; inside a transaction); True once none is left."""
        ids = list(itertools.islice(self._unstamped, batch))
        if not ids:
            return True
        marks = ", ".join("?" * len(ids))
        found = {
            row[0]: row[1:]
            for row in await self._rows(
                f"SELECT id, seq, content, sources, clean_stamp FROM nodes WHERE id IN ({marks})", ids
            )
        }
        present = [node_id for node_id in ids if node_id in found]
        for node_id in ids:
            if node_id not in found:
                del self._unstamped[node_id]  # deleted since
        taken = await self._stamp_rows([found[node_id] for node_id in present])
        for node_id in present[:taken]:
            del self._unstamped[node_id]
        return not self._unstamped

    async def restamp(self, batch: int = RESTAMP_BATCH) -> bool:
        """Stamp the next ``batch`` rows again if the store's stamps are another cleaning's (inside a
        transaction); True once every row has had this version's (osmia/memory/clean_stamp.py).

        A store migrated from before stamps, or written by an Osmia whose cleaning differs, has no
        stamp that holds here: its lines are cleaned each time a process first shows them, as
        before stamps existed, until this has walked its rows (by ``seq``, from a cursor in
        ``meta``: up to ``batch`` rows or :data:`RESTAMP_SECONDS` of cleaning a maintenance pass).
        Rows written meanwhile are stamped as written.
        """
        if not await self.stamp_written(batch):
            return False
        version = cleaning_version().hex()
        if self._stamps_current == version:
            return True
        if await self.get_meta(CLEAN_VERSION_KEY) == version:
            self._stamps_current = version
            return True
        start = int(await self.get_meta(CLEAN_CURSOR_KEY) or 0)
        rows = await self._rows(
            "SELECT seq, content, sources, clean_stamp FROM nodes WHERE seq > ? ORDER BY seq LIMIT ?",
            (start, batch),
        )
        if not rows:
            await self.set_meta(CLEAN_VERSION_KEY, version)
            await self._conn.execute("DELETE FROM meta WHERE key = ?", (CLEAN_CURSOR_KEY,))
            self._stamps_current = version
            return True
        taken = await self._stamp_rows(rows)
        await self.set_meta(CLEAN_CURSOR_KEY, str(int(rows[taken - 1][0])))
        return False

    async def _stamp_rows(self, rows: Sequence[Sequence[Any]]) -> int:
        """Stamp ``rows`` (``seq, content, sources, clean_stamp``) in order, those whose stamp does
        not hold, until :data:`RESTAMP_SECONDS` of cleaning (the event loop waits meanwhile: the
        rest in the next pass); how many of them were taken (at least one)."""
        deadline = time.perf_counter() + RESTAMP_SECONDS
        stamps = []
        taken = 0
        for seq, content, sources_json, stored in rows:
            taken += 1
            sources = json.loads(sources_json)
            if not holds(content, sources, stored):
                stamps.append((stamp_for(content, sources), seq))
            if time.perf_counter() > deadline:
                break
        await self._conn.executemany("UPDATE nodes SET clean_stamp = ? WHERE seq = ?", stamps)
        return taken

    async def _write_lesson_forms(self, nodes: Sequence[Node]) -> None:
        """The parsed form of each valid learning among ``nodes``, where it is new or changed."""
        # A valid learning's parsed form, so the next extraction in its repository does not parse it
        # (osmia/memory/lesson_forms.py); ``lesson`` has it cached from resolving this run. A
        # reinforced learning's form is usually the one stored: it is then left unwritten.
        learnings = [(form_of(n.content), n.id) for n in nodes if n.kind is Kind.LEARNING and n.valid]
        if learnings:
            await self._conn.executemany(
                "INSERT INTO lesson_forms (seq, form) SELECT seq, ? FROM nodes WHERE id = ? "
                "ON CONFLICT (seq) DO UPDATE SET form = excluded.form WHERE form IS NOT excluded.form",
                learnings,
            )

    async def insert_edges(self, edges: Sequence[Edge]) -> int:
        """Add edges that do not exist yet; returns how many were new."""
        before = self._conn.total_changes
        await self._conn.executemany(
            "INSERT OR IGNORE INTO edges (src, dst, relation, weight, created_at) VALUES (?, ?, ?, ?, ?)",
            [(e.src, e.dst, e.relation.value, e.weight, e.created_at) for e in edges],
        )
        return self._conn.total_changes - before

    async def delete_node(self, node_id: str) -> bool:
        """Remove one node and (by cascade) its edges."""
        cur = await self._conn.execute("DELETE FROM nodes WHERE id = ?", (node_id,))
        return cur.rowcount > 0

    async def iter_nodes(self, tenant: str | None = None) -> list[Node]:
        """Every node (optionally one tenant's), in id order."""
        if tenant is None:
            return await self._nodes("1 ORDER BY id")
        return await self._nodes("tenant = ? ORDER BY id", (tenant,))

    async def neighbour_ids(self, ids: Sequence[str], relations: Sequence[Relation]) -> list[tuple[str, str]]:
        """``(node, neighbour)`` for every edge of ``relations`` touching one of ``ids``, either way.

        Both halves read an index only: the primary key ``(src, dst, relation)`` and
        ``edges_dst (dst, relation, src)``.
        """
        return await self.read(lambda db: QueryReads(db).neighbour_ids(ids, relations))

    async def all_edges(self) -> list[Edge]:
        """Every edge, in a stable order."""
        rows = await self._rows(
            "SELECT src, dst, relation, weight, created_at FROM edges ORDER BY src, dst, relation"
        )
        return [Edge(r[0], r[1], Relation(r[2]), r[3], r[4]) for r in rows]

    async def edges_of(self, node_id: str) -> list[Edge]:
        """Edges touching one node, both directions."""
        rows = await self._rows(
            "SELECT src, dst, relation, weight, created_at FROM edges WHERE src = ? OR dst = ? "
            "ORDER BY src, dst, relation",
            (node_id, node_id),
        )
        return [Edge(r[0], r[1], Relation(r[2]), r[3], r[4]) for r in rows]

    async def lasting_texts(self, limit: int) -> list[str]:
        """The text of the ``limit`` nodes decay keeps longest (the latest ``prune_at``: the most
        confident and reinforced, what queries recall most), read off ``nodes_prune_at``."""
        rows = await self._rows(
            "SELECT content FROM nodes WHERE prune_at IS NOT NULL ORDER BY prune_at DESC LIMIT ?", (limit,)
        )
        return [str(r[0]) for r in rows]

    async def counts_by_type(self, tenant: str | None = None) -> dict[str, int]:
        """Node count per type (metrics gauge and ``status``)."""
        where, params = ("WHERE tenant = ?", (tenant,)) if tenant else ("", ())
        rows = await self._rows(f"SELECT type, count(*) FROM nodes {where} GROUP BY type", params)
        return {r[0]: int(r[1]) for r in rows}

    async def count(self, table: str, tenant: str | None = None) -> int:
        """Rows in ``nodes``, ``edges`` or ``runs`` (edges are counted by their source's tenant)."""
        if table == "edges":
            if tenant is None:
                return int(await self._scalar("SELECT count(*) FROM edges"))
            return int(
                await self._scalar(
                    "SELECT count(*) FROM edges e JOIN nodes n ON n.id = e.src WHERE n.tenant = ?", (tenant,)
                )
            )
        if table not in ("nodes", "runs"):
            raise ValueError(table)
        if tenant is None:
            return int(await self._scalar(f"SELECT count(*) FROM {table}"))
        return int(await self._scalar(f"SELECT count(*) FROM {table} WHERE tenant = ?", (tenant,)))
