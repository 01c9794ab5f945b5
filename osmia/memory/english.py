"""English's most frequent words: what lesson reading and redaction call common, not a name or a token.

Its own module, with nothing of Osmia's imported, so that redaction (which stamps stored lines:
:mod:`osmia.memory.clean_stamp`) depends on the word list and not on the lesson rules that also
read it (:mod:`osmia.memory.advice`).
"""

from __future__ import annotations

import functools

__all__ = ["COMMON_WORDS", "common_words"]

# How many of English's most frequent words count as common: 5,000 holds "careful", "shared" and
# "important", not "documentation" or "modifying" (a lesson needs two concrete words, so one such
# word is not enough). 8,000 started to call lessons advice (docs/performance.md §29).
COMMON_WORDS = 5000


@functools.cache
def common_words() -> frozenset[str]:
    """English's :data:`COMMON_WORDS` most frequent words, lower-case (loaded once per process)."""
    import wordfreq  # ~0.15 s and ~8 MB once; the CLI's writing verbs never need it

    return frozenset(wordfreq.top_n_list("en", COMMON_WORDS, wordlist="small"))
