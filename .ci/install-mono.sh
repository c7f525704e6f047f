#!/usr/bin/env bash
# Installs the reference ASMX runtime the tests run against: Mono's
# System.Web.Services hosted by fastcgi-mono-server4 behind nginx, and Mono's
# wsdl and mcs, which make a real .NET client (Debian packages). Idempotent:
# installed packages are left alone.
set -euo pipefail

. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/debs.sh"
install_debs mono mono-devel mono-fastcgi-server4 nginx-light
