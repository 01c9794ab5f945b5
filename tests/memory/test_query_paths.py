"""The query's execution path: one trip, few statements, and the same answers as the long way round.

A store built from the benchmark's simulated history (real SQLite, real ingestion) is queried
with the benchmark's new tickets. A prompt (``context``) takes the short path: candidates that
cannot be kept are not scored exactly, and it stops at ``max_facts``; ``explain`` scores every
candidate. Both must keep the same nodes in the same order. The combined candidate statement
must return what the per-set statements it replaced return, through the same indexes.
"""

from __future__ import annotations

import asyncio
import sqlite3
from dataclasses import replace
from pathlib import Path
from typing import Any, cast

import pytest

from benchmarks.profile import TripCounter
from benchmarks.scenarios import scenarios
from benchmarks.stores import build_store
from benchmarks.workload import GroundTruth
from osmia.memory.candidates import CandidateFinder
from osmia.memory.extractor import attempt_key
from osmia.memory.prompt import HEADING, PREAMBLE, estimate_tokens, line_tokens
from osmia.memory.query import Ranker
from osmia.memory.ranking import DEFAULT
from osmia.memory.service import Memory, MemorySettings, request_for
from osmia.memory.store import node_select
from osmia.memory.store.query_reads import QueryReads, fts_phrase
from osmia.memory.text import query_terms
from osmia.memory.types import QueryRequest, Relation
from osmia.taskrun import TaskRun, parse_taskrun

RUNS = 500
TICKETS = 80


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, GroundTruth]:
    """A store of ``RUNS`` simulated runs (with daily decay), and the simulation's truth."""
    path = tmp_path_factory.mktemp("paths") / "store.db"
    _stats, truth = asyncio.run(build_store(path, RUNS, seed=5))
    return path, truth


def _tickets(truth: GroundTruth, count: int = TICKETS) -> list[TaskRun]:
    return [parse_taskrun(s.doc) for s in scenarios(truth, count, seed=23)]


async def _open(path: Path, truth: GroundTruth, **settings: Any) -> Memory:
    return await Memory.open(
        MemorySettings(store_path=path, **settings),
        clock=lambda: truth.end + 60.0,
        update_gauges=False,
        catch_up=False,
    )


@pytest.mark.parametrize(("max_facts", "token_budget"), [(3, 600), (10, 600), (25, 600), (10, 200)])
async def test_a_prompt_keeps_exactly_what_explain_keeps(
    built: tuple[Path, GroundTruth], max_facts: int, token_budget: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two memories on one file, one asked for prompts, one for explanations, ticket by ticket
    (their caches fill alike): the same kept nodes, in the same order, with the same scores.

    25 facts leave room after every candidate had its turn: the second pass then fills it, with
    candidates the prompt's path postponed unscored (their kind's cap was full) among them. 200
    tokens run out first: the prompt's path then prices candidates before it scores them.
    """
    path, truth = built
    postponed: set[str] = set()
    in_order = Ranker._in_order

    def watched(self: Ranker, *args: Any, postpone: Any = None, **kwargs: Any) -> Any:
        def noted(entry: Any) -> bool:
            taken = bool(postpone(entry))
            if taken:
                postponed.add(entry.node.id)
            return taken

        return in_order(self, *args, postpone=None if postpone is None else noted, **kwargs)

    monkeypatch.setattr(Ranker, "_in_order", watched)
    prompts = await _open(path, truth, max_facts_per_query=max_facts, token_budget=token_budget)
    explains = await _open(path, truth, max_facts_per_query=max_facts, token_budget=token_budget)
    try:
        specific = late = 0
        for run in _tickets(truth):
            postponed.clear()
            context = await prompts.context(run)
            candidates = await explains.explain(run)
            kept = [(c.node.id, c.score) for c in candidates if c.kept]
            assert [(n.id, n.score) for n in context.injected] == kept
            specific += sum(
                1 for c in candidates for _f, why in c.parts.discounts if why.startswith("specificity")
            )
            late += sum(1 for n in context.injected if n.id in postponed)
        assert specific > 0  # learnings were scaled by their specificity: the lazy path had work to do
        if max_facts == 25:
            assert late > 0  # postponed candidates were scored and kept, in explain's order
    finally:
        await prompts.close()
        await explains.close()


async def test_a_query_takes_no_trip_and_at_most_four_statements(built: tuple[Path, GroundTruth]) -> None:
    path, truth = built
    memory = await _open(path, truth)
    try:
        async with TripCounter(memory._store._conn, memory._store) as counter:
            vocabulary = 0
            for run in _tickets(truth, 12):
                for _ in range(2):  # cold (the full-text term counts are looked up), then warm
                    counter.reset()
                    await memory.context(run)
                    # Whatever it looked up, on the calling thread's reader: no trip to the worker.
                    assert counter.trips == 0
                    assert counter.statements
                seen = counter.statements
                # Warm: every candidate set, the neighbours' ids and the new ones' rows, and the
                # vocabulary of the candidate learnings (word counts and sentence spread).
                assert len(seen) <= 4, seen
                assert seen[0].startswith("SELECT * FROM (SELECT "), seen
                vocabulary += any("FROM vocabulary" in s for s in seen)
            assert vocabulary > 0
    finally:
        await memory.close()


def _one_by_one(db: sqlite3.Connection, req: QueryRequest, match: str) -> list[list[str]]:
    """The candidate sets as the store read them before they were one statement (ids, in order)."""
    c = DEFAULT
    cols = node_select()
    prefix = attempt_key(req.ticket_id)
    sets = [
        ("tenant = ? AND key >= ? AND key < ? ORDER BY last_seen DESC, id LIMIT ?",
         (req.tenant, prefix, prefix + "\U0010ffff", c.max_attempts + 1)),
        ("tenant = ? AND repository = ? AND valid_to IS NULL AND kind != 'attempt' "
         "ORDER BY confidence DESC, id LIMIT ?",
         (req.tenant, req.repository, c.limit_repository)),
        ("tenant = ? AND engine = ? AND valid_to IS NULL AND repository = '' "
         "ORDER BY confidence DESC, id LIMIT ?", (req.tenant, req.engine, c.limit_engine)),
        ("tenant = ? AND kind = 'pattern' AND valid_to IS NULL AND engine = '' AND repository = '' "
         "AND (task_type = ? OR language = ?) ORDER BY confidence DESC, id LIMIT ?",
         (req.tenant, req.task_type, req.language, c.limit_pattern)),
    ]  # fmt: skip
    out = [
        [r[0] for r in db.execute(f"SELECT {cols} FROM nodes WHERE {where}", params)]
        for where, params in sets
    ]
    text = db.execute(
        f"SELECT {node_select('n')}, bm25(nodes_fts) AS rank FROM nodes_fts "
        "JOIN nodes n ON n.seq = nodes_fts.rowid WHERE nodes_fts MATCH ? AND n.tenant = ? "
        "ORDER BY rank, n.id LIMIT ?",
        (match, req.tenant, c.limit_text),
    )
    return [*out, [r[0] for r in text]]


def test_the_candidate_statement_returns_what_the_per_set_statements_did(
    built: tuple[Path, GroundTruth],
) -> None:
    path, truth = built
    db = sqlite3.connect(path)
    try:
        nonempty = [0] * 5
        for run in _tickets(truth, 40):
            req = request_for(run)
            match = " OR ".join(fts_phrase(t) for t in query_terms(req.text)[:6])
            sets = QueryReads(db).candidate_sets(
                req.tenant,
                attempt_prefix=attempt_key(req.ticket_id),
                attempt_limit=DEFAULT.max_attempts + 1,
                repository=req.repository,
                repository_limit=DEFAULT.limit_repository,
                engine=req.engine,
                engine_limit=DEFAULT.limit_engine,
                task_type=req.task_type,
                language=req.language,
                pattern_limit=DEFAULT.limit_pattern,
                match=match,
                text_limit=DEFAULT.limit_text,
            )
            got = [[n.id for n in s] for s in (sets.attempts, sets.repository, sets.engine, sets.patterns)]
            got.append([n.id for n, _rank in sets.text])
            assert got == _one_by_one(db, req, match)
            nonempty = [k + bool(s) for k, s in zip(nonempty, got, strict=True)]
        assert all(nonempty[1:])  # repository, engine, pattern and text sets were all compared non-empty
    finally:
        db.close()


def test_each_candidate_set_is_read_through_its_index(built: tuple[Path, GroundTruth]) -> None:
    path, _truth = built
    db = sqlite3.connect(path)
    plans: list[str] = []

    class Plan(QueryReads):
        def _rows(self, sql: str, params: Any = ()) -> list[Any]:
            plans.extend(str(r[3]) for r in self._db.execute("EXPLAIN QUERY PLAN " + sql, params))
            return []

    try:
        Plan(db).candidate_sets(
            "ticketing", attempt_prefix="attempt:X:", attempt_limit=4, repository="acme/a",
            repository_limit=60, engine="codex", engine_limit=60, task_type="bug", language="go",
            pattern_limit=60, match='"x"', text_limit=60,
        )  # fmt: skip
        Plan(db).neighbour_ids(["a", "b"], [Relation.RELATES_TO, Relation.CONTRADICTS])
        Plan(db).nodes_by_ids(["a", "b"], "ticketing")
    finally:
        db.close()
    text = "\n".join(plans)
    for index in (
        "sqlite_autoindex_nodes_2 (tenant=? AND key>? AND key<?)",
        "nodes_repository_facts (tenant=? AND repository=?)",
        "nodes_engine (tenant=? AND engine=? AND repository=?)",  # the engine's and the tenant-wide patterns
        "nodes_fts VIRTUAL TABLE",
        "edges_dst (dst=? AND relation=?)",
        "sqlite_autoindex_nodes_1 (id=?)",  # the new neighbours' rows, by id
    ):
        assert index in text, text
    assert not [p for p in plans if p.startswith("SCAN n") and "VIRTUAL" not in p and "subquery" not in p], (
        text
    )


def test_term_counts_cut_at_one_budget_are_not_read_against_another(built: tuple[Path, GroundTruth]) -> None:
    path, truth = built
    db = sqlite3.connect(path)

    class Graph:
        node_count = 1000

    try:
        reads = QueryReads(db)
        finder = CandidateFinder(cast(Any, Graph()))
        terms = sorted({t for run in _tickets(truth, 30) for t in query_terms(request_for(run).text)})
        assert finder.searchable(reads, terms, replace(DEFAULT, text_max_postings=5))
        assert max(finder._df.values()) == 6  # cut at the budget + 1
        finder.searchable(reads, terms, replace(DEFAULT, text_max_postings=100_000))
        one = "SELECT count(*) FROM nodes_fts WHERE nodes_fts MATCH ?"
        assert finder._df == {t: db.execute(one, (fts_phrase(t),)).fetchone()[0] for t in terms}
    finally:
        db.close()


def test_counts_in_one_statement_equal_counts_one_by_one(built: tuple[Path, GroundTruth]) -> None:
    path, truth = built
    db = sqlite3.connect(path)
    try:
        terms = sorted({t for run in _tickets(truth, 30) for t in query_terms(request_for(run).text)})
        assert len(terms) > 100  # more than one chunk of the combined statement
        one = "SELECT count(*) FROM nodes_fts WHERE nodes_fts MATCH ?"
        exact = {t: db.execute(one, (fts_phrase(t),)).fetchone()[0] for t in terms}
        cap = sorted(exact.values())[len(exact) // 2] + 1  # some counts reach it, some do not
        reads = QueryReads(db)
        counts = reads.term_doc_counts(terms, at_most=cap)
        assert counts == {t: min(n, cap) for t, n in exact.items()}
        assert reads.statements == 2
        assert any(counts.values()) and max(exact.values()) > cap
        assert QueryReads(db).term_doc_counts([], at_most=cap) == {}
    finally:
        db.close()


async def test_a_line_changed_since_it_was_priced_is_priced_again(
    built: tuple[Path, GroundTruth], tmp_path: Path
) -> None:
    """A ranker keeps each line's price between queries, for the node object it priced: a row that
    changes reads back as a new node, so a lengthened line is priced again and the section still
    fits the budget (a price kept by id alone would let it overflow)."""
    path, truth = built
    copy = tmp_path / "store.db"
    with sqlite3.connect(path) as src, sqlite3.connect(copy) as dst:
        src.backup(dst)
    run = _tickets(truth, 1)[0]
    roomy = await _open(copy, truth)
    try:
        first = await roomy.context(run)
    finally:
        await roomy.close()
    assert first.injected
    needed = estimate_tokens(f"{HEADING}\n\n{PREAMBLE}\n\n") + sum(line_tokens(n) for n in first.injected)
    memory = await _open(copy, truth, token_budget=needed)  # exactly what the section takes
    try:
        again = await memory.context(run)
        assert again.injected == first.injected
        last = first.injected[-1].id
        with sqlite3.connect(copy) as db:
            db.execute("UPDATE nodes SET content = content || ? WHERE id = ?", (" and more" * 20, last))
        changed = await memory.context(run)
        assert last not in [n.id for n in changed.injected]  # no longer fits
        assert estimate_tokens(changed.section) <= needed
    finally:
        await memory.close()
