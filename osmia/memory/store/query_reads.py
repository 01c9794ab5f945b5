"""The reads of one ranking, as plain synchronous SQLite calls on the connection's own thread.

aiosqlite runs every statement on a worker thread and hands the result back to the event loop:
each statement is a trip across threads (a queue put, a wake-up, a GIL hand-over and a loop
callback, 0.15-0.4 ms on a busy machine), and a query made eight to twenty of them, more time
than SQLite spent answering. :meth:`StoreBase.read` runs a whole function in one read
transaction, on the calling thread's read-only connection (no trip at all:
``osmia/memory/store/local_reader.py``) or else on that worker thread in one trip; the ranking
(:class:`osmia.memory.query.Ranker`) is such a function, and these are its reads. They only
read, so they never change what another connection sees.

Fewer statements, too: the candidate sets a query starts from (earlier attempts at the ticket,
the repository's facts, the engine's general facts, patterns of the task type or language, and
the full-text matches) are one ``UNION ALL`` of the same per-set queries the store ran one by
one; the one-hop widening reads the neighbours' ids from the edge indexes, then the rows of the
new ones; the term counts a cold cache misses are one statement however many there are, and the
vocabulary behind a learning's specificity is read from the table the store keeps as nodes are
written. A node that appears in several sets is parsed once, and a row read again unchanged is
not parsed again (:class:`NodeCache`); the engine's facts and the tenant-wide patterns are not
read again while the file is unchanged (:class:`SetCache`).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from osmia.memory.store.rows import NODE_COLUMNS, effective_confidence, node_from_row, node_select
from osmia.memory.types import Node, Relation
from osmia.memory.vocabulary import NODES_WORD

# Branch tags of the combined candidate statement (its first column).
ATTEMPTS, REPOSITORY, ENGINE, PATTERNS, TEXT = range(5)
VERSION = -1  # the row carrying the snapshot's ``data_version`` (:class:`SetCache`)
_WIDTH = len(NODE_COLUMNS.split(", "))  # columns of a node row


def fts_phrase(text: str) -> str:
    """``text`` as one quoted FTS5 phrase: a search term, matched as the index tokenises it."""
    return '"' + text.replace('"', '""') + '"'


@dataclass
class CandidateSets:
    """What :meth:`QueryReads.candidate_sets` found, set by set, each in the store's order."""

    attempts: list[Node] = field(default_factory=list)  # newest first
    repository: list[Node] = field(default_factory=list)  # strongest first
    engine: list[Node] = field(default_factory=list)
    patterns: list[Node] = field(default_factory=list)
    text: list[tuple[Node, float]] = field(default_factory=list)  # BM25 rank, best (lowest) first

    def nodes_of(self, tag: int) -> list[Node]:
        """The set of branch ``tag`` (``ATTEMPTS`` to ``PATTERNS``; the text matches carry ranks)."""
        return (self.attempts, self.repository, self.engine, self.patterns)[tag]


class NodeCache:
    """Parsed nodes kept between queries, each with the row it was parsed from.

    A node is a pure function of its row, so a cached one is reused only when the row just read
    equals the cached row, column for column (the effective confidence included): nothing to
    invalidate, and a write, a decay or another process's change simply misses. Parsing a row
    (JSON sources, enum, two dataclasses) costs ~6 µs, comparing it well under one; the engine's
    general facts and the tenant's patterns come back in nearly every query. At most
    ``capacity`` nodes, the least recently used leaving first (~2.5 KB each at 1M nodes, where a
    fact cites 14 runs on average: 8,192 hold ~20 MB; at 100k nodes 26 of a query's ~150 rows
    were parsed, against 80 with 4,096 emptied when full).

    The row is kept as the node shares it (the same string objects), except its last column, the
    sources as JSON text (400 characters on average at 1M nodes, and parsed into the node's own
    list): that one is kept as its ``hash``, a 64-bit SipHash under this process's secret key.
    Two different texts of one node's sources would have to collide under a key nobody outside
    the process knows. At 1M nodes the serving process's peak is 3.7 MB lower (§25 of
    docs/performance.md).
    """

    def __init__(self, capacity: int = 8192) -> None:
        self.capacity = capacity
        self._rows: dict[str, tuple[tuple[Any, ...], int, Node]] = {}
        self.hits = 0
        self.misses = 0

    def node(self, row: tuple[Any, ...]) -> Node:
        """The node of ``row`` (:data:`~osmia.memory.store.rows.NODE_SELECT` columns, sources last)."""
        rows = self._rows
        head, sources = row[:-1], hash(row[-1])
        cached = rows.pop(row[0], None)
        if cached is not None and cached[1] == sources and cached[0] == head:
            self.hits += 1
            rows[row[0]] = cached  # the most recently used last
            return cached[2]
        self.misses += 1
        if len(rows) >= self.capacity:
            del rows[next(iter(rows))]  # the least recently used
        node = node_from_row(row)
        rows[row[0]] = (head, sources, node)
        return node


class SetCache:
    """The candidate sets every ticket of an engine shares, kept between queries while the store is unchanged.

    The engine's general facts and the tenant-wide patterns of a task type or language are the
    same rows for every ticket that names them (23 and 1 of a query's ~90 rows at 100k nodes), so
    they are read once and reused until the file changes. ``PRAGMA data_version`` tells: it
    changes whenever another connection commits (or checkpoints), and inside a read transaction it
    is the version of that transaction's snapshot. So a set is kept with the version it was read
    at and reused only in a transaction at the same version, on the same connection.

    Only on a connection that cannot write (``query_only``, the calling thread's reader): a
    connection's own commits do not change its ``data_version``. At most ``capacity`` sets (a
    set holds nodes also in the :class:`NodeCache`: the engine's ~25 facts, shared by its keys);
    past it, all are dropped.
    """

    def __init__(self, capacity: int = 256) -> None:
        self.capacity = capacity
        self._conn: sqlite3.Connection | None = None
        self._trusted = False
        self._version: int | None = None
        self._sets: dict[tuple[Any, ...], list[Node]] = {}
        self.hits = 0

    def usable_on(self, db: sqlite3.Connection) -> bool:
        """Whether sets may be kept for ``db`` (read-only); another connection than the last drops them."""
        if db is not self._conn:
            self._conn = db
            self._trusted = db.execute("PRAGMA query_only").fetchone()[0] == 1
            self._version = None
            self._sets.clear()
        return self._trusted

    def at(self, version: int) -> bool:
        """The snapshot being read is at ``version``: sets read at another are dropped (``False``)."""
        if version == self._version:
            return True
        self._version = version
        self._sets.clear()
        return False

    def get(self, key: tuple[Any, ...]) -> list[Node] | None:
        """The set kept under ``key``, if any (valid only once :meth:`at` confirmed the version)."""
        return self._sets.get(key)

    def put(self, key: tuple[Any, ...], nodes: list[Node]) -> None:
        """Keep ``nodes``, read at the version last given to :meth:`at`, under ``key``."""
        if len(self._sets) >= self.capacity:
            self._sets.clear()
        self._sets[key] = nodes


class QueryReads:
    """Synchronous reads over one ``sqlite3`` connection; use only on the connection's own thread.

    Every :class:`Node` read through one instance is parsed once and shared: a fact that is both
    a repository candidate and a text match is the same object in both sets (and, with a
    :class:`NodeCache`, the same object as in the last query that read the same row).
    """

    def __init__(
        self, db: sqlite3.Connection, cache: NodeCache | None = None, sets: SetCache | None = None
    ) -> None:
        self._db = db
        self._cache = cache or NodeCache()
        self._sets = sets
        self.statements = 0  # top-level statements run (``benchmarks/profile.py`` reports them)

    def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        self.statements += 1
        return self._db.execute(sql, params).fetchall()

    def node(self, row: Sequence[Any], start: int = 0) -> Node:
        """The node whose columns start at ``row[start]``."""
        return self._cache.node(tuple(row[start : start + _WIDTH]))

    def candidate_sets(
        self,
        tenant: str,
        *,
        attempt_prefix: str = "",
        attempt_limit: int = 0,
        repository: str = "",
        repository_limit: int = 0,
        engine: str = "",
        engine_limit: int = 0,
        task_type: str = "",
        language: str = "",
        pattern_limit: int = 0,
        match: str = "",
        text_limit: int = 0,
    ) -> CandidateSets:
        """Every candidate set of one query in one statement; an empty subject skips its set.

        Each branch reads through its own index (``tests/memory/test_query_paths.py`` checks the
        plans): the key range for attempts, ``nodes_repository_facts`` (a repository's valid
        facts; its attempts are the same-ticket set's), ``nodes_engine`` for the
        engine's general facts (``repository = ''``) and for the tenant-wide patterns (``engine =
        ''``, ``repository = ''``: durations, rates without an engine), and the full-text index
        joined to its rows by ``seq``. A repository's own patterns (its failure modes) come with
        the repository's facts; another repository's did not belong here: a language or task
        type signal alone, with the other-repository discount, is below ``min_relevance``
        (at 1M nodes they were ~1,000 rows a query to sort, none of them kept).

        With a :class:`SetCache` (on a read-only connection), the engine's facts and the
        tenant-wide patterns an earlier query read at the same ``data_version`` are left out of
        the statement and reused; the statement's snapshot gives its version (one more row), and
        a set kept at another version is read again, in a second statement.
        """
        cols = node_select()
        branches: dict[int, tuple[str, list[Any]]] = {}

        def branch(tag: int, where: str, order: str, args: Sequence[Any], rank: str = "NULL") -> None:
            sql = f"SELECT * FROM (SELECT {tag}, {rank}, {cols} FROM nodes WHERE {where} {order})"
            branches[tag] = (sql, list(args))

        if attempt_prefix and attempt_limit > 0:
            branch(ATTEMPTS, "tenant = ? AND key >= ? AND key < ?", "ORDER BY last_seen DESC, id LIMIT ?",
                   (tenant, attempt_prefix, attempt_prefix + "\U0010ffff", attempt_limit))  # fmt: skip
        if repository and repository_limit > 0:
            # The strongest facts are chosen inside ``nodes_repository_facts`` (it holds what the
            # effective confidence is computed from, and the tie-break): only their rows are read.
            # Named: without statistics SQLite may pick ``nodes_repository`` and read every row.
            branch(
                REPOSITORY,
                "seq IN (SELECT seq FROM nodes INDEXED BY nodes_repository_facts "
                "WHERE tenant = ? AND repository = ? AND valid_to IS NULL "
                f"AND kind != 'attempt' ORDER BY {effective_confidence()} DESC, id LIMIT ?)",
                "ORDER BY confidence DESC, id",
                (tenant, repository, repository_limit),
            )
        if engine and engine_limit > 0:
            branch(ENGINE, "tenant = ? AND engine = ? AND valid_to IS NULL AND repository = ''",
                   "ORDER BY confidence DESC, id LIMIT ?", (tenant, engine, engine_limit))  # fmt: skip
        if (task_type or language) and pattern_limit > 0:
            branch(PATTERNS, "tenant = ? AND engine = '' AND repository = '' AND kind = 'pattern' "
                   "AND valid_to IS NULL AND (task_type = ? OR language = ?)",
                   "ORDER BY confidence DESC, id LIMIT ?",
                   (tenant, task_type, language, pattern_limit))  # fmt: skip
        if match and text_limit > 0:
            branches[TEXT] = (
                f"SELECT * FROM (SELECT {TEXT}, bm25(nodes_fts) AS rank, {node_select('n')} "
                "FROM nodes_fts JOIN nodes n ON n.seq = nodes_fts.rowid "
                "WHERE nodes_fts MATCH ? AND n.tenant = ? ORDER BY rank, n.id LIMIT ?)",
                [match, tenant, text_limit],
            )
        out = CandidateSets()
        keys = {
            ENGINE: ("engine", tenant, engine, engine_limit),
            PATTERNS: ("patterns", tenant, task_type, language, pattern_limit),
        }
        sets = self._sets if self._sets is not None and self._sets.usable_on(self._db) else None
        # Sets kept from earlier queries are left out of the statement, then used once the
        # snapshot's version (a row of the same statement) is known to be theirs.
        kept = {tag: sets.get(keys[tag]) for tag in keys if tag in branches} if sets is not None else {}
        version = self._read(
            out, [branches[tag] for tag in branches if kept.get(tag) is None], sets is not None
        )
        if sets is None or version is None:
            return out
        stale = [] if sets.at(version) else [tag for tag, nodes in kept.items() if nodes is not None]
        self._read(out, [branches[tag] for tag in stale])
        for tag, nodes in kept.items():
            target = out.nodes_of(tag)
            if nodes is not None and tag not in stale:
                sets.hits += 1
                target.extend(nodes)
            else:
                sets.put(keys[tag], list(target))
        return out

    def _read(
        self, out: CandidateSets, branches: Sequence[tuple[str, list[Any]]], version: bool = False
    ) -> int | None:
        """Run ``branches`` of :meth:`candidate_sets` as one ``UNION ALL`` into ``out``; with
        ``version``, one more row gives the snapshot's ``data_version`` (returned)."""
        parts = [sql for sql, _args in branches]
        if version:
            parts.append(
                f"SELECT {VERSION}, data_version, {', '.join(['NULL'] * _WIDTH)} FROM pragma_data_version"
            )
        if not parts:
            return None
        params = [p for _sql, args in branches for p in args]
        found = None
        for row in self._rows(" UNION ALL ".join(parts), params):
            tag = row[0]
            if tag == VERSION:
                found = int(row[1])
                continue
            node = self.node(row, 2)
            if tag == TEXT:
                out.text.append((node, float(row[1])))
            else:
                out.nodes_of(tag).append(node)
        return found

    def search_text(self, match: str, tenant: str | None, limit: int) -> list[tuple[Node, float]]:
        """FTS5 matches with their BM25 rank (lower is better), optionally one tenant's."""
        where = "nodes_fts MATCH ?"
        params: list[Any] = [match]
        if tenant is not None:
            where += " AND n.tenant = ?"
            params.append(tenant)
        rows = self._rows(
            f"SELECT bm25(nodes_fts) AS rank, {node_select('n')} FROM nodes_fts "
            f"JOIN nodes n ON n.seq = nodes_fts.rowid WHERE {where} ORDER BY rank, n.id LIMIT ?",
            [*params, limit],
        )
        return [(self.node(r, 1), float(r[0])) for r in rows]

    def term_doc_counts(self, terms: Sequence[str], at_most: int) -> dict[str, int]:
        """How many nodes the full-text index matches for each term (tokenised and stemmed as it
        indexes), every tenant's, counted up to ``at_most``: what a term costs a full-text search.
        One statement for all.

        Counting stops at ``at_most``: a common word's postings cost 2-5 ms to count at 1M nodes,
        and the caller only compares counts with a budget, so it needs no more than budget + 1.
        """
        one = "SELECT count(*) FROM (SELECT 1 FROM nodes_fts WHERE nodes_fts MATCH ? LIMIT ?)"
        return self._counts(one, [(fts_phrase(t), at_most) for t in terms], terms)

    def vocabulary(
        self, tenant: str, words: Sequence[str], sentences: Sequence[int]
    ) -> tuple[int, dict[str, int], dict[int, int]]:
        """The tenant's node count, its nodes holding each word, and its repositories stating each sentence.

        Kept as nodes are written (schema v9, :mod:`osmia.memory.vocabulary`): one statement of a
        primary-key lookup per word and a ``nodes_sentence`` range per sentence, however large the
        graph. A word no node holds is absent from the counts. Meant for one query's few
        candidate learnings (a few hundred words at most; SQLite allows 32766 parameters).
        """
        word_marks = ", ".join("?" * (len(words) + 1))
        sql = f"SELECT 0, word, nodes FROM vocabulary WHERE tenant = ? AND word IN ({word_marks})"
        params: list[Any] = [tenant, NODES_WORD, *words]
        if sentences:
            sql += (
                " UNION ALL SELECT 1, sentence, count(DISTINCT repository) FROM nodes WHERE tenant = ? "
                f"AND kind = 'learning' AND sentence IN ({', '.join('?' * len(sentences))}) GROUP BY sentence"
            )
            params += [tenant, *sentences]
        counts: dict[str, int] = {}
        spread: dict[int, int] = {}
        for which, key, value in self._rows(sql, params):
            if which == 0:
                counts[str(key)] = int(value)
            else:
                spread[int(key)] = int(value)
        return counts.pop(NODES_WORD, 0), counts, spread

    def _counts(self, one: str, params: Sequence[tuple[Any, ...]], keys: Sequence[str]) -> dict[str, int]:
        """Run the scalar ``one`` for each parameter tuple as columns of a single statement."""
        if not keys:
            return {}
        counts: dict[str, int] = {}
        for i in range(0, len(keys), 100):  # SQLite's default limit is 32766 parameters; stay far below
            chunk = params[i : i + 100]
            row = self._rows(
                "SELECT " + ", ".join(f"({one})" for _ in chunk), [p for ps in chunk for p in ps]
            )[0]
            counts.update(zip(keys[i : i + 100], (int(v) for v in row), strict=True))
        return counts

    def neighbour_ids(self, ids: Sequence[str], relations: Sequence[Relation]) -> list[tuple[str, str]]:
        """``(node, neighbour)`` for every edge of ``relations`` touching one of ``ids``, either way.

        Both halves read an index only: the primary key ``(src, dst, relation)`` and
        ``edges_dst (dst, relation, src)``.
        """
        if not ids or not relations:
            return []
        sql, params = _pairs(ids, relations)
        return [(r[0], r[1]) for r in self._rows(sql, params)]

    def nodes_by_ids(self, ids: Sequence[str], tenant: str) -> list[Node]:
        """The nodes of ``tenant`` among ``ids`` (one statement; ``+tenant``: the id index finds
        each node, where SQLite might otherwise pick a ``(tenant, …)`` index and scan the tenant)."""
        if not ids:
            return []
        marks = ", ".join("?" * len(ids))
        rows = self._rows(
            f"SELECT {node_select()} FROM nodes WHERE id IN ({marks}) AND +tenant = ?", [*ids, tenant]
        )
        return [self.node(r) for r in rows]


def _pairs(ids: Sequence[str], relations: Sequence[Relation]) -> tuple[str, list[Any]]:
    marks, rels = ", ".join("?" * len(ids)), ", ".join("?" * len(relations))
    names = [r.value for r in relations]
    sql = (
        f"SELECT src AS seed, dst AS other FROM edges WHERE src IN ({marks}) AND relation IN ({rels}) "
        f"UNION ALL SELECT dst, src FROM edges WHERE dst IN ({marks}) AND relation IN ({rels})"
    )
    return sql, [*ids, *names, *ids, *names]
