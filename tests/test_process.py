"""The operator's process settings."""

from __future__ import annotations

import gc

from osmia.process import settle_heap


def test_settle_heap_moves_start_up_objects_out_of_the_collectors_generations() -> None:
    before = gc.get_freeze_count()
    survivor = [object() for _ in range(10)]
    try:
        settle_heap()
        assert gc.get_freeze_count() >= before + len(survivor)
    finally:
        gc.unfreeze()
