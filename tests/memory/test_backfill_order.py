"""Runs ingested in another order than they ran (a backfill: ``kubectl get`` lists by name)."""

from __future__ import annotations

import dataclasses

from osmia.memory.service import Memory
from osmia.memory.types import Kind, Node
from tests.memory.conftest import DAY, T0, Clock, make_run

OLD = "go.mod says go 1.22; keep the toolchain line in sync"
NEW = "go.mod moved to go 1.23; keep the toolchain line in sync"


async def _learnings(memory: Memory) -> dict[str, Node]:
    return {n.content: n for n in await memory._store.iter_nodes() if n.kind is Kind.LEARNING}


async def test_an_older_statement_ingested_last_is_closed_not_the_newer_one(
    memory: Memory, clock: Clock
) -> None:
    clock.now = T0 + 300 * DAY
    await memory.ingest(make_run("b-november", learnings=(NEW,)), finished_at=T0 + 250 * DAY)
    await memory.ingest(make_run("a-march", learnings=(OLD,)), finished_at=T0 + 50 * DAY)
    nodes = await _learnings(memory)
    assert nodes[NEW].valid and not nodes[OLD].valid
    assert nodes[OLD].valid_to == T0 + 50 * DAY
    section = (await memory.context(make_run("c-next", finished=False))).injected
    assert [f.content for f in section if "go 1.2" in f.content] == [NEW]


async def test_the_newer_statement_wins_whichever_order_the_runs_arrive_in(
    memory: Memory, clock: Clock
) -> None:
    clock.now = T0 + 300 * DAY
    await memory.ingest(make_run("a-march", learnings=(OLD,)), finished_at=T0 + 50 * DAY)
    await memory.ingest(make_run("b-november", learnings=(NEW,)), finished_at=T0 + 250 * DAY)
    nodes = await _learnings(memory)
    assert nodes[NEW].valid and not nodes[OLD].valid


async def test_a_late_restatement_does_not_make_a_fact_older(memory: Memory, clock: Clock) -> None:
    clock.now = T0 + 300 * DAY
    await memory.ingest(make_run("b", learnings=(NEW,)), finished_at=T0 + 250 * DAY)
    await memory.ingest(make_run("a", learnings=(NEW,)), finished_at=T0 + 50 * DAY)
    node = (await _learnings(memory))[NEW]
    assert node.last_seen == T0 + 250 * DAY and node.occurrences == 2


async def test_forgetting_the_late_older_run_leaves_the_newer_statement(memory: Memory, clock: Clock) -> None:
    clock.now = T0 + 300 * DAY
    await memory.ingest(make_run("b-november", learnings=(NEW,)), finished_at=T0 + 250 * DAY)
    await memory.ingest(make_run("a-march", learnings=(OLD,)), finished_at=T0 + 50 * DAY)
    await memory.forget_run("agents/a-march")
    nodes = await _learnings(memory)
    assert list(nodes) == [NEW] and nodes[NEW].valid and nodes[NEW].last_seen == T0 + 250 * DAY


async def test_one_run_with_and_without_its_uid_is_learned_once(memory: Memory) -> None:
    """Found by the tenth session's CLI probe: a document stripped of ``metadata.uid`` (keyed
    ``namespace/name``) and the same run with its uid were both learned: the lesson counted twice."""
    with_uid = make_run("pay-900", learnings=(NEW,))
    assert with_uid.uid
    without = dataclasses.replace(with_uid, uid="")
    for first, second in ((without, with_uid), (with_uid, without)):
        assert (await memory.ingest(first)).state == "done"
        again = await memory.ingest(second)
        assert again.state == "duplicate" and "uid" in again.reason
        assert (await _learnings(memory))[NEW].occurrences == 1
        await memory.forget_run("agents/pay-900")
        assert (await memory.ingest(second)).state == "skipped"  # forgotten under either key
        assert (await memory.ingest(first)).state == "skipped"
        await memory._store.execute("DELETE FROM forgotten_runs")


async def test_a_zero_finish_time_dates_the_run_at_ingest_not_at_year_one(
    memory: Memory, clock: Clock
) -> None:
    """Found by the tenth session's CLI probe: ``0001-01-01T00:00:00Z`` (Go's zero time) moved
    ``last_seen`` of every fact the run shared to year 1: recency 0, gone from every section, and
    an export that ``import`` refused. No TaskRun ended before Kubernetes existed."""
    zero = dataclasses.replace(make_run("b", learnings=(NEW,)), finished_at="0001-01-01T00:00:00Z")
    await memory.ingest(zero)
    node = (await _learnings(memory))[NEW]
    assert node.last_seen == node.valid_from == clock.now
    assert NEW in (await memory.context(make_run("c", finished=False))).section
