"""Universal advice ranks below every lesson of its repository (osmia/memory/advice.py)."""

from __future__ import annotations

import pytest

from benchmarks.advice_set import evaluate
from osmia.memory.advice import concrete_words, universal_advice
from osmia.memory.lessons import lesson
from osmia.memory.service import Memory, MemorySettings
from osmia.memory.types import Kind
from tests.memory.conftest import Clock, make_run


def test_the_labelled_sets_are_told_apart() -> None:
    figures = evaluate()
    assert figures["advice"][1] == 54 and figures["lessons"][1] > 200
    assert figures["advice"][0] >= 0.85 * 54  # measured: 48 of 54 (45 before the process words)
    assert figures["lessons"][0] <= 0.01 * figures["lessons"][1]  # measured: 1 of 229


def test_the_held_out_sets_are_told_apart() -> None:
    """Sets written by a helper that saw none of the rule: nothing was chosen on them."""
    figures = evaluate()
    caught, advice = figures["held-out advice"]
    assert advice == 60 and caught >= 0.7 * advice  # measured: 45 of 60 (37 before the process words)
    assert figures["held-out plain lessons"][0] <= 2  # measured: 0 of 60 (1 before a consequence counted)
    assert figures["held-out named lessons"] == (0, 30)


@pytest.mark.parametrize(
    "text",
    [
        # Plain words that name things of one repository: a place, a schedule, a component.
        "The sandbox payment provider rejects card numbers outside its published test range",
        "Preview environments are torn down nightly, so reviewers lose their seeded accounts",
        # An identifier of any kind, a code span, a number, or news that something is gone.
        "Check links with make links before publishing",
        "Use `just` for every task here",
        "Stop the indexer (scale to 0) during a reindex",
        "black was dropped in favour of ruff format",
    ],
)
def test_a_lesson_is_no_advice(text: str) -> None:
    assert not universal_advice(text)


@pytest.mark.parametrize(
    "text",
    [
        # Words of how software is made, not of a repository (PROCESS_WORDS).
        "Consistent naming conventions make the codebase easier to understand",
        "Keeping the implementation modular improves maintainability",
        "Reusable abstractions reduce duplication",
        "Descriptive variable names improve readability",
    ],
)
def test_words_of_the_process_name_nothing(text: str) -> None:
    assert universal_advice(text)


@pytest.mark.parametrize(
    ("lesson_text", "advice_text"),
    [
        # Thirty-fifth session: a lesson in common words that says how one system behaves and what
        # follows (a consequence, a condition, a contrast, a state that still holds) is no advice;
        # the same words said without it are. Of 50 plain lessons written blind, 15 were advice.
        (
            "The night job clears the list of late orders, so new orders must be added again in the morning",
            "Orders take a long time to check",
        ),
        ("Old orders keep the first price unless someone opens them again", "Keep orders simple"),
        ("The home page still reads the old list of offers", "Read the page before changing it"),
        ("New users start with a free plan; the change happens after the first payment", "Test new users"),
        ("The mobile build signs with the team key, but not on forks", "Sign your builds"),
        ("Payments are slow because the bank sends them once a day", "Be patient with slow tests"),
    ],
)
def test_a_behaviour_told_with_what_follows_is_no_advice(lesson_text: str, advice_text: str) -> None:
    assert not universal_advice(lesson_text)
    assert universal_advice(advice_text)


def test_concrete_words_are_read_as_written() -> None:
    assert concrete_words("Double-check the read-replica's lag") == {"read-replica", "lag"}
    assert concrete_words("Wait 30 seconds for the answer") == {"30"}
    assert concrete_words("Be careful with shared code") == frozenset()


def test_make_sure_is_english_not_a_make_target() -> None:
    assert not lesson("Make sure the tests run before merging").identifiers
    assert lesson("Run make docs before publishing").identifiers == {"docs"}


async def test_repeated_advice_ranks_below_a_lesson_told_once(tmp_path, clock: Clock) -> None:
    """A young tenant (far fewer nodes than ``specificity_min_nodes``): every word is rare in it."""
    memory = await Memory.open(MemorySettings(store_path=tmp_path / "m.db"), clock=clock, update_gauges=False)
    advice = "Be careful when changing shared modules"
    told_once = "Preview environments are torn down nightly, so reviewers lose their seeded accounts"
    try:
        for i in range(3):
            await memory.ingest(make_run(f"a{i}", learnings=(advice,)))
        await memory.ingest(make_run("s", learnings=(told_once,)))
        explained = await memory.explain(make_run("q", finished=False))
        by_text = {c.node.content: c for c in explained if c.node.kind is Kind.LEARNING}
        repeated, lesson_ = by_text[advice], by_text[told_once]
        assert repeated.node.occurrences == 3 and lesson_.node.occurrences == 1
        assert repeated.node.confidence > lesson_.node.confidence
        assert lesson_.score > repeated.score
        assert any("universal advice" in r for r in repeated.parts.reasons)
        assert not any("universal advice" in r for r in lesson_.parts.reasons)
    finally:
        await memory.close()
