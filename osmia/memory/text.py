"""Words for matching: content words, identifier parts, stems, full-text queries, similarity.

Secret redaction lives in :mod:`osmia.memory.redaction`, prompt cleaning in
:mod:`osmia.memory.cleaning`, and the step that applies both to a whole run in
:mod:`osmia.memory.sanitize`; their names are re-exported here for callers
that import them from this module.
"""

from __future__ import annotations

import functools
import re

import snowballstemmer

from osmia.memory.cleaning import MAX_LINE, clean_text
from osmia.memory.hostile import looks_hostile
from osmia.memory.redaction import REDACTED, contains_secret, redact, redact_secrets

__all__ = [
    "MAX_LINE",
    "REDACTED",
    "STOPWORDS",
    "TEMPLATE_WORDS",
    "clean_text",
    "contains_secret",
    "fts_query",
    "looks_hostile",
    "matched_stems",
    "query_terms",
    "redact",
    "redact_secrets",
    "search_terms",
    "similarity",
    "stem",
    "stems",
    "word_bag",
    "words",
]

_WORDS = re.compile(r"[^\W_]+(?:[._-][^\W_]+)*", re.UNICODE)

_STOPWORD_TEXT = (
    "a an and are as at be but by can could do does for from has have how i if in into is it "
    "its may more must my no not of on or our should so some such that the their then there "
    "these this those to too up us was we were what when where which while who why will with "
    "would you your please need needs also just get got make made use using used new"
)
STOPWORDS = frozenset(_STOPWORD_TEXT.split())
# Words Osmia's own fact templates use everywhere: matching on them says nothing.
_TEMPLATE_TEXT = (
    "task tasks run runs ran failed fail fails succeeded succeed success min minutes about time "
    "times often touch touches change changes changed earlier rerun before after treating real "
    "repositories repository repo engine expected longer rarely take more "
    "than mostly when it prefer then"
)
TEMPLATE_WORDS = frozenset(_TEMPLATE_TEXT.split())


def words(text: str) -> list[str]:
    """Lower-case content words (stopwords dropped), in order, for matching and similarity."""
    if text.isascii():
        # Lower-casing ASCII changes no word's bounds, so the text is lowered once and the words
        # found as strings, not match objects (most texts; a first visit of a line asks this of it
        # for its word bag, its vocabulary words and its stems).
        return [w for w in _WORDS.findall(text.lower()) if w not in STOPWORDS]
    return [w for w in (m.group(0).lower() for m in _WORDS.finditer(text)) if w not in STOPWORDS]


_MAX_IDENTIFIER = 128
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")
_TOKEN = re.compile(r"[A-Za-z0-9]+")


def _one_piece(token: str) -> bool:
    """Whether :data:`_CAMEL` finds one piece only in ``token`` (ASCII letters and digits): digits
    only, or letters that are all one case after the first (``refund``, ``Refund``, ``HTTP``)."""
    return token.isdigit() or (
        token.isalpha() and (len(token) == 1 or token[1:].islower() or token.isupper())
    )


@functools.lru_cache(maxsize=256)
def search_terms(text: str) -> str:
    """Extra words for full-text search: identifiers split at case, ``_``, ``-``, ``.`` and ``/``.

    ``TestConcurrentLogin`` → ``test concurrent login``, so a ticket that talks
    about "concurrent login" finds the flaky test.

    Cached for a few texts: a written fact asks it for its ``terms`` column and again for its
    vocabulary words, a query for its ticket's terms and stems.
    """
    parts: list[str] = []
    for token in _TOKEN.findall(text):
        if len(token) > _MAX_IDENTIFIER:
            continue  # not an identifier, and splitting it would backtrack (quadratic in its length)
        if _one_piece(token):
            continue  # most words: a number, or letters in one case (after a capital), split in one piece
        pieces = _CAMEL.findall(token)
        if len(pieces) > 1:
            parts.extend(p.lower() for p in pieces if p.lower() not in STOPWORDS)
    return " ".join(dict.fromkeys(parts))


def query_terms(text: str, max_terms: int = 64) -> list[str]:
    """The distinct words of a ticket worth searching for: no stopwords, template words or short numbers.

    A number of one or two digits is a count or a duration ("3 retries", "10 min"); from three
    digits on it is a status or exit code, a port, an error number ("502", "137", "5432"): often
    the most specific word of an incident ticket, and the one its runbook names.
    """
    seen: dict[str, None] = {}
    for word in words(text) + search_terms(text).split():
        if len(word) > 1 and not (word.isdigit() and len(word) < 3) and word not in TEMPLATE_WORDS:
            seen.setdefault(word, None)
        if len(seen) >= max_terms:
            break
    return list(seen)


def fts_query(text: str, max_terms: int = 64) -> str:
    """An FTS5 ``MATCH`` expression: the query terms of ``text`` OR-ed, each quoted."""
    return " OR ".join('"' + w.replace('"', '""') + '"' for w in query_terms(text, max_terms))


_PARTS = re.compile(r"[._/-]")
_STEMMER = snowballstemmer.stemmer("english")
# Snowball in pure Python costs ~20 µs a word and ranking stems every candidate's words on every
# query; the vocabulary is small and stable, so each word is stemmed once per process.
_stem_word = functools.lru_cache(maxsize=1 << 16)(_STEMMER.stemWord)


def stem(word: str) -> str:
    """The English (Snowball) stem of one lower-case word, cached per process."""
    # A number is its own stem (Snowball's English rules strip letters only: checked on every
    # number below a million and 200,000 random ones up to 40 digits). Numbers are most of the
    # new words an extraction meets (run counts in patterns and engine profiles: ~5 a run at
    # 100k nodes, 16 µs each), and caching them would push real words out of the cache.
    if word.isdigit() and word.isascii():
        return word
    return str(_stem_word(word))


@functools.lru_cache(maxsize=1 << 13)
def stems(text: str) -> frozenset[str]:
    """English stems of every word and identifier part: ``refunds``/``refund`` and
    ``concurrency``/``concurrent`` meet, as they do in the FTS5 porter index.

    Cached per text: ranking asks this for each of up to 60 full-text matches per
    query, and the same facts match ticket after ticket (a third of a query's time
    at 10k runs before the cache).
    """
    found = set(words(text)) | set(search_terms(text).split())
    for word in list(found):
        found.update(part for part in _PARTS.split(word) if part)
    return frozenset(stem(word) for word in found)


def matched_stems(term_stems: list[str], content: str) -> int:
    """How many of the (stemmed) terms occur in ``content``, compared by stem: a query stems its
    terms once for all its full-text matches."""
    present = stems(content)
    return sum(1 for s in term_stems if s in present)


@functools.lru_cache(maxsize=1 << 12)
def word_bag(text: str) -> frozenset[str]:
    """The distinct informative words of ``text`` (template words left out), what :func:`similarity`
    compares. Cached per text: ranking compares each candidate with what it already kept, and
    the same facts come back ticket after ticket (4,096 short stored lines: ~2 MB)."""
    return frozenset(words(text)) - TEMPLATE_WORDS


def similarity(a: str, b: str) -> float:
    """Jaccard similarity of the two texts' informative words (0 = unrelated, 1 = same words).

    Template words are left out, so two facts of the same template about
    different things are not twins.
    """
    sa, sb = word_bag(a), word_bag(b)
    if not sa or not sb:
        return 0.0
    return len(sa & sb) / len(sa | sb)
