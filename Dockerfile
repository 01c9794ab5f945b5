# syntax=docker/dockerfile:1
#
# Osmia operator image.
#
#   docker build -t osmia:0.1.0 .
#   docker run --rm --read-only --tmpfs /tmp -v osmia-data:/data \
#     -v "$PWD/osmia-config.yaml:/etc/osmia/osmia-config.yaml:ro" osmia:0.1.0
#
# Two stages on the same slim Python base: `build` makes a virtualenv in
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
