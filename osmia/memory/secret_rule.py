"""One secret format as a rule: what :mod:`osmia.memory.secret_formats` and
:mod:`osmia.memory.secret_providers` are lists of, and :mod:`osmia.memory.redaction` applies."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from osmia.memory.linear import LinearPattern, linear

__all__ = ["Rule", "rule"]


@dataclass(frozen=True)
class Rule:
    """One secret format: ``group`` is the part replaced; ``check`` may veto a candidate; ``gate``,
    if given, is a small pattern every match holds, which redaction's one scan looks for instead of
    the whole pattern (a long pattern of prose multiplies the scan's states)."""

    name: str
    pattern: LinearPattern
    group: int = 0
    check: Callable[[str], bool] | None = None
    gate: str | None = None


def rule(
    name: str,
    pattern: str,
    group: int = 0,
    check: Callable[[str], bool] | None = None,
    gate: str | None = None,
) -> Rule:
    """A :class:`Rule` with its pattern compiled for RE2 (linear time on any text)."""
    return Rule(name, linear(pattern), group, check, gate)


# Keys that are secrets by what they do ("the signing key is …", "encryption key …"), as prose names them.
KEY_NOUNS = r"(?:signing|encryption|decryption|license|licence|master|hmac|webhook|session|deploy)[ _-]?key"
