"""Text a run wrote, as a fact quotes it: a failure reason, a test's name, a changed file's folder.

Each is redacted and cleaned to one safe line, and is not quoted at all (``""``) when it gives
orders (:func:`~osmia.memory.hostile.looks_hostile`; a failure reason, which is prose, also when
the learned check flags it: the extractor judges it once a run and gives its verdict). Test names
and folders come back run after run in a repository, so their checks are remembered per process
(:mod:`osmia.memory.memo`).
"""

from __future__ import annotations

from osmia.memory.memo import TextMemo
from osmia.memory.text import clean_text, looks_hostile, redact_secrets

__all__ = ["folder_of", "quoted", "quoted_test"]


def quoted(text: str, max_len: int, *, hostile: bool | None = None) -> str:
    """Text a run wrote (a failure reason, a test's name) as quoted in a fact; ``""`` (not quoted)
    for text that gives orders. ``hostile`` is the caller's verdict when it has judged the text
    already (prose, by the rules and the learned check); otherwise the rules judge it here."""
    if hostile is None:
        hostile = looks_hostile(text)
    return "" if hostile else clean_text(redact_secrets(text), max_len)


def _test_as_stored(name: str) -> str:
    return quoted(name, 160).replace("`", "'")


quoted_test = TextMemo(_test_as_stored)
"""A test's name as stored; ``""`` (no test) for one that gives orders ("TestA; rm -rf / #")."""


def _checked_folder(folder: str) -> str:
    return "" if looks_hostile(folder) else clean_text(folder, 120).replace("`", "'")


_folder_as_stored = TextMemo(_checked_folder)  # a repository's runs change files in the same few folders


def folder_of(path: str) -> str:
    """The folder that characterises a changed file: its first two directories, as stored."""
    parts = [p for p in path.strip().strip("/").split("/") if p and p not in (".", "..")]
    if len(parts) < 2:
        return ""
    return _folder_as_stored("/".join(parts[: min(2, len(parts) - 1)]) + "/")
