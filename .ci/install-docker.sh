#!/usr/bin/env bash
# Installs what the image tests need: Docker (Debian's docker.io, with
# docker-compose, and make) and the Testcontainers snippets of docs/ci.md
# (npm ci in docs/ci/node; the Go module docs/ci/go's modules, which its
# test reads offline). cmd/atmkit's TestImage builds the image with
# `make image` and runs it and the snippets. Nothing starts the daemon here
# (no systemd): .ci/dockerd.sh does. Idempotent.
set -euo pipefail
. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/debs.sh"
cd "$(dirname "$0")/.."

install_debs docker docker.io docker-compose make

(cd docs/ci/node
  if [ ! -d node_modules/testcontainers ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    npm ci --no-audit --no-fund --loglevel=error
  fi)
(cd docs/ci/go && go mod download)
echo "testcontainers: node $(node -p 'require("./docs/ci/node/node_modules/testcontainers/package.json").version'), go $(cd docs/ci/go && go list -m -f '{{.Version}}' github.com/testcontainers/testcontainers-go)"
