"""Provenance per (node, run): what each run did to each fact, so that a run can be unlearned.

``node_runs`` is an event log per fact, in the order the merges happened:

* ``OBSERVED``: the run observed the fact (created or reinforced it), ``value`` = the
  observation's confidence;
* ``CLOSED``: a fact the run observed (``other``) superseded this one;
* ``CONTRADICTED``: a fact the run observed (``other``) contradicted this one, ``value`` = the cap
  it put on this one's confidence;
* ``RELATED``: a fact the run observed (``other``) was related to this one (a ``relates_to`` edge);
* ``BASELINE``: the state a fact had when the store was upgraded to provenance (schema v6),
  ``value`` = its confidence at epoch 0, ``other`` = its occurrences; run 0.

Every event carries the decay epoch it happened at, so replaying a fact's remaining events
(:func:`replay`) gives the confidence the fact would have had without a run: the same arithmetic as
merging, decaying and pruning. Rows are indexed by node and by run: forgetting one run reads its own
rows and the rows of the facts it touched, whatever the graph's size. Patterns and engine profiles
have no rows: they are recomputed from the runs table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from osmia.memory.fading import effective, prune_cycle
from osmia.memory.store import EPOCH_SQL, Store, run_id

OBSERVED = 0
CLOSED = 1
CONTRADICTED = 2
RELATED = 3
BASELINE = 4
_SEQ = "(SELECT seq FROM nodes WHERE id = ?)"
ROUND = 6  # merge rounds a reinforced or contradicted confidence to this many decimals


@dataclass(frozen=True)
class Event:
    """One thing one run did to one fact, before it is written (``node``/``other`` are node ids)."""

    node: str
    event: int
    value: float | None
    other: str | None


@dataclass(frozen=True)
class LoggedEvent:
    """One row of ``node_runs`` as :func:`replay` reads it."""

    step: int
    run: int
    event: int
    epoch: int
    at: float
    value: float | None
    other: int | None
    # The run's reference (``tr/NAMESPACE/NAME``), for the sources list; None as read by
    # :func:`events_of_nodes` (:func:`fill_sources` reads the few a replay needs).
    ref: str | None = None


@dataclass
class Replayed:
    """A fact's state rebuilt from its events; ``confidence`` refers to ``epoch``.

    ``valid_from`` is ``None`` when it predates provenance (the pre-upgrade baseline);
    ``sources`` are the references of the runs that observed it since, oldest first.
    """

    confidence: float
    epoch: int
    valid_from: float | None
    valid_to: float | None
    last_seen: float
    occurrences: int
    sources: list[str] = field(default_factory=list)
    baseline: bool = False
    restarted_at: float | None = None  # set when it was pruned on the way and observed afresh
    # The runs that observed it since, oldest first: ``sources`` from them when the events were read
    # without their references (:func:`fill_sources`).
    runs: list[int] = field(default_factory=list)


async def record(store: Store, run_key: str, ref: str, events: Sequence[Event], now: float) -> None:
    """Append one run's events (inside the extraction's transaction, after its nodes are written)."""
    if not events:
        return
    run = run_id(run_key)
    await store.execute("INSERT OR IGNORE INTO run_refs (run, ref) VALUES (?, ?)", (run, ref))
    await store.executemany(
        f"INSERT INTO node_runs (node, run, event, epoch, at, value, other) VALUES ({_SEQ}, ?, ?, "
        f"{EPOCH_SQL}, ?, ?, {_SEQ})",
        [(e.node, run, e.event, now, e.value, e.other) for e in events],
    )


async def events_of_run(store: Store, run_key: str) -> list[tuple[int, int, int | None]]:
    """``(node seq, event, other seq)`` of every event one run recorded (index ``node_runs_run``)."""
    rows = await store.rows("SELECT node, event, other FROM node_runs WHERE run = ?", (run_id(run_key),))
    return [(int(r[0]), int(r[1]), None if r[2] is None else int(r[2])) for r in rows]


async def events_of_node(store: Store, seq: int) -> list[LoggedEvent]:
    """A fact's events in the order they happened (index ``node_runs_node``)."""
    rows = await store.rows(
        "SELECT r.step, r.run, r.event, r.epoch, r.at, r.value, r.other, k.ref FROM node_runs r "
        "LEFT JOIN run_refs k ON k.run = r.run WHERE r.node = ? ORDER BY r.step",
        (seq,),
    )
    return [LoggedEvent(*r) for r in rows]


async def events_of_nodes(store: Store, seqs: Sequence[int]) -> dict[int, list[LoggedEvent]]:
    """:func:`events_of_node` for many facts, a few hundred per statement (index ``node_runs_node``),
    without the runs' references: a fact observed by thousands of runs lists only its latest few,
    and reading each event's reference (a lookup in ``run_refs`` per event) was a third of a forget
    at 1M nodes. :func:`fill_sources` reads the few the replayed facts need."""
    out: dict[int, list[LoggedEvent]] = {seq: [] for seq in seqs}
    for i in range(0, len(seqs), 400):
        chunk = list(seqs[i : i + 400])
        rows = await store.rows(histories_sql(len(chunk)), chunk)
        for r in rows:
            out[int(r[0])].append(LoggedEvent(*r[1:]))
    return out


def histories_sql(count: int) -> str:
    """The events of ``count`` facts, fact by fact in order: one range each of ``node_runs_node``,
    which holds every column read (schema v11), so no row of the 10M-row table is visited."""
    return (
        "SELECT node, step, run, event, epoch, at, value, other FROM node_runs "
        f"WHERE node IN ({', '.join('?' * count)}) ORDER BY node, step"
    )


async def fill_sources(store: Store, states: Mapping[int, Replayed | None], cap: int) -> None:
    """Set each replayed fact's ``sources`` from its ``runs``, as :func:`replay` sets them from references.

    Merge's list is the latest ``cap`` distinct references, oldest first: walking a fact's runs
    from the newest, it is complete once ``cap`` distinct ones are found (a run without a
    reference is skipped, as replaying skips it). So only the newest runs' references are read:
    twice ``cap`` per fact first, more only for a fact whose newest runs share references.
    """
    pending = {seq: state for seq, state in states.items() if state is not None and state.runs}
    refs: dict[int, str | None] = {}
    depth = 2 * cap
    while pending:
        wanted = sorted({run for state in pending.values() for run in state.runs[-depth:]} - refs.keys())
        for i in range(0, len(wanted), 500):
            chunk = wanted[i : i + 500]
            rows = await store.rows(
                f"SELECT run, ref FROM run_refs WHERE run IN ({', '.join('?' * len(chunk))})", chunk
            )
            found: dict[int, str] = {int(r[0]): str(r[1]) for r in rows}
            refs.update((run, found.get(run)) for run in chunk)
        for seq, state in list(pending.items()):
            latest: list[str] = []
            for run in reversed(state.runs[-depth:]):
                ref = refs[run]
                if ref is not None and ref not in latest:
                    latest.append(ref)
                    if len(latest) == cap:
                        break
            if len(latest) == cap or depth >= len(state.runs):
                state.sources = latest[::-1]
                del pending[seq]
        depth *= 4


def replay(
    events: Mapping[int, Sequence[LoggedEvent]],
    *,
    decay_rates: dict[int, float],
    threshold: float | None,
    gain: float,
    share: float,
    max_sources: int,
) -> tuple[dict[int, Replayed | None], set[tuple[int, int, int, float]]]:
    """Rebuild facts from their events as merging, decaying and pruning would have built them.

    ``events`` maps node seqs to their events; they are replayed together in the order they
    happened, so a contradiction between two of them caps the contradicted fact at ``share`` of
    the contradicting fact's replayed confidence (a contradicting fact outside the group keeps the
    cap recorded). ``gain`` is merge's reinforcement gain. A fact whose confidence fell below
    ``threshold`` before a later event was pruned at that point: the later observation starts it
    afresh. A fact maps to ``None`` when no observation remains (nothing supports it).

    Also returns the edges the replayed merges made, as ``(other seq, node seq, event, at)``:
    a supersession or contradiction makes its edge only when it applied (the fact was open), a
    relation whenever the fact existed.
    """
    states: dict[int, Replayed | None] = dict.fromkeys(events)
    edges: set[tuple[int, int, int, float]] = set()
    died: dict[int, float] = {}  # node → the time of the first event after it was pruned
    ordered = sorted(((ev.step, seq, ev) for seq, evs in events.items() for ev in evs), key=lambda t: t[0])
    for _step, seq, ev in ordered:
        rate = decay_rates[seq]
        state = states[seq]
        if state is not None and pruned_before(state, rate, threshold, ev.epoch):
            state = states[seq] = None  # a decay pass before this event pruned it, with its edges
            died[seq] = ev.at
            edges -= {e for e in edges if seq in (e[0], e[1])}
        if ev.event == BASELINE:
            states[seq] = Replayed(
                float(ev.value or 0.0), ev.epoch, None, None, ev.at, int(ev.other or 1), baseline=True
            )
        elif ev.event == OBSERVED:
            value = float(ev.value or 0.0)
            if state is None:
                first = _sources([], ev.ref, max_sources)
                states[seq] = Replayed(
                    value, ev.epoch, ev.at, None, ev.at, 1, first, restarted_at=died.get(seq), runs=[ev.run]
                )
                continue
            now = effective(state.confidence, rate, ev.epoch - state.epoch)
            state.confidence = round(min(1.0, max(now + (1 - now) * gain, value)), ROUND)
            state.epoch = ev.epoch
            if state.valid_to is not None:
                state.valid_from, state.valid_to = ev.at, None
            state.last_seen = max(state.last_seen, ev.at)
            state.occurrences += 1
            state.sources = _sources(state.sources, ev.ref, max_sources)
            state.runs.append(ev.run)
        elif ev.event == RELATED and state is not None and ev.other is not None:
            edges.add((ev.other, seq, ev.event, ev.at))
        elif state is not None and state.valid_to is None:
            now = effective(state.confidence, rate, ev.epoch - state.epoch)
            if ev.other is not None:
                edges.add((ev.other, seq, ev.event, ev.at))
            if ev.event == CLOSED:
                state.confidence, state.epoch, state.valid_to = now, ev.epoch, ev.at
            elif ev.event == CONTRADICTED:
                cap = float(ev.value or 0.0)
                if ev.other in states:
                    other = states[ev.other]
                    if other is None:
                        continue  # the contradicting fact does not exist without the forgotten run
                    cap = share * other.confidence
                state.confidence = round(min(now, cap), ROUND)
                state.epoch = ev.epoch
    return states, edges


def _sources(sources: list[str], ref: str | None, cap: int) -> list[str]:
    """Merge's display list: the latest ``cap`` distinct references, oldest first."""
    if ref is None:
        return sources
    return ([s for s in sources if s != ref] + [ref])[-cap:]


def pruned_before(state: Replayed, decay_rate: float, threshold: float | None, epoch: int) -> bool:
    """Whether a decay pass that reached ``epoch`` pruned the fact (after the epoch it refers to)."""
    due = prune_cycle(state.confidence, decay_rate, state.epoch, threshold)
    return due is not None and (due < epoch or (due == epoch and epoch > state.epoch))


async def export_rows(store: Store, tenant: str | None) -> list[list[Any]]:
    """Every event (optionally one tenant's) as ``[node id, run, event, cycles ago, at, value, other id]``.

    Epochs are exported relative to the store's epoch ("cycles ago"), as confidences are
    exported effective now: the importing store has its own epoch.
    """
    where, params = ("WHERE n.tenant = ?", (tenant,)) if tenant is not None else ("", ())
    rows = await store.rows(
        f"SELECT n.id, r.run, r.event, {EPOCH_SQL} - r.epoch, r.at, r.value, o.id FROM node_runs r "
        f"JOIN nodes n ON n.seq = r.node LEFT JOIN nodes o ON o.seq = r.other {where} ORDER BY r.step",
        params,
    )
    return [list(r) for r in rows]


async def import_rows(store: Store, rows: Sequence[Sequence[Any]]) -> None:
    """Load exported events (inside the import's transaction, after the nodes)."""
    await store.executemany(
        f"INSERT INTO node_runs (node, run, event, epoch, at, value, other) VALUES ({_SEQ}, ?, ?, "
        f"{EPOCH_SQL} - ?, ?, ?, {_SEQ})",
        [(r[0], int(r[1]), int(r[2]), int(r[3]), float(r[4]), r[5], r[6]) for r in rows],
    )


async def baseline_all(store: Store) -> None:
    """Give every node a baseline event (an import of an export made before provenance existed)."""
    await store.execute(
        "INSERT INTO node_runs (node, run, event, epoch, at, value, other) "
        f"SELECT seq, 0, {BASELINE}, epoch, last_seen, confidence, occurrences FROM nodes"
    )
    await store.execute(
        "INSERT INTO node_runs (node, run, event, epoch, at, value, other) "
        f"SELECT seq, 0, {CLOSED}, epoch, valid_to, NULL, NULL FROM nodes WHERE valid_to IS NOT NULL"
    )


async def import_run_refs(store: Store) -> None:
    """Rebuild ``run_refs`` from the runs table (an import: the events name runs by id)."""
    await store.execute(
        "INSERT OR IGNORE INTO run_refs (run, ref) SELECT osmia_run_id(run_key), ref FROM runs"
    )
