"""Cases from the tenth session's second user probe: a big repository, reversals, runbook steps."""

from __future__ import annotations

import pytest

from osmia.memory.lessons import lesson, same_lesson, supersedes
from osmia.memory.redaction import redact
from osmia.memory.service import Memory
from osmia.memory.types import Kind
from tests.memory.conftest import DAY, Clock, make_run

CORE = "https://github.com/acme/core"
GENERIC = (
    "Use `poetry install --sync` to get the exact dev dependencies",
    "Run `make lint` before pushing; CI rejects unformatted code",
    "Keep PRs small; the reviewers ask for one component per PR",
)
STRIPE = (
    "Stripe webhook `SignatureVerificationError` in services/payments/webhooks.py means the handler got "
    "parsed JSON; pass `request.body` to construct_event"
)


async def test_the_lesson_naming_what_the_ticket_names_comes_first_in_a_big_repository(
    memory: Memory, clock: Clock
) -> None:
    """Repeated generic lessons (confidence 0.99) outranked the one lesson about the ticket's error,
    reported twice (0.55): relevance could not make up for confidence. A fact that names an
    identifier the ticket names now comes first, after earlier attempts at the ticket."""
    for i in range(12):
        await memory.ingest(make_run(f"g-{i}", repo=CORE, language="python", learnings=GENERIC))
        clock.advance(DAY)
    for i in range(2):
        await memory.ingest(make_run(f"s-{i}", repo=CORE, language="python", learnings=(STRIPE,)))
    clock.advance(DAY)
    ticket = make_run(
        "q", repo=CORE, language="python", finished=False,
        title="Stripe webhooks rejected with SignatureVerificationError",
        description="Stripe webhooks fail in services/payments/webhooks.py: SignatureVerificationError.",
    )  # fmt: skip
    injected = (await memory.context(ticket)).injected
    assert injected[0].content == STRIPE
    explained = {c.node.content: c for c in await memory.explain(ticket)}
    assert "named in the ticket" in str(explained[STRIPE].parts.signals)
    unrelated = make_run("u", repo=CORE, language="python", finished=False, title="Speed up the CSV export")
    assert all("named in the ticket" not in str(c.parts.signals) for c in await memory.explain(unrelated))


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("SKU normalisation strips leading zeros in services/inventory/sku.py",
         "Lock inventory rows in ascending `sku_id` order to avoid deadlocks"),
        ("Reports need `REPORT_CACHE_TTL=900`", "Currency rates need `FX_CACHE_TTL=3600`"),
        ("Orders need `DB_POOL_SIZE=20`", "The search indexer needs `ES_POOL_SIZE=5`"),
    ],
)  # fmt: skip
def test_two_lessons_sharing_part_of_an_identifier_are_two(a: str, b: str) -> None:
    """`sku_id` was "found" in a lesson about SKUs (two-letter parts were ignored), FX_CACHE_TTL in
    one about REPORT_CACHE_TTL."""
    assert not same_lesson(lesson(b), lesson(a)) and not supersedes(lesson(b), lesson(a))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Use `pnpm install` instead of npm ci", "Use npm ci instead of `pnpm install`"),
        ("httpx is deprecated; use aiohttp instead of httpx", "Use `httpx` instead of aiohttp"),
        ("Use aiohttp instead of httpx", "We switched back from aiohttp to `httpx`"),
        (
            "Use aiohttp instead of httpx for the client",
            "Reverted from aiohttp to httpx: aiohttp leaked sockets",
        ),
    ],
)
async def test_a_reversal_or_a_rollback_replaces_the_lesson_it_reverses(
    memory: Memory, clock: Clock, old: str, new: str
) -> None:
    """The reversal was read as a restatement (both name the same two things) and reinforced the
    lesson it reverses; "switched back from" was no marker at all."""
    assert supersedes(lesson(new), lesson(old)) and not same_lesson(lesson(new), lesson(old))
    await memory.ingest(make_run("a", learnings=(old,)))
    clock.advance(DAY)
    await memory.ingest(make_run("b", learnings=(new,)))
    nodes = {n.content: n for n in await memory._store.iter_nodes() if n.kind is Kind.LEARNING}
    assert not nodes[old].valid and nodes[new].valid


@pytest.mark.parametrize(
    "text",
    [
        "pass max_attempts=4 for three retries",
        "pass timeout=30 to requests.get",
        "pass SKIP_SLOW=1 to make",
        "Set API_TOKEN Actions secret via the UI",  # second red team: a word there, not a value
    ],
)
def test_passing_a_setting_is_no_password(text: str) -> None:
    assert redact(text) == text
    assert redact("user admin pass Summer2024! on staging") == "user admin pass [redacted] on staging"
