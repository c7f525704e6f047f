#!/usr/bin/env bash
# Installs staticcheck v0.8.2 (go install, into $(go env GOPATH)/bin) for
# .ci/run's lint step, which catches what go vet does not: unused code,
# deprecated calls, values assigned and never read. A staticcheck of that
# version already on PATH or in GOPATH/bin is left alone. No test needs it.
set -euo pipefail

want=0.8.2
PATH="$(go env GOPATH)/bin:$PATH"
if command -v staticcheck >/dev/null && staticcheck --version 2>/dev/null | grep -q "($want)\$"; then
  echo "staticcheck: $want already installed"
  exit 0
fi
echo "installing staticcheck v$want (go install)"
go install "honnef.co/go/tools/cmd/staticcheck@v$want"
echo "staticcheck: $(staticcheck --version)"
