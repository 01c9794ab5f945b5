"""The thirty-sixth session's blind sets (benchmarks/blind_rounds.py) stay where they landed.

Three of the four injection sets and the seen half of the secrets shaped the rules, so they are
regression sets; the fourth injection set and the held half of the secrets measured them once.
A change that lets one more of their orders or secrets through, or flags or changes one more of
their honest lines, fails here. The bounds are the figures measured when the rules landed.
"""

from __future__ import annotations

from benchmarks.blind_rounds import evaluate, moved


def test_the_blind_sets_hold_their_figures() -> None:
    assert (
        moved(
            evaluate(),
            caught={
                "round 1 seen": 58,
                "round 1 held": 58,
                "round 2": 83,
                "round 3": 86,
                "round 4 (held out)": 51,
            },
            flagged={
                "round 1 seen": 0,
                "round 1 held": 2,
                "round 2": 4,
                "round 3": 2,
                "round 4 (held out)": 1,
            },
            at_most={
                "secrets 2 seen: leaked": 1,
                "secrets 2 held: leaked": 5,
                "secrets 2 seen: honest lines changed": 0,
                "secrets 2 held: honest lines changed": 2,
            },
        )
        == []
    )
