"""What a learning says is gone or replaced: "`pnpm install` instead of npm ci", "make test was
removed", "switched from pnpm to bun".

A learning that calls something obsolete closes an older lesson telling to do it
(:func:`osmia.memory.supersession.supersedes`), and is news about its repository whatever words it is
told in (the storing gate, :func:`osmia.memory.lessons.informative`, and universal advice,
:mod:`osmia.memory.advice`). This module reads those things out of a text; the decision about a
pair of lessons stays in :mod:`osmia.memory.lessons`.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

from osmia.memory.lesson_parse import GENERIC_STEMS, Lesson, lesson_words
from osmia.memory.linear import LinearPattern, linear

__all__ = [
    "PATTERNS",
    "Thing",
    "may_be_obsoleted",
    "names_obsolete",
    "normalised",
    "obsolete_things",
    "only_runs",
    "told",
]

_NON_ALNUM = linear(r"[^a-z0-9]+")

# What a learning says is replaced or no longer done, in words ("`pnpm install` instead of npm ci",
# "alembic upgrade head is no longer needed"): the thing follows (group 1 of the first patterns) or
# precedes (the last two) the marker, within one clause of at most 60 characters.
_CLAUSE = r"[^,.;:()!?]"
_INSTEAD_OF = linear(rf"(?i)\binstead\s+of\s+({_CLAUSE}{{1,60}})")
_MOVED_FROM = linear(
    rf"(?i)\b(?:switched|migrated|moved|went|reverted|rolled)\s+(?:away\s+|back\s+)?from\s+({_CLAUSE}{{1,60}}?)\s+"
    r"(?:back\s+)?(?:to|in\s+favou?r\s+of)\b"
)
_REPLACED_WITH = linear(rf"(?i)\breplaced\s+({_CLAUSE}{{1,60}}?)\s+(?:with|by)\b")
_NO_LONGER_USES = linear(
    rf"(?i)\bno\s+longer\s+(?:uses?|used|needs?|needed|runs?|requires?|required|calls?)\s+({_CLAUSE}{{1,60}})"
)
_NOT_NEEDED = linear(
    rf"(?i)({_CLAUSE}{{1,60}}?)\s+(?:is|are|was|were)\s+(?:no\s+longer|not)\s+"
    r"(?:needed|used|required|necessary|supported)\b"
)
_DEPRECATED = linear(rf"(?i)({_CLAUSE}{{1,60}}?)\s+(?:is|are|was|were)\s+deprecated\b")
# "make test was removed", "black was dropped in favour of ruff", "Jenkins is gone", "flake8 has been
# replaced by ruff": the thing is the subject of a verb of removal (not "Removed the unused helper",
# which says what the run did, not what the repository no longer has).
_GONE = linear(
    rf"(?i)({_CLAUSE}{{1,60}}?)\s+(?:is|are|was|were|has\s+been|have\s+been|got)\s+(?:now\s+)?"
    r"(?:removed|dropped|deleted|retired|decommissioned|gone|obsolete|replaced|abandoned)\b"
)
_NO_MORE = linear(rf"(?i)\bno\s+more\s+({_CLAUSE}{{1,60}})")
_OBSOLETE_AFTER = (_INSTEAD_OF, _MOVED_FROM, _REPLACED_WITH, _NO_LONGER_USES, _NO_MORE)
_OBSOLETE_BEFORE = (_NOT_NEEDED, _DEPRECATED, _GONE)
# Whether a text may say that something is obsolete at all (the patterns above run only then).
_SAYS_OBSOLETE = linear(
    r"(?i)\binstead\s+of\b|\b(?:switched|migrated|moved|went|reverted|rolled)\s+(?:away\s+|back\s+)?from\b"
    r"|\breplaced\b|\bno\s+longer\b"
    r"|\bno\s+more\b|\bdeprecated\b|\bnot\s+(?:needed|used|required|necessary|supported)\b"
    r"|\b(?:removed|dropped|deleted|retired|decommissioned|gone|obsolete|abandoned)\b"
)
# A clause of an older lesson that warns against something ("never edit", "not npm") does not tell
# to do the thing a newer one calls obsolete; another clause of it may ("Use pnpm, not npm").
_WARNS = linear(r"(?i)\b(?:never|don't|do\s+not|avoid|not|no\s+longer|instead\s+of|without)\b")
_CLAUSES = linear(r"[,.;:()!?]+|\s+(?:but|and|so)\s+")
_INSTEAD_CLAUSE = linear(r"(?i)\s+(instead\s+of|rather\s+than)\b")
_OBSOLETE_WORDS = 4  # the words of the thing, next to the marker
# Every compiled pattern of this module (tests check that each is an RE2 one).
PATTERNS: tuple[LinearPattern, ...] = (
    _NON_ALNUM, _INSTEAD_OF, _MOVED_FROM, _REPLACED_WITH, _NO_LONGER_USES, _NOT_NEEDED, _DEPRECATED, _GONE,
    _NO_MORE, _SAYS_OBSOLETE, _WARNS, _CLAUSES, _INSTEAD_CLAUSE,
)  # fmt: skip


class Thing(NamedTuple):
    """Something a learning says is obsolete: its words, and the phrase as written (normalised)."""

    words: frozenset[str]
    phrase: str

    def named_in(self, words: frozenset[str], spaced: str) -> bool:
        """Whether a text with these words (and this :func:`normalised` form) names the thing: all
        its words, when one of them is not a generic one ("tests", "build"), or the whole phrase."""
        if self.words <= words and not self.words <= GENERIC_STEMS:
            return True
        return " " in self.phrase and f" {self.phrase} " in spaced


@functools.lru_cache(maxsize=1 << 14)
def normalised(text: str) -> str:
    """Lower-case words of ``text`` joined by single spaces, with a space at each end (cached: a
    repository's lessons are read again at each extraction)."""
    return f" {' '.join(_NON_ALNUM.split(text.lower())).strip()} "


def _thing(text: str) -> Thing | None:
    words = lesson_words(text)
    return Thing(words, normalised(text).strip()) if words else None


@functools.lru_cache(maxsize=1 << 14)
def obsolete_things(text: str) -> tuple[Thing, ...]:
    """Each thing ``text`` says is replaced, removed or no longer needed ("instead of npm ci", "make
    test was removed", "switched from pnpm to bun"): at most four words next to the marker, within
    its clause."""
    if _SAYS_OBSOLETE.search(text) is None:
        return ()
    found = [_thing(" ".join(m.split()[:_OBSOLETE_WORDS])) for p in _OBSOLETE_AFTER for m in p.findall(text)]
    found += [
        _thing(" ".join(m.split()[-_OBSOLETE_WORDS:])) for p in _OBSOLETE_BEFORE for m in p.findall(text)
    ]
    return tuple(t for t in found if t is not None)


@functools.lru_cache(maxsize=1 << 14)
def told(text: str) -> tuple[tuple[frozenset[str], str], ...]:
    """Each clause of ``text`` that warns against nothing (what it tells to do): words, normalised.

    "instead of" and "rather than" start a clause of their own: in "Use `pnpm install` instead of
    npm ci", pnpm install is told and npm ci is not (so "Use npm ci instead of `pnpm install`"
    reverses it rather than restating it).
    """
    return tuple(
        (lesson_words(clause), normalised(clause))
        for clause in _CLAUSES.split(_INSTEAD_CLAUSE.sub(lambda m: ", " + (m.group(1) or ""), text))
        if clause.strip() and _WARNS.search(clause) is None
    )


# A command that runs another: ``poetry run pytest``, ``bundle exec rspec``, ``npx prettier``.
_RUNNER_VERBS = frozenset(["run", "exec", "dlx"])


def only_runs(thing: Thing, text: str) -> bool:
    """Whether ``text`` names ``thing`` only as the runner of another command.

    "Run `poetry run python manage.py makemigrations --check` before pushing" teaches the
    migration check; "we moved from poetry to uv: use `uv run` instead of `poetry run`" changes
    how it is run, not what it teaches, so it does not close it ("Use pnpm, not npm" and "Run
    `pnpm install`" name pnpm as the tool to use, and are closed by a switch away from pnpm).
    """
    words = normalised(text).split()
    phrase = thing.phrase.split()
    size = len(phrase)
    seen = False
    for i in range(len(words) - size + 1):
        if words[i : i + size] != phrase:
            continue
        seen = True
        rest = words[i + size :]
        if phrase[-1] in _RUNNER_VERBS:
            if not rest:
                return False
        elif len(rest) < 2 or rest[0] not in _RUNNER_VERBS:
            return False
    return seen


def may_be_obsoleted(things: tuple[Thing, ...], old: Lesson) -> bool:
    """False only when :func:`_obsoletes` is False for a lesson naming ``things`` obsolete: a cheap
    necessary condition (``old`` names one of them somewhere), for resolving's screen.

    A phrase is looked for in ``old``'s normalised text only when each of its words occurs in the
    text at all (a substring test): most lessons of a repository name none of them.
    """
    lowered: str | None = None
    for t in things:
        if t.words <= old.words and not t.words <= GENERIC_STEMS:
            return True
        if " " in t.phrase:
            lowered = old.text.lower() if lowered is None else lowered
            if all(w in lowered for w in t.phrase.split()) and f" {t.phrase} " in normalised(old.text):
                return True
    return False


def names_obsolete(text: str) -> bool:
    """Whether a learning says a named thing is gone or replaced (a phrase, or a word beyond the
    generic ones): news about the repository, whatever words it is told in."""
    return any(" " in t.phrase or not t.words <= GENERIC_STEMS for t in obsolete_things(text))
