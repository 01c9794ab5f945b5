"""Learnings: short lessons the agent wrote to a file in the workspace, cleaned and bounded.

The file is the agent's words, so it is treated as untrusted input: read
with a size cap, split into one lesson per line or list item, stripped of
markdown markup, control characters and secrets, lessons that try to
instruct a reader ("ignore previous instructions", role markers) dropped,
duplicates removed, each shortened, and at most :data:`MAX_LEARNINGS` kept.
Memory cleans them again when it stores them.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

from osmia.agent.redact import Redactor

MAX_FILE_BYTES = 64 * 1024
MAX_LEARNINGS = 10
MAX_CHARS = 280
MIN_CHARS = 12

_BULLET = re.compile(r"^\s*(?:[-*+•]|\d{1,3}[.)])\s+")
_MARKUP = re.compile(r"(`{3,}.*|^#{1,6}\s+|^\s*>\s?)")
_INSTRUCTION = re.compile(
    r"(?i)(ignore (?:all |any )?(?:the )?(?:previous|prior|above)|disregard (?:the )?(?:previous|above)"
    r"|you are now|new instructions|system prompt|^\s*(?:system|assistant|user|human)\s*:|<\|?im_start"
    r"|</?(?:system|assistant|instructions?)>)"
)


def _clean(line: str) -> str:
    text = "".join(ch if unicodedata.category(ch)[0] != "C" else " " for ch in line)
    text = _BULLET.sub("", text)
    text = _MARKUP.sub("", text)
    text = " ".join(text.replace("`", "'").split())
    if len(text) > MAX_CHARS:
        text = text[: MAX_CHARS - 1].rstrip() + "…"
    return text


def parse_learnings(raw: str, redactor: Redactor | None = None) -> list[str]:
    """Cleaned, de-duplicated, bounded lessons from the text of the learnings file."""
    lessons: list[str] = []
    seen: set[str] = set()
    in_fence = False
    for line in raw.splitlines():
        if line.strip().startswith("```"):
            in_fence = not in_fence
            continue
        if in_fence or _INSTRUCTION.search(line):
            continue
        text = _clean(redactor.redact(line) if redactor else line)
        key = text.lower().rstrip(".")
        if len(text) < MIN_CHARS or key in seen:
            continue
        seen.add(key)
        lessons.append(text)
        if len(lessons) == MAX_LEARNINGS:
            break
    return lessons


def read_learnings(path: Path, redactor: Redactor | None = None) -> list[str]:
    """Lessons from ``path``; none when it is missing, not a regular file, or unreadable."""
    try:
        if path.is_symlink() or not path.is_file():
            return []
        with path.open("rb") as handle:
            data = handle.read(MAX_FILE_BYTES)
    except OSError:
        return []
    return parse_learnings(data.decode("utf-8", "replace"), redactor)
