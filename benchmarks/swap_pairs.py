# ruff: noqa: E501  (hand-written data: one pair per entry reads better than wrapped strings)
"""Lesson pairs that differ in one place: a word swapped for a synonym (one lesson) or for another
thing (two lessons), written in the thirty-third session for :mod:`osmia.memory.swapped_things`.

The labelled and blind paraphrase sets (:mod:`benchmarks.lesson_pairs`, :mod:`benchmarks.blind_pairs`)
hold no pair that differs in one place only, so the matcher's word similarity was never tested on
"Restart the celery workers …" against "Restart the gunicorn workers …": it merged 54 of these 60
hard negatives. Each set has 20 same pairs and 20 different ones; how each set was used is said
with it (only the third is held out).

    .venv/bin/python -m benchmarks.swap_pairs
"""

from __future__ import annotations

from osmia.memory.lessons import lesson, same_lesson

# name → (how it was used, same pairs, different pairs)
SETS: dict[str, tuple[str, list[tuple[str, str]], list[tuple[str, str]]]] = {
    "set 1": (
        "first set: written, measured, and shaped the rule (hyphenated spellings, verbs whose object is a thing)",
        [
            (
                "Restart the workers after changing settings.py",
                "Restart the workers after editing settings.py",
            ),
            (
                "Run the migrations before the integration tests",
                "Apply the migrations before the integration tests",
            ),
            (
                "The build fails without the protobuf compiler installed",
                "The build breaks without the protobuf compiler installed",
            ),
            (
                "Use the fixture factory instead of raw inserts in tests",
                "Prefer the fixture factory instead of raw inserts in tests",
            ),
            (
                "Tests need Docker running for testcontainers",
                "Tests require Docker running for testcontainers",
            ),
            ("The linter rejects unused imports in src/", "The linter forbids unused imports in src/"),
            (
                "Regenerate the client after the OpenAPI spec changes",
                "Rebuild the client after the OpenAPI spec changes",
            ),
            (
                "Always pin the base image digest in Dockerfiles",
                "Always lock the base image digest in Dockerfiles",
            ),
            (
                "The e2e suite is slow; run it only before merging",
                "The e2e suite is slow; execute it only before merging",
            ),
            ("Clear the build cache when switching branches", "Wipe the build cache when switching branches"),
            (
                "Start the mock server before running the API tests",
                "Launch the mock server before running the API tests",
            ),
            (
                "The CI job times out on large snapshots; split them",
                "The CI job stalls on large snapshots; split them",
            ),
            ("Never commit the generated protobuf files", "Never check in the generated protobuf files"),
            (
                "Bump the chart version whenever values.yaml changes",
                "Increment the chart version whenever values.yaml changes",
            ),
            ("The flaky test passes when run alone", "The flaky test succeeds when run alone"),
            ("Set a fixed seed for the property tests", "Use a fixed seed for the property tests"),
            ("Delete node_modules if the install hangs", "Remove node_modules if the install hangs"),
            ("The staging database is reset every night", "The staging database is wiped every night"),
            ("Avoid global state in the request handlers", "Avoid shared state in the request handlers"),
            (
                "Keep migrations small; large ones lock the table",
                "Keep migrations short; large ones lock the table",
            ),
        ],
        [
            (
                "Restart the celery workers after changing settings.py",
                "Restart the gunicorn workers after changing settings.py",
            ),
            (
                "Run the migrations with alembic before the integration tests",
                "Run the migrations with flyway before the integration tests",
            ),
            (
                "The staging cluster needs the VPN to reach Postgres",
                "The staging cluster needs the VPN to reach Redis",
            ),
            ("Use yarn to install the frontend dependencies", "Use npm to install the frontend dependencies"),
            ("Set LOG_LEVEL=debug to see the SQL queries", "Set LOG_LEVEL=debug to see the HTTP requests"),
            (
                "Clear the redis cache before running the e2e suite",
                "Clear the browser cache before running the e2e suite",
            ),
            (
                "The build fails without the protobuf compiler installed",
                "The build fails without the thrift compiler installed",
            ),
            (
                "Start the mock server before running the API tests",
                "Start the mock server before running the UI tests",
            ),
            (
                "Always pin the base image digest in Dockerfiles",
                "Always pin the base image digest in Helm charts",
            ),
            ("The flaky test passes on Linux runners", "The flaky test passes on macOS runners"),
            ("Never commit the generated protobuf files", "Never commit the generated GraphQL files"),
            (
                "Tests need Kafka running for the consumer specs",
                "Tests need RabbitMQ running for the consumer specs",
            ),
            ("The nightly job deploys to eu-west-1 first", "The nightly job deploys to us-east-1 first"),
            (
                "Use pytest-xdist to parallelise the unit tests",
                "Use pytest-randomly to parallelise the unit tests",
            ),
            ("Login to the registry with the GitHub token", "Login to the registry with the GitLab token"),
            (
                "The payments service reads its config from Vault",
                "The payments service reads its config from Consul",
            ),
            ("Mock the Stripe client in the billing tests", "Mock the PayPal client in the billing tests"),
            ("The frontend is deployed to Vercel on merge", "The frontend is deployed to Netlify on merge"),
            ("Run eslint with the airbnb config", "Run eslint with the standard config"),
            ("Build the images with buildx for arm64", "Build the images with kaniko for arm64"),
        ],
    ),
    "set 2": (
        "second set: measured, then the rule changed once (hyphens joined; need/require)",
        [
            (
                "Restart the dev server after editing the env file",
                "Reload the dev server after editing the env file",
            ),
            (
                "Wait for the database container before running migrations",
                "Wait for the database container before applying migrations",
            ),
            (
                "The snapshot tests are brittle; update them with care",
                "The snapshot tests are fragile; update them with care",
            ),
            (
                "Do not touch the vendored code in third_party/",
                "Do not modify the vendored code in third_party/",
            ),
            (
                "Seed data lives in fixtures/seed.sql and is loaded on startup",
                "Seed data lives in fixtures/seed.sql and is imported on startup",
            ),
            ("The API client retries twice on timeouts", "The API client retries twice on time-outs"),
            ("Use the staging bucket for uploads in tests", "Use the staging bucket for uploads in specs"),
            ("Run the formatter before pushing", "Run the formatter before committing"),
            ("The worker crashes if REDIS_URL is unset", "The worker dies if REDIS_URL is unset"),
            (
                "Close the DB session in the teardown of each test",
                "Close the DB session in the cleanup of each test",
            ),
            (
                "Large fixtures make the suite slow; keep them small",
                "Big fixtures make the suite slow; keep them small",
            ),
            (
                "The deploy script needs the kubeconfig in ~/.kube/config",
                "The deploy script expects the kubeconfig in ~/.kube/config",
            ),
            ("Pin transitive dependencies in the lock file", "Pin indirect dependencies in the lock file"),
            (
                "Log in to the registry before pushing images",
                "Authenticate to the registry before pushing images",
            ),
            (
                "The integration tests hit a real Postgres instance",
                "The integration tests hit a real Postgres server",
            ),
            (
                "Check the feature flag before calling the new endpoint",
                "Verify the feature flag before calling the new endpoint",
            ),
            ("Keep the changelog entry short", "Keep the changelog entry brief"),
            ("The cron job runs at midnight UTC", "The scheduled job runs at midnight UTC"),
            ("Wrap database writes in a transaction", "Wrap database writes in a single transaction"),
            ("The build needs Java 17 on the PATH", "The build requires Java 17 on the PATH"),
        ],
        [
            ("The worker crashes if REDIS_URL is unset", "The worker crashes if KAFKA_BROKERS is unset"),
            ("Use the staging bucket for uploads in tests", "Use the staging bucket for thumbnails in tests"),
            (
                "Run the formatter before pushing to the monorepo",
                "Run the linter before pushing to the monorepo",
            ),
            (
                "Wait for the database container before running migrations",
                "Wait for the cache container before running migrations",
            ),
            ("Seed data lives in fixtures/seed.sql", "Seed data lives in fixtures/demo.sql"),
            (
                "The integration tests hit a real Postgres instance",
                "The integration tests hit a real Elasticsearch instance",
            ),
            (
                "Close the DB session in the teardown of each test",
                "Close the HTTP session in the teardown of each test",
            ),
            ("The deploy script needs kubectl on the PATH", "The deploy script needs helm on the PATH"),
            ("Disable the cache when profiling the parser", "Disable the cache when profiling the renderer"),
            ("Build the docs with mkdocs before releasing", "Build the docs with sphinx before releasing"),
            ("The mobile app talks to the GraphQL gateway", "The mobile app talks to the REST gateway"),
            ("Tests for the billing module mock the clock", "Tests for the shipping module mock the clock"),
            ("Keep the Android build on Gradle 8", "Keep the iOS build on Gradle 8"),
            (
                "Rotate the signing certificate before it expires in March",
                "Rotate the TLS certificate before it expires in March",
            ),
            ("The admin panel is served by nginx", "The admin panel is served by caddy"),
            ("Use structlog for logging in the backend", "Use loguru for logging in the backend"),
            ("The search indexer runs in a separate pod", "The email sender runs in a separate pod"),
            ("Type-check the frontend with tsc --noEmit", "Type-check the frontend with vue-tsc --noEmit"),
            (
                "Store uploaded files in S3, not on local disk",
                "Store uploaded files in GCS, not on local disk",
            ),
            ("The queue consumer must be idempotent", "The webhook handler must be idempotent"),
        ],
    ),
    "set 3": (
        "third set: written after the rule was final, measured once",
        [
            (
                "Regenerate the lockfile after bumping any dependency",
                "Regenerate the lockfile after upgrading any dependency",
            ),
            (
                "The e2e tests are flaky on slow runners; rerun them once",
                "The e2e tests are unreliable on slow runners; rerun them once",
            ),
            ("Store secrets in the vault, never in the repo", "Keep secrets in the vault, never in the repo"),
            ("Drop the test database between runs", "Recreate the test database between runs"),
            ("The importer skips rows with an empty SKU", "The importer ignores rows with an empty SKU"),
            ("Don't call the payment API from unit tests", "Never call the payment API from unit tests"),
            ("Prefer small pull requests for the core module", "Prefer small PRs for the core module"),
            ("The web app is built with Vite", "The web app is bundled with Vite"),
            (
                "Document every new environment variable in README.md",
                "Describe every new environment variable in README.md",
            ),
            ("The batch job must finish before 6am", "The batch job must complete before 6am"),
            ("Add a regression test for every bug fix", "Write a regression test for every bug fix"),
            (
                "The service fails fast when the config is invalid",
                "The service exits early when the config is invalid",
            ),
            ("Benchmarks must run on an idle machine", "Benchmarks should run on an idle machine"),
            ("Mark slow tests with @pytest.mark.slow", "Tag slow tests with @pytest.mark.slow"),
            ("The mobile build uses Fastlane for signing", "The mobile build relies on Fastlane for signing"),
            ("Cache the pip downloads between CI runs", "Cache the pip downloads across CI runs"),
            ("The legacy endpoints return XML, not JSON", "The old endpoints return XML, not JSON"),
            ("Squash commits before merging to main", "Squash the commits before merging to main"),
            ("The proxy strips the Authorization header", "The proxy removes the Authorization header"),
            ("Lint errors block the merge", "Lint failures block the merge"),
        ],
        [
            (
                "Regenerate the lockfile after bumping any dependency",
                "Regenerate the schema after bumping any dependency",
            ),
            (
                "The e2e tests are flaky on Windows runners; rerun them once",
                "The e2e tests are flaky on ARM runners; rerun them once",
            ),
            (
                "Store secrets in the vault, never in the repo",
                "Store certificates in the vault, never in the repo",
            ),
            ("Drop the test database between runs", "Drop the test bucket between runs"),
            ("The importer skips rows with an empty SKU", "The importer skips rows with an empty price"),
            ("Don't call the payment API from unit tests", "Don't call the geocoding API from unit tests"),
            ("The web app is built with Vite", "The web app is built with webpack"),
            (
                "Document every new environment variable in README.md",
                "Document every new environment variable in CONTRIBUTING.md",
            ),
            ("Mark slow tests with @pytest.mark.slow", "Mark network tests with @pytest.mark.slow"),
            ("The mobile build uses Fastlane for signing", "The mobile build uses Fastlane for screenshots"),
            ("Cache the pip downloads between CI runs", "Cache the npm downloads between CI runs"),
            ("The legacy endpoints return XML, not JSON", "The legacy endpoints return CSV, not JSON"),
            ("The proxy strips the Authorization header", "The proxy strips the Cookie header"),
            ("Lint errors block the merge", "Coverage drops block the merge"),
            ("The reports service reads from the replica", "The reports service reads from the primary"),
            ("Deploys to production need two approvals", "Deploys to production need a change ticket"),
            ("The scheduler container needs more memory", "The scheduler container needs more CPU"),
            ("Translations are managed in Crowdin", "Translations are managed in Lokalise"),
            (
                "The auth service issues tokens valid for an hour",
                "The auth service issues cookies valid for an hour",
            ),
            ("Run the seed script for the orders table", "Run the seed script for the customers table"),
        ],
    ),
}


def same(a: str, b: str) -> bool:
    """The matcher's decision, asked in both orders (as resolving does)."""
    return same_lesson(lesson(a), lesson(b)) and same_lesson(lesson(b), lesson(a))


def evaluate() -> dict[str, tuple[int, int, int, int]]:
    """Per set: same pairs kept together, of how many; different pairs kept apart, of how many."""
    out = {}
    for name, (_note, together, apart) in SETS.items():
        kept = sum(same(a, b) for a, b in together)
        parted = sum(not same(a, b) for a, b in apart)
        out[name] = (kept, len(together), parted, len(apart))
    return out


if __name__ == "__main__":  # pragma: no cover
    for name, (kept, n_same, parted, n_diff) in evaluate().items():
        print(
            f"{name}: same pairs kept together {kept}/{n_same}, different pairs kept apart {parted}/{n_diff}"
        )
