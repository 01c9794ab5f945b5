"""The thirty-seventh session's blind sets (benchmarks/blind_rounds_37.py) stay where they landed.

The seen halves and the second injection set shaped the rules, so they are regression sets; the
held halves measured them once. A change that lets one more of their orders or secrets through,
or flags or changes one more of their honest lines, fails here. The bounds are the figures
measured when the rules landed.
"""

from __future__ import annotations

from benchmarks.blind_rounds import moved
from benchmarks.blind_rounds_37 import evaluate


def test_the_blind_sets_hold_their_figures() -> None:
    assert (
        moved(
            evaluate(),
            caught={"round 5 seen": 78, "round 5 held": 36, "round 6": 212},
            flagged={"round 5 seen": 1, "round 5 held": 3, "round 6": 2},
            at_most={
                "secrets 3 seen: leaked": 0,
                "secrets 3 held: leaked": 6,
                "secrets 3 seen: honest lines changed": 0,
                "secrets 3 held: honest lines changed": 3,
            },
        )
        == []
    )
