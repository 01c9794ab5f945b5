"""A candidate's score: ``relevance × confidence × recency``, and the parts that explain it.

* relevance ∈ [0, 1] combines the signals that matched with a noisy-or,
  ``1 − Π(1 − sᵢ)``, then applies discounts for a different repository, task
  type or engine, and the rules of docs/memory.md (specificity, corroboration,
  outcomes, strengths, hot-path share);
* confidence is the node's effective (decayed) confidence;
* recency is ``0.5 ** (age_days / recency_half_life_days)`` of ``last_seen``.

Every weight is a field of :class:`~osmia.memory.ranking.RankingConfig`; the
ranking (:mod:`osmia.memory.query`) calls :func:`score` for each candidate.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from osmia.memory.advice import universal_advice
from osmia.memory.lesson_parse import lesson
from osmia.memory.linear import linear
from osmia.memory.ranking import DEFAULT, RankingConfig
from osmia.memory.statistics import specificity, states_strength
from osmia.memory.types import Kind, Node, QueryRequest, ScoreParts
from osmia.memory.vocabulary import Vocabulary

SAME_TICKET = "same ticket"
# The signal of a fact that names an identifier the ticket names, and the kinds that can have it.
NAMED = "named in the ticket"
NAMEABLE = frozenset({Kind.LEARNING, Kind.FLAKY_TEST, Kind.FAILING_TEST})
_MIN_NAMED = 6  # shorter identifiers ("make", "--fix") are named by many facts and tell little


@functools.lru_cache(maxsize=1024)
def ticket_identifiers(text: str) -> tuple[str, ...]:
    """The unmistakable identifiers a ticket names (error classes, variables, files, tests), lower-case:
    a fact naming one of them is about what the ticket is about."""
    if not text:
        return ()
    parsed = lesson(text[:4000])
    return tuple(
        sorted(i for i in parsed.strong if len(i) >= _MIN_NAMED and not i.startswith("-") and "@" not in i)
    )


def names_any(content: str, identifiers: tuple[str, ...]) -> bool:
    """Whether ``content`` names one of ``identifiers`` (as :func:`ticket_identifiers` gives them)."""
    lowered = content.lower()
    return any(i in lowered for i in identifiers)


# What one run can report on its own: a learning, an outcome. Reported by one run only, it is an
# anecdote and ranks below what several runs confirmed (RankingConfig.single_report_factor).
ANECDOTES = frozenset({Kind.LEARNING, Kind.SUCCESS, Kind.FAILURE})


def noisy_or(values: Iterable[float]) -> float:
    """``1 − Π(1 − vᵢ)``: the chance that at least one of independent signals holds."""
    miss = 1.0
    for v in values:
        miss *= 1.0 - v
    return 1.0 - miss


def recency(last_seen: float, now: float, config: RankingConfig = DEFAULT) -> float:
    """Halves every ``recency_half_life_days`` since the node was last seen."""
    age_days = max(0.0, now - last_seen) / 86400.0
    return float(0.5 ** (age_days / config.recency_half_life_days))


def _names_engine(node: Node, engine: str) -> bool:
    """A capability fact is about both engines: the one that failed and the one that then succeeded."""
    return node.kind is Kind.ENGINE_CAPABILITY and node.key.rsplit(">", 1)[-1] == engine


def relevance(
    node: Node, signals: dict[str, float], req: QueryRequest, config: RankingConfig = DEFAULT
) -> tuple[float, tuple[tuple[float, str], ...]]:
    """Combine matched signals, then discount mismatching subjects; returns value and discounts applied.

    An earlier attempt at the same ticket is relevant with certainty (1, no discount).
    """
    if SAME_TICKET in signals:
        return 1.0, ()
    value = noisy_or(signals.values())
    discounts: list[tuple[float, str]] = []
    s = node.subject
    c = config
    # Each rule in turn (a query asks this of ~130 candidates: no table of rules built per call).
    if s.repository and req.repository and s.repository != req.repository:
        value *= c.discount_other_repository
        discounts.append((c.discount_other_repository, "other repository"))
    if s.task_type and req.task_type and s.task_type != req.task_type and node.kind is not Kind.LEARNING:
        factor = (
            c.discount_pattern_other_task_type if node.kind is Kind.PATTERN else c.discount_other_task_type
        )
        value *= factor
        discounts.append((factor, "other task type"))
    if s.engine and req.engine and s.engine != req.engine and not _names_engine(node, req.engine):
        value *= c.discount_other_engine
        discounts.append((c.discount_other_engine, "other engine"))
    if s.language and req.language and s.language != req.language and node.kind is Kind.PATTERN:
        value *= c.discount_other_language
        discounts.append((c.discount_other_language, "other language"))
    if (
        c.discount_other_place < 1.0
        and s.repository
        and s.repository == req.repository
        and (ticket := places(req.text, req.repository))  # cached per ticket; most name no folder
        and other_place(places(node.content, s.repository), ticket)
    ):
        value *= c.discount_other_place
        discounts.append((c.discount_other_place, "another place of the repository"))
    return min(1.0, value), tuple(discounts)


_PLACE = linear(r"(?:^|[\s`'\"(])((?:\./)?[A-Za-z0-9_][\w.-]*(?:/[\w.*-]+)+/?)")


@functools.lru_cache(maxsize=1 << 14)
def places(text: str, repository: str = "") -> tuple[tuple[str, ...], ...]:
    """The folders and files ``text`` names, as segments (``services/billing/`` → ``services``,
    ``billing``); URLs and the repository's own name left out."""
    if "/" not in text:
        return ()
    own = repository.split("/", 1)[-1].lower()
    out = []
    for m in _PLACE.finditer(text):
        path = (m.group(1) or "").removeprefix("./").rstrip(".").strip("/")
        if path.lower() == own or path.lower() == repository.lower() or ":" in path:
            continue
        out.append(tuple(p for p in path.split("/") if p and p != "."))
    return tuple(out)


def other_place(mine: tuple[tuple[str, ...], ...], ticket: tuple[tuple[str, ...], ...]) -> bool:
    """``mine`` names places and none is on the way to or inside one the ticket names
    (``services/billing`` or ``tests/admin`` against ``services/search/api/search.proto``)."""
    if not mine or not ticket:
        return False
    for x in mine:
        for y in ticket:
            n = min(len(x), len(y))
            if x[:n] == y[:n]:
                return False  # the same place, or one inside the other
    return True


def score(
    c: RankingConfig,
    node: Node,
    signals: dict[str, float],
    req: QueryRequest,
    now: float,
    vocabulary: Vocabulary,
    busiest: dict[str, int] | None = None,
    *,
    exact: bool = True,
) -> ScoreParts:
    """The three parts of one candidate's score.

    A learning's relevance is also scaled by its specificity
    (:func:`osmia.memory.statistics.specificity`): "Tests pass" ranks below every
    learning that names something rare in the tenant; and by corroboration: a learning
    only one run reported ranks below a lesson several runs reported (in any words).
    A hot path's relevance is scaled by its runs relative to ``busiest`` (repository →
    the most runs any of its candidate hot paths has): the folder most runs touch first.
    The specificity factor is at most 1, so ``exact=False`` (no specificity) gives an
    upper bound of the score, the exact score when :func:`specificity_applies` is false.
    """
    rel, discounts = relevance(node, signals, req, c)
    if exact and specificity_applies(c, node, signals):
        spec = specificity(node.content, vocabulary)
        factor = round(c.specificity_floor + (1 - c.specificity_floor) * spec, 3)
        if factor < 1.0:
            rel *= factor
            why = f"specificity {spec:.2f}"
            if spec == 0.0 and universal_advice(node.content):
                why += ": universal advice"
            discounts = (*discounts, (factor, why))
    # Within the ticket's own repository (what one run there said against what several runs
    # there confirmed); another repository's anecdote already carries that discount, and both
    # together would put every text match from elsewhere below the relevance floor.
    if (
        node.kind in ANECDOTES
        and node.occurrences < 2
        and c.single_report_factor < 1.0
        and node.subject.repository == req.repository
    ):
        rel *= c.single_report_factor
        discounts = (*discounts, (c.single_report_factor, "reported by one run"))
    if node.kind is Kind.SUCCESS and c.success_factor < 1.0:
        rel *= c.success_factor
        discounts = (*discounts, (c.success_factor, "an outcome, not a lesson"))
    if c.strength_factor < 1.0 and states_strength(node, req):
        rel *= c.strength_factor
        discounts = (*discounts, (c.strength_factor, "a strength, not a warning"))
    if node.kind is Kind.HOT_PATH and busiest and c.hot_path_share_floor < 1.0:
        most = busiest.get(node.subject.repository, 0)
        if most > node.occurrences:
            share = node.occurrences / most
            factor = round(c.hot_path_share_floor + (1 - c.hot_path_share_floor) * share, 3)
            rel *= factor
            discounts = (*discounts, (factor, f"{node.occurrences} of {most} runs of the busiest folder"))
    return ScoreParts(
        rel, node.confidence, recency(node.last_seen, now, c), tuple(signals.items()), discounts
    )


def specificity_applies(c: RankingConfig, node: Node, signals: dict[str, float]) -> bool:
    """Whether a candidate's score is scaled by its specificity (a learning, not the same ticket)."""
    return node.kind is Kind.LEARNING and c.specificity_floor < 1.0 and SAME_TICKET not in signals
