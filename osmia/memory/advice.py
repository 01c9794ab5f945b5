"""Universal advice: a learning that would be as true of any repository as of this one.

"Be mindful of side effects when refactoring", "Documentation should be kept up to date",
"Communication with the team is important": each passes the storing gate
(:func:`osmia.memory.lessons.informative`: two words beyond the generic ones), and in a young
tenant the tenant's own word counts cannot tell it from a lesson, because every word of a small
store is rare in it (:func:`osmia.memory.statistics.specificity` counts at least
``specificity_min_nodes``). What tells them apart is what the words name. A lesson names
something of its repository: a tool, a component, an environment, a schedule ("Preview
environments are torn down nightly", "the sandbox payment provider rejects card numbers outside
its test range"). Advice is made of the words everyone uses.

A learning is **universal advice** when it names no identifier, version or setting, has no
code span, says nothing is gone or replaced, and fewer than two of its words are *concrete*: a
concrete word is a number, or a content word that is neither generic
(:data:`osmia.memory.lesson_parse.GENERIC_WORDS`) nor among the :data:`COMMON_WORDS` most
frequent words of English. Frequencies come from ``wordfreq`` (a maintained list built from many
sources, read once per process, lazily: a process that never ranks never loads it). Words are
compared as written, not by stem: "staging" is far rarer than "stage", "nightly" than "night".

Measured (``python -m benchmarks.advice_set``, docs/performance.md §29): of the 229 hand-written
lessons of the labelled lesson set, one is called advice; of 54 advice sentences written for the
check, 48 are (the storing gate included). On sets written afterwards by someone who saw none of
this: 1 of 90 lessons, 45 of 60 advice sentences (37 before :data:`PROCESS_WORDS`). A lesson in
common words that says what follows from a behaviour (", so …", "unless …", "because …") is no
advice (thirty-fifth session: of 50 plain lessons written blind, 15 were called advice before, 6
after; 0 of the 90 above; the advice sets unchanged). Ranking gives
advice the lowest specificity, so it ranks below every specific learning of its repository however
often it was repeated; nothing is dropped.
"""

from __future__ import annotations

import functools

from osmia.memory.english import COMMON_WORDS, common_words
from osmia.memory.lesson_parse import generic_word, lesson
from osmia.memory.linear import LinearPattern, linear
from osmia.memory.obsolete import names_obsolete

__all__ = [
    "COMMON_WORDS",
    "PATTERNS",
    "PROCESS_WORDS",
    "common_words",
    "concrete_words",
    "universal_advice",
    "words_in_order",
]

_WORD = linear(r"[A-Za-z][A-Za-z0-9'-]*|\d+")
# What a platitude does not carry: a consequence, a condition, a contrast or a state that holds
# "still" (", so …", "unless …", "because …", "since …", "; …", ", but …", "but not …"). Written in
# common words, a lesson about a particular system says how it behaves and what follows from that
# ("Background jobs are retried forever unless they raise the give-up error"); advice is said
# without conditions ("Always run the tests before pushing"). Of the 137 advice sentences the
# advice sets call advice, one has such a word ("… tricky one but it is sorted now": a self-report,
# and "but" alone is not read); of 50 plain lessons written blind (thirty-fifth session), 11 of the
# 15 called advice have one.
_CONDITIONED = linear(
    r"(?i),[ \t]*so\b|\bso[ \t]+that\b|\bunless\b|\bbecause\b|\bsince\b|;|,[ \t]*but\b|\bbut[ \t]+not\b"
    r"|\bstill\b"
)
# Every compiled pattern of this module (tests check that each is an RE2 one).
PATTERNS: tuple[LinearPattern, ...] = (_WORD, _CONDITIONED)


def concrete_words(text: str) -> frozenset[str]:
    """The words of ``text`` that name something: not stopwords, generic or common English.

    A hyphenated word counts when one of its parts does ("double-check" does not, "read-replica"
    does); a possessive is read without its ``'s``. A number or a word with a digit is concrete
    ("scale to 0", "ten minutes" is not: it is common English).
    """
    common = common_words()
    found: set[str] = set()
    for word in words_in_order(text):
        if any(ch.isdigit() for ch in word):
            found.add(word)
            continue
        if _plain(word, common) or all(_plain(part, common) for part in word.split("-") if part):
            continue
        found.add(word)
    return frozenset(found)


def words_in_order(text: str) -> list[str]:
    """The words and numbers of ``text`` in order, lower-case, a possessive without its ``'s``."""
    return [raw.lower().removesuffix("'s") for raw in _WORD.findall(text)]


# Words of how software is made, not of what a repository holds: qualities, practices and the
# process itself ("modular", "readability", "conventions", "onboarding"). Rarer than English's
# common words, so a sentence of them read as naming two things ("Consistent naming conventions make
# the codebase easier to understand"). Only abstract words: "logging", "dependencies", "modules"
# and "cache" name things a lesson is about, and stay concrete. Chosen on 30 advice sentences
# written for it in the thirty-third session, then measured once on the held-out sets
# (docs/performance.md §40).
_PROCESS_TEXT = """
    codebase codebases debugging debug debugged incremental incrementally iterative iteratively iteration
    maintainability maintainable maintainer maintainers modular modularity readable readability descriptive
    convention conventions naming optimization optimisation premature abstraction abstractions duplication
    duplicated reusable reuse troubleshooting troubleshoot verbose verbosity separation concerns meaningful
    robust robustness assumption assumptions rework intuitive coupling coupled decoupled decoupling cohesion
    encapsulation tricky subtle thorough thoroughly stakeholder stakeholders alignment upfront automation
    automate onboarding documenting documentation documented scalable scalability consistency consistent
    consistently complexity simplicity clarity concise defensive pitfall pitfalls gotcha gotchas nuances
    best practice practices collaboration teammates mindful diligence diligent sanity refactors refactorings
    regression regressions
"""
PROCESS_WORDS = frozenset(_PROCESS_TEXT.split())


def _plain(word: str, common: frozenset[str]) -> bool:
    """A word that names nothing: generic (as the storing gate reads words), common English, or a
    word of the process (:data:`PROCESS_WORDS`)."""
    return generic_word(word) or word in common or word in PROCESS_WORDS


@functools.lru_cache(maxsize=4096)
def universal_advice(text: str) -> bool:
    """Whether a learning names nothing of its repository (see the module docstring).

    Cached per text: ranking asks it for the same few learnings query after query.
    """
    parsed = lesson(text)
    if parsed.strong or parsed.versions or parsed.configured:
        return False
    # A weak identifier names something too (a word in a code span, a subcommand: "make links"),
    # except a hyphenated word, which is as often English ("double-check") as a name: its parts
    # are judged as words are.
    if any("-" not in atom for atom in parsed.identifiers) or "`" in text:
        return False
    # News about the repository is no advice, in any words ("black was dropped in favour of ruff"),
    # nor is a behaviour told with its condition or consequence ("The build machine has no internet
    # access, so every dependency must come from the internal mirror").
    return len(concrete_words(text)) < 2 and not names_obsolete(text) and _CONDITIONED.search(text) is None
