"""Test identity across languages: one test, whichever form a run used to name it.

Runs name tests the way their tool prints them: Go ``TestX`` (``TestX/sub``),
pytest node ids (``tests/test_s3.py::TestUpload::test_resume[slow]``) or bare
names (``test_resume``), JUnit ``Class.method``, ``Class#method`` or Gradle's
``ClassTest > method()``, Jest ``describe › it``, Rust ``module::tests::name``.
:func:`parse` turns each into a :class:`TestId` (a *scope*, the class, module
or describe block, and a *leaf*, the test itself); :func:`matches` says when
two of them name the same test (same leaf, and scopes that agree or one side
without a scope), and :func:`mentions` finds the test names a sentence of prose
talks about, so "Stabilized test_resume" can close the node keyed by the
pytest node id.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass

from osmia.memory.linear import LinearPattern, linear
from osmia.memory.text import STOPWORDS

# RE2 (osmia/memory/linear.py): test names and the prose around them are text a run wrote.
_JEST_SEP = linear(r"\s+(?:›|>|»)\s+")
_PARAMS = linear(r"\[[^\]]*\]$")
_CALL = linear(r"\(\)$")
_JAVA = linear(r"^((?:[a-z_][\w$]*\.)*[A-Z][\w$]*)[.#]([a-z_$][\w$]*)$")
_STATUS = linear(r"\s+(?:FAILED|PASSED|SKIPPED|ERROR|FLAKY)$")
_SCOPE_SEP = linear(r"::|\.|›")
_QUALIFIED_CLASS = linear(r"(?:[a-z_]\w*\.)+[A-Z]\w*")


@dataclass(frozen=True)
class TestId:
    """One test: ``scope`` (class, module, describe block; "" when named alone) and ``leaf``."""

    scope: str
    leaf: str

    @property
    def key(self) -> str:
        """The canonical name stored in node keys: ``scope::leaf``, or the leaf alone."""
        return f"{self.scope}::{self.leaf}" if self.scope else self.leaf

    @property
    def spoken(self) -> str:
        """A test titled in words (Jest, Mocha, RSpec) as prose names it: its describe blocks and
        title in one lower-case phrase (``Cart › applies coupon`` → ``cart applies coupon``); ""
        for a test named by an identifier."""
        if " " not in self.leaf.strip():
            return ""
        return " ".join(_JEST_SEP.sub(" ", f"{self.scope} {self.leaf}").split()).lower()

    @property
    def scope_tail(self) -> str:
        """The innermost part of the scope (``com.acme.CacheIT`` → ``cacheit``), lower-case."""
        tail = _SCOPE_SEP.split(self.scope)[-1] if self.scope else ""
        return tail.strip().lower()


@functools.lru_cache(maxsize=1 << 12)
def parse(name: str) -> TestId:
    """The :class:`TestId` of a test name in any of the supported forms.

    Cached (a :class:`TestId` is frozen): a run's test is parsed for its key, its kind's and the
    keys it replaces, and the same flaky tests come back run after run.
    """
    text = _STATUS.sub("", " ".join(name.split())).strip().strip("`'\"")
    if _JEST_SEP.search(text):
        parts = [p.strip() for p in _JEST_SEP.split(text) if p.strip()]
        if len(parts) > 1:
            scope = " › ".join(parts[:-1])
            # Gradle prints a fully qualified class: ``com.acme.CacheIT > evicts()``.
            if len(parts) == 2 and _QUALIFIED_CLASS.fullmatch(scope):
                scope = scope.rsplit(".", 1)[1]
            return TestId(scope, _CALL.sub("", parts[-1]))
    if "::" in text:
        parts = [p for p in text.split("::") if p]
        if parts and parts[0].endswith(".py"):  # pytest node id: module stem, classes, function
            module = parts[0].rsplit("/", 1)[-1][: -len(".py")]
            leaf = _PARAMS.sub("", parts[-1]) if len(parts) > 1 else module
            return TestId("::".join([module, *parts[1:-1]]), leaf)
        if len(parts) > 1:  # Rust (or C++) path
            scope_parts = [p for p in parts[:-1] if p != "crate"]
            return TestId("::".join(scope_parts), parts[-1])
    java = _JAVA.match(_CALL.sub("", text))
    if java:
        return TestId((java.group(1) or "").rsplit(".", 1)[-1], java.group(2) or "")
    return TestId("", _PARAMS.sub("", _CALL.sub("", text)))


def matches(a: TestId, b: TestId) -> bool:
    """True when ``a`` and ``b`` name the same test.

    Same leaf (case-insensitive) and either scopes whose innermost parts agree or
    one side named without a scope; a Go parent test (``TestX``) also matches
    its subtests (``TestX/case``), and a title in words with its describe blocks
    spoken before it (``Cart applies coupon``) the test they name (:attr:`TestId.spoken`).
    """
    la, lb = a.leaf.lower(), b.leaf.lower()
    if la != lb:
        if not a.scope and not b.scope:
            return la.split("/")[0] == lb or lb.split("/")[0] == la
        if not a.scope:
            return _speaks(la, b)
        return not b.scope and _speaks(lb, a)
    if not a.scope or not b.scope:
        return True
    return a.scope_tail == b.scope_tail


def _speaks(words: str, test: TestId) -> bool:
    """Whether the scope-less ``words`` are ``test``'s describe blocks and title, spoken."""
    return bool(test.spoken) and " ".join(words.split()) == test.spoken


def resolve(mention: TestId, known: Iterable[TestId]) -> TestId | None:
    """The one known test ``mention`` names: an exact key first, else a unique match; None otherwise."""
    known = list(known)
    exact = [k for k in known if k.key.lower() == mention.key.lower()]
    if exact:
        return exact[0]
    found = {k.key.lower(): k for k in known if matches(mention, k)}
    return next(iter(found.values())) if len(found) == 1 else None


# --- finding test names in prose ---------------------------------------------------

_SPAN = linear(r"`([^`]{2,200})`")
_QUOTED = linear(r"[\"“']([^\"”']{3,200}?\s(?:›|>|»)\s[^\"”']{1,200}?)[\"”']")
_STRONG = linear(
    r"[\w./-]+\.py::[\w:\[\].-]+"  # pytest node id
    r"|\b(?:[a-z_]\w*\.)*[A-Z]\w*(?:Test|Tests|IT|Spec)\s+>\s+\w+(?:\(\))?"  # Gradle
    r"|\b(?:[a-z_]\w*\.)*[A-Z]\w*(?:Test|Tests|IT|Spec)[.#][a-z_]\w*(?:\(\))?"  # JUnit
    r"|\b\w+(?:::\w+)*::tests?::\w+"  # Rust
    r"|\bTest[A-Z0-9_]\w*(?:/[\w-]+)*"  # Go
    r"|\btest_\w+|\b\w+_test\b"  # pytest / others
)
# Identifier-looking words that may be a test named without its scope (``evictsOnPolicyUpdate``):
# they only count when they resolve to a test the repository already knows.
_WEAK = linear(r"\b(?:[a-z]+[A-Z]\w*|[a-z]+(?:_[a-z0-9]+)+)\b")


def mentions(sentence: str) -> tuple[list[str], list[str]]:
    """Test names in ``sentence``: (strong, weak).

    Strong ones are unmistakably test names (a test-style name or a code span
    holding one); weak ones are other identifiers and code spans, which only
    count when they resolve to a test the repository already knows.
    """
    strong: list[str] = []
    weak: list[str] = []
    rest = sentence
    for span in _SPAN.findall(sentence):
        (strong if _looks_like_test(span) else weak).append(span.strip())
        rest = rest.replace(f"`{span}`", " ")
    for quoted in _QUOTED.findall(rest):
        strong.append(quoted.strip())
        rest = rest.replace(quoted, " ")
    for m in _STRONG.finditer(rest):
        strong.append(m.group(0) or "")
    taken = " ".join(strong)
    weak.extend(w for w in _WEAK.findall(rest) if w not in taken)
    return list(dict.fromkeys(strong)), list(dict.fromkeys(w for w in weak if w not in strong))


def without_test_names(text: str, placeholder: str = " test ") -> str:
    """``text`` with every name written in a test form (and every quoted Jest title) replaced.

    The strong forms of :func:`mentions`, in one linear pass each: a reason that lists tens of
    thousands of tests is still read once, where replacing each name found was a pass per name.
    """
    return _STRONG.sub(placeholder, _QUOTED.sub(placeholder, text))


def _looks_like_test(text: str) -> bool:
    return bool(_STRONG.fullmatch(text.strip()) or _JEST_SEP.search(text) or "::" in text)


_FIX = linear(
    r"(?i)\b(?:fix(?:ed|es)?|deflak\w*|de-flak\w*|stabili[sz]\w*|resolved|repaired|made\s+\S+\s+(?:reliable|"
    r"deterministic|stable))\b|\bno\s+longer\s+(?:flaky|flakes|fails|failing)\b|\bis\s+(?:stable|green)\s+again\b"
)
_NEGATION = linear(
    r"(?i)\b(?:not|never|couldn'?t|could\s+not|can'?t|cannot|didn'?t|did\s+not|unable\s+to|failed\s+to|"
    r"tried\s+to|still|attempted\s+to|yet\s+to|won'?t)\b"
)
# A sentence ends at . ; ! or ? followed by space (the mark stays with it), or at a line break.
_SENTENCE_END = linear(r"([.;!?])\s+|\n+")
_STILL_BROKEN = linear(r"(?i)\bstill\s+(?:flaky|fail)")
# Every compiled pattern of this module (tests check that each is an RE2 one).
PATTERNS: tuple[LinearPattern, ...] = (
    _JEST_SEP, _PARAMS, _CALL, _JAVA, _STATUS, _SCOPE_SEP, _QUALIFIED_CLASS, _SPAN, _QUOTED, _STRONG, _WEAK,
    _FIX, _NEGATION, _SENTENCE_END, _STILL_BROKEN,
)  # fmt: skip


def sentences(text: str) -> list[str]:
    """``text`` cut into sentences (what ``re.split(r"(?<=[.;!?])\\s+|\\n+")`` did, without look-behind)."""
    out, start = [], 0
    for m in _SENTENCE_END.finditer(text):
        out.append(text[start : m.start()] + (m.group(1) or ""))
        start = m.end()
    out.append(text[start:])
    return out


def fix_statements(text: str) -> list[str]:
    """The sentences of ``text`` that say a test was fixed (and do not deny it)."""
    out = []
    for sentence in sentences(text):
        found = _FIX.search(sentence)
        if not found:
            continue
        before = sentence[: found.start()]
        if _NEGATION.search(before) or _STILL_BROKEN.search(sentence):
            continue
        out.append(sentence)
    return out


_PROSE_WORD = linear(r"[A-Za-z][\w'-]*")
MAX_PHRASE_WORDS = 6  # a test named in prose: Jest's "applies coupon", RSpec's "rejects an expired token"
_PHRASE_WINDOW = 300  # characters read each side of the fix word
# Words around a test's prose name that are not part of it: "the flaky `applies coupon` spec".
_FILLER_TEXT = (
    "flaky flake flakes test tests spec specs case cases suite e2e unit integration jest vitest mocha "
    "playwright cypress rspec it describe is was no longer now"
)
_FILLER = STOPWORDS | frozenset(_FILLER_TEXT.split())
PATTERNS += (_PROSE_WORD,)


def phrases(sentence: str) -> list[str]:
    """Runs of 2 to 6 words next to a fix statement's verb that may be a test named in prose.

    "Deflaked applies coupon by waiting" and "The shows the discounted total spec is no longer
    flaky" name ``Checkout › applies coupon`` and ``OrderSummary > shows the discounted total`` by
    their ``it`` text (Jest, Mocha, RSpec), which no identifier pattern finds. Tried: the runs that
    start at the first word after the verb, and those that end at the last word before it, less
    the filler around them (articles, "flaky", "spec"); at most ten. Tentative, like weak
    mentions: one counts only when it is the name of a test the repository knows as flaky or failing.
    """
    found = _FIX.search(sentence)
    if not found:
        return []
    # A window each side (the sentence is text a run wrote, of any length): a name in prose, after
    # a few words of filler, is well inside it.
    after = [w.strip("'") for w in _PROSE_WORD.findall(sentence[found.end() : found.end() + _PHRASE_WINDOW])]
    before = [
        w.strip("'")
        for w in _PROSE_WORD.findall(sentence[max(0, found.start() - _PHRASE_WINDOW) : found.start()])
    ]
    start = next((i for i, w in enumerate(after) if w.lower() not in _FILLER), len(after))
    end = next((i for i in range(len(before), 0, -1) if _may_end(before[i - 1].lower(), _FILLER)), 0)
    after, before = after[start:], before[:end]
    out = [" ".join(after[:n]) for n in range(2, min(len(after), MAX_PHRASE_WORDS) + 1)]
    out += [" ".join(before[-n:]) for n in range(2, min(len(before), MAX_PHRASE_WORDS) + 1)]
    return [
        p for p in out if _may_end(p.split()[-1].lower(), STOPWORDS) and p.split()[0].lower() not in STOPWORDS
    ]


# A test's prose name may end with a particle ("rounds half up", "logs out", "signs in"), never
# with another stopword ("applies the").
_PARTICLES = frozenset(["up", "down", "out", "off", "in", "on", "over", "back", "away", "through"])


def _may_end(word: str, skipped: frozenset[str]) -> bool:
    return word not in skipped or word in _PARTICLES
