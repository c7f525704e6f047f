#!/usr/bin/env bash
# Installs actionlint v1.7.12 (go install, into $(go env GOPATH)/bin) for
# TestDocsGitHubActions (cmd/atmkit), which checks the docs' GitHub Actions
# recipes against GitHub's workflow schema: no runner here can run them. An
# actionlint of that version already on PATH or in GOPATH/bin is left alone.
set -euo pipefail

want=1.7.12
PATH="$(go env GOPATH)/bin:$PATH"
if command -v actionlint >/dev/null && [ "$(actionlint -version 2>/dev/null | head -n 1)" = "v$want" ]; then
  echo "actionlint: $want already installed"
  exit 0
fi
echo "installing actionlint v$want (go install)"
go install "github.com/rhysd/actionlint/cmd/actionlint@v$want"
echo "actionlint: $(actionlint -version | head -n 1)"
