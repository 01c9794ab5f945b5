# syntax=docker/dockerfile:1
#
# Osmia operator image.
#
#   docker build -t osmia:0.1.0 .                              # the operator
#   docker build --target runner -t osmia-runner:0.1.0 .       # the agent runner (job mode)
#   docker run --rm --read-only --tmpfs /tmp -v osmia-data:/data \
#     -v "$PWD/osmia-config.yaml:/etc/osmia/osmia-config.yaml:ro" osmia:0.1.0
#
# The operator: two stages on the same slim Python base (the runner image's
# stages sit between them; see below): `build` makes a virtualenv in
# /opt/osmia from the pinned runtime lock (requirements-runtime.lock, the
# runtime subset of requirements.lock, pins identical; tests/test_dockerfile.py
# checks both) plus Osmia's own wheel; `runtime` copies only that virtualenv.
#
# The container runs as uid/gid 65532 and works with a read-only root
# filesystem: it writes only the memory database folder (/data, a volume) and
# /tmp (an emptyDir or tmpfs). Bytecode is compiled at build time and never
# written at run time (PYTHONDONTWRITEBYTECODE).

# Pin the base by digest for a reproducible build (docs/security.md, "Supply chain"):
#   docker build --build-arg PYTHON_IMAGE=python:3.11-slim-bookworm@sha256:<digest> .
ARG PYTHON_IMAGE=python:3.11-slim-bookworm
# Only for the runner image's Node engines (same Debian release as PYTHON_IMAGE).
ARG NODE_IMAGE=node:22.23.3-bookworm-slim

# ---------------------------------------------------------------------------
FROM ${PYTHON_IMAGE} AS build

# Build tools, pinned; they stay in this stage: setuptools builds Osmia's own
# wheel (pyproject.toml: setuptools>=68), cyclonedx-bom writes the SBOM.
ARG SETUPTOOLS_VERSION=80.9.0
ARG CYCLONEDX_BOM_VERSION=7.5.0

ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_ROOT_USER_ACTION=ignore \
    PYTHONDONTWRITEBYTECODE=1

WORKDIR /src

# The virtualenv gets no pip of its own: the base image's pip installs into it.
RUN python -m venv --without-pip /opt/osmia \
 && python -m pip install "setuptools==${SETUPTOOLS_VERSION}" "cyclonedx-bom==${CYCLONEDX_BOM_VERSION}"

# Dependencies first (cached until the lock changes), exactly as pinned, no resolver,
# and every file checked against the lock's sha256 hashes.
COPY requirements-runtime.lock ./
RUN python -m pip --python /opt/osmia/bin/python install \
      --no-deps --only-binary=:all: --require-virtualenv --require-hashes \
      -r requirements-runtime.lock

# Then Osmia itself, without dependencies (they are all in the lock).
COPY pyproject.toml README* ./
COPY osmia ./osmia
RUN python -m pip wheel --no-deps --no-build-isolation --wheel-dir /wheels . \
 && python -m pip --python /opt/osmia/bin/python install --no-deps --require-virtualenv /wheels/osmia-*.whl \
 && python -m pip --python /opt/osmia/bin/python check \
 && /opt/osmia/bin/python -m compileall -q /opt/osmia/lib \
 && /opt/osmia/bin/osmia --help >/dev/null \
 && install -d /opt/osmia/share/sbom \
 && cyclonedx-py environment --output-format JSON --output-file /opt/osmia/share/sbom/osmia.cdx.json \
      /opt/osmia/bin/python

# ---------------------------------------------------------------------------
# The agent runner image (`docker build --target runner -t osmia-runner:0.1.0 .`):
# `osmia agent` plus git and the engines' CLIs at pinned versions, for the
# `engines.<name>.image` of job mode (docs/engines.md). Three stages before
# the operator's `runtime` (which stays the default, last target):
#   runner-npm   the Node engines (npm, exact versions) on the Node image of
#                the same Debian release as the Python base (bookworm);
#   runner-aider Aider in its own virtualenv (its pins never meet Osmia's);
#   runner       python slim + git + node + both, running as uid 65532 with a
#                read-only root: it writes only /workspace and /tmp (emptyDirs).
# The runner needs no third-party Python package: Osmia's wheel goes in
# without dependencies (tests/agent/test_layer.py keeps it that way).
FROM ${NODE_IMAGE} AS runner-npm

ARG CLAUDE_CODE_VERSION=2.1.332
ARG CODEX_VERSION=0.171.0
ARG GEMINI_CLI_VERSION=0.61.0
ARG OPENCODE_VERSION=1.18.33

ENV NPM_CONFIG_UPDATE_NOTIFIER=false NPM_CONFIG_FUND=false NPM_CONFIG_AUDIT=false

RUN npm install --global --prefix /opt/engines --omit=dev \
      "@anthropic-ai/claude-code@${CLAUDE_CODE_VERSION}" \
      "@openai/codex@${CODEX_VERSION}" \
      "@google/gemini-cli@${GEMINI_CLI_VERSION}" \
      "opencode-ai@${OPENCODE_VERSION}" \
 && npm cache clean --force \
 && PATH=/opt/engines/bin:$PATH claude --version && codex --version && gemini --version && opencode --version

# ---------------------------------------------------------------------------
FROM ${PYTHON_IMAGE} AS runner-aider

ARG AIDER_VERSION=0.86.2

ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_ROOT_USER_ACTION=ignore

RUN python -m venv /opt/aider \
 && /opt/aider/bin/pip install "aider-chat==${AIDER_VERSION}" \
 && /opt/aider/bin/python -m compileall -q /opt/aider/lib \
 && /opt/aider/bin/aider --version

# ---------------------------------------------------------------------------
FROM build AS runner-build

# The runner's own virtualenv: Osmia's wheel only (the agent uses the standard library).
RUN python -m venv --without-pip /opt/osmia-agent \
 && python -m pip --python /opt/osmia-agent/bin/python install --no-deps --require-virtualenv /wheels/osmia-*.whl \
 && /opt/osmia-agent/bin/python -m compileall -q /opt/osmia-agent/lib \
 && /opt/osmia-agent/bin/osmia-agent --help >/dev/null

# ---------------------------------------------------------------------------
FROM ${PYTHON_IMAGE} AS runner

ARG PYTHON_IMAGE
ARG VERSION=0.1.0
ARG REVISION=unknown
ARG CREATED=unknown
ARG SOURCE=https://github.com/osmia-dev/osmia

LABEL org.opencontainers.image.title="osmia-runner" \
      org.opencontainers.image.description="Osmia agent runner: runs one coding-agent engine per Job and reports a measured result" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.created="${CREATED}" \
      org.opencontainers.image.source="${SOURCE}" \
      org.opencontainers.image.licenses="Apache-2.0" \
      org.opencontainers.image.base.name="${PYTHON_IMAGE}"

# git (clone, diff, push), certificates, ssh for git@ remotes; nothing else. Debian
# bookworm versions, pinned (bump them with the base image).
ARG GIT_DEB_VERSION=1:2.39.5-0+deb12u3
ARG CA_CERTIFICATES_DEB_VERSION=20250419~deb12u2
ARG OPENSSH_CLIENT_DEB_VERSION=1:9.2p1-2+deb12u10
RUN apt-get update \
 && apt-get install -y --no-install-recommends \
      "git=${GIT_DEB_VERSION}" \
      "ca-certificates=${CA_CERTIFICATES_DEB_VERSION}" \
      "openssh-client=${OPENSSH_CLIENT_DEB_VERSION}" \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 65532 osmia \
 && useradd --system --uid 65532 --gid 65532 --home-dir /tmp --no-create-home --shell /usr/sbin/nologin osmia \
 && install -d -o 65532 -g 65532 -m 0750 /workspace

COPY --from=runner-npm /usr/local/bin/node /usr/local/bin/node
COPY --from=runner-npm /opt/engines /opt/engines
COPY --from=runner-aider /opt/aider /opt/aider
COPY --from=runner-build /opt/osmia-agent /opt/osmia-agent

# aider is linked, not its virtualenv put on PATH: its python must not shadow the runner's.
RUN ln -s /opt/aider/bin/aider /usr/local/bin/aider

ENV PATH=/opt/osmia-agent/bin:/opt/engines/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    HOME=/tmp \
    TMPDIR=/tmp \
    OSMIA_WORKSPACE=/workspace \
    DISABLE_AUTOUPDATER=1

WORKDIR /workspace
USER 65532:65532

ENTRYPOINT ["osmia-agent"]

# ---------------------------------------------------------------------------
FROM ${PYTHON_IMAGE} AS runtime

ARG PYTHON_IMAGE
ARG VERSION=0.1.0
ARG REVISION=unknown
ARG CREATED=unknown
ARG SOURCE=https://github.com/osmia-dev/osmia

LABEL org.opencontainers.image.title="osmia" \
      org.opencontainers.image.description="Kubernetes operator that gives AI coding agents an episodic memory" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.created="${CREATED}" \
      org.opencontainers.image.source="${SOURCE}" \
      org.opencontainers.image.licenses="Apache-2.0" \
      org.opencontainers.image.base.name="${PYTHON_IMAGE}"

# A fixed non-root user (the "nonroot" uid of distroless images) and the only
# writable places: /data for the SQLite database, /tmp for scratch.
# No package installer at run time: the base image's pip, setuptools and wheel go
# (the virtualenv never had them), so nothing can be installed into a running container.
RUN python -m pip uninstall --yes --no-input pip setuptools wheel \
 && rm -rf /usr/local/lib/python3.11/ensurepip /usr/local/bin/pip* /root/.cache \
 && groupadd --system --gid 65532 osmia \
 && useradd --system --uid 65532 --gid 65532 --home-dir /tmp --no-create-home --shell /usr/sbin/nologin osmia \
 && install -d -o 65532 -g 65532 -m 0750 /data \
 && install -d -m 0755 /etc/osmia

# The virtualenv, and the CycloneDX SBOM of exactly what is in it (/opt/osmia/share/sbom/).
COPY --from=build /opt/osmia /opt/osmia

ENV PATH=/opt/osmia/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    HOME=/tmp \
    TMPDIR=/tmp

WORKDIR /data
VOLUME ["/data"]
USER 65532:65532

# 9090: Prometheus /metrics (operator.metrics_port); 8080: kopf liveness /healthz (operator.liveness_port).
EXPOSE 9090 8080

ENTRYPOINT ["osmia", "run"]
CMD ["--config", "/etc/osmia/osmia-config.yaml"]
