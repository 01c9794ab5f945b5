"""The start-up warm-up walks the text machinery's costly first-use paths (osmia/memory/warmup.py)."""

from __future__ import annotations

import sqlite3

from osmia.memory import confusables, english, lesson_parse, prompt, redaction, secret_names, warmup
from osmia.memory.cleaning import _TRIGGERS, _needs_pass
from osmia.memory.linear import linear
from osmia.memory.service import Memory, MemorySettings
from tests.memory.conftest import Clock, make_run


def test_every_warm_up_name_is_one_the_redaction_keys_on() -> None:
    # A name the rules stopped keying on would warm nothing: the corpus must follow the rules.
    weak = linear(rf"(?i){secret_names._WEAK}")
    for name in warmup._NAMES:
        assert secret_names._STRONG_NAME.search(name) or weak.search(name), name


def test_the_corpus_walks_into_the_unions_that_decide_whether_text_needs_work() -> None:
    # Lines the prefilter unions never get deep into would leave their costly states unbuilt: every
    # name is in a line, names and the assignment line complete matches of the secret formats'
    # union, every markup line one of the unions that decide whether cleaning has work.
    lines = warmup.corpus()
    assert len(lines) == len(warmup._NAMES) * len(warmup._SHAPES) + len(warmup._OTHERS)
    for name in warmup._NAMES:
        assert any(name in line for line in lines), name
    prose = lines[: len(warmup._NAMES) * len(warmup._SHAPES)]
    assert any(redaction.CANDIDATES.search(line) for line in prose)
    assignment = next(line for line in warmup._OTHERS if "=" in line)
    assert redaction.redact(assignment) != assignment  # it reaches the redaction steps themselves
    markup = [line for line in warmup._OTHERS if line.isascii()]
    assert markup and all(_needs_pass(line) for line in markup)
    assert sum(_TRIGGERS.search(line) is not None for line in markup) >= 2  # cleaning's own union too
    assert any(not line.isascii() for line in lines)  # the look-alike table is loaded too


def test_warm_up_loads_the_look_alike_table() -> None:
    confusables._table.cache_clear()
    assert confusables._table.cache_info().currsize == 0
    assert warmup.warm_up() > 0
    assert confusables._table.cache_info().currsize == 1


def test_warm_up_loads_the_common_english_words() -> None:
    english.common_words.cache_clear()
    assert english.common_words.cache_info().currsize == 0
    warmup.warm_up()
    assert english.common_words.cache_info().currsize == 1
    assert {"careful", "shared"} <= english.common_words()


async def test_the_lasting_texts_are_the_nodes_decay_keeps_longest(memory: Memory, clock: Clock) -> None:
    """``Memory.lasting_texts``: ordered by the cycle decay prunes each node at (the latest first:
    reinforced, confident, slow to decay), read off the ``nodes_prune_at`` index."""
    await memory.ingest(make_run("a", learnings=("Run `make generate` after editing api/schema.graphql",)))
    for i in range(3):  # reinforced three more times: it lasts longest
        clock.advance(3600)
        await memory.ingest(make_run(f"b{i}", learnings=("Set GOFLAGS=-mod=mod before go build in CI",)))
    conn = sqlite3.connect(memory._settings.store_path)  # a reader of its own, as the CLI is
    prune_at = dict(conn.execute("SELECT content, prune_at FROM nodes WHERE prune_at IS NOT NULL").fetchall())
    texts = await memory.lasting_texts(len(prune_at) + 5)
    assert texts[0] == "Set GOFLAGS=-mod=mod before go build in CI"
    assert sorted(texts) == sorted(prune_at) and len(prune_at) > 2
    cycles = [prune_at[t] for t in texts]
    assert cycles == sorted(cycles, reverse=True)
    assert await memory.lasting_texts(1) == texts[:1]
    query = "SELECT content FROM nodes WHERE prune_at IS NOT NULL ORDER BY prune_at DESC LIMIT 5"
    plan = conn.execute(f"EXPLAIN QUERY PLAN {query}").fetchall()
    conn.close()
    assert any("nodes_prune_at" in str(row[-1]) for row in plan)


def test_warm_up_on_stored_lines_fills_the_render_and_lesson_caches() -> None:
    lines = [
        f"Earlier attempt at ORD-{i}: failed; failing: `tests/test_orders.py::test_refund_{i}`"
        for i in range(5)
    ]
    prompt._clean.cache_clear()
    lesson_parse.lesson.cache_clear()
    warmup.warm_up(lines)
    assert prompt._clean.cache_info().currsize == len(lines)
    assert lesson_parse.lesson.cache_info().currsize >= len(lines)
    prompt._clean.cache_clear()
    warmup.warm_up(iter(lines * (warmup.STORED_LINES // len(lines) + 2)))  # at most STORED_LINES read
    info = prompt._clean.cache_info()
    assert info.misses == len(lines) and info.hits == warmup.STORED_LINES - len(lines)


def test_a_store_whose_lines_render_as_stored_is_warmed_on_lessons_only() -> None:
    """Stamped lines are shown without cleaning them again (clean_stamp), so a start-up on such a
    store leaves the render cache empty and still reads the lines as lessons."""
    lines = [f"Run `make generate` in services/billing-{i} before the tests" for i in range(4)]
    prompt._clean.cache_clear()
    lesson_parse.lesson.cache_clear()
    warmup.warm_up(lines, render=False)
    assert prompt._clean.cache_info().currsize == 0
    assert lesson_parse.lesson.cache_info().currsize >= len(lines)


async def test_renders_as_stored_follows_the_stamps(memory: Memory) -> None:
    """A store with no line written yet renders as stored; one with a line this process wrote
    without its stamp does not, until the maintenance stamps it."""
    assert await memory.renders_as_stored()
    await memory.ingest(make_run("a", learnings=("Run `make generate` after editing api/schema.graphql",)))
    assert not await memory.renders_as_stored()
    await memory.maintain()
    assert await memory.renders_as_stored()


async def test_a_store_stamped_by_an_earlier_process_renders_as_stored_from_its_opening(
    settings: MemorySettings, clock: Clock
) -> None:
    """The operator warms on a store an earlier process stamped: the store's record of the cleaning
    its rows carry says so before any maintenance pass of this process."""
    first = await Memory.open(settings, clock=clock, update_gauges=False)
    await first.ingest(make_run("a", learnings=("Run `make generate` after editing api/schema.graphql",)))
    await first.close()  # closing stamps what it wrote
    again = await Memory.open(settings, clock=clock, update_gauges=False)
    try:
        assert again._store._stamps_current == ""  # nothing checked yet in this process
        assert await again.renders_as_stored()
    finally:
        await again.close()
