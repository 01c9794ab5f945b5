"""What memory reads of a TaskRun besides its extraction: the query a starting run makes, and
when a finished run taught what it taught."""

from __future__ import annotations

from datetime import datetime

from osmia.memory.types import QueryRequest
from osmia.taskrun import TaskRun


def request_for(run: TaskRun) -> QueryRequest:
    """What ranking needs to know about a run that is about to start."""
    ticket = run.ticket
    return QueryRequest(
        tenant=run.tenant,
        repository=run.repository.slug,
        engine=run.engine,
        task_type=ticket.task_type,
        language=run.repository.language,
        text=" ".join(p for p in (ticket.title, ticket.description, " ".join(ticket.labels)) if p),
        ticket_id=ticket.id,
        run_key=run.run_key,
    )


# No TaskRun ended before Kubernetes existed (its first release, June 2014): an earlier finish time
# is a writer's zero value (Go's ``0001-01-01T00:00:00Z``), not a time, and would date every fact
# the run touched to then (recency 0: gone from every section; not even exportable before 1970).
EARLIEST_FINISH = 1_401_580_800.0  # 2014-06-01T00:00:00Z


def observed_at(run: TaskRun, now: float) -> float:
    """When a run taught what it taught: its finish time if known, plausible (not before
    :data:`EARLIEST_FINISH`) and not in the future, else now."""
    if run.finished_at:
        try:
            finished = datetime.fromisoformat(run.finished_at.replace("Z", "+00:00")).timestamp()
        except (ValueError, OverflowError, OSError):
            return now
        if finished < EARLIEST_FINISH:
            return now
        return min(finished, now)
    return now
