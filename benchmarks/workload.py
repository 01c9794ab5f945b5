"""Seeded, synthetic but realistic TaskRun histories, and the ground truth behind them.

The generator simulates an organisation running coding agents for six months:

* 50 repositories (48 services in Go, Python, TypeScript, Java and Rust, and two
  documentation sites), each with its own vocabulary (payments, auth, search…),
  a pool of tests, folders where changes land (one of them the *hot path*), a
  dominant failure mode, and a timeline of flaky tests: a test turns flaky,
  runs report it in ``flakyTests`` (or as a plain failure), and one day a
  successful run says "Fixed flaky TestX by …"; later another test turns flaky.
* 5 engines with different strengths: each one is weak (≈25 % success) at one
  task type and good at the others, with small language effects.
* Task types bug / feature / docs / refactor / chore in the ``ticketing``
  tenant, ``incident`` in the ``incident-triage`` tenant (≈20 % of the runs, on
  the same service repositories, so the two tenants talk about the same
  repositories and a leak would be visible).
* Failures classified as the extractor sees them: tests failed, build failed,
  timeout (phase ``TimedOut``), guard-rail block, resources (OOM, exit 137).
* Fallbacks: a failed primary engine is retried with ``fallbackEngines[0]``
  (``status.engineAttempts`` lists both).
* Learnings: a few canonical, repository-specific ones that agents keep
  rediscovering (two phrasings each), and many one-off remarks.

Everything is a pure function of ``(seed, number of runs)``: the same inputs
produce the same runs, byte for byte, and the same final :class:`GroundTruth`.

New tickets with known answers are :mod:`benchmarks.scenarios`; stores are built from a history
by :mod:`benchmarks.stores` (ingested through the real ``Memory`` facade) and
:mod:`benchmarks.replicate` (made much larger with bulk SQL: the 100k- and 1M-node stores).
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from typing import Any

from osmia.taskrun import normalize_repository

DAY = 86400.0
T0 = 1_780_000_000.0  # 2026-05-28T20:26:40Z: the first run of every history
SPAN_DAYS = 180.0

TICKETING = "ticketing"
INCIDENT = "incident-triage"
TENANTS = (TICKETING, INCIDENT)
INCIDENT_SHARE = 0.2

ORGS = ("acme", "globex", "initech")

DOMAINS: dict[str, tuple[str, ...]] = {
    "payments": ("refund", "invoice", "webhook", "currency", "ledger", "payout", "charge", "settlement",
                 "dispute", "receipt"),
    "auth": ("login", "session", "token", "password", "oauth", "mfa", "cookie", "permission", "role",
             "signup"),
    "search": ("index", "query", "ranking", "facet", "autocomplete", "synonym", "shard", "crawler",
               "snippet", "filter"),
    "notifications": ("email", "push", "template", "digest", "unsubscribe", "bounce", "sms", "preference",
                      "batch", "delivery"),
    "inventory": ("stock", "warehouse", "sku", "reservation", "shipment", "supplier", "barcode", "restock",
                  "pallet", "catalog"),
    "analytics": ("event", "dashboard", "funnel", "export", "cohort", "metric", "pipeline", "sampling",
                  "retention", "report"),
    "chat": ("message", "channel", "thread", "presence", "reaction", "mention", "attachment", "typing",
             "moderation", "emoji"),
    "scheduler": ("cron", "job", "retry", "queue", "worker", "lease", "backoff", "deadline", "priority",
                  "heartbeat"),
    "storage": ("upload", "bucket", "thumbnail", "quota", "checksum", "multipart", "lifecycle", "replica",
                "manifest", "download"),
    "gateway": ("ratelimit", "routing", "proxy", "certificate", "header", "circuit", "upstream", "cors",
                "compression", "tls"),
    "billing": ("subscription", "plan", "coupon", "trial", "proration", "tax", "usage", "renewal", "seat",
                "credit"),
    "orders": ("cart", "checkout", "order", "discount", "address", "fulfilment", "cancellation", "tracking",
               "wishlist", "return"),
}  # fmt: skip
DOCS_WORDS = ("guide", "tutorial", "reference", "changelog", "quickstart", "glossary", "faq", "sidebar",
              "example", "migration")  # fmt: skip
QUALIFIERS = ("retry", "concurrent", "expiry", "rollback", "pagination", "validation", "encoding", "race",
              "cache", "migration", "limits", "ordering")  # fmt: skip
SUFFIXES = ("api", "worker", "web", "sdk")

LANGUAGES = ("go", "python", "typescript", "java", "rust")
LANGUAGE_WEIGHTS = (0.32, 0.3, 0.14, 0.12, 0.12)
EXTENSIONS = {"go": "go", "python": "py", "typescript": "ts", "java": "java", "rust": "rs", "markdown": "md"}
TOP_FOLDERS = {
    "go": ("internal", "pkg", "cmd"),
    "python": ("src", "app", "tests"),
    "typescript": ("src", "app", "lib"),
    "java": ("src", "core", "web"),
    "rust": ("src", "crates", "benches"),
    "markdown": ("content", "docs", "static"),
}

ENGINES = ("claude-code", "codex", "aider", "gemini-cli", "opencode")
TASK_TYPES = ("bug", "feature", "docs", "refactor", "chore")
TASK_WEIGHTS = (0.36, 0.25, 0.1, 0.13, 0.16)
# Success probability per engine and task type: each engine is weak (≈25 %) at one.
_RATE_COLUMNS = ("bug", "feature", "docs", "refactor", "chore", "incident")
SUCCESS: dict[str, dict[str, float]] = {
    engine: dict(zip(_RATE_COLUMNS, rates, strict=True))
    for engine, rates in (
        ("claude-code", (0.86, 0.84, 0.90, 0.86, 0.25, 0.72)),
        ("codex", (0.80, 0.80, 0.86, 0.24, 0.86, 0.62)),
        ("aider", (0.78, 0.24, 0.88, 0.82, 0.86, 0.58)),
        ("gemini-cli", (0.25, 0.80, 0.90, 0.78, 0.82, 0.66)),
        ("opencode", (0.80, 0.76, 0.24, 0.78, 0.80, 0.22)),
    )
}
LANGUAGE_FACTOR = {("aider", "java"): 0.8, ("gemini-cli", "rust"): 0.85, ("codex", "typescript"): 1.05}
WEAKNESS_RATE = 0.4  # the ranker's own threshold for "weak at" (osmia.memory.patterns)

FAILURE_CLASSES = ("tests_failed", "build_failed", "timeout", "resources", "guardrail")
INCIDENT_FAILURES = ("timeout", "guardrail", "resources")

ADVICE = (
    "check it first", "mock it in unit tests", "keep the public API stable", "run the slow suite too",
    "read the ADR before changing it", "regenerate the fixtures after", "ask for a second review",
    "watch the p99 dashboard", "grep for every caller", "bump the schema version",
)  # fmt: skip
# Content-free learnings agents report again and again, in every repository (issue 9): they must
# neither be shown nor outrank a specific lesson, however often they repeat.
NOISE = ("Tests pass", "Looks good", "Ran go test ./... before pushing", "All tests green after the change",
         "Ran the linter and the unit tests before pushing",
         "Verified the change locally, everything works")  # fmt: skip
REMARK_VERBS = ("handling", "validation", "caching", "serialisation", "retries", "logging", "parsing",
                "batching", "locking", "pagination")  # fmt: skip


def camel(*parts: str) -> str:
    """``("refund", "webhook")`` → ``RefundWebhook``."""
    return "".join(p[:1].upper() + p[1:] for p in parts)


def test_name(language: str, parts: tuple[str, ...]) -> str:
    """A test's identity in the style of its language (JUnit, Jest, Rust, pytest as tools print them)."""
    a, b, q = parts
    if language == "go":
        return "Test" + camel(*parts)
    if language == "java":
        return f"{camel(a, b)}Test.{q}{camel('handled')}"
    if language == "typescript":
        return f"{a} {b} › handles {q}"
    if language == "rust":
        return f"{a}::tests::{b}_{q}"
    return "test_" + "_".join(parts)


def reported_name(repo: Repo, test: str) -> str:
    """How a run reports a failing or flaky test: the test tool's full form (a pytest node id,
    Gradle's ``pkg.ClassTest > method()``), not always the form people write."""
    if repo.language == "python":
        return f"tests/test_{repo.domain}.py::{test}"
    if repo.language == "java":
        cls, method = test.rsplit(".", 1)
        return f"com.{repo.org}.{cls} > {method}()"
    return test


def fix_mention(repo: Repo, test: str, variant: int) -> str:
    """How a run says it fixed a test, in prose: the short form, one of several verbs."""
    if repo.language == "java":
        short = test if variant % 2 else test.rsplit(".", 1)[1]
    elif repo.language == "rust":
        short = test.rsplit("::", 1)[1]
    elif repo.language == "typescript":
        # Jest: the full title in a code span, or only the ``it`` text, in prose (test_ids.phrases).
        short = f"`{test}`" if variant % 2 else test.split(" › ")[-1]
    else:
        short = test
    return (f"Fixed flaky {short} by waiting for the queue to drain",
            f"Stabilized {short} with a fake clock",
            f"Deflaked {short} by seeding the data",
            f"{short} is no longer flaky after the retry fix")[variant % 4]  # fmt: skip


@dataclass
class Repo:
    """One repository of the simulated organisation and its (hidden) properties."""

    slug: str  # github.com/org/name
    url: str
    org: str
    name: str
    language: str
    domain: str
    words: tuple[str, ...]
    tests: list[str]
    folders: list[str]  # folders[0] is the hot path
    incident_folders: list[str]
    failure_mode: str  # dominant failure class of ticketing runs
    incident_failure_mode: str
    preferred_engine: str
    difficulty: float
    canonical: dict[str, list[tuple[str, str]]]  # tenant → [(phrasing a, phrasing b)]
    # flaky-test timeline (ticketing only)
    flaky: str | None = None
    flaky_since: float = 0.0
    fix_at: float = 0.0
    next_flaky_at: float = 0.0
    fixed: list[str] = field(default_factory=list)
    ever_flaky: list[str] = field(default_factory=list)
    lesson_counts: dict[str, list[int]] = field(default_factory=dict)  # tenant → reports per canonical lesson
    failed_tickets: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # tenant → open failures

    @property
    def short(self) -> str:
        """``org/name`` as prompts write it."""
        return f"{self.org}/{self.name}"

    @property
    def is_docs(self) -> bool:
        """Documentation sites take docs tickets and no incidents."""
        return self.language == "markdown"


@dataclass
class RepoTruth:
    """What a new ticket on one repository should be told, per the simulation."""

    slug: str
    language: str
    flaky: str | None
    fixed: list[str]
    hot_folder: dict[str, str]  # tenant → folder
    failure_mode: dict[str, str]  # tenant → failure class
    tests: list[str]
    words: list[str]
    # tenant → phrasings of each canonical lesson reported at least twice (what a new ticket should see)
    lessons: dict[str, list[list[str]]] = field(default_factory=dict)
    # tenant → ids of tickets whose last attempt failed (a retry should be told about it)
    failed_tickets: dict[str, list[str]] = field(default_factory=dict)
    reported_flaky: str | None = None  # the flaky test as runs report it


@dataclass
class GroundTruth:
    """The hidden facts of a history at its end: what scenarios are judged against."""

    seed: int
    runs: int
    end: float
    weak_task_type: dict[str, str]
    weak: dict[str, list[str]]  # engine → every task type (incident included) it mostly fails
    repos: dict[str, RepoTruth]

    def to_json(self) -> str:
        """Serialise (written next to each benchmark database)."""
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> GroundTruth:
        """The inverse of :meth:`to_json`."""
        data = json.loads(text)
        data["repos"] = {k: RepoTruth(**v) for k, v in data["repos"].items()}
        return cls(**data)


def weak_task_type(engine: str) -> str:
    """The task type an engine is weak at (success probability ≤ WEAKNESS_RATE)."""
    rates = SUCCESS[engine]
    return min(TASK_TYPES, key=lambda t: rates[t])


def is_weak(engine: str, task_type: str) -> bool:
    """True when the simulation makes ``engine`` mostly fail ``task_type`` tasks."""
    return SUCCESS[engine].get(task_type, 1.0) <= WEAKNESS_RATE


class World:
    """The simulated organisation. :meth:`runs` yields its history in time order."""

    def __init__(self, seed: int = 7) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.repos = self._make_repos()
        self.service_repos = [r for r in self.repos if not r.is_docs]
        self.now = T0
        self.generated = 0

    # --- the repositories ---------------------------------------------------------

    def _make_repos(self) -> list[Repo]:
        rng = self.rng
        domains = list(DOMAINS)
        repos: list[Repo] = []
        specs: list[tuple[str, str, str]] = []
        for i, suffix in enumerate(SUFFIXES):
            for j, domain in enumerate(domains):
                specs.append((ORGS[(i + j) % len(ORGS)], domain, suffix))
        specs += [("acme", "docs", "site"), ("globex", "docs", "handbook")]
        for org, domain, suffix in specs:
            name = f"{domain}-{suffix}"
            if domain == "docs":
                language, words = "markdown", DOCS_WORDS
            else:
                language = "typescript" if suffix == "web" else rng.choices(LANGUAGES, LANGUAGE_WEIGHTS)[0]
                words = DOMAINS[domain]
            tests = self._tests(language, words)
            tops = TOP_FOLDERS[language]
            folder_words = rng.sample(list(words), 8)
            folders = [f"{tops[k % len(tops)]}/{w}/" for k, w in enumerate(folder_words)]
            incident_folders = [f"deploy/{name}/", f"runbooks/{domain}/", "config/production/",
                                "config/staging/", f"alerts/{domain}/"]  # fmt: skip
            url = f"https://github.com/{org}/{name}"
            repos.append(
                Repo(
                    slug=normalize_repository(url),
                    url=url,
                    org=org,
                    name=name,
                    language=language,
                    domain=domain,
                    words=words,
                    tests=tests,
                    folders=folders,
                    incident_folders=incident_folders,
                    failure_mode=rng.choice(FAILURE_CLASSES),
                    incident_failure_mode=rng.choice(INCIDENT_FAILURES),
                    preferred_engine=rng.choice(ENGINES),
                    difficulty=rng.uniform(0.88, 1.06),
                    canonical=self._canonical(org, name, domain, language, words, folders),
                )
            )
        for repo in repos:
            if repo.is_docs:
                continue
            if rng.random() < 0.75:
                self._start_flaky(repo, T0 - rng.uniform(0, 20) * DAY)
            else:
                repo.next_flaky_at = T0 + rng.uniform(0, 80) * DAY
        return repos

    def _tests(self, language: str, words: tuple[str, ...]) -> list[str]:
        out: list[str] = []
        while len(out) < 40:
            a, b = self.rng.sample(list(words), 2)
            name = test_name(language, (a, b, self.rng.choice(QUALIFIERS)))
            if name not in out:
                out.append(name)
        return out

    @staticmethod
    def _canonical(
        org: str, name: str, domain: str, language: str, words: tuple[str, ...], folders: list[str]
    ) -> dict[str, list[tuple[str, str]]]:
        short = f"{org}/{name}"
        env = f"{domain.upper()}_DB_URL"
        gen = {"go": "go generate ./...", "python": "make codegen", "typescript": "npm run codegen",
               "java": "./gradlew generateProto", "rust": "cargo xtask codegen",
               "markdown": "make links"}[language]  # fmt: skip
        return {
            TICKETING: [
                (f"Run `{gen}` before building {short}, the generated {words[0]} clients are not committed",
                 f"In {short} the {words[0]} clients are generated: run `{gen}` first"),
                (f"Integration tests in {short} need {env} set, otherwise they hang",
                 f"{short} integration tests hang unless {env} is exported"),
                (f"The {words[1]} fixtures of {short} live in {folders[0]}testdata; update them together",
                 f"Update the {words[1]} fixtures in {folders[0]}testdata together with the code in {short}"),
            ],
            INCIDENT: [
                (f"Check the {domain} connection pool dashboard before restarting {name} pods",
                 f"Before restarting {name} pods look at the {domain} connection pool dashboard"),
                (f"{name} alerts on {words[2]} latency are usually the upstream {words[3]} service",
                 f"{words[2]} latency alerts in {name} usually come from the upstream {words[3]} service"),
            ],
        }  # fmt: skip

    def _start_flaky(self, repo: Repo, at: float) -> None:
        choices = [t for t in repo.tests if t not in repo.ever_flaky]
        repo.flaky = self.rng.choice(choices)
        repo.ever_flaky.append(repo.flaky)
        repo.flaky_since = at
        repo.fix_at = at + self.rng.uniform(35, 140) * DAY

    # --- one run ----------------------------------------------------------------------

    def _engine_for(self, repo: Repo) -> str:
        if self.rng.random() < 0.45:
            return repo.preferred_engine
        return self.rng.choice(ENGINES)

    def _p_success(self, engine: str, task_type: str, repo: Repo) -> float:
        p = SUCCESS[engine][task_type] * repo.difficulty * LANGUAGE_FACTOR.get((engine, repo.language), 1.0)
        return max(0.02, min(0.97, p))

    def _failure(self, repo: Repo, tenant: str) -> str:
        if tenant == INCIDENT:
            mode = repo.incident_failure_mode
            return mode if self.rng.random() < 0.65 else self.rng.choice(INCIDENT_FAILURES)
        return repo.failure_mode if self.rng.random() < 0.65 else self.rng.choice(FAILURE_CLASSES)

    def _ticket(self, repo: Repo, task_type: str, n: int) -> dict[str, Any]:
        rng = self.rng
        a, b = rng.sample(list(repo.words), 2)
        q = rng.choice(QUALIFIERS)
        if task_type == "bug":
            title = rng.choice([f"Fix {a} {b} {q} bug", f"{a.capitalize()} {b} fails on {q}",
                                f"Broken {a} {b} after {q} change"])  # fmt: skip
            desc = (f"Users report that the {a} {b} flow returns errors when {q} is involved. "
                    f"Reproduce it, fix the {a} handling and add a regression test.")  # fmt: skip
        elif task_type == "feature":
            title = rng.choice([f"Add {a} {b} support", f"Support {q} for {a} {b}", f"Implement {a} {q}"])
            desc = f"Product wants {a} {b} with {q}. Implement it behind a flag and document the {b} API."
        elif task_type == "docs":
            title = rng.choice([f"Document {a} {b}", f"Update the {a} guide", f"Docs: explain {a} {q}"])
            desc = f"The {a} page does not explain {b} {q}. Add an example and link it from the sidebar."
        elif task_type == "refactor":
            title = rng.choice([f"Refactor {a} {b} module", f"Clean up {a} {q} code", f"Split {a} from {b}"])
            desc = f"The {a} code mixes {b} and {q} concerns. Split it without changing behaviour."
        elif task_type == "chore":
            title = rng.choice(
                [f"Bump {a} dependencies", f"Upgrade {b} client", f"Chore: regenerate {a} mocks"]
            )
            desc = f"Routine maintenance: bump the {a} and {b} libraries and regenerate the {q} mocks."
        else:  # incident
            title = rng.choice([f"{a.capitalize()} {b} latency spike", f"5xx errors on {a} {b}",
                                f"{repo.name} {a} {q} alert firing"])  # fmt: skip
            desc = (f"Alert: {a} {b} error rate above SLO in production since the last deploy. "
                    f"Triage, find the cause and propose a mitigation.")  # fmt: skip
        prefix = repo.domain[:3].upper() if tenant_of(task_type) == TICKETING else "INC"
        return {"id": f"{prefix}-{n}", "title": title, "description": desc, "type": task_type,
                "labels": [task_type, a]}  # fmt: skip

    def _files(self, repo: Repo, tenant: str) -> list[str]:
        rng = self.rng
        folders = repo.incident_folders if tenant == INCIDENT else repo.folders
        weights = [1.0 / (k + 1) ** 1.3 for k in range(len(folders))]
        ext = "yaml" if tenant == INCIDENT else EXTENSIONS[repo.language]
        files = []
        for _ in range(rng.randint(1, 6)):
            folder = rng.choices(folders, weights)[0]
            files.append(f"{folder}{rng.choice(repo.words)}.{ext}")
        return sorted(set(files))

    def _learnings(self, repo: Repo, tenant: str) -> list[str]:
        rng = self.rng
        out: list[str] = []
        if rng.random() < 0.12:
            index = rng.randrange(len(repo.canonical[tenant]))
            pair = repo.canonical[tenant][index]
            counts = repo.lesson_counts.setdefault(tenant, [0] * len(repo.canonical[tenant]))
            counts[index] += 1
            out.append(pair[rng.random() < 0.5])
        if rng.random() < 0.25:
            out.append(rng.choice(NOISE))
        if rng.random() < 0.3:
            folder = rng.choice(repo.folders if tenant == TICKETING else repo.incident_folders)
            a, b = rng.sample(list(repo.words), 2)
            out.append(f"{a.capitalize()} {rng.choice(REMARK_VERBS)} in {folder} depends on {b} "
                       f"{rng.choice(QUALIFIERS)}; {rng.choice(ADVICE)}")  # fmt: skip
        return out

    def runs(
        self, count: int, start: float = T0, span_days: float = SPAN_DAYS
    ) -> Iterator[tuple[dict[str, Any], float]]:
        """``count`` finished TaskRun documents in time order, each with its finish time."""
        span = span_days * DAY
        for i in range(count):
            at = start + span * (i + self.rng.random()) / count
            yield self.run(at), at

    def continued(self, done: int, count: int) -> Iterator[tuple[dict[str, Any], float]]:
        """The ``count`` runs that follow a ``done``-run history, at the same pace.

        Replays the first ``done`` runs (cheap: no ingestion) so the world's state,
        flaky tests included, is exactly the one the stored history ended in.
        """
        for _ in self.runs(done):
            pass
        pace = SPAN_DAYS / max(1, done)
        yield from self.runs(count, start=T0 + SPAN_DAYS * DAY, span_days=pace * count)

    def run(self, at: float) -> dict[str, Any]:
        """One finished run at time ``at`` (the world's flaky timelines advance with it)."""
        rng = self.rng
        self.now = at
        self.generated += 1
        n = self.generated
        incident = rng.random() < INCIDENT_SHARE
        tenant = INCIDENT if incident else TICKETING
        repo = rng.choice(self.service_repos if incident else self.repos)
        self._advance_flaky(repo, at)
        if incident:
            task_type = "incident"
        elif repo.is_docs:
            task_type = "docs" if rng.random() < 0.9 else "chore"
        else:
            task_type = rng.choices(TASK_TYPES, TASK_WEIGHTS)[0]
        engine = self._engine_for(repo)
        best = max((e for e in ENGINES if e != engine), key=lambda e: (SUCCESS[e][task_type], e))
        attempts = [engine]
        success = rng.random() < self._p_success(engine, task_type, repo)
        failure = "" if success else self._failure(repo, tenant)
        if not success and failure != "guardrail" and rng.random() < 0.55:
            attempts.append(best)
            success = rng.random() < self._p_success(best, task_type, repo)
            failure = "" if success else self._failure(repo, tenant)
        ticket = self._ticket(repo, task_type, n)
        pending = repo.failed_tickets.setdefault(tenant, [])
        retry = [t for t in pending if t["type"] == task_type]
        if retry and rng.random() < 0.35:
            ticket = retry[-1]  # a retry of a ticket that failed: the same id, title and text
        if ticket in pending:
            pending.remove(ticket)
        result: dict[str, Any] = {"success": success}
        phase = "Succeeded" if success else ("TimedOut" if failure == "timeout" else "Failed")
        duration = min(3600.0, rng.lognormvariate(math.log(420 if task_type != "docs" else 240), 0.6))
        tests_failed: list[str] = []
        flaky: list[str] = []
        if failure == "tests_failed":
            weights = [1.0 / (k + 1) for k in range(len(repo.tests))]
            tests_failed = sorted(set(rng.choices(repo.tests, weights, k=rng.randint(1, 3))))
        if repo.flaky and tenant == TICKETING:
            if rng.random() < 0.3:
                flaky.append(reported_name(repo, repo.flaky))
            elif failure == "tests_failed" and rng.random() < 0.3:
                tests_failed = sorted({*tests_failed, repo.flaky})
        tests_failed = [reported_name(repo, t) for t in tests_failed]
        summary = self._summary(repo, task_type, success, ticket)
        if success and tenant == TICKETING and repo.flaky and at >= repo.fix_at and not flaky:
            summary = f"{fix_mention(repo, repo.flaky, rng.randrange(4))}. " + summary
            repo.fixed.append(repo.flaky)
            repo.flaky = None
            repo.next_flaky_at = at + rng.uniform(5, 40) * DAY
        if failure == "timeout":
            duration = 3600.0
            reason = "timed out after 3600s"
        elif failure:
            reason = self._reason(failure, repo)
        else:
            reason = ""
        result.update(
            summary=summary,
            failureReason=reason,
            filesChanged=self._files(repo, tenant) if (success or rng.random() < 0.5) else [],
            testsFailed=tests_failed,
            flakyTests=flaky,
            learnings=self._learnings(repo, tenant),
            durationSeconds=round(duration),
            exitCode=0 if success else (137 if failure == "resources" else 1),
            tokenUsage=rng.randint(8_000, 220_000),
        )
        if not success:
            pending.append(ticket)
            del pending[:-5]
        namespace = "sre" if incident else "agents"
        spec: dict[str, Any] = {
            "flow": tenant,
            "engine": engine,
            "fallbackEngines": [best],
            "ticket": ticket,
            "repository": {"url": repo.url, "language": repo.language},
            "execution": {"mode": "external"},
        }
        name = f"{ticket['id'].lower()}-{n}"
        return {
            "apiVersion": "osmia.dev/v1alpha1",
            "kind": "TaskRun",
            "metadata": {"name": name, "namespace": namespace, "uid": f"{self.seed:04d}-{n:08d}"},
            "spec": spec,
            "status": {"phase": phase, "engineAttempts": attempts, "result": result},
        }

    def _advance_flaky(self, repo: Repo, at: float) -> None:
        if repo.is_docs:
            return
        if repo.flaky is None and repo.next_flaky_at and at >= repo.next_flaky_at:
            self._start_flaky(repo, at)

    def _summary(self, repo: Repo, task_type: str, success: bool, ticket: dict[str, Any]) -> str:
        if not success:
            return f"Could not finish {ticket['id']}."
        verb = {"bug": "Resolved", "feature": "Implemented", "docs": "Documented", "refactor": "Refactored",
                "chore": "Updated", "incident": "Mitigated"}[task_type]  # fmt: skip
        return f"{verb} {ticket['title'].lower()} in {repo.short}."

    def _reason(self, failure: str, repo: Repo) -> str:
        rng = self.rng
        if failure == "tests_failed":
            return "tests failed"
        if failure == "build_failed":
            return rng.choice([f"build failed: compilation error in {repo.folders[0]}",
                               "lint errors: 3 problems", "type check failed"])  # fmt: skip
        if failure == "resources":
            return rng.choice(["OOMKilled: memory limit exceeded", "pod evicted: ephemeral storage quota"])
        if failure == "guardrail":
            return rng.choice(["guardrail: push to main blocked", "policy denied: kubectl delete namespace"])
        return "timed out after 3600s"

    # --- ground truth --------------------------------------------------------------

    def truth(self) -> GroundTruth:
        """What the history taught, as the simulation knows it (the judge's answer key)."""
        return GroundTruth(
            seed=self.seed,
            runs=self.generated,
            end=self.now,
            weak_task_type={e: weak_task_type(e) for e in ENGINES},
            weak={e: sorted(t for t, p in SUCCESS[e].items() if p <= WEAKNESS_RATE) for e in ENGINES},
            repos={
                r.slug: RepoTruth(
                    slug=r.slug,
                    language=r.language,
                    flaky=r.flaky,
                    fixed=list(r.fixed),
                    hot_folder={TICKETING: r.folders[0], INCIDENT: r.incident_folders[0]},
                    failure_mode={TICKETING: r.failure_mode, INCIDENT: r.incident_failure_mode},
                    tests=list(r.tests),
                    words=list(r.words),
                    lessons={
                        t: [list(r.canonical[t][i]) for i, c in enumerate(counts) if c >= 2]
                        for t, counts in r.lesson_counts.items()
                    },
                    failed_tickets={t: [x["id"] for x in v] for t, v in r.failed_tickets.items()},
                    reported_flaky=reported_name(r, r.flaky) if r.flaky else None,
                )
                for r in self.repos
            },
        )


def tenant_of(task_type: str) -> str:
    """Incidents are triaged in their own tenant; everything else is ticketing."""
    return INCIDENT if task_type == "incident" else TICKETING


def main() -> None:  # pragma: no cover - a convenience for poking at the generator
    import argparse

    parser = argparse.ArgumentParser(description="Print a few generated TaskRuns as JSON lines.")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    for doc, _at in World(args.seed).runs(args.runs):
        print(json.dumps(doc))


if __name__ == "__main__":  # pragma: no cover
    main()


__all__ = [
    "DAY",
    "INCIDENT",
    "T0",
    "TICKETING",
    "GroundTruth",
    "World",
    "is_weak",
    "tenant_of",
    "weak_task_type",
]
