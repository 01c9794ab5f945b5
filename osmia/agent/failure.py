"""``failureReason``: one classified sentence per failed run.

The wording is chosen so that memory's failure classes (``failures.FAILURE_CLASSES``) file
each reason under the right class: "timed out", "guard-rail block", "out of
memory", "build failed", "tests failed". Engine errors (authentication, rate
limit, context overflow) get their own prefix, ``engine error:``.
"""

from __future__ import annotations

import re

ENGINE_AUTH = "engine error: authentication"
ENGINE_RATE_LIMIT = "engine error: rate limit"
ENGINE_CONTEXT = "engine error: context overflow"
ENGINE_OTHER = "engine error"

_ENGINE_ERRORS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        ENGINE_AUTH,
        re.compile(
            r"(?i)\b401\b|\b403\b|authenticat|unauthori[sz]ed|invalid (?:x-)?api[ _-]?key|api[ _-]?key"
            r"|not logged in|please run /login|oauth token|credentials? (?:are |is )?(?:missing|invalid)"
            r"|permission_error|invalid_api_key"
        ),
    ),
    (
        ENGINE_RATE_LIMIT,
        re.compile(r"(?i)\b429\b|rate[ _-]?limit|too many requests|resource[ _]exhausted|overloaded|\b529\b"),
    ),
    (
        ENGINE_CONTEXT,
        re.compile(
            r"(?i)context[ _-]?(?:window|length)|prompt is too long|maximum context|too many tokens"
            r"|context_length_exceeded|input is too long|exceeds the .*(?:context|token limit)"
        ),
    ),
)


def classify_engine_error(text: str) -> str:
    """``engine error: authentication | rate limit | context overflow``, or ``engine error``."""
    for label, pattern in _ENGINE_ERRORS:
        if pattern.search(text):
            return label
    return ENGINE_OTHER


def engine_error_reason(text: str) -> str:
    """The classified label followed by the engine's own words, shortened."""
    label = classify_engine_error(text)
    detail = " ".join(text.split())[:300]
    return f"{label} ({detail})" if detail else label
