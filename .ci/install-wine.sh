#!/usr/bin/env bash
# Installs what TestWindowsBinaryUnderWine (cmd/atmkit) needs to run the
# windows/amd64 binary as Windows users run it: Wine (wine: the wine and
# wineserver commands; wine64: the 64-bit loader, no i386 multiarch needed)
# and mingw-w64's C compiler, which builds the test's ProcessPrng shim for
# Wine 8 (Debian packages). Idempotent.
set -euo pipefail

. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/debs.sh"
install_debs wine wine wine64 gcc-mingw-w64-x86-64
