"""A tenant's vocabulary, kept as nodes are written, so a query measures specificity without counting.

A learning's specificity (:func:`osmia.memory.statistics.specificity`) needs two figures about the
tenant: how many of its nodes hold each word (a word's rarity), and in how many of its repositories a
learning states the same sentence (its spread). Counted from the full-text index at query time they
were most of a slow query's work (one phrase count cost 10-20 ms at 100k nodes and more at 1M), so
the store keeps them as the graph changes instead (schema v9, ``docs/memory.md``):

* each fact's row holds :func:`vocabulary_words` of its content (a JSON array), and triggers keep
  the ``vocabulary`` table's ``(tenant, word) → facts`` counts, with the word ``''`` counting the
  tenant's facts; every insert, delete and rewrite is counted whichever path made it (extraction,
  decay's prune, ``forget``, import). Attempt nodes are not counted: an attempt quotes its run's
  learnings, so a lesson would look commoner each time a run reported it;
* each learning row holds :func:`sentence_key` of its content, indexed with its repository, so the
  spread is an index range per sentence.

A query then reads both for its few candidate learnings in two indexed statements.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
from dataclasses import dataclass, field

from osmia.memory.text import query_terms, stem

MAX_PHRASE_WORDS = 12
NODES_WORD = ""  # the vocabulary row counting a tenant's nodes (no word is empty)


@functools.lru_cache(maxsize=1 << 14)
def phrase(content: str) -> str:
    """The first 12 words of ``content`` (runs of letters and digits of any script), lower-cased:
    the sentence a learning states.

    No regular expression: a character test per character is linear whatever the text, and
    twenty times faster than RE2's Python matches (~5 µs a token). Cached: every query asks it
    for its candidate learnings, and the same learnings come back ticket after ticket.
    """
    letters = "".join([ch if ch.isalnum() else " " for ch in content])
    return " ".join(letters.split()[:MAX_PHRASE_WORDS]).lower()


@functools.lru_cache(maxsize=1 << 14)
def sentence_key(content: str) -> int:
    """63 bits of a hash of the stems of :func:`phrase`: equal for the same sentence in other inflections.

    "Ran the tests before pushing" and "ran the test before pushing" share a key; a learning that
    says more than the sentence does not.
    """
    stemmed = " ".join(stem(word) for word in phrase(content).split())
    return int.from_bytes(hashlib.blake2b(stemmed.encode(), digest_size=8).digest(), "big") >> 1


@functools.lru_cache(maxsize=1 << 14)
def vocabulary_words(content: str) -> tuple[str, ...]:
    """The stems of ``content``'s search words (:func:`~osmia.memory.text.query_terms`), distinct and sorted.

    Cached: a query asks it for each candidate learning it scores exactly.
    """
    return tuple(sorted({stem(word) for word in query_terms(content)}))


def words_column(content: str) -> str:
    """``nodes.words`` of a fact: ``''`` (every fact counts towards the tenant's size) then
    :func:`vocabulary_words`, as the JSON array the vocabulary triggers read."""
    return json.dumps([NODES_WORD, *vocabulary_words(content)], ensure_ascii=False, separators=(",", ":"))


@dataclass
class Vocabulary:
    """What a query knows of the tenant's vocabulary.

    ``counts`` maps a word's stem to the tenant's nodes holding it; ``nodes`` is the tenant's size
    (at least the configured minimum); ``sentences`` maps a :func:`sentence_key` to the number of
    the tenant's repositories with a learning stating it.
    """

    counts: dict[str, int] = field(default_factory=dict)
    nodes: int = 1
    sentences: dict[int, int] = field(default_factory=dict)

    def rarity(self, word: str) -> float:
        """``1 − log(1 + df) / log(1 + N)`` of a stem; one not counted counts as rare (1)."""
        count = self.counts.get(word)
        if count is None:
            return 1.0
        return max(0.0, 1.0 - math.log1p(count) / math.log1p(max(1, self.nodes)))

    def spread(self, sentence: int) -> int:
        """In how many repositories a learning states the sentence (1 when not counted)."""
        return max(1, self.sentences.get(sentence, 1))
