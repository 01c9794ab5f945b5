"""New tickets about to start, each with the ground truth that says what its section should hold.

Drawn from the same world as a history (:class:`benchmarks.workload.World`): every repository and
tenant, half of them on the engine's weak task type, some retries of a failed ticket, some in a
repository no run has touched. A replicated store's tickets name one of its copies.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from benchmarks.workload import (
    ENGINES,
    INCIDENT,
    INCIDENT_SHARE,
    ORGS,
    TASK_TYPES,
    TASK_WEIGHTS,
    TICKETING,
    GroundTruth,
    World,
    weak_task_type,
)


@dataclass(frozen=True)
class Scenario:
    """A new ticket about to start, and where its answer key lives."""

    name: str
    tenant: str
    repository: str  # slug, as stored (a replica's name in a replicated store)
    base_repository: str  # slug in the ground truth
    language: str
    engine: str
    task_type: str
    doc: dict[str, Any]
    retry_of: str = ""  # the ticket id of an earlier failed attempt this ticket retries


UNRELATED_SHARE = 0.05
RETRY_SHARE = 0.15


def scenarios(truth: GroundTruth, count: int, seed: int = 99, *, copies: int = 1) -> list[Scenario]:
    """New tickets: every repository and tenant, half of them on the engine's weak task type.

    With ``copies`` > 1 (a replicated store), each scenario picks one copy of its
    repository at random (see :func:`benchmarks.replicate.replicate_store`).
    """
    rng = random.Random(seed)
    world = World(truth.seed)  # same repositories and vocabulary; its history is not used
    out: list[Scenario] = []
    for i in range(count):
        incident = rng.random() < INCIDENT_SHARE
        tenant = INCIDENT if incident else TICKETING
        repo = rng.choice(world.service_repos if incident else world.repos)
        engine = rng.choice(ENGINES)
        if incident:
            task_type = "incident"
        elif repo.is_docs:
            task_type = "docs"
        elif rng.random() < 0.5:
            task_type = weak_task_type(engine)
        else:
            task_type = rng.choices(TASK_TYPES, TASK_WEIGHTS)[0]
        world.rng = random.Random(rng.random())
        ticket = world._ticket(repo, task_type, 900_000 + i)
        copy = rng.randrange(copies) if copies > 1 else 0
        slug, url = repo.slug, repo.url
        if copy:
            slug, url = copy_name(slug, copy), copy_name(url, copy)
        base = repo.slug
        retry_of = ""
        failed = truth.repos[repo.slug].failed_tickets.get(tenant, []) if repo.slug in truth.repos else []
        draw = rng.random()
        if draw < UNRELATED_SHARE:  # a repository no run has touched, with text of its own
            slug = base = url = f"github.com/umbrella/brand-new-{i}"
            url = f"https://{slug}"
            ticket.update(title="Write the onboarding checklist",
                          description="New service: describe the first steps for contributors.")  # fmt: skip
        elif draw < UNRELATED_SHARE + RETRY_SHARE and failed and not copy:
            retry_of = failed[rng.randrange(len(failed))]
            ticket["id"] = retry_of
        doc = {
            "apiVersion": "osmia.dev/v1alpha1",
            "kind": "TaskRun",
            "metadata": {"name": f"new-{i}", "namespace": "sre" if incident else "agents", "uid": f"new-{i}"},
            "spec": {
                "flow": tenant,
                "engine": engine,
                "ticket": ticket,
                "repository": {"url": url, "language": repo.language},
            },
        }
        out.append(
            Scenario(f"new-{i}", tenant, slug, base, repo.language, engine, task_type, doc, retry_of=retry_of)
        )
    return out


def copy_name(text: str, copy: int) -> str:
    """The name of ``text``'s repositories in replica ``copy``: ``acme/x`` → ``acme-c3/x``."""
    for org in ORGS:
        text = text.replace(f"{org}/", f"{org}-c{copy}/")
    return text
