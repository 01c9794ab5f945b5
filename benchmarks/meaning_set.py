# ruff: noqa: E501  (hand-written data: one learning per line reads better than wrapped strings)
"""Lesson judgements on data written blind (thirty-fifth session): a helper who had read no rule
and no earlier set wrote these, in the ways agents close a run.

- ``PARAPHRASE_GROUPS`` (40 groups of 3 phrasings of one lesson, across 10 areas) and
  ``HARD_NEGATIVES`` (60 pairs on one topic, different lessons: a flag value, a version, an
  environment, the opposite instruction): measured once and shaping nothing yet, so **held out**.
  At the session's end: same-lesson recall 95 of 120 pairs, 3 false merges across groups, 18 of
  the 60 hard negatives merged.
- ``CONTENT_FREE`` (50), ``PLAIN_LESSONS`` (50) and ``IDENT_LESSONS`` (30): universal advice
  against lessons. ``PLAIN_LESSONS`` shaped the session's rule (a behaviour told with what follows
  is no advice: 15 -> 6 of 50 called advice), so these are a regression set.

    .venv/bin/python -m benchmarks.meaning_set
"""

from __future__ import annotations

import itertools
import json
from typing import Any

PARAPHRASE_GROUPS = [
    # ---------------- Python ----------------
    (
        "python",
        [
            "Run `pip install -e .[dev]` before running the tests; the test extras are not in requirements.txt.",
            "The test dependencies live in the dev extra, so install the package editable with `pip install -e .[dev]` before pytest.",
            "pytest fails with missing modules unless you install the dev extras (pip install -e '.[dev]') first",
        ],
    ),
    (
        "python",
        [
            "Tests must be run with `pytest -p no:cacheprovider` because the repo is mounted read-only in CI.",
            "The CI checkout is read-only, so pass -p no:cacheprovider to pytest or it crashes writing .pytest_cache.",
            "Disable pytest's cache plugin (`-p no:cacheprovider`) when running tests, since the repository mount in CI is not writable.",
        ],
    ),
    (
        "python",
        [
            "Set `DJANGO_SETTINGS_MODULE=config.settings.test` before running manage.py test, otherwise it picks up the production settings.",
            "manage.py test uses production settings by default; export DJANGO_SETTINGS_MODULE=config.settings.test first.",
            "Without DJANGO_SETTINGS_MODULE pointing at config.settings.test, the Django test runner loads prod settings — set it before running tests.",
        ],
    ),
    (
        "python",
        [
            "mypy must be run from the repo root with `mypy src/` because the config in setup.cfg uses relative paths.",
            "The mypy config in setup.cfg has relative paths, so always invoke `mypy src/` from the repository root.",
            "Running mypy from a subdirectory misses the setup.cfg settings; run mypy src/ at the top level of the repo.",
        ],
    ),
    # ---------------- JS / TS ----------------
    (
        "js",
        [
            "Use `pnpm install --frozen-lockfile`; npm install rewrites the lockfile and breaks CI.",
            "This repo uses pnpm — install deps with pnpm install --frozen-lockfile, because running npm install modifies the lock file and CI then fails.",
            "Don't use npm to install packages here, it regenerates the lockfile and CI rejects it; use pnpm with --frozen-lockfile instead.",
        ],
    ),
    (
        "js",
        [
            "Jest tests need `TZ=UTC` or the date snapshot tests fail.",
            "The date snapshot tests only pass when the timezone is UTC, so run jest with TZ=UTC.",
            "Snapshot tests involving dates break in local timezones; set the TZ env var to UTC before running Jest.",
        ],
    ),
    (
        "js",
        [
            "Run `npm run build:types` before `tsc --noEmit`, because the generated API types are not committed.",
            "The generated API typings aren't checked in, so typecheck fails until you run npm run build:types.",
            "tsc --noEmit reports missing modules for the API types unless they've been generated first with the build:types script.",
        ],
    ),
    (
        "js",
        [
            "ESLint must be invoked through `npm run lint`; running npx eslint directly ignores the custom rules plugin.",
            "Calling eslint directly via npx skips the project's custom rule plugin, so lint with npm run lint instead.",
            "Always lint via the npm script (npm run lint) — plain npx eslint doesn't load our custom rules.",
        ],
    ),
    # ---------------- Go ----------------
    (
        "go",
        [
            "Run `go generate ./...` before `go build`; the mocks are generated and not committed.",
            "Mocks are not checked into git, so go generate ./... must run before building.",
            "go build fails with undefined mock types until you regenerate them with go generate ./...",
        ],
    ),
    (
        "go",
        [
            "Integration tests require the `integration` build tag: `go test -tags integration ./...`.",
            "To run the integration tests pass -tags integration to go test, otherwise they're silently skipped.",
            "The integration test files are behind a build tag, so use go test -tags=integration ./... to include them.",
        ],
    ),
    (
        "go",
        [
            "Set GOFLAGS=-mod=vendor because the build machine has no network access to the module proxy.",
            "There is no network to proxy.golang.org on the build box, so builds must use the vendor directory (GOFLAGS=-mod=vendor).",
            "Use -mod=vendor for go builds; the builder can't reach the Go module proxy.",
        ],
    ),
    # ---------------- Java / Kotlin ----------------
    (
        "java",
        [
            "Use `./gradlew` rather than a system gradle; the build needs Gradle 8.5 exactly.",
            "The build only works with Gradle 8.5, so always call the wrapper ./gradlew instead of the globally installed gradle.",
            "Don't run plain `gradle` — the system version is wrong; the gradle wrapper pins 8.5 which the build requires.",
        ],
    ),
    (
        "java",
        [
            "Maven tests need `-Dspring.profiles.active=test` or they try to connect to the real Postgres.",
            "Activate the test Spring profile (-Dspring.profiles.active=test) when running mvn test, otherwise the tests hit the real Postgres database.",
            "Without the test profile active, mvn test connects to the production Postgres; pass -Dspring.profiles.active=test.",
        ],
    ),
    (
        "java",
        [
            "Kotlin compilation runs out of memory with default settings; set `org.gradle.jvmargs=-Xmx4g` in gradle.properties.",
            "Bump the Gradle JVM heap to 4g in gradle.properties (org.gradle.jvmargs=-Xmx4g), the Kotlin compiler OOMs otherwise.",
            "OutOfMemoryError during compileKotlin: fix it by giving Gradle -Xmx4g via org.gradle.jvmargs in gradle.properties.",
        ],
    ),
    # ---------------- Ruby ----------------
    (
        "ruby",
        [
            "Run `bundle exec rake db:test:prepare` before the specs; the test schema is not migrated automatically.",
            "The test database schema isn't migrated on its own, so run bundle exec rake db:test:prepare before rspec.",
            "rspec fails with pending migration errors unless db:test:prepare has been run first via bundle exec rake.",
        ],
    ),
    (
        "ruby",
        [
            "Always prefix commands with `bundle exec`; the system rubocop is a different version than the Gemfile's.",
            "Rubocop installed globally doesn't match the Gemfile version, so run it as bundle exec rubocop.",
            "Use bundle exec rubocop rather than bare rubocop, since the global gem version differs from the one locked in Gemfile.lock.",
        ],
    ),
    (
        "ruby",
        [
            "Sidekiq jobs run inline in tests only if you require 'sidekiq/testing' and call Sidekiq::Testing.inline!.",
            "To make Sidekiq jobs execute synchronously in specs, require sidekiq/testing and enable Sidekiq::Testing.inline!.",
            "Background jobs won't actually run in the test suite unless Sidekiq::Testing.inline! is turned on (after requiring sidekiq/testing).",
        ],
    ),
    # ---------------- Rust ----------------
    (
        "rust",
        [
            "Run `cargo test --all-features`; some modules are behind the `serde` feature and are otherwise not compiled.",
            "Several modules are gated on the serde feature, so tests must be run with cargo test --all-features to compile them.",
            "Without --all-features cargo test skips the serde-gated code entirely — always enable all features when testing.",
        ],
    ),
    (
        "rust",
        [
            "The crate needs nightly for `cargo fmt` because rustfmt.toml uses unstable options.",
            "rustfmt.toml uses unstable settings, so format with cargo +nightly fmt.",
            "cargo fmt on stable ignores or rejects our unstable rustfmt options; use the nightly toolchain to format.",
        ],
    ),
    (
        "rust",
        [
            "Clippy is run with `-D warnings` in CI, so any warning fails the pipeline.",
            "CI treats clippy warnings as errors (-D warnings): fix every warning locally before pushing.",
            "Any clippy warning will break the CI build because it runs cargo clippy -- -D warnings.",
        ],
    ),
    # ---------------- Kubernetes / Helm ----------------
    (
        "k8s",
        [
            "Run `helm dependency update` before `helm install`; the chart's subcharts are not vendored.",
            "The subcharts aren't committed to the repo, so do helm dependency update prior to installing the chart.",
            "helm install fails with missing dependencies until you run helm dep update in the chart dir.",
        ],
    ),
    (
        "k8s",
        [
            "The staging cluster requires `--context staging-eu` on every kubectl command; the default context points at production.",
            "kubectl's default context is prod, so always pass --context staging-eu when working on staging.",
            "Be careful: the default kube context is production — add --context staging-eu to kubectl calls meant for staging.",
        ],
    ),
    (
        "k8s",
        [
            "Pods get OOMKilled with the default 256Mi limit; the worker needs at least 1Gi memory limit in values.yaml.",
            "Raise the worker memory limit to 1Gi in values.yaml — with 256Mi it gets OOMKilled.",
            "The worker deployment is OOM-killed under the default 256Mi memory limit, so set resources.limits.memory to 1Gi.",
        ],
    ),
    (
        "k8s",
        [
            "Readiness probe must hit /healthz on port 8081, not the app port, or the pod never becomes ready.",
            "Point the readiness probe at port 8081 path /healthz; probing the main app port leaves pods stuck unready.",
            "Pods stay NotReady if the readiness probe targets the app port — the health endpoint /healthz is served on 8081.",
        ],
    ),
    # ---------------- Terraform / cloud ----------------
    (
        "terraform",
        [
            "Run `terraform init -backend-config=backend.hcl` first; the S3 backend settings are not in main.tf.",
            "The backend configuration lives in backend.hcl rather than main.tf, so terraform init needs -backend-config=backend.hcl.",
            "terraform init without -backend-config=backend.hcl falls back to local state because the S3 backend isn't configured in main.tf.",
        ],
    ),
    (
        "terraform",
        [
            "Never run terraform apply locally; changes are applied only by the Atlantis bot from the PR.",
            "Applies happen through Atlantis on the pull request — don't run terraform apply from your machine.",
            "Only Atlantis should apply Terraform changes (via PR comments); local terraform apply is forbidden here.",
        ],
    ),
    (
        "terraform",
        [
            "AWS credentials must come from the `sandbox` profile: set AWS_PROFILE=sandbox before terraform plan.",
            "terraform plan uses the wrong account unless AWS_PROFILE is set to sandbox.",
            "Export AWS_PROFILE=sandbox before planning, otherwise Terraform picks the default AWS profile and the wrong account.",
        ],
    ),
    (
        "terraform",
        [
            "The Google provider needs the `compute.googleapis.com` API enabled in the project before the first apply.",
            "Enable the Compute Engine API (compute.googleapis.com) in the GCP project before applying, or the provider errors out.",
            "First terraform apply on a new GCP project fails until compute.googleapis.com is enabled.",
        ],
    ),
    # ---------------- CI systems ----------------
    (
        "ci",
        [
            "GitHub Actions caches are keyed on the lockfile hash, so changing package-lock.json invalidates the node_modules cache.",
            "Any edit to package-lock.json busts the Actions node_modules cache, since the cache key is the lockfile's hash.",
            "The CI cache key is hashFiles of package-lock.json; modifying the lockfile means a cold node_modules cache.",
        ],
    ),
    (
        "ci",
        [
            "The GitLab CI `test` job only runs on merge requests, not on direct pushes to branches.",
            "Pushing to a branch won't trigger the test job in GitLab CI; it's restricted to merge request pipelines.",
            "In .gitlab-ci.yml the test job has rules for merge_request_event only, so open an MR to get tests run.",
        ],
    ),
    (
        "ci",
        [
            "CircleCI uses a resource_class of medium by default, and the e2e job needs large or it times out.",
            "The e2e job times out on CircleCI's default medium resource class; set resource_class: large.",
            "Give the e2e job resource_class large in the CircleCI config — on medium it hits the timeout.",
        ],
    ),
    (
        "ci",
        [
            "Jenkins builds run as the jenkins user without sudo, so apt-get installs in the Jenkinsfile fail.",
            "apt-get install fails in the Jenkinsfile because the agent runs as the jenkins user with no sudo rights.",
            "You can't install system packages in Jenkins steps — the jenkins user has no sudo; bake them into the agent image instead.",
        ],
    ),
    # ---------------- databases ----------------
    (
        "db",
        [
            "Migrations must be backward compatible because the old pods keep running during a deploy.",
            "During deploys old and new versions run side by side, so every DB migration has to work with the previous code.",
            "Write schema migrations so that the previous release still works with them: old pods are still serving while the deploy rolls out.",
        ],
    ),
    (
        "db",
        [
            "Creating an index on the events table must use CREATE INDEX CONCURRENTLY, otherwise it locks writes for minutes.",
            "Use CONCURRENTLY when adding indexes to events — a plain CREATE INDEX blocks writes on that big table.",
            "A regular CREATE INDEX on the events table takes a write lock for minutes; always build it concurrently.",
        ],
    ),
    (
        "db",
        [
            "The local Postgres runs on port 5433, not 5432, because 5432 is taken by the system instance.",
            "Connect to Postgres on 5433 locally; the default port 5432 belongs to the OS-installed Postgres.",
            "docker-compose maps the dev database to port 5433 since the host's own Postgres already uses 5432.",
        ],
    ),
    (
        "db",
        [
            "Redis in tests must be flushed between test cases, or cached values leak across tests.",
            "Cached values leak from one test to the next unless Redis is flushed in teardown.",
            "Call FLUSHDB on the test Redis after each test; otherwise stale cache entries make other tests fail.",
        ],
    ),
    (
        "db",
        [
            "MongoDB transactions require a replica set, so the local mongo must be started with --replSet rs0.",
            "Start local mongod as a replica set (--replSet rs0) — transactions don't work on a standalone instance.",
            "The code uses Mongo transactions, which fail on a standalone server; run the dev MongoDB with --replSet rs0 and initiate it.",
        ],
    ),
    # ---------------- frontend ----------------
    (
        "frontend",
        [
            "Storybook needs `NODE_OPTIONS=--openssl-legacy-provider` on Node 17+ or webpack crashes.",
            "On Node 17 and newer, webpack in Storybook crashes unless NODE_OPTIONS includes --openssl-legacy-provider.",
            "Set NODE_OPTIONS=--openssl-legacy-provider before starting storybook with a recent Node, the old webpack fails otherwise.",
        ],
    ),
    (
        "frontend",
        [
            "Tailwind classes built from string concatenation are purged in production; write full class names.",
            "Dynamically concatenated Tailwind class names get stripped from the production CSS, so always spell classes out in full.",
            "Don't assemble tailwind classes with template strings — the purge step can't see them and they disappear in prod builds.",
        ],
    ),
    (
        "frontend",
        [
            "Environment variables exposed to the browser must start with VITE_, otherwise import.meta.env doesn't include them.",
            "Vite only exposes env vars prefixed with VITE_ to client code; others are undefined in import.meta.env.",
            "If a variable is missing from import.meta.env in the browser, it's because it lacks the VITE_ prefix.",
        ],
    ),
]


HARD_NEGATIVES = [
    # python
    (
        "python",
        "Run `pip install -e .[dev]` before running the tests; the test extras are not in requirements.txt.",
        "Run `pip install -e .[docs]` before building the docs; the Sphinx extras are not in requirements.txt.",
    ),
    (
        "python",
        "Tests must be run with `pytest -p no:cacheprovider` because the repo is mounted read-only in CI.",
        "Tests must be run with `pytest -p no:randomly` because the suite depends on test ordering.",
    ),
    (
        "python",
        "Set `DJANGO_SETTINGS_MODULE=config.settings.test` before running manage.py test.",
        "Set `DJANGO_SETTINGS_MODULE=config.settings.local` before running manage.py runserver.",
    ),
    (
        "python",
        "The project requires Python 3.11; f-string syntax in utils.py breaks on 3.10.",
        "The project requires Python 3.12; the type parameter syntax in utils.py breaks on 3.11.",
    ),
    (
        "python",
        "Use `poetry run pytest` so the tests use the project virtualenv.",
        "Use `poetry run alembic upgrade head` so migrations use the project virtualenv.",
    ),
    (
        "python",
        "Always pin numpy below 2.0 because the compiled extension is built against the 1.x ABI.",
        "Always pin numpy to 2.0 or later because the code uses the new copy semantics.",
    ),
    # js
    (
        "js",
        "Use `pnpm install --frozen-lockfile`; npm install rewrites the lockfile and breaks CI.",
        "Use `yarn install --immutable`; npm install rewrites the lockfile and breaks CI.",
    ),
    (
        "js",
        "Jest tests need `TZ=UTC` or the date snapshot tests fail.",
        "Jest tests need `LANG=en_US.UTF-8` or the currency formatting snapshot tests fail.",
    ),
    (
        "js",
        "The dev server runs on port 3000; the API proxy expects that.",
        "The dev server runs on port 5173; the API proxy expects that.",
    ),
    (
        "js",
        "Run `npm run build:types` before `tsc --noEmit`, because the generated API types are not committed.",
        "Run `npm run build:icons` before `vite build`, because the generated icon sprites are not committed.",
    ),
    (
        "js",
        "Enable `strictNullChecks` in tsconfig.json for new packages.",
        "Disable `strictNullChecks` in tsconfig.json for the legacy package, it produces thousands of errors.",
    ),
    (
        "js",
        "Node 18 is required; the fetch API is used without a polyfill.",
        "Node 20 is required; the test runner uses node:test mocking which is missing in 18.",
    ),
    # go
    (
        "go",
        "Run `go generate ./...` before `go build`; the mocks are generated and not committed.",
        "Run `go mod tidy` before committing; CI fails if go.sum is out of date.",
    ),
    (
        "go",
        "Integration tests require the `integration` build tag: `go test -tags integration ./...`.",
        "End-to-end tests require the `e2e` build tag: `go test -tags e2e ./...`.",
    ),
    (
        "go",
        "Set GOFLAGS=-mod=vendor because the build machine has no network access to the module proxy.",
        "Set GOFLAGS=-mod=mod because the vendor directory is stale and not maintained.",
    ),
    (
        "go",
        "Run tests with `-race`; the worker pool has had data races before.",
        "Do not run tests with `-race` on the ARM runners; the race detector is unsupported there.",
    ),
    (
        "go",
        "golangci-lint must be v1.55; newer versions flag deprecated linters as errors.",
        "golangci-lint must be v1.59; older versions crash on generics in the parser package.",
    ),
    # java
    (
        "java",
        "Use `./gradlew` rather than a system gradle; the build needs Gradle 8.5 exactly.",
        "Use `./mvnw` rather than a system maven; the build needs Maven 3.9 exactly.",
    ),
    (
        "java",
        "Maven tests need `-Dspring.profiles.active=test` or they try to connect to the real Postgres.",
        "Maven tests need `-Dspring.profiles.active=test` or they try to connect to the real Kafka cluster.",
    ),
    (
        "java",
        "Kotlin compilation runs out of memory; set `org.gradle.jvmargs=-Xmx4g` in gradle.properties.",
        "Kotlin compilation runs out of metaspace; set `kotlin.daemon.jvmargs=-XX:MaxMetaspaceSize=1g` in gradle.properties.",
    ),
    (
        "java",
        "The project targets Java 17; records and sealed classes are used throughout.",
        "The project targets Java 11; do not use records or sealed classes.",
    ),
    (
        "java",
        "Run `./gradlew spotlessApply` before committing, CI checks formatting.",
        "Run `./gradlew ktlintFormat` before committing, CI checks formatting.",
    ),
    # ruby
    (
        "ruby",
        "Run `bundle exec rake db:test:prepare` before the specs; the test schema is not migrated automatically.",
        "Run `bundle exec rake db:seed` before the system specs; the fixtures data is not loaded automatically.",
    ),
    (
        "ruby",
        "Sidekiq jobs run inline in tests only if you call Sidekiq::Testing.inline!.",
        "Sidekiq jobs are only enqueued (not run) in tests when you call Sidekiq::Testing.fake!.",
    ),
    (
        "ruby",
        "Rails credentials for development are in config/credentials/development.yml.enc.",
        "Rails credentials for production are in config/credentials/production.yml.enc.",
    ),
    (
        "ruby",
        "Ruby 3.2 is required because the Gemfile uses the new Data class.",
        "Ruby 3.0 is required because a native gem doesn't compile on 3.2.",
    ),
    # rust
    (
        "rust",
        "Run `cargo test --all-features`; some modules are behind the `serde` feature.",
        "Run `cargo test --no-default-features`; the default `tokio` feature hides compile errors in the sync path.",
    ),
    (
        "rust",
        "The crate needs nightly for `cargo fmt` because rustfmt.toml uses unstable options.",
        "The crate needs nightly for `cargo build` because it uses the unstable portable_simd feature.",
    ),
    (
        "rust",
        "Clippy is run with `-D warnings` in CI, so any warning fails the pipeline.",
        "Clippy is run with `-W clippy::pedantic` locally only, so pedantic warnings don't fail CI.",
    ),
    (
        "rust",
        "MSRV is 1.70; don't use let-else chains introduced later.",
        "MSRV is 1.65; let-else is fine but avoid async fn in traits.",
    ),
    # k8s
    (
        "k8s",
        "Run `helm dependency update` before `helm install`; the chart's subcharts are not vendored.",
        "Run `helm lint` before `helm package`; the chart's values schema is validated in CI.",
    ),
    (
        "k8s",
        "The staging cluster requires `--context staging-eu` on every kubectl command.",
        "The staging cluster requires `--context staging-us` on every kubectl command.",
    ),
    (
        "k8s",
        "The worker needs at least 1Gi memory limit in values.yaml.",
        "The worker needs at least 2 CPU request in values.yaml.",
    ),
    (
        "k8s",
        "Readiness probe must hit /healthz on port 8081, not the app port.",
        "Liveness probe must hit /livez on port 8081, not the app port.",
    ),
    (
        "k8s",
        "Set imagePullPolicy to Always in dev, because the tag latest is reused.",
        "Set imagePullPolicy to IfNotPresent in the kind cluster, because images are side-loaded and not in a registry.",
    ),
    # terraform / cloud
    (
        "terraform",
        "Run `terraform init -backend-config=backend.hcl` first; the S3 backend settings are not in main.tf.",
        "Run `terraform init -upgrade` first; the provider versions in the lock file are outdated.",
    ),
    (
        "terraform",
        "AWS credentials must come from the `sandbox` profile: set AWS_PROFILE=sandbox before terraform plan.",
        "AWS credentials must come from the `prod-admin` profile: set AWS_PROFILE=prod-admin before terraform plan.",
    ),
    (
        "terraform",
        "Never run terraform apply locally; changes are applied only by the Atlantis bot from the PR.",
        "Always run terraform apply locally for the sandbox workspace; Atlantis is not configured for it.",
    ),
    (
        "terraform",
        "The Google provider needs the compute.googleapis.com API enabled before the first apply.",
        "The Google provider needs the container.googleapis.com API enabled before the first GKE apply.",
    ),
    (
        "terraform",
        "Resources are deployed to eu-west-1; the state bucket lives there.",
        "Resources are deployed to us-east-1; ACM certificates for CloudFront must live there.",
    ),
    # ci
    (
        "ci",
        "GitHub Actions caches are keyed on the lockfile hash, so changing package-lock.json invalidates the node_modules cache.",
        "GitHub Actions caches are keyed on the branch name, so caches from main are not visible to forks.",
    ),
    (
        "ci",
        "The GitLab CI `test` job only runs on merge requests, not on direct pushes.",
        "The GitLab CI `deploy` job only runs on tags, not on merge requests.",
    ),
    (
        "ci",
        "The e2e job needs CircleCI resource_class large or it times out.",
        "The unit job needs CircleCI parallelism 4 or it times out.",
    ),
    (
        "ci",
        "Jenkins builds run as the jenkins user without sudo, so apt-get installs in the Jenkinsfile fail.",
        "Jenkins builds run inside a Docker agent as root, so files they create in the workspace are owned by root.",
    ),
    (
        "ci",
        "Workflows triggered by pull_request from forks don't get repository secrets.",
        "Workflows triggered by pull_request_target from forks do get repository secrets, so never check out the fork's code in them.",
    ),
    (
        "ci",
        "The CI runs on ubuntu-22.04; python3.10 is the default there.",
        "The CI runs on ubuntu-24.04; python3.12 is the default there.",
    ),
    # db
    (
        "db",
        "Creating an index on the events table must use CREATE INDEX CONCURRENTLY, otherwise it locks writes.",
        "Dropping an index on the events table must use DROP INDEX CONCURRENTLY, otherwise it locks reads and writes.",
    ),
    ("db", "The local Postgres runs on port 5433, not 5432.", "The local MySQL runs on port 3307, not 3306."),
    (
        "db",
        "Redis in tests must be flushed between test cases, or cached values leak across tests.",
        "Redis in tests must use database 15, so the developer's local cache in database 0 is not wiped.",
    ),
    (
        "db",
        "Migrations must be backward compatible because the old pods keep running during a deploy.",
        "Migrations must be run manually before a deploy because the app does not run them at startup.",
    ),
    (
        "db",
        "MongoDB transactions require a replica set, so start the local mongo with --replSet rs0.",
        "MongoDB change streams require a replica set, so start the local mongo with --replSet rs0.",
    ),
    (
        "db",
        "Use the read replica for reporting queries; they are too heavy for the primary.",
        "Never use the read replica for queries right after a write; replication lag returns stale rows.",
    ),
    (
        "db",
        "Set statement_timeout to 30s for the API connections.",
        "Set statement_timeout to 0 for the migration connections, long migrations are killed otherwise.",
    ),
    # frontend
    (
        "frontend",
        "Storybook needs `NODE_OPTIONS=--openssl-legacy-provider` on Node 17+ or webpack crashes.",
        "Storybook needs `NODE_OPTIONS=--max-old-space-size=4096` or the build runs out of memory.",
    ),
    (
        "frontend",
        "Tailwind classes built from string concatenation are purged in production; write full class names.",
        "Tailwind classes used only in markdown content are purged in production; add the content directory to the content globs.",
    ),
    (
        "frontend",
        "Environment variables exposed to the browser must start with VITE_.",
        "Environment variables exposed to the browser must start with NEXT_PUBLIC_.",
    ),
    (
        "frontend",
        "Playwright tests must run against the production build, the dev server is too slow and they time out.",
        "Playwright tests must run against the dev server, the production build disables the test ids.",
    ),
    (
        "frontend",
        "Use React Testing Library's findBy queries for async content, getBy fails before the data loads.",
        "Use React Testing Library's queryBy queries to assert absence, getBy throws when the element is missing.",
    ),
    (
        "frontend",
        "The app supports Safari 15, so avoid the structuredClone API.",
        "The app supports Safari 14, so avoid the optional chaining assignment and top-level await.",
    ),
    (
        "python",
        "Run the tests with `pytest -n auto` for speed; they are isolated.",
        "Run the tests with `pytest -n 0`; the fixtures share a database and are not isolated.",
    ),
]


CONTENT_FREE = [
    "Always run the tests before pushing.",
    "Took a while to understand the codebase.",
    "Reading the existing code first helped a lot.",
    "Make sure to read the README before starting.",
    "It is important to write tests for new functionality.",
    "Small, focused commits make review easier.",
    "Check the logs when something fails.",
    "Understanding the project structure is key before making changes.",
    "I should have asked for clarification earlier.",
    "Keep changes minimal and focused on the task.",
    "Following the existing code style keeps things consistent.",
    "Running the linter before committing saves time.",
    "The task was more complex than it first appeared.",
    "Good error messages make debugging easier.",
    "Double-check your changes before submitting.",
    "It helps to break large tasks into smaller steps.",
    "Always verify that the build passes.",
    "Documentation is useful for understanding how things work.",
    "Be careful when modifying shared code.",
    "Tests are a good way to catch regressions.",
    "I learned a lot about this repository during the task.",
    "Make sure dependencies are installed before running anything.",
    "Communicate clearly in the pull request description.",
    "Reviewing the diff before committing catches mistakes.",
    "Edge cases should be handled carefully.",
    "Using version control properly is important.",
    "Code should be readable and maintainable.",
    "Refactoring should be done in small steps.",
    "Debugging took longer than expected.",
    "It is a good idea to search the codebase for similar patterns.",
    "Run the full test suite to make sure nothing is broken.",
    "Consistency with existing conventions matters.",
    "Don't forget to update the documentation when behavior changes.",
    "Investigating the root cause is better than patching symptoms.",
    "Write clear commit messages.",
    "The existing tests were helpful in understanding the expected behavior.",
    "Always handle errors gracefully.",
    "Take time to plan before implementing.",
    "Check for existing utilities before writing new ones.",
    "Avoid introducing unnecessary dependencies.",
    "Keep functions short and single-purpose.",
    "Next time I would start by writing a failing test.",
    "Performance should be measured before optimizing.",
    "Code review feedback should be addressed promptly.",
    "Make sure the environment is set up correctly.",
    "The CI pipeline is a useful safety net.",
    "Be mindful of backwards compatibility.",
    "Naming things well makes the code easier to follow.",
    "Reproducing the bug first made fixing it much easier.",
    "Use descriptive variable names.",
]

PLAIN_LESSONS = [
    "The staging database is reset every night, so seed data must be re-created each morning.",
    "The payment tests talk to a sandbox that rejects cards from outside Europe, so use a European test card.",
    "The search index is rebuilt only when the worker restarts, so new fields don't appear until then.",
    "Image uploads are stored on a shared disk that the test suite wipes, so never run tests against the shared environment.",
    "The login page is served from a separate service, so changes to the main app's templates don't affect it.",
    "Email sending is disabled in development and messages are written to a local folder instead.",
    "The nightly export job holds a lock on the orders table, so migrations must not run between midnight and two in the morning.",
    "Translations are pulled from an external service at build time, so missing strings are not errors in local builds.",
    "The mobile app still calls the old endpoints, so they cannot be removed yet.",
    "Feature flags are cached for five minutes per server, so a change takes a while to show up.",
    "The billing module rounds to whole cents only at the end of the invoice, not per line item.",
    "The front page is cached at the edge, so changes need a cache purge to be visible.",
    "Admin users bypass the rate limiter, so rate limit tests must use a normal account.",
    "The documentation site is built from the main branch only, so docs changes on other branches are not previewed.",
    "Customer identifiers are case sensitive in the legacy system but not in the new one.",
    "The report generator uses the server's local time, not the customer's time zone.",
    "The shared test account is also used by the QA team, so do not change its password.",
    "Uploaded files larger than the proxy limit are rejected before reaching the application, so the app's size check never fires.",
    "The queue consumer acknowledges messages before processing them, so a crash loses the message.",
    "Background jobs are retried forever unless they raise the special give-up error.",
    "The build machine has no internet access, so every dependency must come from the internal mirror.",
    "The analytics events are batched and sent only when the page is closed, so they don't show up immediately in tests.",
    "The old and new checkout flows share the same database tables, so schema changes affect both.",
    "Dates in the public interface are always sent as text in the day-month-year order used by the legacy clients.",
    "The permissions check happens in the gateway, so the services themselves trust every incoming request.",
    "Deleting a user only marks them inactive; the real removal happens in a monthly cleanup job.",
    "The integration tests need the fake mail server running, which the helper script starts but does not stop.",
    "Price calculations must use whole numbers of cents because floating point caused rounding bugs before.",
    "The generated client code is overwritten on every build, so hand edits to it are lost.",
    "Production logs are only kept for a week, so older incidents must be investigated from the archived copies.",
    "The recommendation service is slow to start and the health check gives up too early after a cold deploy.",
    "The settings page reads its defaults from the server, so hard-coded defaults in the browser code are ignored.",
    "The warehouse system only accepts orders during business hours, so late orders are queued until the next morning.",
    "Test data for the contract tests is owned by the partner team, and changing it breaks their pipeline.",
    "The chart library mutates the data passed to it, so always pass a copy.",
    "The release branch is cut every Thursday, and anything merged after that waits for the next week.",
    "Error pages are rendered by the load balancer, so application error templates are never seen in production.",
    "The import tool skips rows with empty email addresses without reporting them.",
    "Notifications for archived projects are still sent because the archive flag is checked only in the web interface.",
    "The login session is shared across subdomains, so logging out of one logs out of all.",
    "The fixtures assume an empty database, so running tests after the seed step causes duplicate key failures.",
    "The currency converter uses yesterday's exchange rates, so amounts in tests differ from live values.",
    "The audit trail is written asynchronously, so tests must wait for it before asserting.",
    "Guest checkout creates a hidden account, so the same email cannot later sign up normally without a merge.",
    "The map tiles come from a paid provider with a strict daily quota, so tests should use the stub tiles.",
    "Only the primary region runs the scheduled jobs; the secondary region has them disabled on purpose.",
    "The single sign-on provider strips plus signs from email addresses, so accounts with them cannot log in.",
    "The cache is shared between the web servers and the workers, so clearing it during business hours slows every page.",
    "Both the web app and the command line tool read the same configuration file, so renaming a setting breaks the tool too.",
    "The pricing page numbers come from the content system, not from the code, so editing the code doesn't change them.",
]

IDENT_LESSONS = [
    "Run `bundle exec rake db:test:prepare` before the specs; the test schema is not migrated automatically.",
    "`make proto` must run before `go build` because the generated pb.go files are gitignored.",
    "Set `PGHOST=localhost` when running tests outside docker-compose; the default `db` host only resolves inside the network.",
    "The `User.email` column has a case-insensitive unique index, so `find_by(email:)` must downcase first.",
    "`useEffect` in `CartProvider` runs twice under React StrictMode, so the fetch must be idempotent.",
    "Use `freezegun` for time in tests; `time.sleep` makes `test_expiry.py` flaky.",
    "`cargo build` needs `protoc` on PATH because `build.rs` compiles the protobufs.",
    "The `api` container listens on 8080, but `nginx.conf` proxies to 8000; update both together.",
    "Call `db.session.commit()` explicitly in Celery tasks; the Flask teardown does not run there.",
    "`kubectl rollout restart deploy/worker` is needed after changing the `worker-config` ConfigMap; pods don't reload it.",
    "The `settings.DEBUG` flag is forced False by `conftest.py`, so debug-only routes 404 in tests.",
    "Add new env vars to both `.env.example` and `config/schema.ts`, or startup validation fails.",
    "`terraform fmt -check` runs in CI; run `terraform fmt -recursive` before pushing.",
    "`JAVA_HOME` must point to JDK 17 for `./gradlew :app:test`; JDK 21 breaks Mockito inline mocks.",
    "`ActiveJob::Base.queue_adapter = :test` is set in `rails_helper.rb`, so use `perform_enqueued_jobs` to run jobs.",
    "`vite.config.ts` aliases `@/` to `src/`, but Jest needs the same mapping in `moduleNameMapper`.",
    "The `events` Kafka topic has 12 partitions keyed by `account_id`, so ordering is only per account.",
    "`alembic revision --autogenerate` misses changes to `Enum` types; edit the migration by hand.",
    "Use `t.Setenv` instead of `os.Setenv` in Go tests so `TestConfigLoad` doesn't leak env between tests.",
    "`helm upgrade` must pass `--reuse-values=false`; otherwise removed keys in `values-prod.yaml` linger.",
    "`npm ci` fails on Node 16 because `package-lock.json` is lockfileVersion 3.",
    "`REDIS_URL` in CI points at `redis://redis:6379/1`; database 0 is used by the preview app.",
    "The `@Transactional` annotation on `OrderService.place` is ignored for self-invocation; call it via the proxy.",
    '`serde(rename_all = "camelCase")` is required on `ApiResponse` because the frontend expects camelCase keys.',
    "`GITHUB_TOKEN` in `release.yml` lacks `contents: write`, so the release step needs an explicit permissions block.",
    "`prisma migrate dev` resets the database when drift is detected; use `prisma migrate deploy` against shared DBs.",
    "`pytest.ini` sets `--strict-markers`, so every new marker must be registered in the `markers` list.",
    "The `X-Request-Id` header is generated by `RequestIdMiddleware` only if absent; tests must not send a fixed one twice.",
    "`next/image` requires the CDN domain in `images.remotePatterns` in `next.config.js`.",
    "`rubocop-rails` is pinned to 2.19 in `Gemfile.lock`; newer cops flag `find_by` chains.",
]


def evaluate() -> dict[str, Any]:
    """This checkout's figures on the sets (a pair is judged in both orders: the same answer)."""
    from osmia.memory.advice import universal_advice
    from osmia.memory.lessons import lesson, same_lesson

    def same(a: str, b: str) -> bool:
        return same_lesson(lesson(a), lesson(b))

    within = [
        (g[i], g[j]) for _area, g in PARAPHRASE_GROUPS for i, j in itertools.combinations(range(len(g)), 2)
    ]
    across = [
        (a, b)
        for (area1, g1), (area2, g2) in itertools.combinations(PARAPHRASE_GROUPS, 2)
        if area1 == area2
        for a in g1
        for b in g2
    ]
    return {
        "paraphrases judged the same": [sum(same(a, b) for a, b in within), len(within)],
        "other lessons of one area merged": [sum(same(a, b) for a, b in across), len(across)],
        "hard negatives merged": [sum(same(a, b) for _area, a, b in HARD_NEGATIVES), len(HARD_NEGATIVES)],
        "content-free called advice": [sum(map(universal_advice, CONTENT_FREE)), len(CONTENT_FREE)],
        "plain lessons called advice": [sum(map(universal_advice, PLAIN_LESSONS)), len(PLAIN_LESSONS)],
        "named lessons called advice": [sum(map(universal_advice, IDENT_LESSONS)), len(IDENT_LESSONS)],
    }


if __name__ == "__main__":
    print(json.dumps(evaluate(), indent=1))
