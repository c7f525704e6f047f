#!/usr/bin/env bash
# Installs the real clients the mockserver tests drive: Python zeep, PHP's
# SoapClient, JAX-WS RI's wsimport and runtime, and headless Chromium (Debian
# packages) and node-soap (npm, from the lock file). The JAX-WS client is
# compiled with the machine's JDK (openjdk-17); a JDK is installed from
# Debian only when no javac is on PATH.
# Idempotent: installed packages are left alone.
set -euo pipefail
. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/debs.sh"
cd "$(dirname "$0")/.."

jdk=()
command -v javac >/dev/null || jdk=(default-jdk-headless)
install_debs clients python3-zeep php-cli php-soap jaxws libjaxws-java "${jdk[@]}" chromium chromium-driver

cd mockserver/testdata/clients
if [ ! -d node_modules/soap ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error
fi
echo "clients: node-soap $(node -p 'require("soap/package.json").version')"
