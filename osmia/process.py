"""Process-wide settings of a long-running Osmia process (the operator)."""

from __future__ import annotations

import gc
import itertools
import time
from collections.abc import Iterator
from contextlib import contextmanager

# CPython's third generation runs when this many second-generation collections have happened
# (and the long-lived objects grew by a quarter): held this high, it never runs by itself.
_HELD = 1 << 30
_held = 0  # how many full_collections_held blocks are open (the maintenance loop's)


def settle_heap() -> None:
    """Call once start-up is done: what exists now lives as long as the process.

    ``gc.freeze`` moves every object allocated so far (modules, classes, the
    clients, the open database) out of the cyclic collector's generations, so
    that its full collections walk only what was allocated since. Without it,
    a full collection stalled a query by 100-170 ms every ~60 queries at 100k
    nodes (docs/performance.md). Frozen objects are still freed by reference
    counting when dropped.
    """
    gc.collect()
    gc.freeze()


@contextmanager
def full_collections_held() -> Iterator[None]:
    """Inside, the cyclic collector's full passes are left to :func:`collect_between_work`.

    After start-up the heap still grows: the parsed-node and parsed-lesson caches fill as queries
    and extractions run. CPython then starts a full pass by itself once the long-lived objects
    grew by a quarter, from inside whichever allocation tipped it, which is inside a query or an
    extraction: 10-20 ms added to it at 100k nodes (docs/performance.md §14). The young
    generations still run as before. Hold them only around a loop that calls
    :func:`collect_between_work` regularly (the operator's maintenance loop, every 15 s), or
    cyclic garbage that outlives the young generations would never be freed; leaving the block
    (the loop cancelled or failed) puts the automatic full passes back, and gives them the objects
    :func:`collect_between_work` froze (no pass of its own will walk them again).
    """
    global _held
    young, middle, full = gc.get_threshold()
    gc.set_threshold(young, middle, _HELD)
    _held += 1
    try:
        yield
    finally:
        _held -= 1
        gc.set_threshold(young, middle, full)
        gc.unfreeze()


def settle_after_work() -> None:
    """Call once a unit of work is done (a query answered, a run extracted): freeze what it left.

    What survives a query is what it put in the caches (parsed nodes, lesson forms, word bags):
    long-lived, and walked by every young collection until enough of those ran to promote it.
    At 100k nodes the second-generation collections that landed inside a query took 2.7-3.1 ms
    on average and up to 10 ms, 8 in 500 queries, as many as the queries above p99
    (docs/performance.md §25). Frozen (``gc.freeze``, a constant-time list splice), the next
    query's young collections walk only what it allocated itself. A query leaves no cyclic
    garbage (a collection after each of 500 found none); should some work leave any, it is freed
    at the next thaw pass (:data:`THAW_EVERY`). Does nothing outside
    :func:`full_collections_held`, where no thaw pass would ever come (the CLI, tests).
    """
    if _held:
        gc.freeze()


def collect_between_work() -> float:
    """One full pass of the cyclic collector now, between units of work; its duration in seconds.

    What the automatic full pass would have done inside a query or an extraction (see
    :func:`full_collections_held`), done by the maintenance timer instead: it frees every
    unreachable cycle allocated since the last pass. What survives is then frozen, as start-up's
    objects are (:func:`settle_heap`), so the caches that fill as the operator serves are not
    walked again by every pass: at 100k nodes a pass walked ~35,000 of them in 12.6 ms, holding the
    event loop and leaving the CPU's caches cold for the next extraction; 0.2-0.3 ms frozen
    (docs/performance.md §24). Every :data:`THAW_EVERY`-th pass first gives the frozen objects back
    (``gc.unfreeze``), so a cycle among long-lived objects that became garbage is freed within
    the hour; until then it holds its memory.
    """
    started = time.perf_counter()
    if next(_passes) % THAW_EVERY == 0:
        gc.unfreeze()
    gc.collect()
    gc.freeze()
    return time.perf_counter() - started


# Every this many passes of :func:`collect_between_work`, the frozen objects are walked too: once an
# hour at the maintenance loop's 15 s.
THAW_EVERY = 240
_passes = itertools.count(1)
