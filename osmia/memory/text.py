"""Text hygiene for memory: secrets out, prompt-breaking markup out, words for matching.

Everything an agent reports is untrusted. Before it is stored it goes
through :func:`redact_secrets` and :func:`clean_text`; before it is rendered
into a prompt it goes through :func:`clean_text` again.
"""

from __future__ import annotations

import functools
import re

import snowballstemmer

MAX_LINE = 300

_SECRET_PATTERNS: tuple[re.Pattern[str], ...] = tuple(
    re.compile(p)
    for p in (
        r"-----BEGIN [A-Z ]*PRIVATE KEY-----.*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)",
        r"\b(?:ghp|gho|ghu|ghs|ghr|github_pat)_[A-Za-z0-9_]{20,}",
        r"\bglpat-[A-Za-z0-9_-]{20,}",
        r"\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}",
        r"\bxox[abprs]-[A-Za-z0-9-]{10,}",
        r"\b(?:AKIA|ASIA)[A-Z0-9]{16}\b",
        r"\bAIza[0-9A-Za-z_-]{35}\b",
        r"\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}",
        r"(?i)\bbearer\s+[A-Za-z0-9._~+/=-]{16,}",
        r"(?i)\b[a-z][a-z0-9+.-]*://[^\s:/@]+:[^\s@/]+@",
        r"(?i)\b(?:password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key)"
        r"\s*[:=]\s*['\"]?[^\s'\",;]{4,}",
    )
)
REDACTED = "[redacted]"

_INJECTION = re.compile(
    r"(?i)\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+|the\s+)?"
    r"(?:previous|prior|above|earlier|preceding|system)\s+(?:instructions?|prompts?|rules?|messages?)"
)
_ROLE_MARKERS = re.compile(
    r"(?i)(?:<\|[a-z_]+\|>|</?s>|\[/?INST\]|<<\s*/?SYS\s*>>|</?(?:system|assistant|user|human|tool)>"
    r"|\b(?:system|assistant|user|human|developer)\s*:)"
)
_HTML_TAG = re.compile(r"</?[A-Za-z][^>]{0,200}>")
_FENCE = re.compile(r"`{3,}|~{3,}")
_HEADING_RUN = re.compile(r"#{2,}")
_LEADING_MARKUP = re.compile(r"^[\s>#*+=|-]+")
_SPACES = re.compile(r"\s+")
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


def redact_secrets(text: str) -> str:
    """Replace anything that looks like a credential with ``[redacted]``."""
    for pattern in _SECRET_PATTERNS:
        text = pattern.sub(REDACTED, text)
    return text


def contains_secret(text: str) -> bool:
    """True when :func:`redact_secrets` would change ``text``."""
    return any(p.search(text) for p in _SECRET_PATTERNS)


def clean_text(text: str, max_len: int = MAX_LINE) -> str:
    """One safe line of data: no headings, fences, role markers, tags or injections; bounded length."""
    text = _SPACES.sub(" ", text)
    text = _FENCE.sub("'", text)
    text = _ROLE_MARKERS.sub("", text)
    text = _HTML_TAG.sub("", text)
    text = _INJECTION.sub("[removed]", text)
    text = _HEADING_RUN.sub("#", text)
    text = _LEADING_MARKUP.sub("", text).strip()
    if len(text) > max_len:
        text = text[: max_len - 1].rstrip() + "…"
    return text


def words(text: str) -> list[str]:
    """Lower-case content words (stopwords dropped), in order, for matching and similarity."""
    return [w for w in (m.group(0).lower() for m in _WORDS.finditer(text)) if w not in STOPWORDS]


_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


def search_terms(text: str) -> str:
    """Extra words for full-text search: identifiers split at case, ``_``, ``-``, ``.`` and ``/``.

    ``TestConcurrentLogin`` → ``test concurrent login``, so a ticket that talks
    about "concurrent login" finds the flaky test.
    """
    parts: list[str] = []
    for token in re.findall(r"[A-Za-z0-9]+", text):
        pieces = _CAMEL.findall(token)
        if len(pieces) > 1:
            parts.extend(p.lower() for p in pieces if p.lower() not in STOPWORDS)
    return " ".join(dict.fromkeys(parts))


def query_terms(text: str, max_terms: int = 64) -> list[str]:
    """The distinct words of a ticket worth searching for: no stopwords, template words or numbers."""
    seen: dict[str, None] = {}
    for word in words(text) + search_terms(text).split():
        if len(word) > 1 and not word.isdigit() and word not in TEMPLATE_WORDS:
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
_stem = functools.lru_cache(maxsize=1 << 16)(_STEMMER.stemWord)


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
    return frozenset(_stem(word) for word in found)


def matched_terms(terms: list[str], content: str) -> int:
    """How many of ``terms`` occur in ``content``, compared by stem."""
    present = stems(content)
    return sum(1 for term in terms if _stem(term) in present)


_HOSTILE = re.compile(
    r"(?i)ignore\s+(?:all\s+|any\s+|the\s+)?(?:previous|prior|above)|disregard|you are now|"
    r"<\|[a-z_]+\|>|\[/?INST\]|^\W*(?:system|assistant|developer)\s*:"
)


def looks_hostile(text: str) -> bool:
    """True for text that tries to instruct the agent: such learnings are not stored at all."""
    return bool(_HOSTILE.search(text))


def similarity(a: str, b: str) -> float:
    """Jaccard similarity of the two texts' informative words (0 = unrelated, 1 = same words).

    Template words are left out, so two facts of the same template about
    different things are not twins.
    """
    sa, sb = set(words(a)) - TEMPLATE_WORDS, set(words(b)) - TEMPLATE_WORDS
    if not sa or not sb:
        return 0.0
    return len(sa & sb) / len(sa | sb)
