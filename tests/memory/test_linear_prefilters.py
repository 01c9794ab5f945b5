"""The prefilters of osmia/memory/linear.py: unions plus the patterns searched apart, and the filter
of the parts a text's words allow.

A prefilter that says "no match" where one pattern matches would let a text skip redaction,
cleaning or the hostility check, so each must agree with searching every pattern in turn, whichever
patterns are kept apart or split by case.
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from osmia.memory import cleaning, redaction
from osmia.memory.linear import AnyOf, LinearParts, PatternSet, linear
from osmia.memory.secret_mnemonic import MNEMONIC_GATE

_PATTERNS = [r"ab+c", r"(?i)key=\w{4,}", r"[A-Za-z0-9+/_-]{12,}", r"^#", r"x\d{3}y", r"(?i)\bab\b"]
_TEXTS = st.text(alphabet="abcKEYkey=x0123456789y#_/+- \n", max_size=60)


@settings(max_examples=400, deadline=None)
@given(
    _TEXTS,
    st.sets(st.integers(0, len(_PATTERNS) - 1)),
    st.booleans(),
    st.one_of(st.none(), st.integers(1, len(_PATTERNS))),
)
def test_any_of_agrees_with_each_pattern_whichever_are_apart(
    text: str, apart: set[int], by_case: bool, most: int | None
) -> None:
    """... and the set's answer, however many automata its patterns are split into."""
    joined = [p for i, p in enumerate(_PATTERNS) if i not in apart]
    alone = [p for i, p in enumerate(_PATTERNS) if i in apart]
    prefilter = AnyOf(joined, apart=alone, by_case=by_case)
    expected = [i for i, p in enumerate(_PATTERNS) if re.search(p, text) is not None]
    assert (prefilter.search(text) is not None) == bool(expected)
    found = PatternSet(_PATTERNS, apart=apart, by_case=by_case, most=most).matching(text)
    assert found == expected


def test_a_set_split_by_case_and_size_keeps_each_family_together() -> None:
    """``most`` splits the patterns that ignore case from the others, then into runs of at most
    ``most`` in their order: here two automata for the three (?i) patterns and two for the others."""
    patterns = [r"a1", r"(?i)b1", r"a2", r"(?i)b2", r"a3", r"(?i)b3", r"a4"]
    split = PatternSet(patterns, most=2)
    assert [group for _automaton, group in split._sets] == [[1, 3], [5], [0, 2], [4, 6]]
    assert split.matching("A1 a3 B2 b3") == [3, 4, 5]
    assert [group for _automaton, group in PatternSet(patterns)._sets] == [list(range(7))]


# Parts with required words (some only in one case, some in alternatives, one in Cyrillic letters
# matched in any case) and one with none; texts with letters outside ASCII and a lone surrogate.
# Word characters are spelled out: RE2's ``\w`` is ASCII's, Python's (the oracle here) takes ``é``
# too (``KEY=00é`` matched ``key[ =]+\w{3}`` in one and not the other).
_PARTS = [
    r"(?i)\bkey[ =]+[A-Za-z0-9_]{3}",
    r"ab(?:c|yy)x",
    r"(?i)(?:KEY|abc)\d",
    r"\d{3}",
    r"(?i)y=x",
    r"(?i)ключ[A-Za-z0-9_]*",
]
_ANY_TEXTS = st.text(alphabet="abcKEYkey=x0123456789y#_/+- \néКЛЮЧключ\ud800", max_size=60)


@settings(max_examples=400, deadline=None)
@given(_ANY_TEXTS)
def test_linear_parts_find_what_every_part_finds(text: str) -> None:
    """The filter of parts skips only parts that cannot match: the same matches, part by part."""
    parts = LinearParts(_PARTS)
    seen = text.replace("\ud800", "\ufffd")  # a lone surrogate is searched as U+FFFD, in its place
    expected = [m.span() for p in _PARTS for m in re.finditer(p, seen)]
    assert [(m.start(), m.end()) for m in parts.finditer(text)] == expected
    first = parts.search(text)
    assert (first is None) == (not expected)
    if first is not None:
        assert (first.start(), first.end()) == expected[0]


def test_the_parts_filter_names_only_parts_whose_words_are_there() -> None:
    """What makes it worth having: a text without a part's required words skips that part."""
    parts = LinearParts(_PARTS)
    assert parts._filter.possible("nothing here") == [3]  # the part with no required word
    assert parts._filter.possible("the KEY = abc") == [0, 2, 3]


def test_no_patterns_match_nothing() -> None:
    assert AnyOf([]).search("anything") is None
    assert PatternSet([]).matching("anything") == []


def test_the_redaction_and_cleaning_prefilters_keep_the_base64_run_apart() -> None:
    """The run of 32 base64 characters is what made the unions slow on long identifiers; twelve
    short words in a row (the recovery words' gate) made them slow on prose (docs/performance.md
    §59)."""
    assert set(redaction.CANDIDATES.apart) == {redaction._ENCODED, MNEMONIC_GATE}
    assert redaction._ENCODED not in redaction.CANDIDATES.joined
    assert MNEMONIC_GATE not in redaction.CANDIDATES.joined
    identifier = "test_coupon_subscription_concurrent_retry"
    assert redaction.CANDIDATES.union_search(identifier) is None
    assert redaction.CANDIDATES.search(identifier) is not None  # found apart: redaction decides
    assert linear(redaction._ENCODED).search(identifier) is not None
    # Cleaning asks redaction's own prefilter (its union holds none of redaction's patterns).
    assert not set(cleaning._TRIGGERS.joined) & set(redaction.CANDIDATES.joined)
    assert cleaning._TRIGGERS.search(identifier) is None
    assert cleaning._needs_pass(identifier)


def test_the_hostility_filters_answer_on_text_with_every_word_they_look_for() -> None:
    """A filter's literal scan could only miss a part if its automaton ran out of memory, and a set
    of literals has no more states than their letters: text made of every word the hostility
    parts spell, shuffled and long, still names each part that matches it."""
    import random

    from osmia.memory.hostile_acts import ACTS
    from osmia.memory.hostile_guards import GUARD_WEAKENED
    from osmia.memory.hostile_orders import ORDERS
    from osmia.memory.hostile_tongues import TONGUES

    for family in (ORDERS, ACTS, GUARD_WEAKENED, TONGUES):
        words = sorted({w for part in family.parts for w in re.findall(r"[^\W\d_]{3,}", part.pattern)})
        random.Random(7).shuffle(words)
        text = " ".join(words * 20)
        matching = [i for i, part in enumerate(family.parts) if part.search(text) is not None]
        assert matching, family
        assert set(matching) <= set(family._filter.possible(text))


def test_a_union_keeps_each_pattern_s_own_flags() -> None:
    """Leading flags apply to their pattern alone; a group with flags at the start is no flags."""
    assert AnyOf(["(?i:ab)cd"]).search("ABcd") is not None
    assert AnyOf(["(?i:ab)cd"]).search("abCD") is None
    assert AnyOf(["(?i)ab", "cd"]).search("CD") is None
    assert AnyOf(["(?is)a.b"]).search("A\nB") is not None
