"""What a secret's value looks like: entropy, randomness, placeholders, numbers, plain words.

The checks :mod:`osmia.memory.redaction` and :mod:`osmia.memory.secret_formats`
apply to a candidate before it is redacted, so that a value shaped like a
generated secret is taken and a word, count, version or template is not.
"""

from __future__ import annotations

import base64
import binascii
import math
from collections import Counter
from collections.abc import Callable

from osmia.memory.linear import linear

REDACTED = "[redacted]"


def entropy(text: str) -> float:
    """Shannon entropy of ``text`` in bits per character."""
    if not text:
        return 0.0
    counts = Counter(text)
    n = len(text)
    return -sum(c / n * math.log2(c / n) for c in counts.values())


def looks_random(value: str, min_len: int = 16) -> bool:
    """True for a value shaped like a generated secret rather than a word, id or number.

    Long enough, two or more character classes, at least 3 (under 24 characters)
    or 3.5 bits of entropy per character. Numbers and lower-case words joined by
    separators never are. Used where a name only suggests a secret; a value
    assigned to a name that says so (``*_PASSWORD``) needs no such shape.
    """
    if len(value) < min_len or value == REDACTED:
        return False
    if value.isdigit() or plain_words(value):
        return False  # numbers, and words joined by separators (kebab-case phrases, paths)
    classes = sum(
        (
            any(c.islower() for c in value),
            any(c.isupper() for c in value),
            any(c.isdigit() for c in value),
            any(not c.isalnum() for c in value),
        )
    )
    if classes < 2:
        return False
    threshold = 3.0 if len(value) < 24 else 3.5
    return entropy(value) >= threshold


def is_placeholder(value: str) -> bool:
    """A reference or template, not a value: ``${VAR}``, ``$VAR``, ``<token>``, ``{{ x }}``, ``***``."""
    v = value.strip("'\"")
    if not v or v == REDACTED or v.startswith(REDACTED):
        return True
    if v[0] in "$<{%" or v.startswith("[redact"):
        return True
    if set(v) <= set("*xX.-_#•"):
        return True
    return v.lower() in _NOT_VALUES


_NOT_VALUE_TEXT = (
    "none null nil true false yes no required optional empty unset redacted masked hidden "
    "undefined string str int bool secret password token value example changeit"
)
_NOT_VALUES = frozenset(_NOT_VALUE_TEXT.split())


def random_value(min_len: int) -> Callable[[str], bool]:
    """A check for rules: :func:`looks_random` with at least ``min_len`` characters."""
    return lambda value: looks_random(value, min_len)


def key_shaped(value: str) -> bool:
    """A generated key: random, or one unbroken run of 20+ letters and digits (``sk-live-aaaa…``);
    not a hyphenated phrase such as ``sk-learn-compatible-pipelines``."""
    return looks_random(value, 20) or any(len(part) >= 20 for part in value.replace("_", "-").split("-"))


def not_placeholder(value: str) -> bool:
    """A check for rules: anything but a placeholder (:func:`is_placeholder`)."""
    return not is_placeholder(value)


def basic_credentials(value: str) -> bool:
    """An HTTP Basic value: base64 of ``user:password``."""
    try:
        decoded = base64.b64decode(value + "=" * (-len(value) % 4), validate=True)
    except (binascii.Error, ValueError):
        return False
    return b":" in decoded and all(32 <= b < 127 for b in decoded)


def url_password(value: str) -> bool:
    """A password in ``scheme://user:PASSWORD@host``; ``host:5000/app@sha256`` is a port and a path."""
    port, slash, _rest = value.partition("/")
    return not is_placeholder(value) and not (slash and port.isdigit())


def plain_words(value: str) -> bool:
    """Lower-case words joined by separators: ``stored``, ``test_token_refresh``, ``read-only``."""
    return all(c.islower() or c in "-_./" for c in value.rstrip(".,:;!?)"))


def number_like(value: str) -> bool:
    """A number, version or size (``1.2.3``, ``4096``, ``12k``), trailing punctuation aside."""
    core = value.rstrip(".,:;!?)").lower().removesuffix("k").removesuffix("m")
    return core.replace(".", "").replace("_", "").isdigit() and len(core) < 12


_UUID = linear(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")


def generated_value(value: str) -> bool:
    """A value shaped like a generated secret: random (:func:`looks_random`), or a UUID."""
    value = value.rstrip(".,:;!?)")
    return looks_random(value, 16) or _UUID.search(value) is not None


def mixed_value(value: str) -> bool:
    """A password-like value: one token of letters mixed with digits or signs, not a number, size or
    placeholder (a phrase with spaces is prose)."""
    value = value.rstrip(".,:;)")
    if is_placeholder(value) or number_like(value) or plain_words(value) or any(c.isspace() for c in value):
        return False
    letters = any(c.isalpha() for c in value)
    return letters and any(c.isdigit() or not c.isalnum() for c in value)
