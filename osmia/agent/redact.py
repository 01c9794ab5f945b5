"""Secrets out of everything the runner prints or reports.

The runner knows which values are secret: credentials it was given
(environment variables whose names say token, key, secret or password, and
the contents of mounted Secret files). Every line streamed to the pod log
and every string of the result passes through :meth:`Redactor.redact`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

_SECRET_NAME = re.compile(r"(?i)(token|secret|passw|api[_-]?key|credential|private[_-]?key|auth)")
# Shapes of well-known credentials, redacted even when the runner was not told about them.
_SECRET_SHAPES = re.compile(
    r"(sk-[A-Za-z0-9_-]{16,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9_-]{16,}"
    r"|AIza[0-9A-Za-z_-]{30,}|xox[abpr]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16})"
)
_URL_CREDENTIALS = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://)[^/\s:@]+(?::[^/\s@]*)?@")
MASK = "[redacted]"
_MIN_SECRET = 6  # shorter values are too likely to be ordinary words


def secret_env_values(env: Mapping[str, str]) -> list[str]:
    """Values of environment variables whose names say they hold a credential."""
    return [v for k, v in env.items() if _SECRET_NAME.search(k) and len(v.strip()) >= _MIN_SECRET]


class Redactor:
    """Replaces known secret values, credential shapes and URL userinfo with ``[redacted]``."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        self._secrets: list[str] = []
        for value in secrets:
            self.add(value)

    def add(self, value: str) -> None:
        """Treat ``value`` (and each of its lines) as secret from now on."""
        for candidate in {value.strip(), *value.strip().splitlines()}:
            candidate = candidate.strip()
            if len(candidate) >= _MIN_SECRET and candidate not in self._secrets:
                self._secrets.append(candidate)
        self._secrets.sort(key=len, reverse=True)  # longest first, so a prefix never leaves a tail

    def redact(self, text: str) -> str:
        """``text`` with every secret masked."""
        for secret in self._secrets:
            if secret in text:
                text = text.replace(secret, MASK)
        text = _SECRET_SHAPES.sub(MASK, text)
        return _URL_CREDENTIALS.sub(lambda m: f"{m.group(1)}{MASK}@", text)

    def redact_value(self, value: Any) -> Any:
        """Redact every string inside a JSON-like value."""
        if isinstance(value, str):
            return self.redact(value)
        if isinstance(value, list):
            return [self.redact_value(v) for v in value]
        if isinstance(value, dict):
            return {self.redact(str(k)): self.redact_value(v) for k, v in value.items()}
        return value
