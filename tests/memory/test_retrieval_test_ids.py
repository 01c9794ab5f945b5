# ruff: noqa: E501  (the examples read better one per line)
"""Issue 9's rule 4, one test (or a few) each: one test is one node whatever the language, runner or
form it was reported in (test_retrieval_v2.py has the ranking rules)."""

from __future__ import annotations

import pytest

from osmia.memory import test_ids
from osmia.memory.service import Memory
from osmia.memory.types import Kind
from tests.memory.conftest import DAY, Clock, make_run, stored

PY = "https://github.com/org/uploads"
JAVA = "https://github.com/org/policy"


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
    flaky = await stored(memory, Kind.FLAKY_TEST)
    assert len(flaky) == 1 and flaky[0].valid_to is not None  # closed, not deleted
    fixed = await stored(memory, Kind.TEST_FIXED)
    assert len(fixed) == 1 and fixed[0].valid
    section = (await memory.context(make_run("q", repo=repo, language=language, finished=False))).section
    assert "is flaky" not in section


async def test_a_denied_fix_closes_nothing(memory: Memory, clock: Clock) -> None:
    await memory.ingest(make_run("a", flaky=("TestConcurrentLogin",)))
    clock.advance(DAY)
    await memory.ingest(make_run("b", summary="Could not fix TestConcurrentLogin; it is still flaky."))
    assert [n.valid for n in await stored(memory, Kind.FLAKY_TEST)] == [True]
    assert await stored(memory, Kind.TEST_FIXED) == []


async def test_a_bare_identifier_that_is_no_known_test_makes_no_fixed_node(memory: Memory) -> None:
    await memory.ingest(make_run("a", summary="Fixed parseHeader to accept empty values."))
    assert await stored(memory, Kind.TEST_FIXED) == []


async def test_words_of_a_fix_statement_close_only_a_known_test(memory: Memory, clock: Clock) -> None:
    await memory.ingest(make_run("a", language="typescript", flaky=("Checkout › applies coupon",)))
    clock.advance(DAY)
    # "applies discount" and "the banner" name no known test: nothing is fixed, nothing is closed.
    await memory.ingest(
        make_run("b", language="typescript", summary="Fixed applies discount to wait for the banner.")
    )
    assert await stored(memory, Kind.TEST_FIXED) == []
    assert [n.valid for n in await stored(memory, Kind.FLAKY_TEST)] == [True]


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
    flaky = await stored(memory, Kind.FLAKY_TEST)
    assert len(flaky) == 1 and flaky[0].occurrences == 2
