#!/usr/bin/env bash
# Installs Docker (Debian's docker.io, with docker-compose) for the image
# tests: cmd/atmkit's TestImage builds the image with `make image` and runs
# it; the Node Testcontainers and compose snippets of docs/ci.md run against
# it. Nothing starts the daemon here (no systemd): .ci/dockerd.sh does.
# Idempotent: installed packages are left alone.
set -euo pipefail

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
