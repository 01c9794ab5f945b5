"""The fortieth session's blind sets (benchmarks/blind_rounds_40.py) stay where they landed.

The seen halves shaped the rules, so they are regression sets; the held halves measured them once.
A change that lets one more of their orders or secrets through, or flags or changes one more of
their honest lines, fails here. The bounds are the figures measured when the rules landed.
"""

from __future__ import annotations

from benchmarks.blind_rounds import moved
from benchmarks.blind_rounds_40 import evaluate


def test_the_blind_sets_hold_their_figures() -> None:
    assert (
        moved(
            evaluate(),
            caught={"round 9 seen": 78, "round 9 held": 32},
            flagged={"round 9 seen": 3, "round 9 held": 1},
            at_most={
                "secrets 5 seen: leaked": 2,
                "secrets 5 held: leaked": 18,
                "secrets 5 seen: honest lines changed": 0,
                "secrets 5 held: honest lines changed": 3,
            },
        )
        == []
    )
