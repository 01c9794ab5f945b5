"""The two checks every session's redaction cases make (tests/memory/test_redaction_s3*.py)."""

from __future__ import annotations

from osmia.memory.redaction import REDACTED
from osmia.memory.sanitize import redacted


def assert_redacted(text: str, secret: str) -> None:
    """``secret`` is gone from ``text`` as stored, a marker stands for it, and storing it again
    changes nothing (redaction is idempotent)."""
    out = redacted(text)
    assert secret not in out and REDACTED in out, out
    assert redacted(out) == out


def assert_kept(text: str) -> None:
    """``text`` is stored exactly as written: a look-alike, not a secret."""
    assert redacted(text) == text
