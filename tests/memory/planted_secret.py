"""The value the redaction shape tests plant, and the check they share."""

from __future__ import annotations

from osmia.memory.redaction import REDACTED, redact

RANDOM = "DNxril3RavGD5MfvJ7NScUykT8C8UBkkpdhiG37L"  # generated for these tests, never a credential


def redacted_and_kept(text: str, kept: str, pieces: tuple[str, ...] = (RANDOM,)) -> None:
    """No piece of the secret (all of :data:`RANDOM` by default) is left in ``text``, which holds a
    marker; ``kept`` stays as it is."""
    redacted = redact(text)
    assert REDACTED in redacted, redacted
    for piece in pieces:
        assert piece not in redacted, (piece, redacted)
    assert redact(kept) == kept
