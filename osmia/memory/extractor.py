"""Heuristic extraction: a finished TaskRun → observations (facts about one run).

Deterministic, fast, no network. Cross-run patterns and engine profiles are
computed from run statistics in :mod:`osmia.memory.patterns`; merging
observations into the graph (reinforce, contradict, supersede) happens in
:mod:`osmia.memory.merge`.
"""

from __future__ import annotations

import hashlib
from collections import Counter

from osmia.memory import test_ids
from osmia.memory.cleaning import MAX_LINE, settled
from osmia.memory.failures import FAILURE_LABELS, classify_failure
from osmia.memory.hostile_learned import hostile_check
from osmia.memory.lessons import informative
from osmia.memory.obsolete import obsolete_things
from osmia.memory.quoted import folder_of, quoted, quoted_test
from osmia.memory.text import clean_text, redact_secrets, words
from osmia.memory.types import MAX_DURATION_SECONDS, MAX_TESTS, Kind, Observation, RunSummary, Subject
from osmia.taskrun import Phase, TaskRun, short_repository

MAX_PROSE_TESTS = 60  # runs of words of a fix statement tried as a test's name (test_ids.phrases)
MAX_HOT_PATHS = 3
MAX_LEARNINGS = 10

# Base confidence of each kind when first observed.
BASE_CONFIDENCE: dict[Kind, float] = {
    Kind.SUCCESS: 0.6,
    Kind.FAILURE: 0.65,
    Kind.FAILING_TEST: 0.7,
    Kind.FLAKY_TEST: 0.8,
    Kind.TEST_FIXED: 0.7,
    Kind.HOT_PATH: 0.45,
    Kind.ENGINE_CAPABILITY: 0.65,
    Kind.LEARNING: 0.4,
    Kind.ATTEMPT: 0.7,
}
MAX_ATTEMPT_LEARNINGS = 3


def succeeded(run: TaskRun) -> bool:
    """A run succeeded when its result says so and its phase is not a failure."""
    if run.phase in (Phase.FAILED, Phase.TIMED_OUT):
        return False
    if run.result is not None:
        return run.result.success
    return run.phase is Phase.SUCCEEDED


def _duration(seconds: float | None) -> float | None:
    """A run's stated duration, or None when it is none a run can have (:data:`MAX_DURATION_SECONDS`)."""
    if seconds is None or not 0 <= seconds <= MAX_DURATION_SECONDS:
        return None
    return seconds


def summarize(run: TaskRun, finished_at: float) -> RunSummary:
    """The statistics row for one finished run."""
    result = run.result
    return RunSummary(
        run_key=run.run_key,
        ref=run.ref,
        tenant=run.tenant,
        repository=run.repository.slug,
        language=run.repository.language,
        engine=run.final_engine,
        task_type=run.ticket.task_type,
        success=succeeded(run),
        failure_class=classify_failure(run),
        duration_seconds=_duration(result.duration_seconds if result else None),
        finished_at=finished_at,
        ticket_id=ticket_key(run.ticket.id),
        failed_engines=failed_engines(run),
    )


def ticket_key(ticket_id: str) -> str:
    """How a ticket id is stored and compared: trimmed, upper-case (``pay-181`` is ``PAY-181``)."""
    return ticket_id.strip().upper()


def failed_engines(run: TaskRun) -> tuple[str, ...]:
    """Engines that failed the run before the last attempt (a fallback rescue counts against them)."""
    attempts = run.engine_attempts
    final = run.final_engine
    return tuple(dict.fromkeys(a for a in attempts[:-1] if a and a != final))


def attempt_key(ticket_id: str) -> str:
    """The key prefix of every attempt at one ticket (ranking finds them by this prefix)."""
    return f"attempt:{ticket_key(ticket_id)}:"


def observe(run: TaskRun, refused: Counter[str] | None = None) -> list[Observation]:
    """Every fact one finished run teaches, in a stable order.

    ``refused``, when given, counts the learnings the hostility checks refused, by the check that
    refused each (:func:`~osmia.memory.hostile_learned.hostile_check`).
    """
    summary = summarize(run, 0.0)
    ctx = _Context(run, summary)
    out: list[Observation] = [ctx.outcome()]
    out.extend(ctx.tests())
    out.extend(ctx.fixed_tests())
    out.extend(ctx.hot_paths())
    out.extend(ctx.capabilities())
    out.extend(ctx.learnings())
    attempt = ctx.attempt()
    if attempt is not None:
        out.append(attempt)
    if refused is not None and run.result is not None:
        learned = dict.fromkeys(run.result.learnings[:MAX_LEARNINGS])
        refused.update(check for text in learned if (check := ctx.verdicts.get(text)))
    return out


class _Context:
    """The pieces every rule needs, computed once per run."""

    def __init__(self, run: TaskRun, summary: RunSummary) -> None:
        self.run = run
        self.summary = summary
        self.repo = summary.repository or "-"
        self.where = short_repository(summary.repository) if summary.repository else ""
        self.in_where = f" in {self.where}" if self.where else ""
        self.engine = summary.engine
        self.task_type = summary.task_type
        self.subject = Subject(
            repository=summary.repository,
            engine=summary.engine,
            task_type=summary.task_type,
            language=summary.language,
        )
        self.repo_subject = Subject(repository=summary.repository, language=summary.language)
        # Each prose text's hostility verdict, asked once: the learnings and the failure reason are
        # read for their own facts and again for the attempt's.
        self.verdicts: dict[str, str] = {}

    def refused(self, text: str) -> bool:
        """Whether prose the run wrote is hostile (the rules or the learned check), judged once."""
        check = self.verdicts.get(text)
        if check is None:
            check = self.verdicts[text] = hostile_check(text)
        return bool(check)

    def reason(self, max_len: int) -> str:
        """The run's failure reason as its facts quote it (``""`` when hostile)."""
        text = self.run.result.failure_reason if self.run.result else ""
        return quoted(text, max_len, hostile=self.refused(text))

    def outcome_key(self, success: bool) -> str:
        polarity = "success" if success else "failure"
        return f"outcome:{self.repo}:{self.engine}:{self.task_type}:{polarity}"

    def outcome(self) -> Observation:
        success = self.summary.success
        if success:
            content = f"{self.engine} succeeded on {_a(self.task_type)} task{self.in_where}"
            duration = self.summary.duration_seconds
            if duration:
                content += f" in about {max(1, round(duration / 60))} min"
            kind = Kind.SUCCESS
        else:
            label = FAILURE_LABELS[self.summary.failure_class]
            content = f"{self.engine} failed {_a(self.task_type)} task{self.in_where}: {label}"
            detail = self.reason(160)
            if detail and detail.lower().strip(" .") != label:
                content = _settled_whole(f"{content} ({detail})")
            kind = Kind.FAILURE
        return Observation(
            kind=kind,
            key=self.outcome_key(success),
            content=content,
            subject=self.subject,
            confidence=BASE_CONFIDENCE[kind],
            conflicts=(self.outcome_key(not success),),
        )

    def _test_key(self, kind: Kind, test: str) -> str:
        return test_key(kind, self.repo, test)

    def _test_fact(
        self,
        kind: Kind,
        test: str,
        says: str,
        replaces: tuple[Kind, ...],
        relates: tuple[str, ...] = (),
        tentative: bool = False,
    ) -> Observation:
        """One fact about one test of the repository; ``replaces`` names the kinds it closes.

        The key holds the test's canonical identity (:mod:`osmia.memory.test_ids`), the
        text the name as the run reported it.
        """
        return Observation(
            kind=kind,
            key=self._test_key(kind, test),
            content=f"`{test}`{self.in_where} {says}",
            subject=self.repo_subject,
            confidence=BASE_CONFIDENCE[kind],
            replaces=tuple(self._test_key(k, test) for k in replaces),
            relates=relates,
            tentative=tentative,
        )

    def tests(self) -> list[Observation]:
        """Flaky tests, then failing ones (a test reported flaky is not also "failing")."""
        result = self.run.result
        if result is None:
            return []
        flaky = [quoted_test(t) for t in result.flaky_tests[:MAX_TESTS]]
        failing = [quoted_test(t) for t in result.tests_failed[:MAX_TESTS]]
        flaky_ids = {test_ids.parse(t).key.lower() for t in flaky}
        out = [
            self._test_fact(
                Kind.FLAKY_TEST,
                test,
                "is flaky; rerun it before treating a failure as real",
                replaces=(Kind.FAILING_TEST, Kind.TEST_FIXED),
            )
            for test in dict.fromkeys(t for t in flaky if t)
        ]
        out += [
            self._test_fact(
                Kind.FAILING_TEST,
                test,
                "has failed; run it before and after your change",
                replaces=(Kind.TEST_FIXED,),
                relates=(self.outcome_key(False),),
            )
            for test in dict.fromkeys(
                t for t in failing if t and test_ids.parse(t).key.lower() not in flaky_ids
            )
        ]
        return out

    def fixed_tests(self) -> list[Observation]:
        """Tests a successful run says it fixed ("fixed", "stabilized", "deflaked", "no longer flaky").

        A name in a test form of any language (:func:`osmia.memory.test_ids.mentions`)
        closes earlier flaky/failing facts about that test; another identifier in the
        same sentence (``evictsOnPolicyUpdate``) does so only if the repository already
        has a flaky or failing test of that name (a *tentative* observation).
        """
        result = self.run.result
        if result is None or not self.summary.success:
            return []
        reported = {test_ids.parse(t).key.lower() for t in (*result.tests_failed, *result.flaky_tests)}
        strong: list[str] = []
        weak: list[str] = []
        prose: list[str] = []
        for text in (result.summary, *result.learnings):
            for sentence in test_ids.fix_statements(text):
                found, maybe = test_ids.mentions(sentence)
                strong.extend(found)
                weak.extend(maybe)
                prose.extend(test_ids.phrases(sentence))
        out: list[Observation] = []
        seen: set[str] = set()
        # Tests named in prose come last, with a cap of their own: most runs of words name no test.
        named = [(n, False, MAX_TESTS) for n in strong] + [(n, True, MAX_TESTS) for n in weak]
        named += [(n, True, MAX_TESTS + MAX_PROSE_TESTS) for n in prose[:MAX_PROSE_TESTS]]
        for name, tentative, cap in named:
            if len(out) >= cap:  # checked first: a summary a run wrote may hold any number of names
                continue
            test = quoted_test(name)
            canonical = test_ids.parse(test).key.lower()
            if not test or canonical in reported or canonical in seen:
                continue
            seen.add(canonical)
            out.append(
                self._test_fact(
                    Kind.TEST_FIXED,
                    test,
                    "was fixed; earlier failures of it are no longer expected",
                    replaces=(Kind.FLAKY_TEST, Kind.FAILING_TEST),
                    tentative=tentative,
                )
            )
        return out

    def hot_paths(self) -> list[Observation]:
        result = self.run.result
        if result is None or not self.summary.repository:
            return []
        folders = Counter(folder for folder in map(folder_of, result.files_changed) if folder)
        ranked = sorted(folders.items(), key=lambda kv: (-kv[1], kv[0]))[:MAX_HOT_PATHS]
        return [
            Observation(
                kind=Kind.HOT_PATH,
                key=f"hot_path:{self.repo}:{folder}",
                content=f"Changes in {self.where} often touch `{folder}`",
                subject=self.repo_subject,
                confidence=BASE_CONFIDENCE[Kind.HOT_PATH],
            )
            for folder, _count in ranked
        ]

    def capabilities(self) -> list[Observation]:
        """Engines that failed before a fallback succeeded: a weakness of theirs, a strength of the last."""
        attempts = self.run.engine_attempts
        if not self.summary.success or len(attempts) < 2:
            return []
        final = attempts[-1]
        out = []
        for failed in dict.fromkeys(a for a in attempts[:-1] if a != final):
            out.append(
                Observation(
                    kind=Kind.ENGINE_CAPABILITY,
                    key=f"capability:{self.repo}:{self.task_type}:{failed}>{final}",
                    content=(
                        f"On {self.task_type} tasks{self.in_where}, {failed} failed and {final} then "
                        f"succeeded; prefer {final}"
                    ),
                    subject=Subject(
                        repository=self.summary.repository,
                        engine=failed,
                        task_type=self.task_type,
                        language=self.summary.language,
                    ),
                    confidence=BASE_CONFIDENCE[Kind.ENGINE_CAPABILITY],
                    relates=(self.outcome_key(True),),
                )
            )
        return out

    def learnings(self) -> list[Observation]:
        result = self.run.result
        if result is None:
            return []
        out = []
        for raw in result.learnings[:MAX_LEARNINGS]:
            if self.refused(raw):
                continue
            text = clean_text(redact_secrets(raw))
            if len(words(text)) < 2 or not informative(text):
                continue  # "Tests pass", "Looks good": nothing to remember
            digest = learning_digest(text)
            out.append(
                Observation(
                    kind=Kind.LEARNING,
                    key=f"learning:{self.repo}:{digest}",
                    content=text,
                    subject=Subject(repository=self.summary.repository, task_type=self.task_type,
                                    language=self.summary.language),
                    confidence=BASE_CONFIDENCE[Kind.LEARNING],
                    relates=(self.outcome_key(self.summary.success),),
                )
            )  # fmt: skip
        return out

    def attempt(self) -> Observation | None:
        """This run as an attempt at its ticket: the next run on the same ticket is told it first."""
        if not self.run.ticket.id.strip():
            return None
        result = self.run.result
        if self.summary.success:
            outcome = "succeeded"
        else:
            outcome = f"failed, {FAILURE_LABELS[self.summary.failure_class]}"
            reason = self.reason(120)
            if reason and reason.lower().strip(" .") != FAILURE_LABELS[self.summary.failure_class]:
                outcome += f" ({reason})"
        engines = " → ".join(self.run.engine_attempts) or self.engine
        ticket = clean_text(ticket_key(self.run.ticket.id), 60)
        content = f"Earlier attempt at {ticket}, {self.run.ref} ({engines}): {outcome}"
        if result is not None:
            # At most three tests in all; a flaky one (it failed, then passed) is not called failing.
            failing = [t for t in map(quoted_test, result.tests_failed) if t][:3]
            flaky = [t for t in map(quoted_test, result.flaky_tests) if t][: 3 - len(failing)]
            for label, tests in (("failing", failing), ("flaky", flaky)):
                if tests:
                    content += f"; {label}: " + ", ".join(f"`{t}`" for t in tests)
            learned = [
                clean_text(redact_secrets(x), 120)
                for x in result.learnings[:MAX_LEARNINGS]
                if not self.refused(x) and informative(clean_text(x))
            ][:MAX_ATTEMPT_LEARNINGS]
            if learned:
                content += "; learned: " + "; ".join(learned)
        return Observation(
            kind=Kind.ATTEMPT,
            key=attempt_key(self.run.ticket.id) + f"{self.repo}:{self.run.run_key}",
            content=_settled_whole(content),
            subject=self.subject,
            confidence=BASE_CONFIDENCE[Kind.ATTEMPT],
        )


def _settled_whole(line: str) -> str:
    """A line joined from pieces cleaned one by one, redacted and cleaned again whole, so that what is
    stored is what the prompt shows: two pieces side by side can make a form neither is alone (two
    quoted names read as a name and its value), and a stored line the prompt's cleaning would change
    is cleaned again at every first showing (:mod:`osmia.memory.clean_stamp`). Not cut: room is left
    for the markers to be longer than what they stand for. Not :func:`~osmia.memory.sanitize.stored_text`:
    its first steps (invisible characters, markup inside a word, look-alike letters) ran on every
    piece already, and this runs in each extraction."""
    return settled(line, len(line) + MAX_LINE)


def learning_digest(text: str) -> str:
    """A learning's key part: its bag of words, and what it calls obsolete, if anything.

    The bag of words merges reorderings ("Run X before Y" / "Before Y run X"); what it calls
    obsolete keeps a reversal apart ("Use npm ci instead of `pnpm install`" has the words of "Use
    `pnpm install` instead of npm ci" and says the opposite).
    """
    basis = " ".join(sorted(set(words(text))))
    things = obsolete_things(text)
    if things:
        basis += " | " + " ".join(sorted(t.phrase for t in things))
    return hashlib.sha256(basis.encode()).hexdigest()[:16]


def test_key(kind: Kind, repo: str, test: str) -> str:
    """The key of a fact about one test: kind, repository and the test's canonical identity."""
    return f"{kind.value}:{repo}:{test_ids.parse(test).key}"


def _a(word: str) -> str:
    """``a bug``, ``an incident``."""
    return f"an {word}" if word[:1] in "aeiou" else f"a {word}"
