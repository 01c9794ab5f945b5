"""``memory.ranking_preset``: the config key choosing the ranking, validated against ranking.py's presets."""

from __future__ import annotations

import typing
from pathlib import Path

import pytest

from osmia.config.model import MemoryConfig
from osmia.memory.ranking import PRESETS
from osmia.memory.service import Memory, MemorySettings


def test_the_config_choices_are_exactly_the_presets() -> None:
    field = MemoryConfig.model_fields["ranking_preset"]
    assert typing.get_args(field.annotation) == tuple(PRESETS)
    assert MemoryConfig().ranking_preset == "default"


async def test_the_facade_ranks_with_the_configured_preset(tmp_path: Path) -> None:
    config = MemoryConfig(ranking_preset="recent")
    settings = MemorySettings.from_config(config, store_path=tmp_path / "m.db")
    memory = await Memory.open(settings)
    try:
        assert memory.ranking is PRESETS["recent"]
        assert memory.ranking.recency_half_life_days != PRESETS["default"].recency_half_life_days
    finally:
        await memory.close()
    explicit = await Memory.open(settings, ranking=PRESETS["ungated"])
    try:
        assert explicit.ranking is PRESETS["ungated"]  # a caller's configuration wins
    finally:
        await explicit.close()


async def test_an_unknown_preset_is_refused_before_the_file_is_created(tmp_path: Path) -> None:
    settings = MemorySettings(store_path=tmp_path / "m.db", ranking_preset="fastest")
    with pytest.raises(ValueError, match="unknown ranking preset 'fastest'; choose one of default"):
        await Memory.open(settings)
    assert not (tmp_path / "m.db").exists()
