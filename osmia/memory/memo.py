"""Pure text functions remembered by digest: the same test names and paths come back run after run.

Extraction checks the folder of every file a run changed and every test name it reports for
orders, then redacts and cleans them, each through a dozen RE2 scans (~20-60 µs a short text,
most of it the binding's per-call cost), and a repository's runs name the same few hundred of
them again and again (:mod:`osmia.memory.quoted`). :class:`TextMemo` keeps the results of the
most recent few thousand short texts. The key is a 128-bit digest of the text, not the text: what
a run wrote may hold a secret, and the memo keeps only what the function made of it (redacted,
cleaned), which is what gets stored anyway.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

__all__ = ["TextMemo"]


class TextMemo:
    """``fn`` (pure, ``str → str``) with the results of the ``capacity`` most recently used texts of
    at most ``max_len`` characters kept; a longer text is computed every time."""

    def __init__(self, fn: Callable[[str], str], capacity: int = 4096, max_len: int = 512) -> None:
        self.fn = fn
        self.capacity = capacity
        self.max_len = max_len
        self._results: dict[bytes, str] = {}

    def __call__(self, text: str) -> str:
        if len(text) > self.max_len:
            return self.fn(text)
        key = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()
        results = self._results
        found = results.pop(key, None)
        if found is None:
            found = self.fn(text)
            if len(results) >= self.capacity:
                results.pop(next(iter(results)), None)  # the least recently used
        results[key] = found  # the most recently used last
        return found
