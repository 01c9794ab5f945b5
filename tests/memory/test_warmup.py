"""The start-up warm-up walks the text machinery's costly first-use paths (osmia/memory/warmup.py)."""

from __future__ import annotations

from osmia.memory import advice, confusables, redaction, warmup
from osmia.memory.cleaning import _TRIGGERS
from osmia.memory.linear import linear


def test_every_warm_up_name_is_one_the_redaction_keys_on() -> None:
    # A name the rules stopped keying on would warm nothing: the corpus must follow the rules.
    weak = linear(rf"(?i){redaction._WEAK}")
    for name in warmup._NAMES:
        assert redaction._STRONG_NAME.search(name) or weak.search(name), name


def test_the_corpus_walks_into_the_unions_that_decide_whether_text_needs_work() -> None:
    # Lines the prefilter unions never get deep into would leave their costly states unbuilt: every
    # name is in a line, names and the assignment line complete matches of the secret formats'
    # union, every markup line one of the cleaning steps' union.
    lines = warmup.corpus()
    assert len(lines) == len(warmup._NAMES) * len(warmup._SHAPES) + len(warmup._OTHERS)
    for name in warmup._NAMES:
        assert any(name in line for line in lines), name
    prose = lines[: len(warmup._NAMES) * len(warmup._SHAPES)]
    assert any(redaction.CANDIDATES.search(line) for line in prose)
    assignment = next(line for line in warmup._OTHERS if "=" in line)
    assert redaction.redact(assignment) != assignment  # it reaches the redaction steps themselves
    markup = [line for line in warmup._OTHERS if line.isascii()]
    assert markup and all(_TRIGGERS.search(line) is not None for line in markup)
    assert any(not line.isascii() for line in lines)  # the look-alike table is loaded too


def test_warm_up_loads_the_look_alike_table() -> None:
    confusables._table.cache_clear()
    assert confusables._table.cache_info().currsize == 0
    assert warmup.warm_up() > 0
    assert confusables._table.cache_info().currsize == 1


def test_warm_up_loads_the_common_english_words() -> None:
    advice.common_words.cache_clear()
    assert advice.common_words.cache_info().currsize == 0
    warmup.warm_up()
    assert advice.common_words.cache_info().currsize == 1
    assert {"careful", "shared"} <= advice.common_words()
