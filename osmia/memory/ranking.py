"""Ranking as data: every weight, cap and limit of the query in one frozen object.

Graphiti names presets of its search configuration (``search_config_recipes``);
callers pick one and benchmarks sweep them. Osmia does the same:
:data:`DEFAULT` is what the operator uses, :data:`PRESETS` are the variants the
benchmark compares it with (``benchmarks/run`` prints a line per preset), and
``osmia memory explain`` prints the configuration that produced its verdicts.
docs/memory.md explains each field.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from types import MappingProxyType
from typing import Any

from osmia.memory.types import Kind


@dataclass(frozen=True)
class RankingConfig:
    """Weights and caps of :class:`osmia.memory.query.Ranker` (score = relevance × confidence × recency)."""

    name: str = "default"
    # --- signals (combined with a noisy-or) ---
    signal_repository: float = 0.7
    # Below the engine's own patterns for this task type: the profile summarises every task type.
    signal_engine_profile: float = 0.35
    signal_engine: float = 0.45
    signal_task_type: float = 0.3
    signal_language: float = 0.25
    signal_text_max: float = 0.6
    text_full_terms: int = 4
    # Full-text work per query: the sum of the searched terms' document counts (rarest first). The
    # commonest words cost the most and tell the least; 1000 made the same sections as 500 (±0.002
    # nDCG@10 on every benchmark store) at twice the full-text work (docs/performance.md §19), and
    # 300 as 500 (±0.0003) at three fifths of it, the slowest tickets' candidate statement 3.5 →
    # 2.2 ms (§20).
    text_max_postings: int = 300
    signal_hop_share: float = 0.5
    # A learning or test fact that names an identifier the ticket names (an error class, a variable,
    # a file, a test): after earlier attempts at the ticket, these come first (selection.py).
    signal_named: float = 0.9
    # --- discounts for a subject that differs from the run ---
    discount_other_repository: float = 0.5
    discount_other_task_type: float = 0.8
    discount_other_engine: float = 0.85
    discount_other_language: float = 0.6
    discount_pattern_other_task_type: float = 0.4
    # A fact naming only folders the ticket does not, beside one it names (services/billing for a
    # ticket about services/search/api): another place of the same repository.
    discount_other_place: float = 0.5
    # --- informative beats frequent: a learning's score × (floor + (1 − floor) × specificity) ---
    specificity_floor: float = 0.2
    # Rarity is measured against at least this many nodes: a young tenant cannot tell rare from common.
    specificity_min_nodes: int = 1000
    # Learnings whose words are counted per query: the strongest few before specificity.
    specificity_candidates: int = 12
    # --- corroboration: a learning or an outcome one run reported is an anecdote; a lesson is one
    # several runs reported (paraphrases count: they reinforce the same node). An anecdote has its
    # relevance × this factor.
    single_report_factor: float = 0.6
    # --- warnings before reassurances: a tenant-wide statistic saying the engine is strong at the
    # task type has its relevance × this factor (a weakness is not discounted)
    strength_factor: float = 0.5
    # --- lessons before outcomes: "<engine> succeeded on a <type> task in <repo> in about N min" says
    # the work can be done here, not how; its relevance × this factor, so a lesson as well supported
    # ranks above it (a failure is a warning and is not discounted)
    success_factor: float = 0.75
    # --- hot paths are judged within their repository: a folder's relevance × (floor + (1 − floor)
    # × its runs / the runs of the repository's busiest folder among the candidates)
    hot_path_share_floor: float = 0.3
    # --- same ticket first: earlier attempts at the ticket, pinned above everything else ---
    max_attempts: int = 3
    # --- generic statistics: tenant-wide patterns and profiles only about this engine and task type,
    # and only when they state a strength or a weakness ---
    gate_generic_statistics: bool = True
    # --- recency and thresholds ---
    recency_half_life_days: float = 180.0
    min_relevance: float = 0.2
    min_score: float = 0.03
    near_twin: float = 0.75
    # --- at most this many nodes of one kind (repository facts and tenant-wide ones counted apart) ---
    max_per_kind: MappingProxyType[Kind, int] = field(
        default_factory=lambda: MappingProxyType(
            {Kind.LEARNING: 3, Kind.FLAKY_TEST: 3, Kind.FAILING_TEST: 3, Kind.ATTEMPT: 3}
        )
    )
    default_max_per_kind: int = 2
    # ... and kinds whose nodes over the cap do not fill room left once every kind had its turn:
    # two "<engine> succeeded on a <type> task in …" lines say the work can be done here, a third
    # says no more.
    no_fill_kinds: frozenset[Kind] = frozenset({Kind.SUCCESS})
    # --- candidate set sizes (a section holds at most 10 facts, 2-3 of a kind) ---
    limit_repository: int = 60
    limit_engine: int = 60
    limit_pattern: int = 60
    limit_text: int = 40
    hop_seeds: int = 10

    def cap(self, kind: Kind) -> int:
        """How many nodes of ``kind`` one section may hold (per scope)."""
        return self.max_per_kind.get(kind, self.default_max_per_kind)

    def as_dict(self) -> dict[str, Any]:
        """Plain data for ``explain --json`` and the benchmark report."""
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data["max_per_kind"] = {k.value: v for k, v in self.max_per_kind.items()}
        data["no_fill_kinds"] = sorted(k.value for k in self.no_fill_kinds)
        return data

    def describe(self) -> str:
        """One line per field, for ``osmia memory explain``."""
        return "\n".join(f"  {key} = {value}" for key, value in self.as_dict().items())


DEFAULT = RankingConfig()

PRESETS: MappingProxyType[str, RankingConfig] = MappingProxyType(
    {
        "default": DEFAULT,
        # The ranking before issue 9's rules: no specificity, corroboration or hot-path share, no
        # statistics gate.
        "ungated": replace(
            DEFAULT,
            name="ungated",
            specificity_floor=1.0,
            gate_generic_statistics=False,
            single_report_factor=1.0,
            hot_path_share_floor=1.0,
            strength_factor=1.0,
            success_factor=1.0,
        ),
        # Text matters more than subject columns (a store with few repositories per ticket).
        "text-heavy": replace(DEFAULT, name="text-heavy", signal_text_max=0.8, signal_repository=0.55),
        # Recency counts more: a fast-moving organisation.
        "recent": replace(DEFAULT, name="recent", recency_half_life_days=45.0),
    }
)


def preset(name: str) -> RankingConfig:
    """The preset called ``name``; a clear error naming the choices otherwise."""
    try:
        return PRESETS[name]
    except KeyError:
        raise ValueError(f"unknown ranking preset {name!r}; choose one of {', '.join(PRESETS)}") from None
