package main

import (
	"context"
	"runtime/debug"

	"github.com/atmkit/atmkit/cmd/atmkit/internal/buildinfo"
	"github.com/atmkit/atmkit/cmd/atmkit/internal/cli"
)

// Build stamps, set at build time by the Makefile and GoReleaser:
//
//	-ldflags "-X main.version=v1.2.3 -X main.commit=<full hash> -X main.date=<RFC 3339>"
//
// They are needed because a build with -buildvcs=false (and every
// go install …@version) carries no commit in its build information.
var (
	version = "" // the release tag, or what git describe says of the commit
	commit  = "" // the commit's full hash
	date    = "" // the commit's time (RFC 3339), not the build's: builds are reproducible
)

func (m *Main) runVersion(ctx context.Context, args []string) error {
	fs := cli.NewFlagSet("version", "version", helpText("version"), m.Stderr)
	if err := m.ParseNoArgs(fs, args); err != nil {
		return err
	}
	bi, _ := debug.ReadBuildInfo()
	buildinfo.Describe(version, commit, date, bi).Write(m.Stdout)
	return nil
}
