"""What a statistic or a learning says: the gate for tenant-wide statistics and a learning's specificity.

**Generic statistics are gated.** A tenant-wide statistic (an engine profile, a
success-rate pattern, a duration pattern) enters a section only when it is
about the ticket's engine *and* task type and says something about them: a
strength or a weakness. A rate in the mixed band, a profile that names the
task type neither as a strength nor as a weakness, a duration (about every
engine), a rate about another language: none of these tells this run anything.

**Informative beats frequent.** A learning's specificity is 1 when it names an
unmistakable identifier (a path, variable, flag, version, code-style name), else
measured from the tenant's own vocabulary: the rarity of its words (``1 − log(1 + df) / log(1 + N)``
over the tenant's nodes; the mean of its two rarest words), divided by the square
root of its *spread*: in how many of the tenant's repositories a learning states
the same sentence (attempts restating it do not count). Both are kept as nodes are
written (:mod:`osmia.memory.vocabulary`), not counted per query.
A lesson about one repository has spread 1; "Ran go test ./... before pushing",
reported in every repository, has the spread of every repository it was said in
and ranks below every specific learning however often it was repeated.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from types import MappingProxyType

from osmia.memory.advice import universal_advice
from osmia.memory.lessons import lesson
from osmia.memory.linear import LinearPattern, linear
from osmia.memory.types import Kind, Node, QueryRequest
from osmia.memory.vocabulary import Vocabulary, sentence_key, vocabulary_words

__all__ = [
    "PATTERNS",
    "Vocabulary",
    "generic_statistic_verdict",
    "profile_traits",
    "specificity",
    "states_strength",
]

# RE2 (osmia/memory/linear.py), like every pattern run on stored text.
_PROFILE_PART = linear(r"(strong|weak) at ([^;]+)")
_PROFILE_NAME = linear(r"([\w-]+) \(")
_SAYS = ("mostly-succeed", "mostly-fail")


@functools.lru_cache(maxsize=1024)
def profile_traits(content: str) -> Mapping[str, str]:
    """``{name: "strong" | "weak"}`` from an engine profile's text (task types and languages).

    Cached per text (read-only): a tenant has one profile per engine, and every query checks it
    twice (the statistics gate, the strength discount); two RE2 scans each cost ~0.1 ms a query.
    """
    traits: dict[str, str] = {}
    for part in _PROFILE_PART.finditer(content):
        which, names = part.group(1) or "", part.group(2) or ""
        for name in _PROFILE_NAME.findall(names):
            traits[name] = which
    return MappingProxyType(traits)


def generic_statistic_verdict(node: Node, req: QueryRequest) -> str:
    """Why a tenant-wide statistic says nothing to this run ("" when it may enter the section)."""
    if node.kind is Kind.ENGINE_PROFILE:
        if node.subject.engine != req.engine:
            return "engine profile of another engine"
        if req.task_type not in profile_traits(node.content):
            return f"engine profile says nothing about {req.task_type or 'this'} tasks"
        return ""
    if node.kind is not Kind.PATTERN or node.subject.repository:
        return ""  # a repository's own patterns (its failure mode) are not tenant-wide
    if node.key.startswith("pattern:rate:"):
        _p, _r, engine, task_type, language, band = (node.key.split(":") + [""] * 6)[:6]
        if engine != req.engine or task_type != req.task_type:
            return "success rate of another engine or task type"
        if language not in ("-", "") and language != req.language:
            return "success rate of another language"
        if band not in _SAYS:
            return "success rate in the mixed band: neither a strength nor a weakness"
        return ""
    return "tenant-wide statistic not about this engine"


def states_strength(node: Node, req: QueryRequest) -> bool:
    """A tenant-wide statistic telling this run its engine is *good* at the task type.

    Good news: it changes nothing the run would do, where a weakness is a warning to act on
    (another engine, smaller steps), so a strength ranks below warnings and repository facts.
    A success outcome of no repository (an incident run without one: "claude-code succeeded on
    an incident task in about 10 min") is such a statistic too: every such run reinforces it.
    """
    if node.subject.repository:
        return False
    if node.kind is Kind.SUCCESS:
        return node.subject.engine == req.engine and node.subject.task_type == req.task_type
    if node.kind is Kind.ENGINE_PROFILE:
        return profile_traits(node.content).get(req.task_type) == "strong"
    return (
        node.kind is Kind.PATTERN
        and node.key.startswith("pattern:rate:")
        and node.key.endswith(":mostly-succeed")
    )


# Every compiled pattern of this module (tests check that each is an RE2 one).
PATTERNS: tuple[LinearPattern, ...] = (_PROFILE_PART, _PROFILE_NAME)


def specificity(content: str, vocabulary: Vocabulary) -> float:
    """How specific a learning is in [0, 1], divided by √(its spread).

    1 when it names an unmistakable identifier (a path, variable, flag, version, dotted or
    mixed-case name: :class:`osmia.memory.lessons.Lesson`), 0 when it is universal advice
    (:func:`osmia.memory.advice.universal_advice`: it names nothing of any repository, so no count
    of a young tenant's words can make it rare), else the mean rarity of its two rarest words. A
    word or sentence the vocabulary holds no count for counts as rare and unspread (errs towards
    showing).
    """
    values = sorted((vocabulary.rarity(w) for w in vocabulary_words(content)), reverse=True)[:2]
    if not values or universal_advice(content):
        return 0.0
    named = 1.0 if lesson(content).strong else sum(values) / len(values)
    return named / math.sqrt(vocabulary.spread(sentence_key(content)))
