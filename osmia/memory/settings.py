"""``MemorySettings``: the memory knobs, from ``memory:`` in osmia-config.yaml."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from osmia.config import MemoryConfig


@dataclass(frozen=True)
class MemorySettings:
    """The memory knobs (mirrors ``memory:`` in osmia-config.yaml)."""

    store_path: Path
    decay_interval_hours: float = 24.0
    prune_threshold: float = 0.05
    max_facts_per_query: int = 10
    token_budget: int = 600
    min_pattern_samples: int = 5
    busy_timeout_ms: int = 5000
    ranking_preset: str = "default"

    @property
    def decay_interval_seconds(self) -> float:
        """The decay interval in seconds."""
        return self.decay_interval_hours * 3600.0

    @classmethod
    def from_config(cls, memory: MemoryConfig, store_path: Path | None = None) -> MemorySettings:
        """Settings from ``memory:`` in osmia-config.yaml (``store_path`` overrides the file's)."""
        return cls(
            store_path=store_path or memory.store_path,
            decay_interval_hours=memory.decay_interval_hours,
            prune_threshold=memory.prune_threshold,
            max_facts_per_query=memory.max_facts_per_query,
            token_budget=memory.token_budget,
            min_pattern_samples=memory.min_pattern_samples,
            busy_timeout_ms=memory.busy_timeout_ms,
            ranking_preset=memory.ranking_preset,
        )
