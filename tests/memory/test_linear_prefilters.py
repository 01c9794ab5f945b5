"""The prefilters of osmia/memory/linear.py: one union plus the patterns searched apart.

A prefilter that says "no match" where one pattern matches would let a text skip redaction or
cleaning, so both must agree with searching every pattern in turn, whichever patterns are kept
apart.
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from osmia.memory import cleaning, redaction
from osmia.memory.linear import AnyOf, PatternSet, linear

_PATTERNS = [r"ab+c", r"(?i)key=\w{4,}", r"[A-Za-z0-9+/_-]{12,}", r"^#", r"x\d{3}y"]
_TEXTS = st.text(alphabet="abcKEYkey=x0123456789y#_/+- \n", max_size=60)


@settings(max_examples=400, deadline=None)
@given(_TEXTS, st.sets(st.integers(0, len(_PATTERNS) - 1)))
def test_any_of_agrees_with_each_pattern_whichever_are_apart(text: str, apart: set[int]) -> None:
    joined = [p for i, p in enumerate(_PATTERNS) if i not in apart]
    alone = [p for i, p in enumerate(_PATTERNS) if i in apart]
    prefilter = AnyOf(joined, apart=alone)
    expected = [i for i, p in enumerate(_PATTERNS) if re.search(p, text) is not None]
    assert (prefilter.search(text) is not None) == bool(expected)
    found = PatternSet(_PATTERNS, apart=apart).matching(text)
    assert found == expected


def test_no_patterns_match_nothing() -> None:
    assert AnyOf([]).search("anything") is None
    assert PatternSet([]).matching("anything") == []


def test_the_redaction_and_cleaning_prefilters_keep_the_base64_run_apart() -> None:
    """The run of 32 base64 characters is what made the unions slow on long identifiers."""
    assert redaction.CANDIDATES.apart == (redaction._ENCODED,)
    assert cleaning._TRIGGERS.apart == (redaction._ENCODED,)
    assert redaction._ENCODED not in redaction.CANDIDATES.joined
    identifier = "test_coupon_subscription_concurrent_retry"
    assert redaction.CANDIDATES.union_search(identifier) is None
    assert redaction.CANDIDATES.search(identifier) is not None  # found apart: redaction decides
    assert linear(redaction._ENCODED).search(identifier) is not None
