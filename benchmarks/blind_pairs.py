# ruff: noqa: E501  (hand-written data: one lesson per line reads better than wrapped strings)
"""Three sets of paraphrase groups written blind in the thirty-second session, to measure the lesson
matcher on text its rules were not shaped on.

Written like :mod:`benchmarks.lesson_pairs` (groups of phrasings of one lesson per cluster; pairs
inside a group are **same**, pairs across groups of a cluster and the hand-written hard negatives
are **different**), by the session that then changed the rules, without looking at the rules while
writing. The first two sets' misses shaped that session's rules (short forms, synonyms, a version
moved from, a quantity given with more, ports), so they are no longer held out; the third was
measured once before and once after and shaped nothing.

    .venv/bin/python -m benchmarks.blind_pairs
"""

from __future__ import annotations

import itertools

from osmia.memory.lessons import lesson, same_lesson

SETS: dict[str, tuple[dict[str, list[list[str]]], list[tuple[str, str]]]] = {}

SETS["set 1"] = (
    {
 "ruby": [
  ["Run `bundle exec rake db:test:prepare` before the specs, the test schema is not migrated automatically",
   "The specs fail on a stale test database unless you run bundle exec rake db:test:prepare first",
   "db:test:prepare has to run before rspec, otherwise the test schema lags behind the migrations"],
  ["RuboCop enforces frozen_string_literal comments; add `# frozen_string_literal: true` to new files",
   "New Ruby files need the frozen_string_literal magic comment or rubocop fails",
   "rubocop rejects files without `# frozen_string_literal: true` at the top"],
  ["Sidekiq jobs are run inline in tests via Sidekiq::Testing.inline!, do not start Redis",
   "Tests use Sidekiq::Testing.inline! so no Redis server is needed",
   "No need for a Redis instance in the test suite: Sidekiq runs jobs inline there"],
  ["The asset pipeline needs `yarn install` before `rails assets:precompile`",
   "rails assets:precompile fails unless yarn install has been run first",
   "Run yarn install first; precompiling assets depends on node_modules"],
 ],
 "k8s": [
  ["The staging cluster's ingress only accepts hosts ending in .staging.internal",
   "Ingress hosts on staging must use the .staging.internal suffix or they are rejected",
   "Use a *.staging.internal hostname for ingresses in staging; other hosts get dropped"],
  ["Helm upgrades time out because the migration hook takes 8 minutes; pass --timeout 15m",
   "The pre-upgrade migration job is slow, so helm upgrade needs --timeout 15m",
   "Increase helm's timeout to 15m for upgrades: the migration hook runs for about 8 minutes"],
  ["Pods are OOMKilled at the 256Mi limit during startup; the JVM needs 512Mi",
   "Raise the memory limit to 512Mi, the JVM gets OOMKilled at 256Mi while starting",
   "256Mi is too little for the service to boot (OOMKilled); set the limit to 512Mi"],
  ["kubectl rollout restart is needed after changing the ConfigMap, pods do not reload it",
   "Changing the ConfigMap has no effect until the deployment is restarted with kubectl rollout restart",
   "The app reads its ConfigMap only at startup, so restart the rollout after editing it"],
 ],
 "frontend": [
  ["Storybook snapshots must be updated with `npm run test -- -u` after UI changes",
   "After changing a component, refresh the storybook snapshots with npm run test -- -u",
   "UI changes break the snapshot tests until you update them (`npm run test -- -u`)"],
  ["The dev server proxies /api to localhost:8080; start the backend first",
   "Start the backend on port 8080 before the dev server, it proxies /api there",
   "Requests to /api fail in dev unless the backend is running on localhost:8080"],
  ["i18n keys must exist in en.json before other locales, the build checks it",
   "Add every new translation key to en.json first; the build fails on keys missing from it",
   "The build rejects translation keys that are not in en.json"],
  ["Vite needs environment variables prefixed with VITE_ to expose them to the client",
   "Only VITE_-prefixed env vars reach the browser bundle",
   "Client code cannot read env vars unless their name starts with VITE_"],
 ],
 "data": [
  ["dbt models must be run with `--full-refresh` after changing an incremental model's schema",
   "Changing the columns of an incremental dbt model requires a --full-refresh run",
   "Incremental models keep the old schema until you run dbt with --full-refresh"],
  ["The Airflow DAG folder is synced every 5 minutes; a new DAG will not appear immediately",
   "New DAGs show up in Airflow only after the 5-minute git sync",
   "Wait for the five-minute DAG sync before expecting a new DAG in the Airflow UI"],
  ["Spark jobs need `spark.sql.shuffle.partitions=400` on the big tables or they spill to disk",
   "Set spark.sql.shuffle.partitions to 400 for the large tables, the default 200 spills",
   "With the default shuffle partitions the job spills on big tables; use 400"],
  ["Queries against the warehouse must filter on the partition column event_date or they scan everything",
   "Always add an event_date filter: without it the warehouse query does a full scan",
   "Missing the event_date partition filter makes warehouse queries scan the whole table"],
 ],
},
    [
 ("Helm upgrades need --timeout 15m because of the migration hook", "Helm upgrades need --atomic so a failed release rolls back"),
 ("Pods are OOMKilled at 256Mi; set the limit to 512Mi", "Pods are CPU throttled at 250m; set the request to 500m"),
 ("Vite needs env vars prefixed with VITE_", "Next.js needs env vars prefixed with NEXT_PUBLIC_"),
 ("Run yarn install before rails assets:precompile", "Run bundle install before rails db:migrate"),
 ("dbt needs --full-refresh after a schema change of an incremental model", "dbt needs --select to run a single model"),
 ("Spark needs spark.sql.shuffle.partitions=400 on big tables", "Spark needs spark.executor.memory=8g on big tables"),
],
)  # fmt: skip

SETS["set 2"] = (
    {
 "ios": [
  ["Run `pod install` after pulling, the Podfile.lock changes often",
   "CocoaPods must be reinstalled with pod install whenever Podfile.lock changed upstream",
   "Pull brings Podfile.lock updates; run pod install before building"],
  ["The simulator tests need Xcode 15; the CI image still has 14 installed, so select 15 with xcode-select",
   "CI defaults to Xcode 14, switch to Xcode 15 via xcode-select before running the simulator tests",
   "Simulator tests fail on Xcode 14: use xcode-select to pick Xcode 15 in CI"],
  ["SwiftLint fails the build on force unwraps; use guard let instead",
   "Force unwrapping is a SwiftLint error here, replace it with guard let",
   "Avoid `!` force unwraps, swiftlint treats them as errors; prefer guard let"],
 ],
 "android": [
  ["Gradle needs JAVA_HOME pointing to JDK 17 or the Android build fails with an unsupported class version",
   "Set JAVA_HOME to a JDK 17 install, older JDKs break the Android Gradle build",
   "The Android build only works with JDK 17 as JAVA_HOME"],
  ["Instrumented tests require an emulator running API 33",
   "Start an API 33 emulator before running the instrumented tests",
   "connectedAndroidTest needs an emulator with API level 33 up"],
  ["ProGuard strips the Retrofit models; keep rules live in proguard-rules.pro",
   "Release builds crash because ProGuard removes the Retrofit model classes unless proguard-rules.pro keeps them",
   "Add keep rules for the Retrofit models to proguard-rules.pro, otherwise minification strips them"],
 ],
 "infra": [
  ["terraform plan needs AWS_PROFILE=infra-admin; the default profile lacks IAM permissions",
   "Export AWS_PROFILE=infra-admin before terraform plan, the default profile cannot read IAM",
   "The default AWS profile has no IAM rights, so terraform plan fails unless AWS_PROFILE is infra-admin"],
  ["Ansible runs need `--ask-vault-pass`, the group_vars are encrypted",
   "group_vars are vault-encrypted; pass --ask-vault-pass to ansible-playbook",
   "ansible-playbook fails to decrypt group_vars unless run with --ask-vault-pass"],
  ["The RDS instance takes about 20 minutes to create, so the first apply looks stuck",
   "First terraform apply seems to hang: creating the RDS instance takes twenty minutes",
   "Creating the database instance is slow (~20 min), the initial apply is not stuck"],
 ],
 "ci": [
  ["GitHub Actions caches are keyed on package-lock.json; changing it invalidates the npm cache",
   "Any change to package-lock.json busts the npm cache in the Actions workflow",
   "The workflow's npm cache key is the hash of package-lock.json, so editing the lockfile means a cold cache"],
  ["The e2e job is flaky on the first run after a deploy; rerun it once before investigating",
   "Right after a deploy the e2e job often fails once, a single rerun usually passes",
   "Expect one flaky e2e failure after deploys; retry before digging in"],
  ["Merges to main require two approvals and a green build",
   "main is protected: two reviews plus passing CI are needed to merge",
   "You cannot merge into main without 2 approving reviews and a passing build"],
 ],
 "observability": [
  ["Alerts for the checkout service page only after 5 minutes above threshold, short spikes are ignored",
   "Short spikes do not page: the checkout alert waits five minutes over the threshold",
   "The checkout alert has a 5m for-duration, so brief spikes never page anyone"],
  ["Logs older than 7 days are only in the cold archive; query them through Athena",
   "Use Athena for logs past the 7-day retention, they move to cold storage",
   "After a week logs leave Loki and live in the archive, searchable with Athena"],
 ],
},
    [
 ("Gradle needs JAVA_HOME pointing to JDK 17", "Gradle needs JAVA_HOME pointing to JDK 11 for the legacy module"),
 ("Run pod install after pulling", "Run pod update only when bumping a dependency"),
 ("Merges to main require two approvals", "Merges to release branches require one approval"),
 ("Logs older than 7 days are in the cold archive", "Metrics older than 30 days are downsampled"),
 ("terraform plan needs AWS_PROFILE=infra-admin", "terraform apply needs AWS_PROFILE=prod-deployer in production"),
 ("The e2e job is flaky after a deploy; rerun it once", "The unit job is flaky on Windows; rerun it once"),
],
)  # fmt: skip

SETS["set 3"] = (
    {
 "node": [
  ["Jest runs out of memory on the full suite; use --runInBand with --logHeapUsage to find the leak",
   "The full Jest suite OOMs, run it with --runInBand and --logHeapUsage to track the leak",
   "Memory blows up when Jest runs everything in parallel; --runInBand plus --logHeapUsage shows the leaking test"],
  ["pnpm install fails without the private registry token in .npmrc",
   "Add the registry token to .npmrc or pnpm install cannot fetch the private packages",
   "Private packages need the token in .npmrc before pnpm install works"],
  ["ts-node is too slow for the scripts, use tsx instead",
   "Scripts start much faster with tsx than with ts-node",
   "Replace ts-node with tsx for scripts, startup drops from seconds to milliseconds"],
  ["The API server reads PORT from the environment and defaults to 3000",
   "If PORT is not set the server listens on 3000",
   "Server port comes from the PORT env var, falling back to 3000"],
 ],
 "python": [
  ["Alembic autogenerate misses enum changes; write those migrations by hand",
   "Changes to Postgres enums are not detected by alembic autogenerate, edit the migration manually",
   "Hand-write the migration when an enum changes, autogenerate does not pick it up"],
  ["Celery workers must be restarted after changing task code, they do not reload",
   "Task code changes only take effect after restarting the Celery workers",
   "Restart celery after editing tasks; workers keep the old code loaded"],
  ["pytest-xdist breaks the tests that share the sqlite file; mark them with @pytest.mark.serial",
   "Tests using the shared sqlite database fail under xdist unless marked serial",
   "Run the shared-sqlite tests serially (pytest.mark.serial), parallel workers corrupt the file"],
  ["Black and isort disagree on import order unless isort uses the black profile",
   "Set isort's profile to black, otherwise the two formatters fight over imports",
   "isort needs profile=black or it undoes black's import formatting"],
 ],
 "ops": [
  ["Disk on the build agents fills up with docker images; prune them weekly",
   "Build agents run out of disk because of old Docker images, a weekly docker image prune fixes it",
   "Schedule a weekly image prune on the agents, stale images eat the disk"],
  ["The VPN drops idle SSH sessions after 10 minutes; set ServerAliveInterval 60",
   "Idle ssh connections die after ten minutes behind the VPN unless ServerAliveInterval is 60",
   "Use ServerAliveInterval 60 in ssh config, the VPN kills idle sessions at 10 min"],
  ["Certificates are renewed by cert-manager 30 days before expiry; do not renew them manually",
   "cert-manager handles renewal thirty days ahead of expiry, manual renewal is unnecessary",
   "Leave certificate renewal to cert-manager, it renews a month before they expire"],
 ],
},
    [
 ("pnpm install fails without the registry token in .npmrc", "pnpm install fails without Node 20 installed"),
 ("The API server defaults to port 3000", "The admin server defaults to port 4000"),
 ("Restart celery workers after changing task code", "Restart gunicorn workers after changing settings"),
 ("Prune docker images weekly on the build agents", "Prune docker volumes daily on the database hosts"),
 ("Jest runs out of memory on the full suite; use --runInBand", "Jest is slow on the full suite; use --shard"),
 ("Alembic autogenerate misses enum changes", "Alembic autogenerate misses server default changes"),
],
)  # fmt: skip


def evaluate() -> dict[str, dict[str, float]]:
    """Recall and precision of ``same_lesson`` (both orders) on each set."""
    result = {}
    for name, (clusters, hard) in SETS.items():
        same: list[tuple[str, str]] = []
        different = list(hard)
        for groups in clusters.values():
            for group in groups:
                same += itertools.combinations(group, 2)
            for g1, g2 in itertools.combinations(groups, 2):
                different += [(g1[0], g2[-1]), (g1[-1], g2[0])]

        def decide(a: str, b: str) -> bool:
            return same_lesson(lesson(a), lesson(b))

        found = sum(decide(a, b) for a, b in same)
        wrong = sum(decide(a, b) for a, b in different)
        result[name] = {
            "same": len(same),
            "different": len(different),
            "recall": found / len(same),
            "precision": found / max(1, found + wrong),
        }
    return result


if __name__ == "__main__":  # pragma: no cover
    for name, figures in evaluate().items():
        print(
            f"{name}: recall {figures['recall']:.3f} of {figures['same']:.0f} same pairs, "
            f"precision {figures['precision']:.3f} ({figures['different']:.0f} different pairs)"
        )
