# ruff: noqa: E501  (the examples read better one per line)
"""Issue 9's ranking rules, one test (or a few) each: what a run meant, not only what it said
(test_retrieval_lessons.py has paraphrases and supersession, test_retrieval_test_ids.py test
identity)."""

from __future__ import annotations

import dataclasses
import json
import sqlite3

import pytest

from osmia.memory import lessons
from osmia.memory.lessons import lesson, same_lesson, supersedes
from osmia.memory.ranking import DEFAULT, PRESETS, preset
from osmia.memory.service import Memory, MemorySettings
from osmia.memory.types import Kind
from tests.memory.conftest import DAY, Clock, make_run, stored

# --- 2. informative beats frequent ------------------------------------------------------------


async def test_content_free_learnings_are_not_stored(memory: Memory) -> None:
    await memory.ingest(
        make_run("a", learnings=("Tests pass", "Looks good", "Ran the tests", "All green now"))
    )
    assert await stored(memory, Kind.LEARNING) == []
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
    assert sorted(n.content for n in await stored(memory, Kind.LEARNING)) == sorted(gone)


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


# --- 6. engine profiles count rescued failures ------------------------------------------------


async def test_a_failure_rescued_by_a_fallback_counts_against_the_engine_that_failed(memory: Memory) -> None:
    for i in range(4):
        await memory.ingest(make_run(f"r{i}", engine="aider", attempts=("aider", "claude-code")))
    profiles = {n.subject.engine: n for n in await stored(memory, Kind.ENGINE_PROFILE)}
    assert profiles["aider"].content.startswith("aider: 4 runs, 0% success")
    assert profiles["claude-code"].content.startswith("claude-code: 4 runs, 100% success")
    rates = [n for n in await stored(memory, Kind.PATTERN) if n.key.startswith("pattern:rate:aider:bug:")]
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
    nodes = await stored(memory, Kind.LEARNING)
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
