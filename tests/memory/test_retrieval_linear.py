"""The retrieval rules read untrusted text with RE2 only (osmia/memory/linear.py), and the rewrites
of the look-arounds RE2 lacks behave as the ``re`` patterns they replaced."""

from __future__ import annotations

import re
import types

import re2
from hypothesis import given, settings
from hypothesis import strategies as st

from osmia.memory import (
    advice,
    lesson_likeness,
    lesson_parse,
    lesson_values,
    lessons,
    obsolete,
    resolve,
    scoring,
    statistics,
    subjects,
    supersession,
    test_ids,
    vocabulary,
)
from osmia.memory.linear import LinearPattern

# The modules that list their compiled patterns (PATTERNS); lessons, resolve and scoring compile
# none of their own.
LISTED = (
    lesson_likeness,
    lesson_values,
    supersession,
    lesson_parse,
    obsolete,
    subjects,
    test_ids,
    statistics,
    advice,
)
MODULES = (lessons, resolve, scoring, *LISTED)


def _compiled(module: types.ModuleType) -> list[object]:
    return [v for v in vars(module).values() if isinstance(v, (LinearPattern, re.Pattern))]


def test_every_retrieval_pattern_is_an_re2_object() -> None:
    for module in MODULES:
        found = _compiled(module)
        assert all(isinstance(p, LinearPattern) for p in found), module.__name__
        assert "re" not in vars(module), f"{module.__name__} imports the backtracking re module"
        for p in found:
            assert isinstance(p, LinearPattern)
            assert isinstance(p._compiled, re2._Regexp), (module.__name__, p.pattern)
    for module in LISTED:
        listed = module.PATTERNS
        assert {id(p) for p in listed} == {id(p) for p in _compiled(module)}, module.__name__
        assert all(isinstance(p._compiled, re2._Regexp) for p in listed)


# The patterns as they were with look-arounds: the reference the rewrites must agree with.
OLD_FLAG = re.compile(r"(?<![\w-])--?[a-zA-Z][\w-]*")
OLD_DOTFILE = re.compile(
    r"\b(?:[a-z]+[A-Z]\w*|[A-Z][a-z0-9]+[A-Z]\w*|[a-z0-9]+(?:_[a-z0-9]+)+|\w+(?:::\w+)+|[a-z]{3,}(?:-[a-z0-9]{3,})+)\b"
    r"|(?<![\w/])\.[a-z][\w.-]+"
)
# Twenty-third session: a version may end a sentence ("Redis 6.2."), so a full stop after it is
# followed by no word character (the reference was ``(?![\w.])``).
OLD_VERSION = re.compile(
    r"(?i)\b([a-z][\w+-]*?)(?:\s+(?:to|at|on|is|of|version|v))?\s*(?:@|==|>=|<=|~=|<|>|\^|~|\s|v)\s*"
    r"v?(\d+(?:\.(?:\d+|x|\*))+|\d+)(?:(?![\w.])|(?=\.(?:\W|$)))"
)
OLD_SENTENCES = re.compile(r"(?<=[.;!?])\s+|\n+")

ASCII_TEXT = st.text(alphabet="ab-_./ =@^~v0129.;!?\nXZ`", max_size=60)


@settings(max_examples=300, deadline=None)
@given(ASCII_TEXT)
def test_flag_code_word_and_version_rewrites_agree_with_the_lookaround_patterns(text: str) -> None:
    flag, code_word, version = lesson_parse._FLAG, lesson_parse._CODE_WORD, lesson_parse._VERSION
    assert [m.group(1) for m in flag.finditer(text)] == OLD_FLAG.findall(text)
    assert [m.group(1) or m.group(2) for m in code_word.finditer(text)] == OLD_DOTFILE.findall(text)
    assert [(m.group(1), m.group(2)) for m in version.finditer(text)] == OLD_VERSION.findall(text)


@settings(max_examples=300, deadline=None)
@given(ASCII_TEXT)
def test_sentence_split_agrees_with_the_lookbehind_split(text: str) -> None:
    assert test_ids.sentences(text) == OLD_SENTENCES.split(text)


def test_the_rules_still_read_real_text() -> None:
    found = lessons.lesson("Use node 20 via .nvmrc and pass --frozen-lockfile, numpy==2.1 now; TIMEOUT=60")
    assert {"--frozen-lockfile", ".nvmrc"} <= found.strong
    assert ("numpy", "2.1") in found.versions and ("node", "20") in found.versions
    assert ("timeout", "60") in found.settings
    assert test_ids.fix_statements("Tried it. Fixed the flaky PolicyCacheIT.evictsOnPolicyUpdate; done!") == [
        "Fixed the flaky PolicyCacheIT.evictsOnPolicyUpdate;"
    ]
    assert (
        test_ids.parse("com.acme.PolicyCacheIT > evictsOnPolicyUpdate()").key
        == "PolicyCacheIT::evictsOnPolicyUpdate"
    )
    assert statistics.profile_traits("codex: 9 runs; strong at bug (90%, n=5); weak at chore (20%, n=5)") == {
        "bug": "strong",
        "chore": "weak",
    }
    assert vocabulary.phrase("Überprüfe die Größe") == "überprüfe die größe"
