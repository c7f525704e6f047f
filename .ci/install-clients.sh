#!/usr/bin/env bash
# Installs the real clients the mockserver tests drive: Python zeep, PHP's
# SoapClient and headless Chromium (Debian packages) and node-soap (npm, from
# the lock file).
# Idempotent: installed packages are left alone.
set -euo pipefail
. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/debs.sh"
cd "$(dirname "$0")/.."

install_debs clients python3-zeep php-cli php-soap chromium chromium-driver

cd mockserver/testdata/clients
if [ ! -d node_modules/soap ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error
fi
echo "clients: node-soap $(node -p 'require("soap/package.json").version')"
