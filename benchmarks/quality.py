"""Retrieval quality: does a new ticket receive the facts it should, and nothing from elsewhere?

Every scenario is a new ticket (:func:`benchmarks.scenarios.scenarios`) whose
answer key comes from the simulation, not from the store. Each stored node is
judged against that key (docs/performance.md defines the judgements):

* grade 2, *required*: a node that states one of the ticket's **needs**
  - ``flaky``: the repository's currently flaky test (``flaky_test`` node of
    that test; ticketing only, and only while the test is not fixed);
  - ``weakness``: the ticket's engine mostly fails this task type — its
    engine profile, its success-rate pattern for this task type (band not
    ``mostly-succeed``), or a fallback capability fact about this engine,
    task type and repository; only when the simulation makes the engine weak;
  - ``hot_path``: the repository's hot path in this tenant (``hot_path`` node
    of that folder);
  - ``failure_mode``: the repository's failure-mode pattern, naming the
    dominant failure class the simulation gave it in this tenant;
* grade 1, *related*: any other valid node of the same tenant about the same
  repository, the engine's profile when it names the task type as a strength
  or a weakness, rate patterns of this engine and task type outside the mixed
  band (issue 9's rule 7: a tenant-wide statistic that says nothing about the
  task type, or a duration, is noise, and the ranking leaves it out by design;
  judging it related made the ideal list one the ranking must not produce);
  a capability fact about *another* repository is graded like any other
  repository's fact (0): the engine's weakness reaches a ticket through its
  profile and rate patterns, and no ranking retrieves another repository's
  facts without a text match, so an ideal list of them could never be produced;
* grade 0, *irrelevant*: everything else — other repositories, engines and
  task types, closed (superseded) nodes, and any node of the other tenant
  (which is also counted as a **leak**).

Metrics (k = 10 = ``max_facts_per_query``): recall@k over answerable needs,
nDCG@10 with gains 2^grade − 1 (a second node for an already-met need counts
as related) against the ideal list the store could have produced, MRR of the
first required node, the share of injected nodes that are irrelevant, and the
number of injected nodes from another tenant.

The upstream ranking is computed over the same database with plain SQL:
``confidence × 1/(1 + age_hours/720)``, global top 20, no relevance and no
tenant filter (upstream writes every node with an empty tenant).
"""

from __future__ import annotations

import math
import sqlite3
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.scenarios import Scenario
from benchmarks.workload import NOISE, TICKETING, GroundTruth, RepoTruth
from osmia.memory import test_ids
from osmia.memory.extractor import attempt_key
from osmia.memory.failures import FAILURE_LABELS
from osmia.memory.store import EPOCH_SQL

K = 10
UPSTREAM_LIMIT = 20
NEEDS = ("flaky", "weakness", "hot_path", "failure_mode", "lesson", "attempt")

_COLS = "id, tenant, kind, key, content, repository, engine, task_type, valid_to"


@dataclass(frozen=True)
class Row:
    """The columns of a node the judge looks at."""

    id: str
    tenant: str
    kind: str
    key: str
    content: str
    repository: str
    engine: str
    task_type: str
    valid_to: float | None


class Judge:
    """Grades nodes for one scenario against the ground truth."""

    def __init__(self, truth: GroundTruth, scenario: Scenario) -> None:
        self.s = scenario
        self.repo = truth.repos.get(scenario.base_repository) or RepoTruth(
            scenario.base_repository, scenario.language, None, [], {}, {}, [], []
        )
        self.weak = scenario.task_type in truth.weak.get(scenario.engine, [])
        flaky = self.repo.reported_flaky or self.repo.flaky
        self.flaky_key = f"flaky_test:{scenario.repository}:{test_ids.parse(flaky).key}" if flaky else ""
        self.fixed = {test_ids.parse(t).leaf.lower() for t in self.repo.fixed}
        self.lessons = {p for group in self.repo.lessons.get(scenario.tenant, []) for p in group}
        self.attempt_prefix = attempt_key(scenario.retry_of) if scenario.retry_of else ""

    def need(self, row: Row) -> str | None:
        """The need a node meets (grade 2), if any."""
        s, repo = self.s, self.repo
        if row.tenant != s.tenant or row.valid_to is not None:
            return None
        if s.tenant == TICKETING and self.flaky_key and row.key == self.flaky_key:
            return "flaky"
        if self.attempt_prefix and row.kind == "attempt" and row.key.startswith(self.attempt_prefix):
            return "attempt"
        if row.kind == "learning" and row.repository == s.repository and row.content in self.lessons:
            return "lesson"
        if self.weak and (
            (row.kind == "engine_profile" and row.engine == s.engine)
            or (
                row.key.startswith(f"pattern:rate:{s.engine}:{s.task_type}:")
                and row.key.split(":")[4] in ("-", s.language)  # a rate of another language says nothing
                and not row.key.endswith(":mostly-succeed")
            )
            or (
                row.kind == "engine_capability"
                and row.engine == s.engine
                and row.task_type == s.task_type
                and row.repository == s.repository
            )
        ):
            return "weakness"
        if repo.hot_folder and row.key == f"hot_path:{s.repository}:{repo.hot_folder[s.tenant]}":
            return "hot_path"
        mode = repo.failure_mode.get(s.tenant)
        if mode is None:
            return None
        if row.key == f"pattern:failmode:{s.repository}:{mode}" or (
            # the first schema of the key had no class suffix: judge by the class it names
            row.key == f"pattern:failmode:{s.repository}"
            and f"mostly {FAILURE_LABELS[mode]} (" in row.content
        ):
            return "failure_mode"
        return None

    def grade(self, row: Row) -> int:
        """2 required, 1 related, 0 irrelevant (see the module docstring)."""
        s = self.s
        if row.tenant != s.tenant or row.valid_to is not None:
            return 0
        if self.need(row) is not None:
            return 2
        if row.kind == "learning" and row.content in NOISE:
            return 0  # says nothing, however often it was repeated
        if row.kind == "attempt":
            return 0  # an attempt at another ticket
        if row.kind in ("flaky_test", "failing_test") and _leaf(row.key) in self.fixed:
            return 0  # a test the simulation fixed: a stale warning
        if row.repository == s.repository and row.repository:
            return 1
        # Tenant-wide statistics about this engine and task type are related only when they say
        # something about the task type (issue 9, rule 7): a profile naming it a strength or a
        # weakness, a rate in a band other than "mixed". The rest tells this run nothing.
        if row.kind == "engine_profile" and row.engine == s.engine:
            return 1 if f" {s.task_type} (" in row.content else 0
        if row.key.startswith(f"pattern:rate:{s.engine}:{s.task_type}:"):
            language = row.key.split(":")[4]
            return 1 if language in ("-", s.language) and not row.key.endswith(":mixed") else 0
        # Durations and other tenant-wide statistics not about this engine and task type: what the
        # issue's users called noise on an unrelated ticket.
        return 0

    def pool(self, conn: sqlite3.Connection) -> list[Row]:
        """Every stored node graded above 0 for this scenario (what an ideal list could draw on).

        Two indexed lookups (same repository, same engine) and the ticket's attempts cover
        every grade-1 and grade-2 condition; :meth:`grade` filters them.
        """
        s = self.s
        rows: dict[str, Row] = {}
        for where, params in (
            ("tenant = ? AND repository = ? AND repository != ''", (s.tenant, s.repository)),
            (
                "tenant = ? AND engine = ? AND (kind IN ('engine_profile', 'pattern') "
                "OR (kind = 'engine_capability' AND task_type = ?))",
                (s.tenant, s.engine, s.task_type),
            ),
        ):
            for r in conn.execute(f"SELECT {_COLS} FROM nodes WHERE {where} AND valid_to IS NULL", params):
                rows[r[0]] = Row(*r)
        if self.attempt_prefix:
            for r in conn.execute(
                f"SELECT {_COLS} FROM nodes WHERE tenant = ? AND key >= ? AND key < ? AND valid_to IS NULL",
                (s.tenant, self.attempt_prefix, self.attempt_prefix + "\uffff"),
            ):
                rows[r[0]] = Row(*r)
        return [r for r in rows.values() if self.grade(r) > 0]


@dataclass
class Scores:
    """Pooled metrics of one ranking over all scenarios."""

    name: str
    total: int = 0  # scenarios
    judged: int = 0  # scenarios with at least one answerable need
    recall: float = 0.0
    ndcg: float = 0.0
    mrr: float = 0.0
    injected: int = 0
    irrelevant: int = 0
    leaks: int = 0
    empty: int = 0
    need_hits: Counter[str] = field(default_factory=Counter)
    need_total: Counter[str] = field(default_factory=Counter)

    def as_dict(self) -> dict[str, Any]:
        """Averages, shares and counts (what the report prints)."""
        n = max(1, self.judged)
        return {
            "name": self.name,
            "scenarios": self.total,
            "judged": self.judged,
            "recall@10": self.recall / n,
            "ndcg@10": self.ndcg / n,
            "mrr": self.mrr / n,
            "injected_per_query": self.injected / max(1, self.total),
            "irrelevant_share": self.irrelevant / max(1, self.injected),
            "leaks": self.leaks,
            "empty": self.empty,
            "recall_by_need": {
                k: self.need_hits[k] / self.need_total[k] for k in NEEDS if self.need_total[k]
            },
        }


def _leaf(key: str) -> str:
    """The test a test fact's key names, as a lower-case leaf (``…:scope::leaf`` → ``leaf``)."""
    canonical = key.split(":", 2)[2] if key.count(":") >= 2 else key
    return canonical.rsplit("::", 1)[-1].lower()


def _dcg(gains: Sequence[int]) -> float:
    return sum(g / math.log2(i + 2) for i, g in enumerate(gains))


def score_list(judge: Judge, ranked: Sequence[Row], pool: Sequence[Row], scores: Scores) -> None:
    """Add one scenario's ranked list to ``scores``.

    Injected, irrelevant, leak and empty counts cover every scenario; recall,
    nDCG and MRR only those with at least one answerable need.
    """
    scores.total += 1
    scores.empty += not ranked
    grades = [judge.grade(r) for r in ranked]
    scores.injected += len(ranked)
    scores.irrelevant += sum(1 for g in grades if g == 0)
    scores.leaks += sum(1 for r in ranked if r.tenant != judge.s.tenant)
    answerable = {n for r in pool if (n := judge.need(r)) is not None}
    if not answerable:
        return
    related = sum(1 for r in pool if judge.grade(r) >= 1)
    ideal = [3] * len(answerable) + [1] * min(K - len(answerable), related - len(answerable))
    met: set[str] = set()
    gains: list[int] = []
    first_required = 0
    for rank, (row, grade) in enumerate(zip(ranked, grades, strict=True), start=1):
        need = judge.need(row) if grade == 2 else None
        if need is not None and need in met:
            grade = 1  # a second node for a need already met is merely related
        elif need is not None:
            met.add(need)
            first_required = first_required or rank
            if rank <= K:
                scores.need_hits[need] += 1
        if rank <= K:
            gains.append(2**grade - 1)
    hits = sum(1 for n in answerable if _rank_of_need(judge, ranked, n) <= K)
    scores.judged += 1
    scores.recall += hits / len(answerable)
    scores.ndcg += _dcg(gains) / _dcg(ideal)
    scores.mrr += 1.0 / first_required if first_required else 0.0
    for n in answerable:
        scores.need_total[n] += 1


def _rank_of_need(judge: Judge, ranked: Sequence[Row], need: str) -> int:
    for rank, row in enumerate(ranked, start=1):
        if judge.need(row) == need:
            return rank
    return 10**9


def upstream_top(conn: sqlite3.Connection, now: float) -> list[Row]:
    """Upstream's query: global top 20 by confidence × 1/(1 + age_hours/720); no tenant, no relevance."""
    # The effective confidence: stored confidences refer to their node's decay epoch (schema v6).
    rows = conn.execute(
        f"SELECT {_COLS} FROM nodes ORDER BY confidence * pow(1.0 - decay_rate, {EPOCH_SQL} - epoch) "
        "* (1.0 / (1.0 + max(0.0, ? - last_seen) / 3600.0 / 720.0)) DESC, id "
        "LIMIT ?",
        (now, UPSTREAM_LIMIT),
    ).fetchall()
    return [Row(*r) for r in rows]


def evaluate(
    db: Path, truth: GroundTruth, cases: Sequence[Scenario], injected: Sequence[Sequence[str]], now: float
) -> dict[str, Any]:
    """Score Osmia's injected ids per scenario and the upstream ranking, over the same database."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        upstream = upstream_top(conn, now)
        osmia, base = Scores("osmia"), Scores("upstream")
        for case, ids in zip(cases, injected, strict=True):
            judge = Judge(truth, case)
            pool = judge.pool(conn)
            marks = ",".join("?" * len(ids))
            found = {
                r[0]: Row(*r) for r in conn.execute(f"SELECT {_COLS} FROM nodes WHERE id IN ({marks})", ids)
            }
            ranked = [found[i] for i in ids if i in found]
            score_list(judge, ranked, pool, osmia)
            score_list(judge, upstream, pool, base)
    finally:
        conn.close()
    result = {"osmia": osmia.as_dict(), "upstream": base.as_dict(), "scenarios": len(cases)}
    up = result["upstream"]["ndcg@10"]
    result["ndcg_ratio"] = result["osmia"]["ndcg@10"] / up if up > 0 else math.inf
    return result
