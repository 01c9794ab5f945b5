# ruff: noqa: E501  (the examples read better one per line)
"""Durable knowledge: lessons outlive outcome facts, corroborated lessons outrank anecdotes, the folder
most runs touch is the hot path, and engine errors are a failure class of their own."""

from __future__ import annotations

import pytest

from osmia.memory.failures import FAILURE_LABELS, classify_failure
from osmia.memory.merge import DECAY_RATES
from osmia.memory.service import Memory
from osmia.memory.types import Candidate, Kind
from tests.memory.conftest import DAY, Clock, make_run

REPO = "https://github.com/org/ledger"


def _by_content(candidates: list[Candidate], text: str) -> Candidate:
    return next(c for c in candidates if text in c.node.content)


async def test_a_lesson_outlives_the_outcome_facts_of_its_time(memory: Memory, clock: Clock) -> None:
    lesson = "Run `make sqlc` after editing db/queries, the generated ledger code is checked in"
    await memory.ingest(make_run("a", repo=REPO, learnings=(lesson,)))
    clock.advance(DAY)
    await memory.ingest(make_run("a2", repo=REPO, learnings=("After editing db/queries run make sqlc",), files=("x/y.go",)))  # fmt: skip
    clock.advance(150 * DAY)
    await memory.decay()
    found = {n.kind: n for n in await memory._store.iter_nodes()}
    assert found[Kind.LEARNING].occurrences == 2
    # The outcome of that run faded away in 150 days (3 % a cycle); the lesson did not (1 % a cycle).
    assert Kind.SUCCESS not in found
    assert Kind.LEARNING in found and found[Kind.LEARNING].confidence > 0.05
    assert DECAY_RATES[Kind.LEARNING] < DECAY_RATES[Kind.SUCCESS]
    ctx = await memory.context(make_run("b", repo=REPO, finished=False, title="Add a ledger report"))
    assert any("make sqlc" in n.content for n in ctx.injected), ctx.section


async def test_a_lesson_several_runs_reported_outranks_a_newer_remark(memory: Memory, clock: Clock) -> None:
    await memory.ingest(
        make_run(
            "a", repo=REPO, learnings=("Integration tests in org/ledger hang unless LEDGER_DB_URL is set",)
        )
    )
    clock.advance(5 * DAY)
    await memory.ingest(make_run("b", repo=REPO, learnings=("org/ledger integration tests hang unless LEDGER_DB_URL is exported",)))  # fmt: skip
    clock.advance(40 * DAY)
    await memory.ingest(make_run("c", repo=REPO, learnings=("Refund rounding in internal/money/ depends on currency minor units",)))  # fmt: skip
    clock.advance(DAY)
    candidates = await memory.explain(make_run("d", repo=REPO, finished=False))
    lesson = _by_content(candidates, "LEDGER_DB_URL")
    remark = _by_content(candidates, "minor units")
    assert lesson.node.occurrences == 2  # the paraphrase reinforced it
    assert "× 0.6 reported by one run" in remark.parts.reasons
    assert not any("reported by one run" in r for r in lesson.parts.reasons)
    assert lesson.parts.score > remark.parts.score
    # An outcome one run reported is an anecdote too.
    outcome = next(c for c in candidates if c.node.kind is Kind.SUCCESS)
    assert outcome.node.occurrences == 3 or "× 0.6 reported by one run" in outcome.parts.reasons


async def test_the_folder_most_runs_touch_is_the_hot_path(memory: Memory, clock: Clock) -> None:
    for i in range(4):
        await memory.ingest(make_run(f"r{i}", repo=REPO, files=(f"internal/ledger/f{i}.go",)))
        clock.advance(10 * DAY)
    await memory.ingest(make_run("last", repo=REPO, files=("cmd/tool/main.go", "docs/x/readme.md")))
    clock.advance(DAY)
    candidates = await memory.explain(make_run("new", repo=REPO, finished=False))
    hot = [c for c in candidates if c.node.kind is Kind.HOT_PATH]
    assert [c.node.content.split("`")[1] for c in hot][:1] == ["internal/ledger/"]
    recent = _by_content(hot, "cmd/tool/")
    assert any("1 of 4 runs of the busiest folder" in r for r in recent.parts.reasons)
    assert hot[0].parts.score > recent.parts.score


@pytest.mark.parametrize(
    ("reason", "expected"),
    [
        ("engine error: rate limit (stream error: 429 Too Many Requests)", "engine_error"),
        (
            "engine error: authentication (permission denied: Invalid API key · Please run /login)",
            "engine_error",
        ),
        ("engine error: context overflow (prompt is too long: 210000 tokens)", "engine_error"),
        ("engine error (exit status 2)", "engine_error"),
        ("engine error: cannot start claude: no such file", "engine_error"),
        ("The engine CLI crashed with a segmentation fault", "engine_error"),
        ("tests failed: test_rate_limit_headers", "tests_failed"),
        ("policy denied: kubectl delete namespace", "guardrail"),
        ("agent stopped without a change", "unknown"),
    ],
)
def test_engine_errors_are_classified(reason: str, expected: str) -> None:
    run = make_run("x", success=False, reason=reason)
    assert classify_failure(run) == expected
    assert FAILURE_LABELS["engine_error"] == "engine error"


@pytest.mark.parametrize(
    ("reason", "expected"),
    [
        # What tools print, as agents paste it (eighth session): these were "unknown reason".
        ("pytest: 3 failed, 120 passed", "tests_failed"),
        ("FAIL github.com/acme/api/internal/auth 0.21s", "tests_failed"),
        ("--- FAIL: TestRefund (0.02s)", "tests_failed"),
        ("Tests passed but coverage dropped below the 80% threshold", "tests_failed"),
        ("error[E0308]: mismatched types in src/lib.rs", "build_failed"),
        ("mypy found 12 errors in 3 files", "build_failed"),
        ("ruff: 14 errors (E501 line too long)", "build_failed"),
        ("Cannot find module '@acme/ui' from 'src/App.tsx'", "build_failed"),
        ("npm ERR! code ERESOLVE unable to resolve dependency tree", "build_failed"),
        ("Killed: 9 (signal 9) while running webpack", "resources"),
        ("ENOSPC: no space left on device", "resources"),
        ("SIGTERM: the pod was preempted by a higher priority workload", "resources"),
        ("git push rejected: protected branch main requires review", "guardrail"),
        ("max turns reached (200)", "timeout"),
        # ... and what stays unknown: no class says it.
        ("Fail: could not connect to postgres at db:5432", "unknown"),
        ("merge conflict in go.mod; could not rebase onto main", "unknown"),
    ],
)
def test_what_tools_print_is_classified(reason: str, expected: str) -> None:
    assert classify_failure(make_run("x", success=False, reason=reason)) == expected


@pytest.mark.parametrize(
    ("reason", "listed", "expected"),
    [
        # A test's name holds words of other classes: it is not the cause.
        ("tests failed: PolicyCacheIT > evictsOnPolicyUpdate()", ("PolicyCacheIT > evictsOnPolicyUpdate()",),
         "tests_failed"),
        ("tests failed: PolicyCacheIT > evictsOnPolicyUpdate()", (), "tests_failed"),
        ("tests failed: tests/test_s3.py::test_multipart_resume_after_timeout", (), "tests_failed"),
        ("TestDiskQuotaExceeded failed", (), "tests_failed"),
        ("com.acme.build.BuildInfoTest#parsesCpuCount failed", (), "tests_failed"),
        ("assertion error in deny_list_blocks_forbidden_paths", ("deny_list_blocks_forbidden_paths",),
         "tests_failed"),
        # The cause is still read around the names.
        ("build failed: TestMain does not compile", (), "build_failed"),
        ("go test timed out after 10m running TestLongPoll", ("TestLongPoll",), "timeout"),
        ("Job deadline_exceeded", (), "timeout"),
        ("container OOMKilled while running test_large_upload", (), "resources"),
        ("policy denied: kubectl delete namespace", (), "guardrail"),
        # A listed "test" too short to be a name does not cut the reason's words.
        ("Job deadline exceeded", ("e",), "timeout"),
    ],
)  # fmt: skip
def test_a_test_name_in_a_reason_is_not_its_cause(
    reason: str, listed: tuple[str, ...], expected: str
) -> None:
    run = make_run("x", success=False, reason=reason, tests_failed=listed)
    assert classify_failure(run) == expected


def test_two_statements_about_one_folder_are_two_lessons() -> None:
    from osmia.memory.lessons import lesson, same_lesson

    a = lesson("Token caching in pkg/session/ depends on cookie expiry; check it first")
    b = lesson("Login parsing in pkg/session/ depends on role ordering; ask for a second review")
    assert not same_lesson(a, b) and not same_lesson(b, a)
    # A shared command (not only a place) with agreeing words is still one lesson.
    c = lesson("Run `make sqlc` after editing queries")
    d = lesson("After changing any .sql query file, regenerate the code with `make sqlc`")
    assert same_lesson(c, d)
    # The same place, stated again in other words, is one lesson.
    e = lesson("The fixtures in internal/testdata/ are generated; never edit them by hand")
    f = lesson("Never hand-edit the generated fixtures in internal/testdata/")
    assert same_lesson(e, f)


async def test_room_left_after_the_caps_goes_to_capped_nodes_last(memory: Memory, clock: Clock) -> None:
    await memory.ingest(
        make_run("a", repo=REPO, files=("internal/billing/x.go", "pkg/ledger/y.go", "cmd/server/main.go"))
    )
    clock.advance(DAY)
    candidates = await memory.explain(make_run("new", repo=REPO, finished=False))
    kept = [c for c in candidates if c.kept]
    hot = [c for c in kept if c.node.kind is Kind.HOT_PATH]
    assert len(hot) == 3  # the cap is 2; nothing else wanted the room
    assert kept[-1].node.kind is Kind.HOT_PATH  # the one over the cap comes after everything else
    ctx = await memory.context(make_run("new", repo=REPO, finished=False))
    assert [n.id for n in ctx.injected] == [c.node.id for c in kept]


async def test_success_outcomes_over_their_cap_do_not_fill_the_room_left(
    memory: Memory, clock: Clock
) -> None:
    # Five outcomes ("<engine> succeeded on a <type> task in …"), and little else in a young repository.
    for i, (engine, task) in enumerate(
        [("claude-code", "feature"), ("claude-code", "bug"), ("claude-code", "chore"), ("aider", "chore"),
         ("codex", "docs")]
    ):  # fmt: skip
        await memory.ingest(make_run(f"s{i}", repo=REPO, engine=engine, task_type=task))
        clock.advance(DAY)
    candidates = await memory.explain(make_run("new", repo=REPO, task_type="feature", finished=False))
    outcomes = [c for c in candidates if c.node.kind is Kind.SUCCESS]
    assert len(outcomes) == 5 and [c.kept for c in outcomes].count(True) == 2  # the cap, and no more
    assert outcomes[0].kept and "feature" in outcomes[0].node.content  # the ticket's own kind of work first


async def test_a_strength_ranks_below_a_warning(memory: Memory, clock: Clock) -> None:
    for i in range(4):
        await memory.ingest(make_run(f"ok{i}", engine="codex", task_type="bug"))
        await memory.ingest(make_run(f"bad{i}", engine="codex", task_type="chore", success=False))
        clock.advance(DAY)
    strong = await memory.explain(make_run("q1", engine="codex", task_type="bug", finished=False))
    weak = await memory.explain(make_run("q2", engine="codex", task_type="chore", finished=False))
    rate_strong = next(c for c in strong if c.node.key.startswith("pattern:rate:codex:bug:"))
    rate_weak = next(c for c in weak if c.node.key.startswith("pattern:rate:codex:chore:"))
    assert rate_strong.node.key.endswith(":mostly-succeed") and rate_weak.node.key.endswith(":mostly-fail")
    assert "× 0.5 a strength, not a warning" in rate_strong.parts.reasons
    assert not any("strength" in r for r in rate_weak.parts.reasons)
    assert rate_weak.parts.relevance == pytest.approx(2 * rate_strong.parts.relevance)


async def test_a_lesson_outranks_a_success_outcome_as_well_supported(memory: Memory, clock: Clock) -> None:
    """Three incident runs that succeeded and said the same lesson in other words: the lesson, not
    "claude-code succeeded on an incident task", leads what the next incident run is told."""
    said = (
        "If the nightly export hangs, clear the export-lock row in the jobs table before rerunning",
        "The nightly export hung again; clearing the export-lock row in the jobs table fixed it",
        "Rerunning the export only works after the export-lock row in the jobs table is cleared",
    )
    for i, text in enumerate(said):
        await memory.ingest(make_run(f"inc{i}", repo=REPO, task_type="incident", learnings=(text,)))
        clock.advance(7 * DAY)
    candidates = await memory.explain(make_run("next", repo=REPO, task_type="incident", finished=False))
    lesson = _by_content(candidates, "export-lock")
    outcome = next(
        c for c in candidates if c.node.kind is Kind.SUCCESS and c.node.subject.task_type == "incident"
    )
    assert lesson.node.occurrences == 3 and outcome.node.occurrences == 3
    assert "× 0.75 an outcome, not a lesson" in outcome.parts.reasons
    assert lesson.parts.score > outcome.parts.score
