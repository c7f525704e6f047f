#!/usr/bin/env bash
# Installs what the image tests need: Docker (Debian's docker.io, with
# docker-compose, and make) and the Testcontainers snippets of docs/ci.md
# (npm ci in docs/ci/node; the Go module docs/ci/go's modules, which its
# test reads offline). cmd/atmkit's TestImage builds the image with
# `make image` and runs it and the snippets. Nothing starts the daemon here
# (no systemd): .ci/dockerd.sh does. Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."

debs=(docker.io docker-compose make)
missing=()
for p in "${debs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
fi
echo "docker: $(dpkg-query -W -f='${Package} ${Version}  ' "${debs[@]}")"

(cd docs/ci/node
  if [ ! -d node_modules/testcontainers ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    npm ci --no-audit --no-fund --loglevel=error
  fi)
(cd docs/ci/go && go mod download)
echo "testcontainers: node $(node -p 'require("./docs/ci/node/node_modules/testcontainers/package.json").version'), go $(cd docs/ci/go && go list -m -f '{{.Version}}' github.com/testcontainers/testcontainers-go)"
