#!/usr/bin/env bash
# Installs GoReleaser v2.15.1 (go install, into $(go env GOPATH)/bin) for
# .ci/run's release steps: goreleaser check and the snapshot build. It takes
# minutes, so it is installed once: a goreleaser of that version already on
# PATH or in GOPATH/bin is left alone. No test needs it.
set -euo pipefail

want=v2.15.1
PATH="$(go env GOPATH)/bin:$PATH"
if command -v goreleaser >/dev/null && goreleaser --version 2>/dev/null | grep -q "GitVersion: *$want\$"; then
  echo "goreleaser: $want already installed"
  exit 0
fi
echo "installing goreleaser $want (go install; a few minutes)"
go install "github.com/goreleaser/goreleaser/v2@$want"
echo "goreleaser: $(goreleaser --version 2>/dev/null | grep GitVersion)"
