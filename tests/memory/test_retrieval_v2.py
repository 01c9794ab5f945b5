# ruff: noqa: E501  (the examples read better one per line)
"""Issue 9's rules, one test (or a few) each: what a run meant, not only what it said."""

from __future__ import annotations

import dataclasses
import json
import sqlite3
from typing import Any

import pytest

from benchmarks.lesson_pairs import evaluate
from osmia.memory import lessons, test_ids
from osmia.memory.lessons import lesson, same_lesson, supersedes
from osmia.memory.ranking import DEFAULT, PRESETS, preset
from osmia.memory.service import Memory, MemorySettings
from osmia.memory.types import Kind, Node
from tests.memory.conftest import DAY, Clock, make_run

PY = "https://github.com/org/uploads"
JAVA = "https://github.com/org/policy"


async def _nodes(memory: Memory, kind: Kind) -> list[Node]:
    data = await memory.export()
    return [n for n in (await _all(memory)) if n.kind is kind] if data else []


async def _all(memory: Memory) -> list[Node]:
    """Every node as stored (confidences effective now)."""
    return await memory._store.iter_nodes()


# --- 1. paraphrases reinforce ---------------------------------------------------------------


async def test_a_paraphrased_lesson_reinforces_the_first_one(memory: Memory, clock: Clock) -> None:
    await memory.ingest(make_run("a", learnings=("Run `make sqlc` after editing queries",)))
    clock.advance(DAY)
    await memory.ingest(
        make_run("b", learnings=("After changing any .sql query, regenerate the code with `make sqlc`",))
    )
    learnings = await _nodes(memory, Kind.LEARNING)
    assert len(learnings) == 1
    assert learnings[0].occurrences == 2 and learnings[0].sources == ["tr/agents/a", "tr/agents/b"]
    assert learnings[0].confidence > 0.4


async def test_different_lessons_with_one_command_head_stay_apart(memory: Memory) -> None:
    await memory.ingest(make_run("a", learnings=("Run `make sqlc` after editing queries",)))
    await memory.ingest(make_run("b", learnings=("Run `make lint` after editing queries",)))
    assert len(await _nodes(memory, Kind.LEARNING)) == 2


@pytest.mark.parametrize(
    ("a", "b"),
    [
        # Identifiers on one side only (a code span), found among the other's words.
        ("The e2e suite needs a running Postgres; start it with `docker compose up -d db` first",
         "Bring up postgres via docker compose (docker compose up -d db) before the e2e suite"),
        ("Cache `~/.cargo/registry` between CI jobs or every build downloads the crates again",
         "Every CI build downloads the crates again unless the cargo registry is cached between jobs"),
    ],
)  # fmt: skip
async def test_a_paraphrase_is_one_lesson_whichever_came_first(
    a: str, b: str, tmp_path: Any, clock: Clock
) -> None:
    assert same_lesson(lesson(a), lesson(b)) == same_lesson(lesson(b), lesson(a))
    for order, (first, second) in enumerate(((a, b), (b, a))):
        memory = await Memory.open(
            MemorySettings(store_path=tmp_path / f"{order}.db"), clock=clock, update_gauges=False
        )
        try:
            await memory.ingest(make_run("a", learnings=(first,)))
            await memory.ingest(make_run("b", learnings=(second,)))
            learnings = await _nodes(memory, Kind.LEARNING)
            assert len(learnings) == 1 and learnings[0].occurrences == 2, order
        finally:
            await memory.close()


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # Antonyms: the same feature, switched on for one build and off for another.
        ("Enable the `jemalloc` feature for the server builds on Debian",
         "Disable the `jemalloc` feature for the musl builds and use the system allocator"),
        ("Allow the bot account to push to release branches", "Deny the bot account pushes to release branches"),
        # Another deployment environment: two facts, and neither replaces the other.
        ("The staging cluster runs Postgres 15", "The production cluster runs Postgres 16"),
        ("Set WORKERS=8 in prod for the ingest service", "Set WORKERS=2 in dev for the ingest service"),
        # Opposite orders for CI and for a developer's machine.
        ("Run the e2e suite with --headless in CI so it needs no display",
         "Don't pass --headless when running the e2e suite locally; you want to watch the browser"),
        # One setting with a value for CI and another for a developer's machine: neither replaces.
        ("Build the images with DOCKER_BUILDKIT=1 in the CI pipeline",
         "Set DOCKER_BUILDKIT=0 on your laptop when the local daemon is too old"),
        # Two paths in one folder: both name the folder, and a word of one is a part of the other.
        ("Cache .gradle/caches between CI runs to cut the build time",
         "Do not cache .gradle/wrapper between CI runs; the wrapper jar must match the build"),
        ("Commit the lockfile under .yarn/releases so CI uses the pinned yarn",
         "Never commit .yarn/cache; it is rebuilt by CI from the lockfile"),
    ],
)  # fmt: skip
def test_opposite_settings_and_other_environments_are_two_lessons(old: str, new: str) -> None:
    for x, y in ((old, new), (new, old)):
        assert not same_lesson(lesson(x), lesson(y)) and not supersedes(lesson(x), lesson(y))


def test_ci_and_local_part_lessons_only_with_opposite_orders() -> None:
    both = lesson("CI rejects unformatted files, so run `cargo fmt` locally before pushing")
    assert same_lesson(both, lesson("Run `cargo fmt` before pushing; CI rejects unformatted files"))
    ci = lesson("Never run `cargo fmt --all` in CI; it rewrites the vendored crates")
    assert not same_lesson(ci, lesson("Run `cargo fmt --all` locally before every push"))


def test_a_setting_given_in_words_is_a_value() -> None:
    raised = lesson("Raise the pool's maxConnections to 40 for the nightly export")
    kept = lesson("Keep maxConnections at 10 for the export; more connections exhaust the replica")
    assert raised.settings == (("maxconnections", "40"),) and kept.settings == (("maxconnections", "10"),)
    assert not same_lesson(raised, kept) and supersedes(raised, kept)


def test_one_path_and_its_folder_are_still_one_place() -> None:
    a = lesson("Cache .gradle/caches between CI runs to cut the build time")
    assert same_lesson(a, lesson("Cache the .gradle/caches folder in CI, builds get much faster"))
    assert lessons.found_in("src/billing/api.py", lesson("Everything in src/billing/ is generated"))
    assert not lessons.found_in("src/billing/api.py", lesson("src/billing/models.py feeds the api layer"))


def test_the_lesson_matcher_meets_the_bar_on_the_labelled_pairs() -> None:
    result = evaluate()["all"]
    assert result["pairs"] >= 500 and result["same"] >= 150
    assert result["precision"] >= 0.95
    assert result["recall"] >= 0.90


# --- 2. informative beats frequent ------------------------------------------------------------


async def test_content_free_learnings_are_not_stored(memory: Memory) -> None:
    await memory.ingest(
        make_run("a", learnings=("Tests pass", "Looks good", "Ran the tests", "All green now"))
    )
    assert await _nodes(memory, Kind.LEARNING) == []
    assert lesson("Run `make sqlc` after editing queries").specific


@pytest.mark.parametrize(
    "text",
    ["No issues found", "Implemented the feature as requested", "Task completed without errors",
     "Everything is working as expected now", "Requests handled, checks passing",
     # What agents say of their own work (tenth session's user probe: stored, and shown at 0.81).
     "Resolved. Investigated the issue.", "Addressed all review comments", "Followed the instructions",
     "Refactored the code for readability", "Added unit tests"],
)  # fmt: skip
def test_generic_words_in_other_forms_say_nothing(text: str) -> None:
    # Compared by stem: "issues", "implementing" and "requests" are the generic "issue", "implement", "request".
    assert not lesson(text).specific


@pytest.mark.parametrize(
    "text",
    ["Checkout emails are sent asynchronously by the worker", "Timezones are stored as UTC in the orders table",
     "Feature flags must be removed after launch", "Error messages must be translated",
     "Review apps need the preview label", "Handle nil pointers in the billing webhook"],
)  # fmt: skip
def test_a_lesson_with_two_content_words_says_something(text: str) -> None:
    assert lesson(text).specific


async def test_a_learning_that_a_named_thing_is_gone_says_something(memory: Memory) -> None:
    # Only common commands, so not "specific"; but it says one of them is gone, and that is news.
    gone = ("make test was removed; use `just test` now", "Use `just test` instead of make test")
    nothing = ("Tests are no longer needed", "Ran the tests before pushing")  # a generic thing, no thing
    assert all(lessons.informative(t) for t in gone) and not any(lessons.informative(t) for t in nothing)
    await memory.ingest(make_run("a", learnings=(*gone, *nothing)))
    assert sorted(n.content for n in await _nodes(memory, Kind.LEARNING)) == sorted(gone)


async def test_a_frequent_generic_learning_ranks_below_a_specific_one(tmp_path, clock: Clock) -> None:
    settings = MemorySettings(store_path=tmp_path / "m.db", min_pattern_samples=3)
    memory = await Memory.open(settings, clock=clock, update_gauges=False)
    config = dataclasses.replace(DEFAULT, specificity_min_nodes=1)
    memory._ranker.config = config  # a small store: measure rarity against what it holds
    try:
        generic = "Ran the full test suite before pushing the branch upstream"
        for i in range(12):
            repo = f"https://github.com/org/svc{i}"
            await memory.ingest(make_run(f"g{i}", repo=repo, learnings=(generic,)))
        await memory.ingest(make_run("x", repo="https://github.com/org/svc0", learnings=(generic,)))
        await memory.ingest(
            make_run(
                "s",
                repo="https://github.com/org/svc0",
                learnings=("`LEDGER_DB_URL` must be set for TestLedger",),
            )
        )
        explained = await memory.explain(make_run("q", repo="https://github.com/org/svc0", finished=False))
        learnings = [c for c in explained if c.node.kind is Kind.LEARNING]
        by_text = {c.node.content: c for c in learnings}
        specific = by_text["`LEDGER_DB_URL` must be set for TestLedger"]
        frequent = by_text[generic]
        assert frequent.node.confidence > specific.node.confidence  # repeated: more confident …
        assert specific.score > frequent.score  # … and still ranked below
        assert any("specificity" in r for r in frequent.parts.reasons)
    finally:
        await memory.close()


# --- 3. same ticket first ---------------------------------------------------------------------


async def test_a_retry_is_told_about_the_earlier_attempt_first(memory: Memory, clock: Clock) -> None:
    for i in range(3):  # other knowledge about the repository
        await memory.ingest(make_run(f"o{i}", flaky=("TestConcurrentLogin",)))
    await memory.ingest(
        make_run(
            "pay-181-1",
            ticket="PAY-181",
            success=False,
            tests_failed=("TestRefundRounding",),
            learnings=("Refund amounts are rounded in `ledger/round.go`, not in the handler",),
        )
    )
    clock.advance(DAY)
    context = await memory.context(make_run("pay-181-2", ticket="pay-181", finished=False))
    first = context.section.split("\n- ")[1]
    assert first.startswith("**Earlier attempt** (confidence 0.70, from tr/agents/pay-181-1): ")
    assert "Earlier attempt at PAY-181, tr/agents/pay-181-1 (claude-code): failed, tests failed" in first
    assert "failing: `TestRefundRounding`" in first
    assert "learned: Refund amounts are rounded in `ledger/round.go`" in first
    assert context.injected[0].kind == "attempt"
    # The learning it quotes is not said again on a line of its own (the other ticket still gets it).
    assert all(n.kind != "learning" for n in context.injected)
    explained = await memory.explain(make_run("pay-181-2", ticket="pay-181", finished=False))
    said = {
        c.node.kind: c.verdict
        for c in explained
        if c.verdict.startswith("dropped: said by the earlier attempt")
    }
    assert said.keys() == {Kind.LEARNING, Kind.FAILURE}  # its learning, and the outcome only it reported
    assert all(n.kind != "failure" for n in context.injected)
    # Another ticket is not told about it.
    other = await memory.context(make_run("pay-200", ticket="PAY-200", finished=False))
    assert all(n.kind != "attempt" for n in other.injected)
    assert any(n.kind == "learning" and "ledger/round.go" in n.content for n in other.injected)


async def test_an_attempt_calls_a_flaky_test_flaky_not_failing(memory: Memory, clock: Clock) -> None:
    await memory.ingest(
        make_run("web-1", ticket="WEB-1", tests_failed=("TestCart",), flaky=("Checkout › applies coupon",),
                 success=False)
    )  # fmt: skip
    await memory.ingest(make_run("web-2", ticket="WEB-2", flaky=("Checkout › applies coupon",)))
    clock.advance(DAY)
    first = (await memory.context(make_run("web-1-b", ticket="WEB-1", finished=False))).injected[0]
    assert "; failing: `TestCart`; flaky: `Checkout › applies coupon`" in first.content
    second = (await memory.context(make_run("web-2-b", ticket="WEB-2", finished=False))).injected[0]
    assert second.content.endswith("succeeded; flaky: `Checkout › applies coupon`")
    assert "failing" not in second.content


async def test_the_ticket_and_the_rescued_engines_are_recorded_with_the_run(memory: Memory, settings) -> None:
    await memory.ingest(make_run("a", ticket="ops-7", attempts=("aider", "claude-code")))
    await memory.close()
    conn = sqlite3.connect(settings.store_path)
    try:
        row = conn.execute("SELECT ticket_id, failed_engines, engine FROM runs").fetchone()
        assert row == ("OPS-7", '["aider"]', "claude-code")
        assert conn.execute("PRAGMA user_version").fetchone()[0] >= 6
    finally:
        conn.close()


# --- 4. test identity across languages --------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("TestConcurrentLogin", "TestConcurrentLogin"),
        ("TestConcurrentLogin/expired_session", "TestConcurrentLogin"),
        ("tests/test_s3.py::test_multipart_resume_after_timeout", "test_multipart_resume_after_timeout"),
        ("tests/test_s3.py::TestUpload::test_resume[slow]", "TestUpload::test_resume"),
        ("PolicyCacheIT.evictsOnPolicyUpdate", "com.acme.PolicyCacheIT > evictsOnPolicyUpdate() FAILED"),
        ("PolicyCacheIT#evictsOnPolicyUpdate", "PolicyCacheIT.evictsOnPolicyUpdate"),
        ("Cart › applies discount", "Cart > applies discount"),
        ("payments::tests::refund_rounds", "crate::payments::tests::refund_rounds"),
        ("payments::tests::refund_rounds", "refund_rounds"),
        ("Cart › applies coupon", "Cart applies coupon"),  # the describe block spoken before the title
        ("Cart › totals › rounds half up", "cart totals rounds half up"),
    ],
)
def test_one_test_in_two_forms_is_one_test(a: str, b: str) -> None:
    assert test_ids.matches(test_ids.parse(a), test_ids.parse(b))


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("PolicyCacheIT.evictsOnPolicyUpdate", "UserCacheIT.evictsOnPolicyUpdate"),
        ("tests/test_s3.py::test_resume", "test_upload"),
        ("TestLogin", "TestLogout"),
        ("Cart › applies coupon", "Checkout applies coupon"),  # another describe block
        ("Cart › applies coupon", "Cart applies"),
        ("CartTest.appliesCoupon", "CartTest appliesCoupon"),  # only a title in words is spoken
    ],
)
def test_different_tests_stay_different(a: str, b: str) -> None:
    assert not test_ids.matches(test_ids.parse(a), test_ids.parse(b))


@pytest.mark.parametrize(
    ("reported", "repo", "language", "fix"),
    [
        ("tests/test_s3.py::test_multipart_resume_after_timeout", PY, "python",
         "Stabilized test_multipart_resume_after_timeout by retrying the part upload."),
        ("com.acme.PolicyCacheIT > evictsOnPolicyUpdate()", JAVA, "java",
         "Fixed the flaky PolicyCacheIT.evictsOnPolicyUpdate by awaiting the eviction."),
        ("PolicyCacheIT#evictsOnPolicyUpdate", JAVA, "java", "Deflaked evictsOnPolicyUpdate with a fake clock."),
        ("Cart › applies discount", PY, "typescript", "`Cart › applies discount` is no longer flaky."),
        ("payments::tests::refund_rounds", PY, "rust", "refund_rounds no longer flaky after seeding the RNG."),
        ("TestConcurrentLogin", PY, "go", "Fixed flaky TestConcurrentLogin by waiting for the queue."),
        # Named in prose by its ``it`` text, which no identifier pattern finds.
        ("Checkout › applies coupon", PY, "typescript", "Deflaked applies coupon by waiting for the banner."),
        ("OrderSummary > shows the discounted total", PY, "typescript",
         "The shows the discounted total spec is no longer flaky."),
        ("Cart › totals › rounds half up", PY, "typescript", "The rounds half up spec is no longer flaky."),
        # ... or by its describe block and title without the separator.
        ("Cart › applies coupon", PY, "typescript", "Deflaked 'Cart applies coupon' (awaited the debounce)."),
    ],
)  # fmt: skip
async def test_a_fix_closes_the_flaky_node_whichever_form_it_uses(
    memory: Memory, clock: Clock, reported: str, repo: str, language: str, fix: str
) -> None:
    await memory.ingest(make_run("a", repo=repo, language=language, flaky=(reported,)))
    clock.advance(DAY)
    await memory.ingest(make_run("b", repo=repo, language=language, summary=fix))
    flaky = await _nodes(memory, Kind.FLAKY_TEST)
    assert len(flaky) == 1 and flaky[0].valid_to is not None  # closed, not deleted
    fixed = await _nodes(memory, Kind.TEST_FIXED)
    assert len(fixed) == 1 and fixed[0].valid
    section = (await memory.context(make_run("q", repo=repo, language=language, finished=False))).section
    assert "is flaky" not in section


async def test_a_denied_fix_closes_nothing(memory: Memory, clock: Clock) -> None:
    await memory.ingest(make_run("a", flaky=("TestConcurrentLogin",)))
    clock.advance(DAY)
    await memory.ingest(make_run("b", summary="Could not fix TestConcurrentLogin; it is still flaky."))
    assert [n.valid for n in await _nodes(memory, Kind.FLAKY_TEST)] == [True]
    assert await _nodes(memory, Kind.TEST_FIXED) == []


async def test_a_bare_identifier_that_is_no_known_test_makes_no_fixed_node(memory: Memory) -> None:
    await memory.ingest(make_run("a", summary="Fixed parseHeader to accept empty values."))
    assert await _nodes(memory, Kind.TEST_FIXED) == []


async def test_words_of_a_fix_statement_close_only_a_known_test(memory: Memory, clock: Clock) -> None:
    await memory.ingest(make_run("a", language="typescript", flaky=("Checkout › applies coupon",)))
    clock.advance(DAY)
    # "applies discount" and "the banner" name no known test: nothing is fixed, nothing is closed.
    await memory.ingest(
        make_run("b", language="typescript", summary="Fixed applies discount to wait for the banner.")
    )
    assert await _nodes(memory, Kind.TEST_FIXED) == []
    assert [n.valid for n in await _nodes(memory, Kind.FLAKY_TEST)] == [True]


async def test_a_run_without_learnings_reads_only_the_test_facts_of_its_repository(memory: Memory) -> None:
    from osmia.memory import resolve

    await memory.ingest(
        make_run("a", flaky=("TestConcurrentLogin",), learnings=("Run `make sqlc` after editing queries",))
    )
    store, tenant, repo = memory._store, "ticketing", "github.com/org/api"
    both = await resolve.known_facts(store, tenant, repo)
    tests = await resolve.known_facts(store, tenant, repo, lessons=False)
    assert {k.kind for k in both} == {Kind.LEARNING, Kind.FLAKY_TEST}
    assert [k.key for k in tests] == [k.key for k in both if k.kind is not Kind.LEARNING]
    for sql in (resolve._KNOWN_SQL, resolve._KNOWN_TESTS_SQL):  # both read the partial index's range
        plan = " ".join(str(r[3]) for r in await store.rows("EXPLAIN QUERY PLAN " + sql, (tenant, repo)))
        assert "USING INDEX nodes_lessons (tenant=? AND repository=?" in plan, plan
    tests_plan = await store.rows("EXPLAIN QUERY PLAN " + resolve._KNOWN_TESTS_SQL, (tenant, repo))
    assert "kind=?" in " ".join(str(r[3]) for r in tests_plan)  # the tests' keys only, not every learning


def test_phrases_are_the_runs_of_words_next_to_the_fix() -> None:
    found = test_ids.phrases("Deflaked applies coupon by waiting for the banner.")
    assert found == [
        "applies coupon",
        "applies coupon by waiting",
    ]  # at most six words, none edged by a stopword
    before = test_ids.phrases("The shows the discounted total spec is no longer flaky.")
    assert "shows the discounted total" in before and "discounted total" in before
    assert test_ids.phrases("Fixed.") == [] and test_ids.phrases("Added a retry.") == []
    # A name may end with a particle: "rounds half up", "logs out" (never with "the").
    assert "rounds half up" in test_ids.phrases("The rounds half up spec is no longer flaky")
    assert "logs out" in test_ids.phrases("Fixed logs out on expiry by awaiting the redirect")
    assert test_ids.phrases("Fixed the flaky 'applies coupon' spec")[0] == "applies coupon"
    # Text a run wrote: a megabyte of filler around the fix word is read in a window, not whole.
    assert test_ids.phrases("the " * 250_000 + "fixed " + "the " * 250_000) == []


async def test_a_bare_name_reinforces_the_node_of_the_node_id(memory: Memory) -> None:
    await memory.ingest(make_run("a", repo=PY, flaky=("tests/test_s3.py::test_resume",)))
    await memory.ingest(make_run("b", repo=PY, flaky=("test_resume",)))
    flaky = await _nodes(memory, Kind.FLAKY_TEST)
    assert len(flaky) == 1 and flaky[0].occurrences == 2


# --- 5. newer statements supersede ------------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("numpy is pinned below 2: numpy 1.26 is required by the ml build", "Now on numpy 2.x; the ml build was ported"),
        ("The project is on Node 18 via .nvmrc", "Node 20 via .nvmrc"),
        ("Set HTTP_TIMEOUT=30 for the slow partner API", "Set HTTP_TIMEOUT=90 for the slow partner API"),
        ("Use `pnpm` not npm: the lock file is pnpm-lock.yaml", "Use `bun` now: pnpm-lock.yaml was replaced by bun.lockb"),
        # What the older one tells to do, called obsolete in its own words (no shared identifier).
        ("Install dependencies with npm ci", "Use `pnpm install` instead of npm ci; the repo moved to pnpm"),
        ("Run migrations with alembic upgrade head", "Migrations now run automatically on start; alembic upgrade head is no longer needed"),
        ("Build the docs with mkdocs build", "We switched from mkdocs build to sphinx-build for the docs"),
        # ... in one word: a tool the older one tells to use, however little else the two share.
        ("Use pnpm, not npm: npm install rewrites the lockfile", "The repo switched from pnpm to bun; run bun install"),
        ("Install dependencies with pip install -r requirements.txt", "We use uv now instead of pip: uv sync"),
        ("Deploy via the Jenkins job deploy-prod", "Jenkins is gone, deploys now go through Argo CD"),
        # ... removed, dropped or replaced, as the subject of the sentence (before: "the same lesson").
        ("Run the unit tests with `make test` from the repo root", "make test was removed; use `just test` now"),
        ("Use black for formatting", "black was dropped in favour of ruff format"),
        ("Lint with flake8 before pushing", "flake8 has been replaced by ruff; run ruff check ."),
        # ... a runner named as the tool to run with, not only as the runner of another command.
        ("Install dependencies with `poetry install`", "We moved from poetry to uv: use `uv run` instead of `poetry run`"),
        # Tenth session's user probe: a constraint (~>), a key set in words, a version named before a verb.
        ("Keep the hashicorp/aws provider pinned to ~> 4.67 in envs/prod/versions.tf", "envs/prod/versions.tf now pins hashicorp/aws ~> 5.40"),
        ("java.version is 17 in pom.xml", "java.version is 21 in pom.xml"),
        ("maven.compiler.release is 17 in services/billing/pom.xml; do not use Java 21 language features",
         "services/billing moved to Java 21: `.sdkmanrc` now pins java=21.0.3-tem"),
    ],
)  # fmt: skip
async def test_a_newer_statement_supersedes_the_older_one(
    memory: Memory, clock: Clock, old: str, new: str
) -> None:
    assert supersedes(lesson(new), lesson(old)) and not same_lesson(lesson(new), lesson(old))
    await memory.ingest(make_run("a", learnings=(old,)))
    clock.advance(DAY)
    await memory.ingest(make_run("b", learnings=(new,)))
    by_text = {n.content: n for n in await _nodes(memory, Kind.LEARNING)}
    assert by_text[old].valid_to is not None and by_text[new].valid
    shown = (await memory.context(make_run("q", finished=False))).section
    assert new in shown and old not in shown


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # The older one warns against the thing too: one lesson, not a replacement.
        ("internal/mocks is generated; never edit the mocks by hand", "Regenerate the mocks with mockery instead of editing the mocks by hand"),
        # The obsolete thing is not what the older one tells to do.
        ("Run the integration tests with make itest", "Use `uv run pytest` instead of tox for the unit tests"),
        # The older one tells to use pnpm and warns against npm: npm going is no news to it.
        ("Never run npm install, use pnpm", "The repo switched from npm to pnpm"),
        # A generic word is not a thing ("tests" were removed), and a run's own act is not a removal.
        ("Run the unit tests with pytest -q", "The flaky tests were removed from the smoke job"),
        ("Use black for formatting", "Removed the unused black config from setup.cfg"),
        # The thing only runs what the older one teaches: the lesson holds under the new runner.
        ("Run `poetry run python manage.py makemigrations --check` before pushing; CI fails on missing migrations",
         "We moved from poetry to uv: use `uv run` instead of `poetry run`"),
        ("Run `pnpm run build` before committing", "The repo switched from pnpm to bun"),
    ],
)  # fmt: skip
def test_calling_something_obsolete_replaces_only_a_lesson_that_tells_to_do_it(old: str, new: str) -> None:
    assert not lessons._obsoletes(lesson(new), lesson(old))


# --- 6. engine profiles count rescued failures ------------------------------------------------


async def test_a_failure_rescued_by_a_fallback_counts_against_the_engine_that_failed(memory: Memory) -> None:
    for i in range(4):
        await memory.ingest(make_run(f"r{i}", engine="aider", attempts=("aider", "claude-code")))
    profiles = {n.subject.engine: n for n in await _nodes(memory, Kind.ENGINE_PROFILE)}
    assert profiles["aider"].content.startswith("aider: 4 runs, 0% success")
    assert profiles["claude-code"].content.startswith("claude-code: 4 runs, 100% success")
    rates = [n for n in await _nodes(memory, Kind.PATTERN) if n.key.startswith("pattern:rate:aider:bug:")]
    assert rates and rates[0].key.endswith(":mostly-fail")


# --- 7. generic statistics are gated ----------------------------------------------------------


async def test_an_unrelated_ticket_gets_no_tenant_wide_statistics(memory: Memory) -> None:
    for i in range(6):
        await memory.ingest(make_run(f"r{i}", engine="codex", task_type="chore", language="go"))
    unrelated = make_run(
        "u", repo="https://github.com/zeta/new", engine="codex", task_type="docs", language="rust",
        title="Write the install guide", description="Explain installation on macOS", finished=False,
    )  # fmt: skip
    assert (await memory.context(unrelated)).injected == ()
    explained = await memory.explain(unrelated)
    assert any("says nothing about docs tasks" in c.verdict for c in explained)


async def test_a_statistic_about_this_engine_and_task_type_enters_when_it_says_something(
    memory: Memory,
) -> None:
    for i in range(6):
        await memory.ingest(
            make_run(f"r{i}", engine="codex", task_type="chore", language="go", success=False)
        )
    run = make_run(
        "n",
        repo="https://github.com/zeta/new",
        engine="codex",
        task_type="chore",
        language="go",
        finished=False,
    )
    kinds = {n.kind for n in (await memory.context(run)).injected}
    assert {"engine_profile", "pattern"} <= kinds
    other_language = dataclasses.replace(run, repository=dataclasses.replace(run.repository, language="rust"))
    explained = await memory.explain(other_language)
    assert any(c.verdict == "dropped: success rate of another language" for c in explained)


async def test_an_incident_runbook_without_a_repository_beats_the_engine_s_success_outcome(
    memory: Memory, clock: Clock
) -> None:
    """Incident runs need no repository: the runbook is found by its words alone (the status code
    among them), and the outcome every such run reinforces is a strength, not a lesson."""
    said = (
        "When checkout returns 502, first check the envoy upstream health: kubectl -n edge get pods -l app=envoy",
        "For checkout 502 errors look at envoy upstream health first (kubectl -n edge get pods -l app=envoy)",
        "Checkout 502: check envoy pods in the edge namespace before anything else",
    )
    for i, text in enumerate(said):
        await memory.ingest(
            make_run(f"inc-{i}", repo="", flow="incident-triage", task_type="incident",
                     title="Checkout errors", description="Customers see errors", learnings=(text,))
        )  # fmt: skip
        clock.advance(DAY)
    ticket = make_run(
        "inc-9", repo="", flow="incident-triage", task_type="incident", finished=False,
        title="Checkout returning 502 again", description="Checkout returning 502 again",
    )  # fmt: skip
    injected = (await memory.context(ticket)).injected
    assert injected[0].kind == "learning" and "envoy" in injected[0].content, injected
    assert "success" not in [n.kind for n in injected]
    explained = {c.node.kind: c for c in await memory.explain(ticket)}
    assert "a strength, not a warning" in str(explained[Kind.SUCCESS].parts.discounts)


async def test_an_incident_lesson_does_not_reach_an_unrelated_incident_through_the_shared_outcome(
    memory: Memory, clock: Clock
) -> None:
    """Found by the tenth session's user probe: every incident run without a repository relates its
    lessons to one outcome ("claude-code succeeded on an incident task"), found by the engine for
    every incident; one hop from it brought every incident lesson to every incident."""
    lessons_said = (
        ("Kafka consumer lag", "Rebalance storm on the orders consumer: raise session.timeout.ms to 45000"),
        (
            "Postgres serialization failures",
            "pq: could not serialize access: retry the transaction in db.RetryTx",
        ),
    )
    for i, (title, text) in enumerate(lessons_said * 2):
        await memory.ingest(
            make_run(f"inc-{i}", repo="", flow="incident-triage", task_type="incident",
                     title=title, description=title, learnings=(text,))
        )  # fmt: skip
        clock.advance(DAY)
    tls = make_run(
        "inc-9", repo="", flow="incident-triage", task_type="incident", finished=False,
        title="TLS certificate expired on the ingress", description="Browsers show certificate errors",
    )  # fmt: skip
    assert [n for n in (await memory.context(tls)).injected if n.kind == "learning"] == []
    serialization = make_run(
        "inc-10", repo="", flow="incident-triage", task_type="incident", finished=False,
        title="Serialization failures again", description="pq: could not serialize access in checkout",
    )  # fmt: skip
    shown = [n.content for n in (await memory.context(serialization)).injected if n.kind == "learning"]
    assert shown == [lessons_said[1][1]]


def test_a_long_number_is_a_search_term_and_a_short_one_is_not() -> None:
    from osmia.memory.text import query_terms

    terms = query_terms(
        "Checkout 502 after 3 retries in 10 min; pods OOMKilled with exit code 137 on port 5432"
    )
    assert {"502", "137", "5432"} <= set(terms)
    assert not {"3", "10"} & set(terms)


# --- 8. ranking as data -----------------------------------------------------------------------


def test_the_ranking_configuration_is_one_frozen_object_with_presets() -> None:
    assert (
        PRESETS["default"] is DEFAULT
        and preset("recent").recency_half_life_days < DEFAULT.recency_half_life_days
    )
    with pytest.raises(dataclasses.FrozenInstanceError):
        DEFAULT.min_score = 0.5  # type: ignore[misc]
    with pytest.raises(ValueError, match="choose one of default"):
        preset("nope")
    assert json.loads(json.dumps(DEFAULT.as_dict()))["max_per_kind"]["learning"] == 3
    assert "signal_repository = 0.7" in DEFAULT.describe()


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("In services/billing run `make generate` after editing the OpenAPI spec",
         "In services/search run `make generate` after editing the OpenAPI spec"),
        ("Run ./mvnw -pl services/billing -am verify before pushing", "Run ./mvnw -pl services/search -am verify before pushing"),
    ],
)  # fmt: skip
async def test_one_lesson_about_two_places_of_a_monorepo_is_two_lessons(
    memory: Memory, a: str, b: str
) -> None:
    """Found by the tenth session's user probe: the search service's ticket was told the billing
    service's command, the two merged at a word similarity above 0.8."""
    assert not same_lesson(lesson(a), lesson(b)) and not supersedes(lesson(b), lesson(a))
    await memory.ingest(make_run("a", learnings=(a,)))
    await memory.ingest(make_run("b", learnings=(b,)))
    nodes = await _nodes(memory, Kind.LEARNING)
    assert sorted(n.content for n in nodes if n.valid) == sorted((a, b))
    assert same_lesson(lesson(a), lesson(a.replace("In services/billing run", "In services/billing/, run")))


async def test_a_fact_about_another_place_of_the_repository_ranks_below_one_about_the_ticket_s(
    memory: Memory, clock: Clock
) -> None:
    """Found by the tenth session's user probe: a ticket about services/search was told the billing
    service's build command first; the search service's own lesson came last."""
    billing = "Billing integration tests only run with `./mvnw -pl services/billing -am verify`"
    search = "After editing .proto files under services/search/api run `make proto` before building"
    for i in range(3):
        await memory.ingest(make_run(f"b-{i}", repo="https://github.com/acme/platform", learnings=(billing,)))
    for i in range(2):
        await memory.ingest(make_run(f"s-{i}", repo="https://github.com/acme/platform", learnings=(search,)))
    clock.advance(DAY)
    ticket = make_run(
        "q", repo="https://github.com/acme/platform", finished=False, title="Search: add synonym support",
        description="Add a new rpc to services/search/api/search.proto",
    )  # fmt: skip
    shown = [n.content for n in (await memory.context(ticket)).injected if n.kind == "learning"]
    assert shown.index(search) < shown.index(billing)
    explained = {c.node.content: c for c in await memory.explain(ticket)}
    assert "another place of the repository" in str(explained[billing].parts.discounts)
    assert "another place" not in str(explained[search].parts.discounts)
