# ruff: noqa: E501  (hand-written data: one pair per line reads better than wrapped strings)
"""Labelled pairs for supersession by another version or value (osmia/memory/lessons.py).

Two learnings give one tool, runtime or setting different versions or values. Either the newer
**replaces** the older (an upgrade, a changed default: the older is false now and is closed), or
both **stay true**, each about its own subject: two images, two queues, two jobs, a default and
an exception ("The ingest worker image uses Python 3.11", "The tile server image uses Python
3.12"). Closing the second kind hides a true fact from every later prompt.

Both sets were written in the twenty-second session by helpers that saw no code, rule or data of
this project, from a description of the two cases:

- :data:`FIRST_REPLACES` / :data:`FIRST_BOTH_TRUE` (45 + 45) were used to shape the rule
  (``subjects.other_subjects``): its two refinements (only the clauses that give the value are
  compared; the values themselves are no subject) came from pairs of the first set it got wrong,
  so it is not held out any more;
- :data:`SECOND_REPLACES` / :data:`SECOND_BOTH_TRUE` (40 + 40) were measured once, with the rule
  fixed; nothing was chosen on them then. The twenty-third session's rule
  (:mod:`osmia.memory.subjects`: a scope on one side, two words before one shared noun, a default
  and an exception) was shaped on the failures of both sets, so neither is held out any more;
- :data:`THIRD_REPLACES` / :data:`THIRD_BOTH_TRUE` (40 + 40) were written in the twenty-third
  session by a helper that saw no code, and measured with that rule first written (8 of 10, 11 of
  15); one of its failures ("moved to … for the openssl CVE fix") led to the refinement that a
  newer statement reporting a change has no scope, after which it gives 9 of 10 and 11 of 15.

A pair whose texts are not read as two versions or values of one name (``Lesson.versions``,
``Lesson.settings``) is decided by other rules and not counted here. :func:`evaluate` reports, per
set, how many pairs were read as such and how many of those were decided right.
"""

from __future__ import annotations

from osmia.memory.lessons import lesson, supersedes, versions_or_values_differ

FIRST_REPLACES: tuple[tuple[str, str], ...] = (
    (
        "Repo pins terraform 1.5 in .terraform-version; run tfenv install before plan.",
        "terraform is now 1.7 per .terraform-version — rerun tfenv install after pulling.",
    ),
    (
        "The backend builds with openjdk 17 (see .sdkmanrc).",
        "Backend moved to openjdk 21 in .sdkmanrc; run `sdk env install` before ./gradlew build.",
    ),
    (
        "Set spring.datasource.hikari.maximum-pool-size=20 in application.yml to avoid connection starvation.",
        "spring.datasource.hikari.maximum-pool-size=40 in application.yml now; 20 still starved under the load test.",
    ),
    (
        "numpy==1.26.4 is pinned in requirements.txt because scipy breaks on 2.x.",
        "requirements.txt now pins numpy==2.0.2 — scipy 1.14 supports it.",
    ),
    (
        "Go version is 1.21 per go.mod.",
        "Bumped go.mod to Go 1.22; you need a local Go 1.22+ toolchain to build.",
    ),
    ("rust-toolchain.toml pins rust 1.74.", "we're on rust 1.78 now"),
    (
        "Ruby 3.2.2 via .ruby-version; use rbenv.",
        "Upgraded Ruby to 3.3.0 — `rbenv install 3.3.0` before `bundle install`.",
    ),
    (
        "Local dev DB is postgres 14 from docker-compose.yml.",
        "postgres 16 now. Old volumes need a dump/restore, pg_upgrade isn't wired up.",
    ),
    (
        "config/db.json: maxConnections is 10.",
        "Raised maxConnections to 25 in config/db.json after pool exhaustion errors in the worker.",
    ),
    (
        "Run jest with --max-workers=4 or the CI runner OOMs.",
        "Run jest with --max-workers=2 or the CI runner OOMs.",
    ),
    (
        "devDependencies pin @types/node@18 to match the runtime.",
        "@types/node@20 in devDependencies now, matching the upgraded runtime.",
    ),
    (
        "The EKS cluster is on Kubernetes 1.27, so PodSecurityPolicy manifests are gone.",
        "EKS cluster was upgraded to Kubernetes 1.29 last week; check deprecated APIs with pluto before applying.",
    ),
    (
        "Use helm 3.12 locally — charts rely on OCI registry support.",
        "helm 3.14 is required now, the CI image was updated to match.",
    ),
    ("GUNICORN_TIMEOUT=60 in .env.production.", "GUNICORN_TIMEOUT=120 in .env.production."),
    (
        "Package manager is pnpm 8 (packageManager field in package.json).",
        "packageManager in package.json says pnpm 9 now; `corepack enable` picks it up.",
    ),
    (
        "Gradle wrapper is 8.2.",
        "Bumped the Gradle wrapper to 8.7 for JDK 21 support (gradle/wrapper/gradle-wrapper.properties).",
    ),
    (
        "kotlin = 1.9.22 in gradle/libs.versions.toml",
        "gradle/libs.versions.toml: kotlin = 2.0.0, K2 compiler enabled.",
    ),
    ("Cache layer is Redis 6.2 on ElastiCache.", "ElastiCache cluster is Redis 7.1 now."),
    (
        "Project targets python 3.10 (requires-python >=3.10 in pyproject.toml).",
        "Target is python 3.12 now; requires-python bumped in pyproject.toml and the CI matrix trimmed.",
    ),
    (
        "Lint with eslint 8; flat config is not supported here.",
        "Migrated to eslint 9 with flat config in eslint.config.js.",
    ),
    (
        "client_max_body_size 10m in deploy/nginx.conf for avatar uploads.",
        "Upload limit is client_max_body_size 50m in deploy/nginx.conf now (video thumbnails).",
    ),
    (
        "api Deployment runs replicas: 3 in k8s/api/deployment.yaml.",
        "Set replicas: 5 for the API deployment after the traffic growth in March.",
    ),
    (
        "REDIS_URL=redis://cache-01:6379/0 for staging.",
        "Staging REDIS_URL is now redis://cache-02:6379/0; cache-01 was decommissioned.",
    ),
    (
        "pytest.ini sets timeout = 300.",
        "timeout = 600 in pytest.ini; the integration suite kept hitting 300.",
    ),
    (
        "Workflows use actions/checkout@v3.",
        "All workflows are on actions/checkout@v4 now (Node 16 actions are deprecated).",
    ),
    (
        "Prod DB is MySQL 5.7 on RDS.",
        "RDS prod DB migrated to MySQL 8.0 — watch for utf8mb4 collation diffs.",
    ),
    ("Build uses webpack 4; don't add loaders that require 5.", "build is on webpack 5"),
    (
        "LOG_LEVEL=debug in .env.development.",
        "Switched .env.development to LOG_LEVEL=info — debug was drowning the console.",
    ),
    ("sbt.version=1.8.2 in project/build.properties", "project/build.properties: sbt.version=1.9.9"),
    ("dotnet SDK 6.0.400 pinned in global.json.", "global.json now pins dotnet SDK 8.0.100 (net8.0 target)."),
    (
        "PHP 8.1 via composer config.platform.",
        "composer config.platform is PHP 8.3 now; run composer update --lock after pulling.",
    ),
    (
        "celery worker runs with --concurrency=4 in the Procfile.",
        "Bumped the Procfile celery worker to --concurrency=8.",
    ),
    (
        "JAVA_OPTS uses -Xmx2g for the batch importer.",
        "Batch import kept OOMing, so the importer's JAVA_OPTS is -Xmx4g now.",
    ),
    (
        "Search backend is Elasticsearch 7.17.",
        "Upgraded Elasticsearch to 8.12; the Python client was bumped to elasticsearch==8.12.1 too.",
    ),
    ("typescript 4.9 in package.json", "typescript 5.4 in package.json — enables const type parameters."),
    ("protoc 3.21 needed for codegen (`make proto`).", "`make proto` needs protoc 25.1 now."),
    (
        "Postgres max_connections=100 on the primary.",
        "max_connections=300 on the Postgres primary since we dropped PgBouncer.",
    ),
    (
        "CI uses resource_class: medium in .circleci/config.yml.",
        "Switched to resource_class: large in .circleci/config.yml; medium kept timing out.",
    ),
    (
        "CACHE_TTL_SECONDS=300 for the product catalog cache.",
        "catalog cache: CACHE_TTL_SECONDS=900 now, 300 caused too many origin hits",
    ),
    ("Dockerfile base image is node:18-alpine.", "FROM node:20-alpine in the Dockerfile now."),
    (
        "Use poetry 1.5 — the lockfile format breaks on 1.6+.",
        "Lockfile regenerated with poetry 1.8, so poetry 1.5 can't read it anymore; upgrade with pipx.",
    ),
    ("rateLimitPerMinute: 60 in config/default.json", "rateLimitPerMinute is 120 now"),
    (
        "Gemfile.lock is BUNDLED WITH bundler 2.3.26.",
        "gem install bundler 2.5.6 — Gemfile.lock was re-bundled with it.",
    ),
    (
        "versions.tf requires hashicorp/aws ~> 4.0.",
        "hashicorp/aws ~> 5.0 in versions.tf after the provider upgrade; run terraform init -upgrade.",
    ),
    (
        "payments-api pods have memory limit 512Mi.",
        "Raised the payments service memory limit to 1Gi, it was getting OOMKilled.",
    ),
)

FIRST_BOTH_TRUE: tuple[tuple[str, str], ...] = (
    (
        "The web package uses typescript 5.3.",
        "packages/legacy-admin stays on typescript 4.9 because of the old decorator syntax.",
    ),
    (
        "CI runs on node 20 via setup-node in .github/workflows/ci.yml.",
        "For local dev use node 18; the sharp native addon in tools/ won't build on 20 yet.",
    ),
    (
        "spring.datasource.hikari.maximum-pool-size=10 in application-staging.yml",
        "spring.datasource.hikari.maximum-pool-size=50 in application-prod.yml",
    ),
    (
        "Set maxConnections: 50 for the reporting replica in config/db.json.",
        "The primary writer pool uses maxConnections: 200.",
    ),
    (
        "Run unit tests with --max-workers=8 to keep them under a minute.",
        "The e2e suite needs --max-workers=1 since the Playwright specs share one database.",
    ),
    (
        "billing-service image is built FROM php:8.1-fpm.",
        "notifications-service/Dockerfile uses php:8.3-fpm.",
    ),
    (
        "openjdk 11 for the legacy-soap module, it still needs JAXB from javax.",
        "All other Gradle modules compile with openjdk 21.",
    ),
    (
        "GOMAXPROCS=2 in the log-shipper sidecar's container spec.",
        "The main ingest container sets GOMAXPROCS=8.",
    ),
    (
        "Staging runs replicas: 1 for checkout-api.",
        "replicas: 6 for checkout-api in k8s/overlays/prod/kustomization.yaml",
    ),
    (
        "On macOS arm64, install protoc 24.4 from Homebrew.",
        "The Linux CI image ships protoc 21.12; generated code is the same either way.",
    ),
    (
        "infra/network/.terraform-version pins terraform 1.3.",
        "terraform 1.6 for the app stacks (infra/apps/.terraform-version).",
    ),
    (
        "Set JAVA_OPTS=-Xmx1g for the api container.",
        "The nightly reconciliation job runs with JAVA_OPTS=-Xmx6g.",
    ),
    (
        "rateLimitPerMinute is 120 for /checkout.",
        "During the Black Friday freeze, raise rateLimitPerMinute to 600 for /checkout.",
    ),
    (
        "pgbouncer default_pool_size=20 for the OLTP database.",
        "For the analytics DB, pgbouncer uses default_pool_size=5.",
    ),
    (
        "Windows runners need python 3.10 — pywin32 wheels for 3.12 are missing in our mirror.",
        "Ubuntu runners use python 3.12.",
    ),
    (
        "RAILS_MAX_THREADS=5 for the Puma web processes.",
        "Sidekiq processes run with RAILS_MAX_THREADS=25 so the DB pool matches concurrency.",
    ),
    ("The mobile app workspace uses react-native 0.72.", "apps/tv is on react-native 0.74 (the tvOS fork)."),
    (
        "Integration tests use postgres 13 to match prod RDS.",
        "docker-compose.yml runs postgres 16 for the local dev database.",
    ),
    (
        "celery worker for the pdf queue: --concurrency=2 (memory heavy).",
        "The default-queue celery worker uses --concurrency=16.",
    ),
    ("LOG_LEVEL=debug in .env.development", "LOG_LEVEL=warn in .env.production"),
    (
        "pandas==1.5.3 in services/forecast/requirements.txt",
        "services/etl/requirements.txt pins pandas==2.2.1",
    ),
    (
        "The android/ project uses the gradle 7.6 wrapper (AGP 7 constraint).",
        "backend/ builds with the gradle 8.5 wrapper.",
    ),
    (
        "Prod EKS is on Kubernetes 1.28.",
        "The local kind cluster from scripts/dev-cluster.sh runs Kubernetes 1.30.",
    ),
    (
        "timeout-minutes: 30 for the build job in .github/workflows/ci.yml",
        "the nightly fuzz job has timeout-minutes: 240",
    ),
    (
        "In the admin SPA we're on eslint 8 with .eslintrc.cjs.",
        "packages/api uses eslint 9 with a flat eslint.config.js.",
    ),
    (
        "Use rust 1.70 for the firmware crate — it's the MSRV for the embedded target.",
        "The host-tools workspace builds on rust 1.79 stable.",
    ),
    (
        "Session store is Redis 7.2.",
        "The rate limiter still runs on Redis 6.2 (separate ElastiCache cluster, not ours to upgrade).",
    ),
    (
        "CACHE_TTL_SECONDS=3600 in production.",
        "When running locally set CACHE_TTL_SECONDS=5 so template edits show up right away.",
    ),
    (
        "helm 3.13 on dev machines is fine.",
        "The ArgoCD repo-server bundles helm 3.11, so charts must not use features newer than that.",
    ),
    (
        "client_max_body_size 1m in the public site server block.",
        "The /api/uploads location overrides client_max_body_size 200m.",
    ),
    (
        "x86_64 builds link openssl 3.0.",
        "docker/arm64/Dockerfile vendors openssl 1.1.1 for the aarch64 images.",
    ),
    ("numpy==1.24.4 in the py38 tox env.", "tox py312 env installs numpy==1.26.4."),
    (
        "Smoke tests run pytest with --timeout=30.",
        "Use --timeout=900 for the slow tests under tests/migrations.",
    ),
    (
        "refresh_interval is 1s on the products index during normal traffic.",
        "Before a bulk reindex, set refresh_interval to -1 on the products index and restore it after.",
    ),
    ("Cron pods: memory limit 512Mi.", "web pods get a memory limit of 2Gi."),
    (
        "The webhooks service Lambdas run on the nodejs18.x runtime (serverless.yml).",
        "image-resize Lambda uses runtime nodejs20.x for the sharp layer.",
    ),
    ("tools/go.mod is go 1.20, pinned for the codegen tool.", "The main module's go.mod says go 1.22."),
    (
        "cypress.config.ts sets viewportWidth: 1280.",
        "The mobile e2e specs override viewportWidth: 375 in cypress/e2e/mobile/.",
    ),
    (
        "READ_ONLY_MODE=false outside maintenance windows.",
        "When the weekly DB maintenance window starts, flip READ_ONLY_MODE=true.",
    ),
    ("HPA for search-api: minReplicas: 2", "minReplicas: 10 in the ingest-gateway HPA"),
    (
        "Shared KMP module stays on kotlin 1.9.24 for the iOS toolchain.",
        "The server module is on kotlin 2.0.20.",
    ),
    ("staging Postgres: max_connections=100", "max_connections=500 on prod Postgres"),
    (
        "Regular rollouts of the api Deployment use maxSurge: 25%.",
        "For canary deploys of the api, set maxSurge: 1.",
    ),
    (
        "The docs site under docs/ needs ruby 2.7 because of the old jekyll theme.",
        "The main Rails app runs ruby 3.3.",
    ),
    (
        "SFTP_RETRY_COUNT=3 is the default for the daily partner sync.",
        "At month-end when the partner SFTP is slow, bump SFTP_RETRY_COUNT=10.",
    ),
)

SECOND_REPLACES: tuple[tuple[str, str], ...] = (
    # near-copies: only the value changes
    (
        "The repo uses python 3.10; pyenv picks it up from .python-version.",
        "The repo uses python 3.12 now; pyenv picks it up from .python-version.",
    ),
    ("CI runs on node 18.", "CI runs on node 20."),
    ("terraform 1.5 is pinned in versions.tf.", "terraform 1.7 is pinned in versions.tf."),
    ("`replicas: 2` in deploy/api.yaml.", "`replicas: 4` in deploy/api.yaml now."),
    (
        "Local dev database is postgres 14 via docker-compose.",
        "Local dev database is postgres 16 via docker-compose.",
    ),
    ("Build requires java 11.", "Build now requires java 17."),
    ("MAX_UPLOAD_MB=25 in .env.example.", "MAX_UPLOAD_MB=50 in .env.example."),
    ("go 1.21 in go.mod.", "go 1.22 in go.mod."),
    ("pool size 10 for api", "pool size 20 for api"),
    ("Tests run with --parallel=4.", "Tests run with --parallel=8 now."),
    (
        "server.tomcat.threads.max=200 in application.properties.",
        "server.tomcat.threads.max=400 in application.properties.",
    ),
    ("ruby 3.1 per .ruby-version.", "ruby 3.3 per .ruby-version."),
    (
        "Project uses pnpm 7 (see packageManager in package.json).",
        "Project uses pnpm 9 (see packageManager in package.json).",
    ),
    # reworded, same scope or scope not repeated
    ("The frontend is on react 17.", "We're on react 18 after the upgrade PR merged."),
    ("kubectl 1.27 is what the deploy scripts expect.", "Deploy scripts were updated for kubectl 1.29."),
    ("Use rust 1.70 as the MSRV.", "MSRV bumped: rust 1.75."),
    (
        "`timeoutSeconds: 30` on the readiness probe.",
        "Readiness probe has timeoutSeconds: 10 after the latest chart change.",
    ),
    ("Gradle wrapper is gradle 7.6.", "gradlew now downloads gradle 8.5."),
    ("Docker base image pins alpine 3.17.", "Bumped to alpine 3.19 in the Dockerfile."),
    ("LOG_LEVEL=debug is set in the compose file.", "Compose file sets LOG_LEVEL=info these days."),
    (
        "eslint 8 with the legacy .eslintrc config.",
        "Migrated to eslint 9 with flat config (eslint.config.js).",
    ),
    ("Cache TTL is 300 seconds (CACHE_TTL=300).", "CACHE_TTL=900 now."),
    ("php 8.1 on the app servers.", "App servers run php 8.3."),
    ("spring boot 2.7 is the parent POM version.", "Parent POM moved to spring boot 3.2."),
    ("`max_connections = 100` in postgresql.conf.", "postgresql.conf has max_connections = 250."),
    ("dotnet 6 SDK required to build the solution.", "Solution builds with the dotnet 8 SDK."),
    # newer adds a reason, follow-up step or warning
    (
        "python 3.11 in the Dockerfile.",
        "python 3.12 in the Dockerfile now; rebuild your venv or the distutils imports break.",
    ),
    (
        "node 16 is used by the Lambda functions.",
        "Lambda functions use node 20 now because AWS deprecated the older runtime.",
    ),
    (
        "`retries: 3` in the GitHub Actions test job.",
        "`retries: 5` in the GitHub Actions test job; flaky network calls kept failing with fewer.",
    ),
    (
        "hashicorp/aws 4.67 in .terraform.lock.hcl.",
        "hashicorp/aws 5.31 in .terraform.lock.hcl now; run `terraform init -upgrade` after pulling.",
    ),
    ("WORKER_CONCURRENCY=4", "WORKER_CONCURRENCY=8 now; watch memory, the pods were close to OOM."),
    (
        "Main database is mysql 5.7.",
        "Main database upgraded to mysql 8.0; utf8mb4 is the default charset, so check collations in new migrations.",
    ),
    (
        "typescript 4.9 in devDependencies.",
        "typescript 5.4 in devDependencies; run `pnpm tsc --noEmit` since decorator typing changed.",
    ),
    (
        "`spring.datasource.hikari.maximum-pool-size=10`",
        "spring.datasource.hikari.maximum-pool-size=30 after the connection-timeout incidents; don't go higher, the DB caps connections.",
    ),
    ("redis 6 in the compose stack.", "redis 7 in the compose stack, needed for the new functions API."),
    (
        "--max-old-space-size=2048 for the webpack build.",
        "--max-old-space-size=4096 for the webpack build, it was OOMing on the full bundle.",
    ),
    (
        "Django 4.1 per requirements.txt.",
        "Django 4.2 per requirements.txt (LTS); run `manage.py migrate` after updating.",
    ),
    (
        "kotlin 1.8 in build.gradle.kts.",
        "kotlin 1.9 in build.gradle.kts; kapt warnings are expected until we switch to KSP.",
    ),
    (
        "Request timeout is 30s (HTTP_TIMEOUT=30).",
        "HTTP_TIMEOUT=60 now because the payments provider is slow; also raised nginx proxy_read_timeout to match.",
    ),
    (
        "elixir 1.14 with OTP 25.",
        "elixir 1.16 with OTP 26 now; delete _build after switching or compilation fails.",
    ),
)

SECOND_BOTH_TRUE: tuple[tuple[str, str], ...] = (
    # scope as grammatical subject
    ("The worker image uses python 3.9.", "The api image uses python 3.12."),
    ("The admin dashboard is on react 17.", "The customer storefront is on react 18."),
    ("The billing service runs java 11.", "The search service runs java 21."),
    ("The legacy reporting DB is postgres 11.", "The primary app DB is postgres 16."),
    ("The infra/prod workspace pins terraform 1.5.", "The infra/sandbox workspace pins terraform 1.7."),
    ("The ingest consumer has WORKER_CONCURRENCY=2.", "The thumbnail consumer has WORKER_CONCURRENCY=16."),
    ("services/auth/go.mod declares go 1.20.", "services/gateway/go.mod declares go 1.22."),
    (
        "The `api` deployment has replicas: 6.",
        "The `scheduler` deployment has replicas: 1 (it must stay a singleton).",
    ),
    (
        "The mobile package (packages/mobile) uses typescript 4.9.",
        "The web package (packages/web) uses typescript 5.4.",
    ),
    ("The e2e job uses node 18 because Cypress pins it.", "The lint job uses node 22."),
    (
        "Unit tests run with --parallel=8.",
        "Integration tests run with --parallel=1 since they share one database.",
    ),
    ("The Rails monolith is on ruby 2.7.", "The new notifications service is on ruby 3.3."),
    ("The payments queue has visibilityTimeout: 300.", "The email queue has visibilityTimeout: 30."),
    # scope after the value
    ("LOG_LEVEL=debug in staging.", "LOG_LEVEL=warn in production."),
    ("Use kubectl 1.27 for the on-prem cluster.", "Use kubectl 1.29 for the EKS cluster."),
    ("max_connections = 500 on the primary.", "max_connections = 100 on the read replicas."),
    (
        "Set `spark.executor.memory=8g` for the nightly job.",
        "Set `spark.executor.memory=2g` for the hourly incremental job.",
    ),
    (
        "Images build on alpine 3.19 for amd64.",
        "Images build on alpine 3.18 for arm64 until the musl fix lands.",
    ),
    ("CACHE_TTL=60 for the pricing endpoint.", "CACHE_TTL=86400 for static catalog pages."),
    ("rate limit 100 req/min for free-tier tenants", "rate limit 5000 req/min for enterprise tenants"),
    ("timeoutSeconds: 5 on the liveness probe.", "timeoutSeconds: 30 on the startup probe."),
    ("python 3.8 on the CentOS 7 build agents.", "python 3.11 on the Ubuntu runners."),
    (
        "`server.tomcat.threads.max=50` in the internal-admin profile.",
        "`server.tomcat.threads.max=400` in the public-api profile.",
    ),
    (
        "BATCH_SIZE=1000 during off-peak hours (00:00-06:00 UTC).",
        "BATCH_SIZE=100 during business hours so the DB isn't saturated.",
    ),
    ("dotnet 6 for the release/2023 branch.", "dotnet 8 on main."),
    ("helm 3.10 in the air-gapped environment.", "helm 3.14 in the cloud CI pipeline."),
    # only one lesson states its scope; the other is a default/general value
    ("The default pool size is 10.", "For the reporting service set pool size to 40."),
    ("Set HTTP_TIMEOUT=30.", "For the PDF export endpoint set HTTP_TIMEOUT=120."),
    ("Everything in the monorepo builds with node 20.", "The legacy widgets package still needs node 14."),
    ("java 17 is the default toolchain.", "The android module compiles with java 11."),
    ("replicas: 2 is the chart default.", "Checkout runs replicas: 8 during the Black Friday window."),
    ("MAX_RETRIES=3", "For the webhook dispatcher MAX_RETRIES=10, receivers are flaky."),
    (
        "Most services use spring boot 3.2.",
        "The ledger service is stuck on spring boot 2.7 until the Hibernate migration is done.",
    ),
    ("Builds use --max-old-space-size=4096.", "The storybook build needs --max-old-space-size=8192."),
    (
        "Default memory limit is resources.limits.memory: 512Mi.",
        "The ml-inference container sets resources.limits.memory: 8Gi.",
    ),
    (
        "Services use go 1.22 by default.",
        "The lambda in tools/exporter is go 1.20 because of the provided.al2 runtime.",
    ),
    ("Use pnpm 8.", "The docs site under docs/ uses pnpm 9 with its own lockfile."),
    (
        "postgres 15 is the standard for new databases.",
        "The analytics warehouse for tenant acme runs postgres 13; don't upgrade it without their sign-off.",
    ),
    ("The deploy-prod job uses `retries: 0` so failures page someone.", "Everything else uses `retries: 2`."),
    ("Windows runners need python 3.10 for the pywin32 wheels.", "python 3.12 is the default for CI."),
)

THIRD_REPLACES = (
    (
        "The backend runs on Python 3.10; see .python-version.",
        "Bumped .python-version to 3.12, so the backend is on Python 3.12 now.",
    ),
    ("Go toolchain is pinned to 1.21 in go.mod.", "go.mod now declares go 1.22 after the toolchain bump."),
    (
        "Build uses JDK 17 via the Gradle toolchain block.",
        "Gradle toolchain moved to JDK 21; JDK 17 is no longer used anywhere in the build.",
    ),
    (
        "`cargo build` needs Rust 1.74 (rust-version in Cargo.toml).",
        "rust-version raised to 1.79 in Cargo.toml because the new tokio release requires it.",
    ),
    ("Ruby 3.1.4 per .ruby-version.", "We're on Ruby 3.3.0 now."),
    (
        ".NET projects target net6.0.",
        "All csproj files were retargeted to net8.0 since net6.0 went out of support.",
    ),
    (
        "PHP 8.1 is required by the composer.json platform config.",
        "composer.json platform php is 8.3 now, bumped so we can use readonly classes.",
    ),
    (
        "The api Deployment runs with replicas: 3 in k8s/api/deployment.yaml.",
        "Raised replicas for the api Deployment to 5 in k8s/api/deployment.yaml after the load test.",
    ),
    ("Terraform required_version is ~> 1.5.", "required_version bumped to ~> 1.7 in versions.tf."),
    (
        "GitHub Actions workflows use actions/checkout@v3.",
        "All workflows were moved to actions/checkout@v4 (node16 deprecation warnings).",
    ),
    (
        "Local dev database is Postgres 14 (docker-compose.yml).",
        "docker-compose.yml now pulls postgres:16, so the local dev DB is Postgres 16.",
    ),
    ("Cache layer is Redis 6.2.", "Redis was upgraded to 7.2 last sprint."),
    (
        "RabbitMQ consumers use prefetch_count=10.",
        "prefetch_count changed to 50 -- throughput was too low at 10.",
    ),
    (
        "Kafka consumer config: max.poll.records=500.",
        "max.poll.records is 200 now to avoid rebalance timeouts on slow batches.",
    ),
    ("Frontend build requires Node 16 (.nvmrc).", ".nvmrc says 20 now."),
    (
        "TypeScript is 4.9 across the monorepo.",
        "Monorepo upgraded to TypeScript 5.4; fix any new strictness errors instead of pinning back.",
    ),
    (
        "In production, SESSION_TTL=3600.",
        "Production SESSION_TTL was changed to 7200 per the security review.",
    ),
    (
        "pytest runs with --maxfail=1 in CI.",
        "The CI pytest invocation now uses --maxfail=5 so one run surfaces more failures.",
    ),
    (
        "FEATURE_NEW_CHECKOUT=false by default.",
        "FEATURE_NEW_CHECKOUT defaults to true now that the rollout is finished.",
    ),
    ("Django 4.1 in requirements.txt.", "requirements.txt pins Django==4.2 (LTS) now."),
    (
        "Spring Boot version is 2.7.x.",
        "Migrated to Spring Boot 3.2; javax imports were replaced with jakarta.",
    ),
    ("The dashboard uses React 17.", "Dashboard was upgraded to React 18 -- src/index.tsx uses createRoot."),
    ("CI pins golangci-lint v1.54.", "golangci-lint bumped to v1.59 in .github/workflows/lint.yml."),
    (
        "Helm values: resources.limits.memory: 512Mi for the worker.",
        "Worker memory limit is 1Gi now in values.yaml after repeated OOMKills.",
    ),
    ("SQLAlchemy engine uses pool_size: 5.", "pool_size raised to 20 in db/session.py."),
    ("App is on Rails 7.0.", "Rails 7.1 upgrade merged."),
    (
        "The fetcher's HTTP client timeout is 30s (`--timeout=30s`).",
        "The `--timeout` default for the fetcher changed to 10s in cmd/fetcher/main.go.",
    ),
    (
        "The search cluster runs Elasticsearch 7.17.",
        "The search cluster is on Elasticsearch 8.13 after the migration.",
    ),
    ("Backend framework: Laravel 9.", "Laravel 11 now, we skipped 10."),
    ("Use pnpm 7 (packageManager field in package.json).", "packageManager field is set to pnpm@9.1.0."),
    (
        "Dockerfile base image is alpine:3.17.",
        "Base image in the Dockerfile moved to alpine:3.19 for the openssl CVE fix.",
    ),
    ("Celery worker_concurrency: 8.", "worker_concurrency dropped to 4 due to memory pressure on the nodes."),
    (
        "The test job in .gitlab-ci.yml uses image: python:3.9.",
        "Test job in .gitlab-ci.yml switched to image: python:3.11.",
    ),
    ("MongoDB Node driver is 4.x.", "Bumped the mongodb driver to 5.1."),
    ("Staging EKS cluster runs Kubernetes 1.27.", "Staging EKS was upgraded to Kubernetes 1.29 last week."),
    ("CloudWatch log retention: 14 days.", "Log retention set to 30 days in terraform/logging.tf."),
    ("Crate uses edition = '2018'.", "Switched to edition = '2021' in all Cargo.toml files."),
    ("Jest coverageThreshold global lines: 70.", "Coverage threshold for lines was raised to 85."),
    ("nginx client_max_body_size 10m.", "client_max_body_size is 50m now to allow video uploads."),
    (
        "`UseInMemoryDatabase: true` in appsettings.Development.json.",
        "appsettings.Development.json now has UseInMemoryDatabase: false; dev uses the local SQL Server container.",
    ),
)
THIRD_BOTH_TRUE = (
    ("The auth service is built with Go 1.21.", "The billing service is built with Go 1.22."),
    ("Python 3.11 is the project runtime.", "For the legacy ETL scripts, Python 3.8 is still required."),
    (
        "Run tests with `pytest -n 4`.",
        "Use `pytest -n 1` for the integration suite because it shares a single database.",
    ),
    ("packages/legacy-admin builds with Node 14.", "Everything else in the monorepo uses Node 20."),
    ("DB_POOL_SIZE=50 in production.", "DB_POOL_SIZE=5 in staging."),
    ("The main branch targets Java 21.", "The release/2.x branch still compiles with Java 11."),
    ("On Linux CI runners, use clang 17.", "macOS runners build with Xcode's clang 15."),
    (
        "amd64 images are based on debian:bookworm.",
        "The arm64 image uses debian:bullseye because of a libvips build issue.",
    ),
    (
        "During business hours the autoscaler keeps minReplicas: 6.",
        "Overnight (22:00-06:00 UTC) minReplicas is 2.",
    ),
    (
        "The payments queue has a visibility timeout of 300 seconds.",
        "The email queue uses a 30 second visibility timeout.",
    ),
    (
        "Request timeout defaults to 15s.",
        "The /reports/export endpoint overrides the request timeout to 120s.",
    ),
    (
        "Redis maxmemory-policy is allkeys-lru.",
        "The sessions Redis instance uses maxmemory-policy noeviction so logins aren't dropped.",
    ),
    ("Gemfile uses Ruby 3.2.", "The docs site under docs/ has its own Gemfile with Ruby 2.7 for Jekyll."),
    (
        "The API project targets net8.0.",
        "Shared.Contracts targets netstandard2.0 so the old WinForms client can reference it.",
    ),
    (
        "PHP 8.3 runs the web app.",
        "The cron container still runs PHP 8.1 until the legacy importer is rewritten.",
    ),
    ("AWS provider ~> 5.0 in the root module.", "modules/legacy-vpc pins the AWS provider to ~> 4.67."),
    ("CI tests against Python 3.12.", "The nightly compatibility job also tests Python 3.9."),
    ("The web Deployment requests cpu: 500m.", "The worker Deployment requests cpu: 2."),
    ("Primary database is Postgres 15.", "The analytics replica the data team manages runs Postgres 13."),
    ("Kafka topic orders has 12 partitions.", "The audit-log topic has 3 partitions."),
    ("LOG_LEVEL=warn", "When running the migration scripts locally, set LOG_LEVEL=debug."),
    (
        "Build with stable Rust 1.78.",
        "The fuzz targets need nightly Rust (nightly-2024-05-01) for cargo-fuzz.",
    ),
    (
        "TypeScript target is ES2022.",
        "For the browser extension bundle, the tsconfig target is ES2019 because of old Firefox ESR.",
    ),
    ("GOMAXPROCS=4 on the ingest pods.", "GOMAXPROCS=16 on the batch compaction pods."),
    (
        "Celery concurrency is 16 for the default queue.",
        "The pdf-render queue runs with concurrency 2 since each task uses a lot of memory.",
    ),
    ("ENABLE_CACHE=true", "In the e2e test environment, ENABLE_CACHE=false to keep results deterministic."),
    ("-Xmx4g for the search indexer JVM.", "-Xmx1g for the admin UI JVM."),
    (
        "docker-compose.yml uses mysql:8.0.",
        "docker-compose.test.yml uses mysql:5.7 to mirror the customer on-prem install.",
    ),
    ("Jest testTimeout is 5000.", "Integration tests in tests/integration set testTimeout to 30000."),
    ("Android app module uses compileSdk 34.", "The Wear OS module uses compileSdk 33."),
    ("Public API rate limit: 100 req/min per key.", "Partner keys get 1000 req/min."),
    ("core.autocrlf=input on Linux/macOS dev machines.", "Windows devs should set core.autocrlf=true."),
    (
        "CI on main runs the build with `--parallel=8`.",
        "PR builds run with --parallel=2 to save runner minutes.",
    ),
    ("Nightly database backups use a retention of 7 days.", "Month-end backups are kept for 365 days."),
    (
        "NODE_OPTIONS=--max-old-space-size=2048 for the API.",
        "The Next.js build step needs NODE_OPTIONS=--max-old-space-size=6144.",
    ),
    ("number_of_replicas: 1 for the products index.", "The logs-* indices use number_of_replicas: 0."),
    ("During the Black Friday freeze, HPA maxReplicas is 40.", "maxReplicas: 12 the rest of the year."),
    ("nginx worker_connections 1024", "The edge proxy's nginx config sets worker_connections 4096."),
    (
        "Sidekiq runs with 10 threads.",
        "The Sidekiq process for the imports queue runs with 3 threads (-c 3).",
    ),
    (
        "Workflows run on ubuntu-22.04.",
        "The release workflow uses ubuntu-20.04 because the packaging step needs glibc 2.31.",
    ),
)


def _decided(pairs: tuple[tuple[str, str], ...], replaces: bool) -> tuple[int, int]:
    """(decided right, read as another version or value) of ``(old, new)`` pairs."""
    read = right = 0
    for old, new in pairs:
        older, newer = lesson(old), lesson(new)
        if not versions_or_values_differ(newer, older):
            continue
        read += 1
        right += supersedes(newer, older) == replaces
    return right, read


def evaluate() -> dict[str, tuple[int, int]]:
    """``{set: (decided right, read as another version or value)}`` for each of the six sets."""
    return {
        "first replaces": _decided(FIRST_REPLACES, True),
        "first both true": _decided(FIRST_BOTH_TRUE, False),
        "second replaces": _decided(SECOND_REPLACES, True),
        "second both true": _decided(SECOND_BOTH_TRUE, False),
        "third replaces": _decided(THIRD_REPLACES, True),
        "third both true": _decided(THIRD_BOTH_TRUE, False),
    }


if __name__ == "__main__":
    for name, (right, read) in evaluate().items():
        print(f"{name}: {right} of {read} decided right (pairs read as another version or value)")
