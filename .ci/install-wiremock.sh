#!/usr/bin/env bash
# Installs WireMock standalone (the npm package wiremock, from the lock file)
# for cmd/atmkit/internal/bench's TestWireMock, which runs atmkit bench --wiremock.
# WireMock needs Java: the machine's JRE (openjdk-17) is used; installed
# from Debian only when no java is on PATH. Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v java >/dev/null; then
  echo "installing default-jre-headless"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq default-jre-headless >/dev/null
fi

cd cmd/atmkit/internal/bench/testdata/wiremock
if [ ! -d node_modules/wiremock ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error
fi
echo "wiremock: $(ls node_modules/wiremock/build/) on $(java -version 2>&1 | head -1)"
