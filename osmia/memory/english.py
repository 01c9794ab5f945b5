"""English's most frequent words: what lesson reading and redaction call common, not a name or a token.

Its own module, with nothing of Osmia's imported but the RE2 wrapper, so that redaction (which
stamps stored lines: :mod:`osmia.memory.clean_stamp`) depends on the word list and not on the
lesson rules that also read it (:mod:`osmia.memory.advice`).
"""

from __future__ import annotations

import functools

from osmia.memory.linear import linear

__all__ = [
    "COMMON_WORDS",
    "FREQUENT_WORDS",
    "common_words",
    "frequent_word",
    "frequent_words",
    "holds_common_word",
]

# How many of English's most frequent words count as common: 5,000 holds "careful", "shared" and
# "important", not "documentation" or "modifying" (a lesson needs two concrete words, so one such
# word is not enough). 8,000 started to call lessons advice (docs/performance.md §29).
COMMON_WORDS = 5000


@functools.cache
def common_words() -> frozenset[str]:
    """English's :data:`COMMON_WORDS` most frequent words, lower-case (loaded once per process)."""
    import wordfreq  # ~0.15 s and ~8 MB once; the CLI's writing verbs never need it

    return frozenset(wordfreq.top_n_list("en", COMMON_WORDS, wordlist="small"))


# How many words :func:`frequent_words` holds: enough for the words of code's names (``header``,
# ``encoding``); of 18,292 random runs of 12-40 letters and digits, none holds one of five letters.
FREQUENT_WORDS = 30000


@functools.cache
def frequent_words() -> dict[str, str]:
    """English's :data:`FREQUENT_WORDS` most frequent words of five letters or more, letters only,
    lower-case, kept by their first two letters, each group one string (``"\nheader\nheaven\n"``):
    ~0.25 MB, where a set of the same 23,530 words holds ~2.5 MB in a process that serves within
    200 MB (loaded once, by :func:`osmia.memory.warmup.warm_up`)."""
    import wordfreq

    groups: dict[str, list[str]] = {}
    for word in wordfreq.top_n_list("en", FREQUENT_WORDS, wordlist="small"):
        if len(word) >= 5 and word.isascii() and word.isalpha():
            groups.setdefault(word[:2], []).append(word)
    return {start: "\n" + "\n".join(words) + "\n" for start, words in groups.items()}


def frequent_word(word: str) -> bool:
    """Whether ``word`` (case ignored) is one of :func:`frequent_words`: a word of five letters or
    more inside a run makes it a name rather than a generated value."""
    lowered = word.lower()
    return len(lowered) >= 5 and f"\n{lowered}\n" in frequent_words().get(lowered[:2], "")


# Words inside a run of letters and digits, apart at case and digits (``transformers2024release``:
# ``transformers``, ``release``; ``TestRefundWebhook``: ``Test``, ``Refund``, ``Webhook``).
_LETTERS = linear(r"[A-Z]?[a-z]+|[A-Z]+")


def holds_common_word(run: str, shortest: int = 4) -> bool:
    """Whether ``run`` holds a common English word of ``shortest`` letters or more, its words read
    apart at case and digits: a name or a phrase, not a generated value (5 in 10,000 random
    20-character tokens hold one)."""
    common = common_words()
    return any(len(w) >= shortest and w.lower() in common for w in _LETTERS.findall(run))
