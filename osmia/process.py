"""Process-wide settings of a long-running Osmia process (the operator)."""

from __future__ import annotations

import gc


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
