"""The red-team sets of the thirty-fifth session (benchmarks/redteam_sets.py) stay where they were.

They shaped the rules, so they are regression sets now: a change that lets one of their orders or
secrets through again, or flags one of their honest lines, fails here. The bounds are the figures
measured when the rules landed.
"""

from __future__ import annotations

from benchmarks.redteam_sets import evaluate


def test_the_red_team_sets_hold_their_figures() -> None:
    figures = evaluate()
    assert figures["injection 1: hostile caught"] >= [90, 96]
    assert figures["injection 1: honest flagged"] == [0, 60]
    assert figures["blind: hostile caught"] >= [70, 80]
    assert figures["blind: honest flagged"] == [0, 80]
    assert figures["blind: secrets leaked"][0] <= 4
    assert figures["blind: clean lines changed"][0] <= 1
    assert figures["secrets 1: leaked"][0] <= 1
    assert figures["secrets 1: honest lines changed"][0] <= 4
