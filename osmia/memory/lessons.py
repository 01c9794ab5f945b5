"""Lessons: when two learnings say the same thing, when a newer one replaces an older one,
and whether one says anything at all.

Lexical and deterministic. A lesson's **identifiers** (code spans, commands,
paths, environment variables, flags, versions, dotted and snake/camel-case
names) are strong evidence: two lessons that share a distinctive identifier and
agree on some of their other words are one lesson; two lessons whose
identifiers are all different are two. Without identifiers, English stems
decide (``regenerate``/``regenerated``, ``queries``/``query``).

A newer lesson **supersedes** an older one about the same subject when it gives
another version of the same tool or runtime (``numpy 1.26`` → ``numpy 2.x``),
another value for the same setting (``TIMEOUT=30`` → ``TIMEOUT=60``), or says it
replaces what the older one named ("use `uv` instead of `pip`").

The decision is measured on a labelled set of several hundred pairs
(``benchmarks/lesson_pairs.py``; docs/performance.md has the figures).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from osmia.memory.linear import LinearPattern, linear
from osmia.memory.text import STOPWORDS, TEMPLATE_WORDS, stems

# Words that carry no lesson on their own: with nothing else, a learning is not worth storing.
_GENERIC_TEXT = (
    "test tests tested testing pass passes passed passing green good looks look looked fine ok okay "
    "done works worked work working lgtm ran run running all everything nothing code build builds built "
    "ci fixed fix fixes issue ticket pr merged pushed push pushing committed commit verified verify checked "
    "check again locally suite now still really well great correct correctly went smoothly smooth "
    "successful successfully complete completed finished finish straightforward simple easy change changes "
    "changed updated update before after it this that things thing stuff as expected problem problems "
    "no none worked first try all green nice clean cleanly"
)
GENERIC_WORDS = frozenset(_GENERIC_TEXT.split())
# Command heads shared by many lessons: an identifier made only of these is not distinctive.
_COMMON_HEADS_TEXT = (
    "make run go npm npx yarn pnpm cargo python python3 pip poetry uv git test tests build install "
    "docker kubectl helm mvn gradle gradlew ./gradlew bash sh sudo node java rustc pytest tox nox"
)
_COMMON_HEADS = frozenset(_COMMON_HEADS_TEXT.split())
_RUNTIMES_TEXT = (
    "node nodejs python go golang java jdk ruby rust rustc php dotnet kotlin scala elixir erlang deno bun "
    "terraform helm kubernetes k8s postgres postgresql mysql redis"
)
RUNTIMES = frozenset(_RUNTIMES_TEXT.split())

# RE2 (osmia/memory/linear.py): learnings are text a run wrote, so every pattern runs in linear
# time. RE2 has no look-around: a "not preceded by" becomes a consumed boundary before the token
# (group 1), a "not followed by" a consumed boundary after it.
_SPAN = linear(r"`([^`]{1,200})`")
_PATH = linear(r"((?:\.{0,2}/)?(?:[\w.-]+/)+[\w.*-]*|\b[\w-]+\.(?:[a-z]{1,5})\b)")
_ENV = linear(r"\b([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\b")
_FLAG = linear(r"(?:^|[^\w-])(--?[a-zA-Z][\w-]*)")
_CODE_WORD = linear(
    r"\b([a-z]+[A-Z]\w*|[A-Z][a-z0-9]+[A-Z]\w*|[a-z0-9]+(?:_[a-z0-9]+)+|\w+(?:::\w+)+|[a-z]{3,}(?:-[a-z0-9]{3,})+)\b"
    r"|(?:^|[^\w/])(\.[a-z][\w.-]+)"  # dotfiles: .nvmrc, .sqlx (group 2)
)
# A tool's subcommand is an identifier even without a code span: "make links", "terraform fmt".
_COMMAND = linear(
    r"(?i)\b(?:make|cargo(?:\s+\+\w+)?|npm\s+run|pnpm|yarn|npx|\./gradlew|gradlew|gradle|mvn|poetry|uv|"
    r"terraform|helm|kubectl|tflint|alembic|mockery|vale|pre-commit)\s+([a-z][\w:-]+)"
)
_VERSION = linear(
    r"(?i)\b([a-z][\w+-]*?)(?:\s+(?:to|at|on|is|of|version|v))?\s*(?:@|==|>=|<=|~=|<|>|\^|~|\s|v)\s*"
    r"v?(\d+(?:\.(?:\d+|x|\*))+|\d+)(?:[^\w.]|$)"
)
_SETTING = linear(r"\b([A-Za-z_][\w.-]*[A-Za-z0-9_])\s*[=:]\s*([\w./:@-]+)")
_REPLACES = linear(
    r"(?i)\binstead\s+of\b|\bno\s+longer\b|\breplac(?:ed|es|e)\b|\bdeprecated\b|\bswitched\b|\bmigrated\b"
    r"|\bnot\s+any\s*more\b|\banymore\b|\bmoved\s+(?:from|to)\b|\bnow\b"
)
_WORD = linear(r"[A-Za-z][A-Za-z0-9'-]*")
_NON_ALNUM = linear(r"[^a-z0-9]+")
# Every compiled pattern of this module (tests check that each is an RE2 one).
PATTERNS: tuple[LinearPattern, ...] = (
    _SPAN, _PATH, _ENV, _FLAG, _CODE_WORD, _COMMAND, _VERSION, _SETTING, _REPLACES, _WORD, _NON_ALNUM,
)  # fmt: skip


@dataclass(frozen=True)
class Lesson:
    """What the matcher compares: identifiers, stems, versions and settings of one learning."""

    text: str
    identifiers: frozenset[str]  # identifier atoms, lower-case
    # The unmistakable ones (a path, flag, variable, version, dotted or mixed-case name): a lesson
    # naming one the other lacks is about something else. Plain words in a code span and
    # hyphenated words ("hand-edit") are identifiers for matching, not for telling lessons apart.
    strong: frozenset[str]
    words: frozenset[str]  # English stems of the content words (identifier parts included)
    versions: tuple[tuple[str, str], ...]  # (tool, version)
    settings: tuple[tuple[str, str], ...]  # (name, value)

    @property
    def specific(self) -> bool:
        """True when the learning says something: an identifier, or two words beyond the generic ones."""
        if self.identifiers or self.versions or self.settings:
            return True
        content = [w.lower() for w in _WORD.findall(self.text)]
        informative = {w for w in content if w not in STOPWORDS and w not in GENERIC_WORDS and len(w) > 2}
        return len(informative) >= 2


_STRONG_MARK = linear(r"[/._:@=]|\d|^-|[a-z][A-Z]|^[A-Z]{2,}")
PATTERNS += (_STRONG_MARK,)


# What each pattern cannot match without: a learning is mostly plain words, and a pattern skipped
# by a character test costs nothing (an RE2 pass from Python costs microseconds, matches or not).
# Each entry is the set of characters one of which must occur in the text. _COMMAND needs one of
# its command words, tested on the lower-cased text, and only for ASCII text, where lower-casing is
# all that ``(?i)`` folds (outside ASCII it also folds, for instance, KELVIN SIGN to k).
_NEEDS: dict[int, frozenset[str]] = {
    id(_SPAN): frozenset("`"),
    id(_PATH): frozenset("/."),
    id(_ENV): frozenset("_"),
    id(_FLAG): frozenset("-"),
    id(_VERSION): frozenset("0123456789"),
    id(_SETTING): frozenset("=:"),
}
_COMMAND_HEADS = (
    "make", "cargo", "npm", "yarn", "npx", "gradle", "mvn", "poetry", "uv", "terraform", "helm", "kubectl",
    "tflint", "alembic", "mockery", "vale", "pre-commit",
)  # fmt: skip


def _may_match(pattern: LinearPattern, text: str) -> bool:
    """False when ``pattern`` cannot match ``text`` (a character or word it needs is absent)."""
    if pattern is _COMMAND:
        return not text.isascii() or any(map(text.lower().__contains__, _COMMAND_HEADS))
    needs = _NEEDS.get(id(pattern))
    return needs is None or not needs.isdisjoint(text)


@functools.lru_cache(maxsize=1 << 14)
def _marked_strong(token: str) -> bool:
    """Whether an identifier as written is unmistakable (cached: tokens recur from lesson to lesson)."""
    return _STRONG_MARK.search(token) is not None


def _atoms(text: str, versions: tuple[tuple[str, str], ...]) -> tuple[set[str], set[str]]:
    """Identifier atoms (code-span tokens, paths, env vars, flags, code-style words) and the strong ones.

    ``versions`` are the text's :func:`_versions` (an atom ``tool@version`` each).
    """
    found: set[str] = set()
    strong: set[str] = set()

    def add(token: str, original: str) -> None:
        found.add(token)
        if _marked_strong(original):
            strong.add(token)

    rest = text
    for span in _SPAN.findall(text) if _may_match(_SPAN, text) else ():
        for token in span.split():
            raw = token.strip(",;:'\"()")
            token = raw.lower()
            if token and token not in _COMMON_HEADS and token not in STOPWORDS and len(token) > 1:
                add(token, raw)
        rest = rest.replace(f"`{span}`", " ")
    for token, raw in _run_atoms(rest):
        add(token, raw)
    for m in _COMMAND.finditer(rest) if _may_match(_COMMAND, rest) else ():
        raw = m.group(1) or ""
        token = raw.lower()
        if token not in GENERIC_WORDS and token not in STOPWORDS and token not in _COMMON_HEADS:
            add(token, raw)
    for tool, version in versions:
        add(f"{tool}@{version}", "@")
    return found, strong


_RUN_PATTERNS = (_PATH, _ENV, _FLAG, _CODE_WORD)


def _pattern_atoms(text: str) -> tuple[tuple[str, str], ...]:
    """(atom, as written) for each match of the path, variable, flag and code-word patterns."""
    out = []
    for pattern in _RUN_PATTERNS:
        if not _may_match(pattern, text):
            continue
        for m in pattern.finditer(text):
            raw = (m.group(1) or m.group(2) or "").rstrip(".,;:")
            token = raw.lower()
            if len(token) > 2 and token not in _COMMON_HEADS and not token.replace(".", "").isdigit():
                out.append((token, raw))
    return tuple(out)


# No match of those four patterns holds whitespace (a flag or dotfile may take the character
# before it, which is whitespace or nothing at a run's start, alike to their ``^``/``[^\w-]``), so
# in ASCII text their matches are those of the whitespace-separated runs taken one by one, and the
# runs of a store's learnings recur: each is matched once per process.
_cached_pattern_atoms = functools.lru_cache(maxsize=1 << 15)(_pattern_atoms)


def _run_atoms(text: str) -> tuple[tuple[str, str], ...]:
    """:func:`_pattern_atoms` of ``text``, from cached runs when ``text`` is ASCII."""
    if not text.isascii():
        return _pattern_atoms(text)
    return tuple(atom for run in text.split() for atom in _cached_pattern_atoms(run))


def _versions(text: str) -> tuple[tuple[str, str], ...]:
    out = []
    if not _may_match(_VERSION, text):
        return ()
    for m in _VERSION.finditer(text.replace("`", " ")):
        tool, version = (m.group(1) or "").lower(), m.group(2) or ""
        if tool in STOPWORDS or tool in GENERIC_WORDS or tool.isdigit() or len(tool) < 2:
            continue
        if "." in version or tool in RUNTIMES:
            out.append((tool, version.lower()))
    return tuple(dict.fromkeys(out))


def _settings(text: str) -> tuple[tuple[str, str], ...]:
    out = []
    if not _may_match(_SETTING, text):
        return ()
    for m in _SETTING.finditer(text.replace("`", " ")):
        name, value = m.group(1) or "", m.group(2) or ""
        if name.lower() in STOPWORDS or name.startswith("http"):
            continue
        out.append((name.lower().lstrip("-"), value.lower()))
    return tuple(dict.fromkeys(out))


def _words_of_stems(text: str) -> frozenset[str]:
    """The stems of ``text`` less stopwords, template words, numbers and single letters."""
    return frozenset(
        w
        for w in stems(text)
        if w not in STOPWORDS and w not in TEMPLATE_WORDS and not w.isdigit() and len(w) > 1
    )


# Every match of the word patterns behind :func:`osmia.memory.text.stems` (``words``: runs of
# letters and digits joined by ``.``, ``_`` or ``-``; ``search_terms``: ASCII letters and digits)
# lies inside one run of ``[A-Za-z0-9_.-]``, and each word is stemmed alone, so the stems of an
# ASCII text are the union of the stems of those runs. The runs of a store's learnings are a small
# vocabulary (file names, tools, English words): each is stemmed once per process.
_TOKEN_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")
_SEPARATE = str.maketrans({chr(c): " " for c in range(128) if chr(c) not in _TOKEN_CHARS})
_token_words = functools.lru_cache(maxsize=1 << 16)(_words_of_stems)


def lesson_words(text: str) -> frozenset[str]:
    """:attr:`Lesson.words` of ``text``: its stems, less stopwords, template words and numbers.

    An ASCII text is cut into runs of word characters by one ``str.translate`` and the runs' words
    come from a cache: a quarter of what stemming the whole text costs.
    """
    if not text.isascii():
        return _words_of_stems(text)
    return frozenset().union(*map(_token_words, text.translate(_SEPARATE).split()))


@functools.lru_cache(maxsize=1 << 14)
def lesson(text: str) -> Lesson:
    """The comparable form of a learning (cached: the same stored learnings are compared again and again)."""
    versions = _versions(text)
    found, strong = _atoms(text, versions)
    return Lesson(
        text=text,
        identifiers=frozenset(found),
        strong=frozenset(strong),
        words=lesson_words(text),
        versions=versions,
        settings=_settings(text),
    )


def _overlap(a: frozenset[str], b: frozenset[str]) -> float:
    """Overlap coefficient: shared share of the smaller set."""
    if not a or not b:
        return 0.0
    return len(a & b) / min(len(a), len(b))


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    if not a or not b:
        return 0.0
    return len(a & b) / len(a | b)


def _newer_version(a: Lesson, b: Lesson) -> bool:
    """Both name one tool with versions that disagree (neither is a prefix of the other)."""
    theirs: dict[str, set[str]] = {}
    for tool, version in b.versions:
        theirs.setdefault(tool, set()).add(version)
    for tool, version in a.versions:
        for other in theirs.get(tool, ()):
            x, y = _version_parts(version), _version_parts(other)
            n = min(len(x), len(y))
            if x[:n] != y[:n]:
                return True
    return False


def _version_parts(version: str) -> list[str]:
    return [p for p in version.split(".") if p not in ("x", "*")]


def _other_value(a: Lesson, b: Lesson) -> bool:
    theirs = dict(b.settings)
    return any(name in theirs and theirs[name] != value for name, value in a.settings)


def found_in(ident: str, other: Lesson) -> bool:
    """An identifier of one lesson appears in the other: as (part of) an identifier, or in its words."""
    for mine in other.identifiers:
        if ident == mine:
            return True
        if "@" not in ident + mine and len(ident) > 3 and len(mine) > 3 and (ident in mine or mine in ident):
            return True
    if "@" in ident:
        return False
    parts = identifier_part_stems(ident)
    return bool(parts) and all(p <= other.words for p in parts)


@functools.lru_cache(maxsize=1 << 14)
def identifier_part_stems(ident: str) -> tuple[frozenset[str], ...]:
    """The stems of each part of an identifier (longer than two characters, not a number).

    Cached: the same identifiers are looked up in lesson after lesson, and the split is an RE2 pass.
    """
    return tuple(stems(p) for p in _NON_ALNUM.split(ident) if len(p) > 2 and not p.isdigit())


def _found_flags(a: Lesson, b: Lesson) -> dict[str, bool]:
    """For each identifier of ``a``, whether it is found in ``b`` (:func:`found_in`), worked out once."""
    return {i: found_in(i, b) for i in a.identifiers}


def similarity(a: Lesson, b: Lesson) -> float:
    """How alike two lessons' words are, in [0, 1]: the mean of overlap and Jaccard of their stems."""
    return similarity_of_words(a.words, b.words)


def similarity_of_words(a: frozenset[str], b: frozenset[str]) -> float:
    """:func:`similarity` of two sets of words."""
    return (_overlap(a, b) + _jaccard(a, b)) / 2


# Thresholds, set on the tuning half of the labelled pairs (benchmarks/lesson_pairs.py).
SAME_WITH_IDENTIFIER = 0.1  # shared identifiers, none on either side that the other lacks
SAME_WITH_EXTRA_IDENTIFIER = 0.15  # shared identifiers, and one side names something more
SAME_DESPITE_OTHER_STRONG = 0.8  # ... and both name unmistakable things (paths, variables) the other lacks
SAME_DESPITE_OTHER_IDENTIFIERS = 0.5  # shared identifiers, but each side names things the other does not
SAME_ONE_SIDED = 0.5  # only one side has identifiers, the other does not mention them
SAME_WITHOUT_IDENTIFIER = 0.35
# ... and, with shared identifiers, the words beyond them must agree this much.
SAME_BEYOND_IDENTIFIERS = 0.2


def same_lesson(a: Lesson, b: Lesson) -> bool:
    """True when ``a`` and ``b`` state one lesson (so the newer reinforces the older)."""
    if a.text == b.text:
        return True
    if _newer_version(a, b) or _other_value(a, b):
        return False
    # Which identifiers each side finds in the other, once: every rule below counts from these.
    a_in_b, b_in_a = _found_flags(a, b), _found_flags(b, a)
    if _replaces(a, b, a_in_b) or _replaces(b, a, b_in_a):
        return False
    sim = similarity(a, b)
    shared = sum(a_in_b.values())
    only_a, only_b = len(a_in_b) - shared, len(b_in_a) - sum(b_in_a.values())
    if shared:
        # Unshared strong identifiers on each side (every strong identifier is an identifier).
        strong_a = sum(1 for i in a.strong if not a_in_b[i])
        strong_b = sum(1 for i in b.strong if not b_in_a[i])
        if strong_a and strong_b:
            return sim >= SAME_DESPITE_OTHER_STRONG
        if only_a and only_b:
            return sim >= SAME_DESPITE_OTHER_IDENTIFIERS
        if sim < (SAME_WITH_EXTRA_IDENTIFIER if strong_a or strong_b else SAME_WITH_IDENTIFIER):
            return False
        # A shared folder is a shared place, not a shared statement: when the only identifiers
        # the two share are paths, the statement is in the other words. Two remarks about one
        # folder ("X caching in pkg/stock/ depends on ...", "Y handling in pkg/stock/ depends on
        # ...") name the same place and say different things.
        if all("/" in i for i, found in a_in_b.items() if found):
            return _rest_similarity(a, b) >= SAME_BEYOND_IDENTIFIERS
        return True
    if a.identifiers and b.identifiers:
        return False  # each names its own things: two lessons
    if a.strong or b.strong:
        return sim >= SAME_ONE_SIDED
    return sim >= SAME_WITHOUT_IDENTIFIER


def _identifier_stems(lesson: Lesson) -> frozenset[str]:
    return frozenset(w for ident in lesson.identifiers for w in stems(ident.replace("@", " ")))


def _rest_similarity(a: Lesson, b: Lesson) -> float:
    """:func:`similarity` of the words outside both lessons' identifiers (1 when either has none)."""
    named = _identifier_stems(a) | _identifier_stems(b)
    rest_a, rest_b = a.words - named, b.words - named
    if not rest_a or not rest_b:
        return 1.0
    return (_overlap(rest_a, rest_b) + _jaccard(rest_a, rest_b)) / 2


def _replaces(new: Lesson, old: Lesson, new_in_old: dict[str, bool] | None = None) -> bool:
    """``new`` says it replaces something ``old`` named ("`uv` instead of `pip`", "replaced by bun").

    ``new_in_old``: :func:`_found_flags` of the pair, when the caller has them already.
    """
    if not _says_replaces(new.text):
        return False
    flags = _found_flags(new, old) if new_in_old is None else new_in_old
    shared = sum(flags.values())
    return shared > 0 and len(flags) - shared > 0 and similarity(new, old) >= 0.2


@functools.lru_cache(maxsize=1 << 14)
def _says_replaces(text: str) -> bool:
    """Whether a learning's text has a replacement marker ("instead of", "no longer", "now", ...)."""
    return _REPLACES.search(text) is not None


def supersedes(new: Lesson, old: Lesson) -> bool:
    """True when ``new`` replaces ``old``: another version, another value, or "instead of" what it named."""
    if new.text == old.text:
        return False
    if _newer_version(new, old) or _other_value(new, old):
        return _overlap(new.words, old.words) >= 0.2
    return _replaces(new, old)
