#!/usr/bin/env bash
# Installs the reference ASMX runtime the tests run against: Mono's
# System.Web.Services hosted by fastcgi-mono-server4 behind nginx, and Mono's
# wsdl and mcs, which make a real .NET client (Debian packages). Idempotent:
# installed packages are left alone.
set -euo pipefail

debs=(mono-devel mono-fastcgi-server4 nginx-light)
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
echo "mono: $(dpkg-query -W -f='${Package} ${Version}  ' "${debs[@]}")"
