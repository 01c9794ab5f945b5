"""Subjects: whether two learnings that give one tool or setting different versions or values are
each about something of its own, and so both true.

"Set HTTP_TIMEOUT=30" and "For the PDF export endpoint set HTTP_TIMEOUT=120" give one setting two
values, and the newer does not replace the older: it names an exception. Closing the older would
hide a true fact from every later prompt. Three shapes say so, read from the clauses that give the
value (a reason or a step after it is left out):

- **two named subjects**: where the texts differ, each names something the other lacks ("The
  ingest worker image uses Python 3.11" and "The tile server image uses Python 3.12"; "The
  payments queue has visibilityTimeout: 300" and "The email queue …": two words before one shared
  noun; "packages/legacy-admin stays on typescript 4.9" and "The web package uses typescript 5.3":
  whose tool it is, said right before it). A word with letters and digits names too ("the e2e
  job", "the py312 env");
- **a scope on one side**: one text puts what only it names behind a word of scope (for, during,
  when, on, until, …) at the start of the clause or right after the value ("… HTTP_TIMEOUT=120
  for the PDF export endpoint", "BATCH_SIZE=100 during business hours", "dotnet 8 on main").
  "for" a few words later gives a purpose or a reason ("protoc 3.21 needed for codegen"), not a
  scope, and is not read;
- **a default and an exception**: one text calls its value the default, the other does not and
  names something concrete ("Services use go 1.22 by default", "The lambda in tools/exporter is
  go 1.20").

A newer learning that reports a change ("now", "moved to", "bumped", "upgraded") is read with the
first shape only: a phrase after "for" then gives the change's reason, and a default may be what
changed.

A newer version said in other words names nothing the older lacks behind such a word: "numpy 1.26
is required by the ml build" and "Now on numpy 2.x; the ml build was ported" replace only numbers
and common words. Measured on labelled pairs written for it: ``python -m benchmarks.supersede_set``.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable

from osmia.memory.advice import concrete_words, words_in_order
from osmia.memory.lesson_parse import CHANGE_VERBS, VERSION_VERBS, Lesson
from osmia.memory.linear import LinearPattern, linear
from osmia.memory.text import STOPWORDS

__all__ = ["PATTERNS", "other_subjects"]

# Where a clause ends, for :func:`_clauses_naming` (not a colon or a comma: "maxConnections: 50",
# "For the analytics DB, pgbouncer uses default_pool_size=5").
_VALUE_CLAUSES = linear("[;()\u2014\u2013]+|[.!?](?:\\s|$)|\\s+(?:so|because|since|but|after)\\s+")
# Every compiled pattern of this module (tests check that each is an RE2 one).
PATTERNS: tuple[LinearPattern, ...] = (_VALUE_CLAUSES,)

# Words that put what follows them in scope: a component, a time, a branch, a condition.
SCOPE_WORDS = frozenset(
    {"for", "during", "when", "whenever", "while", "until", "at", "on", "under", "except", "unless"}
    | {"outside", "within"}
)
# How many words after a word of scope its subject is named in ("for the PDF export endpoint";
# "for the webpack build, it was OOMing on the full bundle" names no other subject).
SCOPE_REACH = 4
# Words that make a scope all of its kind ("for every route"): a narrower one is an exception.
UNIVERSAL_WORDS = frozenset({"every", "all", "any", "each"})
# Words that make a value the general case ("by default", "everything else"), which an exception
# elsewhere does not replace.
DEFAULT_WORDS = frozenset({"default", "defaults", "otherwise", "elsewhere", "else", "others"})
# Words that make a value an exception to another one ("The /api/uploads location overrides
# client_max_body_size 200m"), which the general value does not give way to.
OVERRIDE_WORDS = frozenset({"override", "overrides", "overridden", "overriding"})


def other_subjects(a: Lesson, b: Lesson, changed: bool = False) -> bool:
    """Whether ``a`` and ``b`` give their versions or values each for a subject of its own (the
    module docstring names the three shapes); both are then true, and neither supersedes.

    ``changed``: ``a`` says it replaced something ("now", "moved to", "switched"; the caller's
    markers); a verb of change in the past tense (``lesson_parse.CHANGE_VERBS``: "bumped",
    "upgraded"; an order to change one, "raise the limit to 600 during the freeze", is none) says
    so too. Then only two named subjects count: a phrase after a word of scope may give the
    change's reason ("moved to alpine:3.19 for the openssl CVE fix"), and a default may be what
    changed ("Bumped WORKERS to 8" against "WORKERS=2 by default").
    """
    names = {n for n, _ in a.versions + a.settings} & {n for n, _ in b.versions + b.settings}
    text_a, text_b = _clauses_naming(a.text, names), _clauses_naming(b.text, names)
    x, y = words_in_order(text_a), words_in_order(text_b)
    # The versions and values themselves differ by definition ("LOG_LEVEL=debug", "=info").
    given = {w for _, v in a.versions + a.settings + b.versions + b.settings for w in words_in_order(v)}
    # A quantity's measure ("(rate)", "(size)": lesson_parse.quantities) is no word of either text:
    # "rate" in "Free-tier rate limit" names a subject's noun, not the setting.
    lowered = {n.lower() for n in names if not n.startswith("(")}
    changed = changed or not CHANGE_VERBS.isdisjoint(words_in_order(a.text))

    def content(word: str) -> bool:
        """A word that may name a subject: no stopword, number, value, or part of the name; "all"
        or "every" names the whole kind, no subject of its own ("All workflows", "GitHub Actions
        workflows")."""
        return (
            len(word) > 1
            and word not in STOPWORDS
            and word not in UNIVERSAL_WORDS
            and word not in given
            and sum(c.isalpha() for c in word) >= 2  # "e2e", "py312", "arm64" name; "2", "v2" not
            and not any(word in n or n in word for n in lowered)
        )

    # A word the other text has anywhere (a reason, a step) names no subject of one side only.
    all_x, all_y = set(words_in_order(a.text)), set(words_in_order(b.text))
    own_x = {w for w in x if content(w) and w not in all_y}
    own_y = {w for w in y if content(w) and w not in all_x}
    if not own_x and not own_y:
        return False  # the same words around another value: a replacement, whatever its order
    concrete_x = own_x & concrete_words(text_a)
    concrete_y = own_y & concrete_words(text_b)
    if not changed and _default_and_exception(set(x), set(y), concrete_x, concrete_y):
        return True
    sets = ((own_x, own_y), (concrete_x, concrete_y))
    named = (lambda w: w in lowered) if not changed else (lambda w: False)
    matcher = difflib.SequenceMatcher(a=x, b=y, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            continue
        span = (i1, i2, j1, j2)
        if op == "replace" and _named_apart(x, y, span, *sets, content, named):
            return True
        if changed:
            continue
        for words, other, own, stretch in ((x, y, own_x, (i1, i2)), (y, x, own_y, (j1, j2))):
            if _in_scope(words, other, own, stretch, given, lowered):
                return True
    return False


def _default_and_exception(x: set[str], y: set[str], concrete_x: set[str], concrete_y: set[str]) -> bool:
    """One side calls its value the default, the other does not and names something concrete; or
    one side says its value overrides (``The /api/uploads location overrides …``) and names
    something concrete, the other does not."""
    override_x, override_y = bool(OVERRIDE_WORDS & x), bool(OVERRIDE_WORDS & y)
    if override_x != override_y and (concrete_x if override_x else concrete_y):
        return True
    default_x, default_y = bool(DEFAULT_WORDS & x), bool(DEFAULT_WORDS & y)
    if default_x == default_y:
        return False
    return bool(concrete_y if default_x else concrete_x)


def _named_apart(
    x: list[str],
    y: list[str],
    span: tuple[int, int, int, int],
    own: tuple[set[str], set[str]],
    concrete: tuple[set[str], set[str]],
    content: Callable[[str], bool],
    named: Callable[[str], bool],
) -> bool:
    """A stretch of ``x`` replaced by one of ``y`` names a subject of each: a concrete word on each
    side the other text lacks, or one or two words of its own on each side (no stopword, name or
    value) right before one shared word that is none either (``payments queue``, ``email queue``)."""
    i1, i2, j1, j2 = span
    if concrete[0].intersection(x[i1:i2]) and concrete[1].intersection(y[j1:j2]):
        return True
    # Right before the tool or setting both name, where a statement says whose it is: a concrete
    # word on one side and a word of its own on the other ("packages/legacy-admin stays on
    # typescript 4.9", "The web package uses typescript 5.3"). Not when the newer reports a change
    # (``named`` then names nothing): "Upgraded Elasticsearch to 8.12" says what changed there.
    before_name = i2 < len(x) and j2 < len(y) and x[i2] == y[j2] and named(x[i2])
    mine = own[0].intersection(x[i1:i2]) - VERSION_VERBS  # "pins", "uses", "stays": no subject
    theirs = own[1].intersection(y[j1:j2]) - VERSION_VERBS
    if before_name and mine and theirs and (concrete[0] & mine or concrete[1] & theirs):
        return True
    before_shared = i2 < len(x) and j2 < len(y) and x[i2] == y[j2] and content(x[i2])
    short = i2 - i1 <= 2 and j2 - j1 <= 2 and all(map(content, x[i1:i2] + y[j1:j2]))
    return (
        before_shared
        and short
        and bool(own[0].intersection(x[i1:i2]))
        and bool(own[1].intersection(y[j1:j2]))
    )


def _in_scope(
    words: list[str], other: list[str], own: set[str], span: tuple[int, int], given: set[str], names: set[str]
) -> bool:
    """``words[start:end]`` (where ``other`` differs) holds a word only this text names, in a phrase
    of scope (:func:`_scope_phrases`: "for the PDF export endpoint set TIMEOUT=120", "BATCH_SIZE=100
    during business hours"), and ``other`` does not put the phrase's last word in a phrase of the
    same word of scope: "for the nightly export" is "for the export" said more precisely, unless
    the other's phrase is about all of them ("for every route", "for the bulk upload route")."""
    start, end = span
    theirs = _scope_phrases(other, given, names)
    for k, phrase in _scope_phrases(words, given, names):
        if not any(start <= i < end for i, w in phrase.items() if w in own):
            continue
        head = list(phrase.values())[-1]
        same = [p for j, p in theirs if other[j] == words[k] and head in p.values()]
        if not any(not (UNIVERSAL_WORDS & set(p.values())) for p in same):
            return True
    return False


def _scope_phrases(words: list[str], given: set[str], names: set[str]) -> list[tuple[int, dict[int, str]]]:
    """Each word of scope that stands before the name or value or right after the value, with the
    words after it (up to :data:`SCOPE_REACH`, and not past the next name or value) by position."""
    named = [i for i, w in enumerate(words) if w in given or any(w in n or n in w for n in names)]
    valued = [i for i, w in enumerate(words) if w in given]
    if not named or not valued:
        return []
    found = []
    for k, word in enumerate(words):
        if word in SCOPE_WORDS and (k < named[0] or k == valued[-1] + 1):
            stop = min(next((i for i in named if i > k), len(words)), k + 1 + SCOPE_REACH)
            phrase = {i: words[i] for i in range(k + 1, stop) if words[i] not in STOPWORDS}
            if phrase:
                found.append((k, phrase))
    return found


def _clauses_naming(text: str, names: set[str]) -> str:
    """The clauses of ``text`` that name one of ``names`` (a tool or a setting): where a version or
    value is given, and what it is given for; a reason or a step after it is left out."""
    clauses = [c for c in _VALUE_CLAUSES.split(text) if any(n in c.lower() for n in names)]
    return " ".join(clauses) or text
