"""Which node an observation is about, before it is merged.

An observation's key is exact: a learning is keyed by its words, a test fact by
the test's canonical name. Two observations that mean the same thing can still
differ, so before merging, each one of a run is compared with what its
repository already holds:

* a **learning** that restates a stored lesson in other words takes that
  lesson's key, so it reinforces it (:func:`osmia.memory.lessons.same_lesson`);
  one that replaces a stored lesson (another version, another value, "instead
  of") closes it (:func:`osmia.memory.supersession.supersedes`);
* a **test fact** whose test the repository already knows under another form
  (``test_resume`` vs ``tests/test_s3.py::test_resume``,
  ``CacheIT.evicts`` vs ``CacheIT > evicts()``) takes that test's canonical
  name, so "fixed" closes the right node; a *tentative* one (an identifier that
  may not be a test at all) is kept only when it names a known flaky or failing test.

Reads one indexed range per repository (``nodes_lessons``), only the columns it
compares (kind, key, content) and each learning's stored parsed form
(:mod:`osmia.memory.lesson_forms`: a form missing or stale is parsed and written back);
runs inside the caller's transaction. A pair of
learnings is compared in full only when a cheap necessary condition says the
comparison could act on it (:func:`may_act`, with the pre-check before it fused
into one :func:`screen` per new learning): most learnings of a repository share
its name and little else.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import NamedTuple

from osmia.memory import test_ids
from osmia.memory.lesson_forms import form_of, lesson_from_form
from osmia.memory.lessons import (
    SAME_WITH_IDENTIFIER,
    SAME_WITHOUT_IDENTIFIER,
    Lesson,
    found_in,
    lesson,
    same_lesson,
    similarity,
    supersedes,
)
from osmia.memory.obsolete import may_be_obsoleted, obsolete_things
from osmia.memory.store import Store
from osmia.memory.types import Kind, Observation

TEST_KINDS = (Kind.FLAKY_TEST, Kind.FAILING_TEST, Kind.TEST_FIXED)
_OPEN_TEST_KINDS = (Kind.FLAKY_TEST, Kind.FAILING_TEST)
# The partial index ``nodes_lessons`` (schema v6) holds exactly these valid nodes of a repository.
_KNOWN_WHERE = (
    "WHERE n.tenant = ? AND n.repository = ? AND n.valid_to IS NULL "
    "AND n.kind IN ('learning', 'flaky_test', 'failing_test', 'test_fixed')"
)
_KNOWN_SQL = (
    "SELECT n.seq, n.kind, n.key, n.content, f.form FROM nodes n LEFT JOIN lesson_forms f ON f.seq = n.seq "
    f"{_KNOWN_WHERE} ORDER BY n.id"
)
# Only the test facts (a run that reported no learning in the repository): the index's own
# condition stays so that SQLite uses it, and the second ``IN`` reads only the tests' keys.
_KNOWN_TESTS_SQL = (
    f"SELECT n.seq, n.kind, n.key, n.content, NULL FROM nodes n {_KNOWN_WHERE} "
    "AND n.kind IN ('flaky_test', 'failing_test', 'test_fixed') ORDER BY n.id"
)


_KINDS = {kind.value: kind for kind in Kind}  # a dict lookup: ``Kind(value)`` costs ten times more


class Known(NamedTuple):
    """What resolving compares of a stored learning or test fact (a :class:`Node` has the same fields).

    ``parsed`` is a learning's :class:`Lesson` when it was read from its stored form; None: parse
    ``content`` (``lesson`` caches it).
    """

    kind: Kind
    key: str
    content: str
    parsed: Lesson | None = None

    @property
    def lesson(self) -> Lesson:
        """The learning's comparable form."""
        return self.parsed if self.parsed is not None else lesson(self.content)


async def known_facts(store: Store, tenant: str, repository: str, *, lessons: bool = True) -> list[Known]:
    """The valid learnings and test facts of one repository, in id order.

    With ``lessons``, each learning comes with its :class:`Lesson`: one whose stored form is
    missing or stale is parsed here, and its form written back (inside the caller's
    transaction), so the next extraction in the repository reads it. Without (a run that
    reported no learning there: only its test facts are resolved), only the test facts are read.
    """
    rows = await store.rows(_KNOWN_SQL if lessons else _KNOWN_TESTS_SQL, (tenant, repository))
    out: list[Known] = []
    missing: list[tuple[int, str]] = []
    for seq, kind_name, key, content, form in rows:
        kind = _KINDS[kind_name]
        parsed = None
        if lessons and kind is Kind.LEARNING:
            parsed = lesson_from_form(content, form)
            if parsed is None:
                parsed = lesson(content)
                missing.append((seq, form_of(content)))
        out.append(Known(kind, key, content, parsed))
    if missing:
        await store.executemany("INSERT OR REPLACE INTO lesson_forms (seq, form) VALUES (?, ?)", missing)
    return out


async def resolve(store: Store, tenant: str, observations: list[Observation]) -> list[Observation]:
    """``observations`` with keys pointing at the nodes they are about (see the module docstring)."""
    wanted = {o.subject.repository for o in observations if o.kind is Kind.LEARNING or o.kind in TEST_KINDS}
    if not wanted:
        return observations
    learned = {o.subject.repository for o in observations if o.kind is Kind.LEARNING}
    known: dict[str, list[Known]] = {}
    for repository in sorted(wanted):
        known[repository] = await known_facts(store, tenant, repository, lessons=repository in learned)
    out: list[Observation] = []
    batch: dict[str, list[tuple[str, Lesson]]] = {}
    tests: dict[str, KnownTests] = {}
    for obs in observations:
        nodes = known.get(obs.subject.repository, [])
        if obs.kind in TEST_KINDS:
            if obs.subject.repository not in tests:
                tests[obs.subject.repository] = KnownTests(nodes)
            resolved = resolve_test(obs, tests[obs.subject.repository])
            if resolved is not None:
                out.append(resolved)
        elif obs.kind is Kind.LEARNING:
            seen = batch.setdefault(obs.subject.repository, [])
            resolved = resolve_lesson(obs, nodes, seen)
            if resolved is not None:
                out.append(resolved)
                seen.append((resolved.key, lesson(obs.content)))
        else:
            out.append(obs)
    return out


def _canonical(key: str) -> str:
    """``flaky_test:<repo>:<canonical test>`` → the canonical test name."""
    return key.split(":", 2)[2] if key.count(":") >= 2 else key


def _test_id(canonical: str) -> test_ids.TestId:
    scope, sep, leaf = canonical.rpartition("::")
    return test_ids.TestId(scope, leaf) if sep else test_ids.TestId("", canonical)


class KnownTests:
    """A repository's known tests, as :func:`resolve_test` compares them: all, and the open ones.

    A tentative mention can only name an open test with the same leaf (or a Go parent/subtest of
    it, or the same key): :meth:`may_name` checks that in a set, so the dozens of runs of words of
    a fix statement (:func:`osmia.memory.test_ids.phrases`) cost a lookup each.
    """

    def __init__(self, nodes: list[Known]) -> None:
        tests = [(n.kind, _test_id(_canonical(n.key))) for n in nodes if n.kind in TEST_KINDS]
        self.all = [test for _kind, test in tests]
        self.open = [test for kind, test in tests if kind in _OPEN_TEST_KINDS]
        leaves = {t.leaf.lower() for t in self.open}
        spoken = {t.spoken for t in self.open if t.scope and t.spoken}
        self._names = (
            leaves | {leaf.split("/")[0] for leaf in leaves} | {t.key.lower() for t in self.open} | spoken
        )

    def may_name(self, mention: test_ids.TestId) -> bool:
        """False only when ``mention`` matches no open test (what :func:`test_ids.matches` needs)."""
        leaf = mention.leaf.lower()
        if leaf in self._names or leaf.split("/")[0] in self._names or mention.key.lower() in self._names:
            return True
        return not mention.scope and " ".join(leaf.split()) in self._names


def resolve_test(obs: Observation, tests: KnownTests) -> Observation | None:
    """A test fact keyed by the form of the test the repository already knows (None: drop it)."""
    mention = _test_id(_canonical(obs.key))
    if obs.tentative and not tests.may_name(mention):
        return None
    found = test_ids.resolve(mention, tests.open if obs.tentative else tests.all)
    if found is None:
        return None if obs.tentative else obs
    if found.key == mention.key:
        return replace(obs, tentative=False)

    def rekey(key: str) -> str:
        return key[: len(key) - len(_canonical(key))] + found.key

    return replace(
        obs,
        key=rekey(obs.key),
        replaces=tuple(rekey(k) for k in obs.replaces),
        tentative=False,
    )


def resolve_lesson(
    obs: Observation, nodes: list[Known], batch: list[tuple[str, Lesson]]
) -> Observation | None:
    """The learning as a reinforcement of the stored lesson it restates, or new (closing any it replaces).

    None when the same run already reported that lesson (one run counts once).
    """
    mine = lesson(obs.content)
    for _key, other in batch:
        if _related(mine, other) and same_lesson(mine, other):
            return None
    best: tuple[float, str, Known] | None = None
    replaced: list[str] = []
    worth_comparing = screen(mine)
    for node in nodes:
        if node.kind is not Kind.LEARNING:
            continue
        theirs = node.lesson
        if not worth_comparing(theirs):
            continue
        if same_lesson(mine, theirs):
            sim = similarity(mine, theirs)
            if best is None or (sim, node.key) > (best[0], best[1]):
                best = (sim, node.key, node)
        elif supersedes(mine, theirs):
            replaced.append(node.key)
    if best is not None:
        node = best[2]
        return replace(obs, key=node.key, content=node.content)
    if replaced:
        return replace(obs, replaces=(*obs.replaces, *sorted(replaced)))
    return obs


def _related(a: Lesson, b: Lesson) -> bool:
    """A cheap pre-check: two lessons with nothing in common are not compared further.

    In common: two words, an identifier, or a thing ``a`` calls obsolete that ``b`` names (a tool
    named in one word, "switched from pnpm to bun" against "Use pnpm, not npm").
    """
    return (
        len(a.words & b.words) >= 2
        or bool(a.identifiers & b.identifiers)
        or may_be_obsoleted(obsolete_things(a.text), b)
    )


def may_act(mine: Lesson, theirs: Lesson) -> bool:
    """False only when ``mine`` can neither restate ``theirs`` nor replace it: skip the full comparison.

    A necessary condition read off the rules, not a heuristic (the pairs it passes are compared
    in full, so every decision is the one :func:`same_lesson` and :func:`supersedes` make):

    * ``same_lesson`` holds for equal texts, with a shared identifier at a word similarity of at
      least ``SAME_WITH_IDENTIFIER`` (the lowest threshold of that branch), or without one at
      ``SAME_WITHOUT_IDENTIFIER`` or more (the lowest of the other branch);
    * ``supersedes`` needs another version of a tool both name, another value of a setting both
      name, an "instead of" with a shared identifier at a similarity of 0.2, or (calling
      obsolete what the other tells to do) the other naming the thing (:func:`may_be_obsoleted`,
      checked before relatedness: a tool named in one word is one word in common).

    Cheaper than the comparison: one similarity, and identifiers looked up until one is found
    (either way: an identifier of either found in the other is shared), where the comparison
    looks up every identifier both ways and runs the other rules.
    """
    if may_be_obsoleted(obsolete_things(mine.text), theirs):
        return True
    if mine.text == theirs.text:
        return True
    sim = similarity(mine, theirs)
    if sim >= SAME_WITHOUT_IDENTIFIER:
        return True
    if {tool for tool, _ in mine.versions} & {tool for tool, _ in theirs.versions}:
        return True
    if {name for name, _ in mine.settings} & {name for name, _ in theirs.settings}:
        return True
    if sim < SAME_WITH_IDENTIFIER:
        return False
    return any(found_in(i, theirs) for i in mine.identifiers) or any(
        found_in(i, mine) for i in theirs.identifiers
    )


def screen(mine: Lesson) -> Callable[[Lesson], bool]:
    """``_related(mine, theirs) and may_act(mine, theirs)`` as one test, for one learning against many.

    What ``mine`` contributes (its words, their count, its version tools and setting names) is
    taken once, and the shared words are counted once per pair where the two tests counted them
    three times (the similarity is worked out from that count: the same float). Half the time of
    the two tests a pair (a repository's ~150 lessons per learning); ``tests/memory/
    test_lesson_fast_paths.py`` checks it answers as they do.
    """
    words, identifiers, text = mine.words, mine.identifiers, mine.text
    size = len(words)
    tools = frozenset(tool for tool, _ in mine.versions)
    names = frozenset(name for name, _ in mine.settings)
    things = obsolete_things(text)

    def worth_comparing(theirs: Lesson) -> bool:
        if things and may_be_obsoleted(things, theirs):
            return True
        shared = len(words & theirs.words)
        if shared < 2 and identifiers.isdisjoint(theirs.identifiers):
            return False  # not _related
        if text == theirs.text:
            return True
        other = len(theirs.words)
        # similarity(): the mean of overlap and Jaccard, |a ∪ b| being |a| + |b| − |a ∩ b|.
        sim = (shared / min(size, other) + shared / (size + other - shared)) / 2 if size and other else 0.0
        if sim >= SAME_WITHOUT_IDENTIFIER:
            return True
        if tools and any(tool in tools for tool, _ in theirs.versions):
            return True
        if names and any(name in names for name, _ in theirs.settings):
            return True
        if sim < SAME_WITH_IDENTIFIER:
            return False
        return any(found_in(i, theirs) for i in identifiers) or any(
            found_in(i, mine) for i in theirs.identifiers
        )

    return worth_comparing
