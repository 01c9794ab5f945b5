"""Redaction gives each text only the steps whose pattern matches it (osmia/memory/redaction.py).

The reference is what redaction did before: every step in turn, pass after pass. The two must
agree on every text: planted secrets of every format, ordinary engineering text, several
secrets and near misses in one text, texts whose redaction uncovers another secret, and texts
where RE2's set could not answer.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from osmia.memory import redaction, secret_formats
from osmia.memory.linear import PatternSet, linear
from osmia.memory.redaction import CANDIDATES, redact
from tests.fixtures.secrets.clean import clean_corpus
from tests.fixtures.secrets.corpus import secret_corpus


def every_step(text: str) -> str:
    """Redaction as it was: each of the steps on every text that any may act on, then each value
    taken out taken wherever else the text repeats it."""
    if CANDIDATES.search(text) is None:
        return text
    original = text
    for _ in range(redaction._MAX_PASSES):
        before = text
        for _pattern, step in redaction._STEPS:
            text = step(text)
        if text == before:
            break
    return text if text == original else redaction._elsewhere(original, text)


def corpus() -> list[str]:
    planted = [p.text for p in secret_corpus()]
    clean = clean_corpus()
    rng = random.Random(7)
    # Several secrets, near misses and prose in one text, in any order and across lines.
    mixed = ["\n".join(rng.sample(planted + clean, 4)) for _ in range(300)]
    joined = [" ".join(rng.sample(planted, 2)) for _ in range(300)]
    return planted + clean + mixed + joined


_PIECES = [
    "password=",
    "DB_PASSWORD: ",
    "--token ",
    "api_key=",
    "Authorization: Bearer ",
    "ghp_",
    "AKIA",
    "-----BEGIN RSA PRIVATE KEY-----\n",
    "\n-----END RSA PRIVATE KEY-----",
    "https://user:",
    "@db.example.com/",
    "set -gx API_TOKEN ",
    'os.Setenv("DB_PASSWORD", "',
    '"',
    "'",
    "\n",
    " ",
    "auth-api",
    "session=",
    "Summer2024!",
    "hunter2",
    "Zm9vYmFyYmF6cXV4cXV1eGNvcmdlZ3JhdWx0Z2FycGx5d2FsZG8=",
    "sk-",
    "xoxb-",
    "[redacted]",
]
_RANDOM = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+/=_-", max_size=48)


def test_every_corpus_text_is_redacted_as_by_every_step() -> None:
    texts = corpus()
    acted = 0
    for text in texts:
        expected = every_step(text)
        assert redact(text) == expected, text
        acted += expected != text
    assert len(texts) > 1500 and acted > 1000, acted  # most planted secrets and the mixes change


@settings(max_examples=400, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(_PIECES), _RANDOM), min_size=1, max_size=12))
def test_generated_texts_are_redacted_as_by_every_step(pieces: list[str]) -> None:
    text = "".join(pieces)
    assert redact(text) == every_step(text)


class _NoAnswer:
    """RE2's set when its automaton runs out of memory: no answer, which reads as no match."""

    def Match(self, _text: str) -> None:
        return None


def test_when_the_set_cannot_answer_every_step_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = [t for t in corpus()[:600] if CANDIDATES.search(t) is not None]
    assert texts
    no_answers = tuple((_NoAnswer(), group) for _automaton, group in redaction._STEP_SET._sets)
    monkeypatch.setattr(redaction._STEP_SET, "_sets", no_answers)
    apart = set(redaction.CANDIDATES.apart)  # searched on their own, answered exactly
    in_set = [i for i, (pattern, _step) in enumerate(redaction._STEPS) if pattern not in apart]
    told = 0
    for text in texts:
        if CANDIDATES.union_search(text) is not None:  # the set would have named one at least
            assert set(redaction._STEP_SET.matching(text)) >= set(in_set), text
            told += 1
        assert redact(text) == every_step(text), text
    assert told > 0.5 * len(texts), told
    assert redaction._STEP_SET.matching("nothing to see") == []  # the union says no step can act


@pytest.mark.parametrize("max_mem", [8 << 20, 11 << 19, 64 << 20])
def test_a_set_finds_the_patterns_each_search_finds_or_all_of_them(max_mem: int) -> None:
    """Within its memory budget a set answers exactly; over it, RE2 gives no answer and every
    pattern of the set is named (a superset, never fewer), besides the ones searched apart, which
    always answer exactly. 8 MB is redaction's own budget; the set's program alone took ~3.1 MB
    (~2.3 MB in the twenty-second session, when the rule for tokens written onto a word added
    ~0.25 MB; the twenty-fifth session's 40 more formats ~0.6 MB; the twenty-eighth session's
    service configs and tables ~0.1 MB: ~3.45 MB; the thirty-first session's ~0.5 MB more: it
    compiled in 4 MB, not in 3.75; the thirty-fifth session's ~0.25 MB more: in 4.25, not in 4; the
    thirty-seventh's ~0.2 MB more: ~4.48 MB; the thirty-eighth's ~0.05 MB more: ~4.53 MB, it
    compiles in 4.75 MB, not in 4.5; the forty-sixth's steps ~0.45 MB more: it compiles in 4.98 MB;
    the forty-seventh's ~0.1 MB more, its two heaviest patterns behind gates: 5.08 MB; the
    forty-eighth's forty rules behind gates, and an XML element's pattern read through a gate of
    its own, which saved ~0.25 MB: 5.09 MB; the forty-ninth's steps for CLI tables, weak names'
    objects, an address's opening before a literal and tables of names and values, the
    other languages' table nouns read through a gate of their own: 5.23 MB; the fiftieth's four
    general steps and Cisco's formats, ~0.06 MB: 5.29 MB; the fifty-first's step for an unnamed
    random run, nothing the search's resolution shows, and three rules for a password quoted
    whole after curl's ``-u`` or after a storage scheme's name, ~0.02 MB: 5.31 MB; the
    fifty-second's steps for hex keys, recovery words, wallets' keys, PINs, SQL rows and stream
    keys, ~0.17 MB: 5.48 MB), so 5.5 MB leaves its automaton little room."""
    patterns = [pattern for pattern, _step in redaction._STEPS]
    apart = [index for index, pattern in enumerate(patterns) if pattern == redaction._ENCODED]
    assert len(apart) == 1
    each = [linear(p) for p in patterns]
    found = PatternSet(patterns, apart=apart, max_mem=max_mem)
    in_set = [index for index in range(len(patterns)) if index not in apart]
    exact = 0
    texts = corpus()[:1500]
    for text in texts:
        expected = [i for i, p in enumerate(each) if p.search(text) is not None]
        got = found.matching(text)
        everything = sorted(in_set + [i for i in apart if i in expected])
        assert got in (expected, everything), text
        assert (CANDIDATES.search(text) is not None) == bool(expected), text
        exact += got == expected
    if max_mem >= 8 << 20:
        assert exact > 0.9 * len(texts), exact


def test_a_step_that_uncovers_a_later_steps_match_is_followed_by_that_step(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Synthetic steps: the first turns "a" into "b", which only the second acts on (and the third
    # never matches): one pass gives "c", as applying every step in turn does.
    steps = (("a", lambda t: t.replace("a", "b")), ("b", lambda t: t.replace("b", "c")), ("z", lambda t: t))
    monkeypatch.setattr(redaction, "_STEPS", steps)
    monkeypatch.setattr(redaction, "_STEP_SET", PatternSet(p for p, _s in steps))
    assert redaction._one_pass("xa") == "xc"
    assert redaction._one_pass("xbz") == "xcz"
    assert redaction._one_pass("xyz") == "xyz"


def test_the_formats_found_inside_words_are_whole_token_rules() -> None:
    """secret_formats.GLUED_RULE joins their patterns: each must be a whole match (group 0) with no
    check of its own (but ``not_placeholder``, which the joined rule applies too), written from a word
    boundary, or the joined rule would redact the wrong part."""
    names = {rule.name for rule in secret_formats.RULES}
    assert names >= secret_formats.GLUED
    for rule in secret_formats.RULES:
        if rule.name in secret_formats.GLUED:
            check_ok = rule.check is None or rule.check is secret_formats.not_placeholder
            assert rule.group == 0 and check_ok and rule.pattern.pattern.startswith("\\b"), rule.name
