#!/usr/bin/env bash
# Installs the real clients the mockserver tests drive: Python zeep and
# headless Chromium (Debian packages) and node-soap (npm, from the lock file).
# Idempotent: installed packages are left alone.
set -euo pipefail
cd "$(dirname "$0")/.."

debs=(python3-zeep chromium chromium-driver)
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

cd mockserver/testdata/clients
if [ ! -d node_modules/soap ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error
fi
echo "clients: $(dpkg-query -W -f='${Package} ${Version}  ' "${debs[@]}")node-soap $(node -p 'require("soap/package.json").version')"
