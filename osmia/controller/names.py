"""Names and label values for the objects a TaskRun owns: unique, stable, within Kubernetes' limits.

A TaskRun name may be up to 253 characters, but a Job name must fit a
63-character label (``job-name`` on its pods) and every label value must fit
63 characters. Cutting a long name makes two runs that differ only near the
end collide; so, as in Knative's ``kmeta.ChildName``, a name that does not fit
keeps its head and gets a hash of the whole in place of its tail. Names that
fit are used as they are, so short names read exactly as before.
"""

from __future__ import annotations

import hashlib
import re

LABEL_LIMIT = 63
"""Longest label value, and longest Job name (the Job controller labels pods with it)."""
NAME_LIMIT = 253
"""Longest name of a ConfigMap (a DNS subdomain)."""
_HASH_CHARS = 10  # 40 bits: collisions need ~10^6 runs sharing the same long head


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:_HASH_CHARS]


def child_name(parent: str, suffix: str, limit: int = LABEL_LIMIT) -> str:
    """``parent + suffix`` when it fits ``limit``, else the parent's head, a hash of both, and the suffix.

    Deterministic (a retried create finds the same object) and distinct for
    distinct inputs with overwhelming probability. A suffix that cannot fit
    is hashed in too.
    """
    whole = parent + suffix
    if len(whole) <= limit:
        return whole
    digest = _digest(whole)
    if len(suffix) + _HASH_CHARS + 1 > limit // 2:
        suffix = ""
    head = parent[: limit - len(suffix) - _HASH_CHARS - 1].rstrip("-.")
    return f"{head}-{digest}{suffix}" if head else f"{digest}{suffix}"


_LABEL_EDGE = re.compile(r"^[^A-Za-z0-9]+|[^A-Za-z0-9]+$")


def label_value(value: str) -> str:
    """A valid label value standing for ``value``: itself when it fits, else its head and a hash."""
    if len(value) <= LABEL_LIMIT:
        return value
    head = _LABEL_EDGE.sub("", value[: LABEL_LIMIT - _HASH_CHARS - 1])
    return f"{head}-{_digest(value)}" if head else _digest(value)
