"""The cleaning's whitespace step matches only what it changes, and changes what it always did."""

from __future__ import annotations

import random

from osmia.memory import cleaning
from osmia.memory.linear import linear

# Every code point a Python str can hold and UTF-8 can carry (no surrogates).
_ALL = "".join(chr(c) for c in range(0x110000) if not 0xD800 <= c < 0xE000)
# The step as it was: every run of whitespace, a single space included, replaced by one space.
_RUNS = linear(rf"{cleaning._SPACE}+")


def test_the_single_characters_are_the_whitespace_class_without_the_space() -> None:
    spaces = set(linear(cleaning._SPACE).findall(_ALL))
    odd = set(linear(cleaning._ODD_SPACE).findall(_ALL))
    assert " " in spaces and "\u3000" in spaces
    assert odd == spaces - {" "}


def test_the_step_collapses_runs_as_replacing_every_run_did() -> None:
    spaces = sorted(set(linear(cleaning._SPACE).findall(_ALL)))
    alphabet = [*spaces, " ", " ", "a", "b", "é", "\v"]
    rng = random.Random(7)
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 12)))
        assert cleaning._WHITESPACE.sub(" ", text) == _RUNS.sub(" ", text), repr(text)


def test_a_single_spaced_line_has_nothing_to_replace() -> None:
    line = "Run make generate before go test in services/api; the mocks are not committed"
    assert cleaning._WHITESPACE.search(line) is None
    assert cleaning._WHITESPACE.sub(" ", "a \t b\u00a0c  d") == "a b c d"
