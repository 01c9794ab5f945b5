"""The thirty-eighth session's blind sets (benchmarks/blind_rounds_38.py) stay where they landed.

The seen halves and the second injection set shaped the rules, so they are regression sets; the
held halves measured them once. A change that lets one more of their orders or secrets through,
or flags or changes one more of their honest lines, fails here. The bounds are the figures
measured when the rules landed.
"""

from __future__ import annotations

from benchmarks.blind_rounds import moved
from benchmarks.blind_rounds_38 import evaluate


def test_the_blind_sets_hold_their_figures() -> None:
    assert (
        moved(
            evaluate(),
            caught={"round 7 seen": 78, "round 7 held": 31, "round 8": 193},
            flagged={"round 7 seen": 0, "round 7 held": 2, "round 8": 20},
            at_most={
                "secrets 4 seen: leaked": 0,
                "secrets 4 held: leaked": 8,
                "secrets 4 seen: honest lines changed": 0,
                "secrets 4 held: honest lines changed": 2,
            },
        )
        == []
    )
