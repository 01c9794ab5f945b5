"""A flag's value in a code span, and a version after "must be", tell two lessons apart; a value
given for a narrower part is an exception beside the rule, not its replacement (thirty-sixth
session, docs/decisions.md)."""

from __future__ import annotations

import pytest

from osmia.memory.lessons import lesson, same_lesson, supersedes


def _same(a: str, b: str) -> bool:
    return same_lesson(lesson(a), lesson(b)) and same_lesson(lesson(b), lesson(a))


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (
            "Run the linters with `ruff check --select E` before pushing.",
            "Run the linters with `ruff check --select I` before pushing.",
        ),
        (
            "Build the images with `docker buildx build --platform linux/amd64`.",
            "Build the images with `docker buildx build --platform linux/arm64`.",
        ),
        (
            "Start the workers with `celery worker --concurrency 8`; the queue is CPU bound.",
            "Start the workers with `celery worker --concurrency 1`; the tasks share a lock.",
        ),
        (
            "Set GOFLAGS=-tags=netgo so the binary is static.",
            "Set GOFLAGS=-tags=osusergo so user lookups work.",
        ),
        (
            "terraform must be v1.5; the state file was written by it.",
            "terraform must be v1.7; the new provider needs it.",
        ),
    ],
)
def test_another_value_of_one_flag_or_tool_is_another_lesson(a: str, b: str) -> None:
    assert not _same(a, b)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Run `ruff check --select E` before pushing.", "Before pushing, lint with `ruff check --select E`."),
        (
            "Start the workers with `celery worker --concurrency 8`.",
            "`celery worker --concurrency 8` is how the workers must be started.",
        ),
        # An argument that is a path is no value: a paraphrase may name another one.
        (
            "Run `pytest -x tests/unit` before the slow suite.",
            "Before the slow suite, `pytest -x tests/unit/` first.",
        ),
    ],
)
def test_the_same_flag_values_in_other_words_are_one_lesson(a: str, b: str) -> None:
    assert _same(a, b)


def test_a_value_for_a_narrower_part_does_not_replace_the_rule() -> None:
    rule = lesson("Start the workers with `celery worker --concurrency 8`.")
    exception = lesson("Use `celery worker --concurrency 1` for the imports queue; its tasks share a lock.")
    replacement = lesson("`celery worker --concurrency 4` now, since the nodes were halved.")
    assert not supersedes(exception, rule)
    assert supersedes(replacement, rule)
