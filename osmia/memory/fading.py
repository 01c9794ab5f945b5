"""Confidence that fades by arithmetic: what a stored confidence is worth some decay cycles later.

A node stores its confidence together with the decay epoch (cycle count) it
refers to. Its effective confidence ``epochs`` cycles later is
``confidence × (1 − decay_rate) ** epochs``; the store computes the same
product in SQL (``pow``), so Python and SQLite agree to the last bit. The
cycle at which a node falls below the prune threshold is known as soon as the
node is written: :func:`prune_cycle`.
"""

from __future__ import annotations

import math


def effective(confidence: float, decay_rate: float, cycles: int) -> float:
    """``confidence`` after ``cycles`` decay cycles (SQLite's ``pow`` computes the same)."""
    if cycles <= 0:
        return confidence
    return confidence * math.pow(1.0 - decay_rate, cycles)


_NEVER = 2**53  # cycles; a decay pass a day would reach it in 2.5e13 years


def prune_cycle(confidence: float, decay_rate: float, epoch: int, threshold: float | None) -> int | None:
    """The first epoch at which a node stamped at ``epoch`` is below ``threshold`` (``None``: never).

    A node already below the threshold is due at its own epoch (the next decay
    pass prunes it, as the eager pass did). The estimate from logarithms is
    checked against the same product :func:`effective` computes, so the prune
    set is exactly the set of nodes whose effective confidence is below the
    threshold at the epoch a decay pass reaches.
    """
    if threshold is None:
        return None
    if confidence < threshold:
        return int(epoch)
    if decay_rate <= 0.0 or threshold <= 0.0:
        return None
    step = math.log(1.0 - decay_rate)
    if step == 0.0:
        return None  # a rate too small to change a float: the node never fades (an imported 1e-306)
    estimate = math.log(threshold / confidence) / step
    if estimate > _NEVER:
        return None  # further away than SQLite's integers reach: never, in practice
    cycles = max(1, math.floor(estimate))
    while cycles > 1 and effective(confidence, decay_rate, cycles - 1) < threshold:
        cycles -= 1
    while not effective(confidence, decay_rate, cycles) < threshold:
        cycles += 1
    return int(epoch) + cycles
